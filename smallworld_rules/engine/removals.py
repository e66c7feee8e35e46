"""Removals: pieces back to their supply, emptied regions, a race leaving the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import Log
from smallworld_rules.events import RACE_REMOVED
from smallworld_rules.language import markers, piles
from smallworld_rules.language import tokens as tokens_of
from smallworld_rules.state import State, without

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def _remove_pieces(
    self: Engine, s: State, r: int, keep_survivors: bool, everything: bool = False
) -> dict[str, int]:
    """Pieces of ``r`` go back to their supply (those that survive decline stay, if
    ``keep_survivors``, and those that stay with their region unless ``everything``); return
    those their holder keeps when they are lost, by name."""
    pieces = s.pieces.get(r)
    if not pieces:
        return {}
    kept: dict[str, int] = {}
    left: dict[str, int] = {}  # the table is replaced, not changed (copy on write)
    for name, count in pieces.items():
        piece = self.rules.pieces[name]
        if (keep_survivors and piece.survives_decline) or (piece.stays and not everything):
            left[name] = count
            continue
        s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] + count}
        if piece.kept_when_lost:
            kept[name] = count
    s.set_pieces(r, left)
    return kept


def _empty_region(self: Engine, s: State, r: int) -> None:
    s.occupy(r, None, 0)
    self._remove_pieces(s, r, keep_survivors=False)


def _retire(self: Engine, s: State, race: str, log: Log) -> None:
    """Rule 1.13: the race's last tokens leave; its banner goes under the race stack."""
    if self._collectors:  # its pile of lost tokens goes back to the boxes
        piles.empty(self, s, race)
    if self._staying:  # its pieces that stay with their regions leave with it
        markers.leave(self, s, race, in_decline=False)
    rs = s.races.pop(race)
    for r in self.regions_of(s, race):
        s.to_box(race, s.region_tokens[r])
        self._empty_region(s, r)
    s.to_box(race, rs.hand + rs.held)
    if self._own_tokens:
        tokens_of.give_back(s, race)
    player = s.own_player(rs.owner)
    if player.active == race:
        player.active = None
    if race in player.declined:
        player.declined = without(player.declined, race)
    if race in s.withdrawals:
        s.withdrawals = without(s.withdrawals, race)
    if rs.power is not None:
        s.power_discard = (*s.power_discard, rs.power)
    s.race_stack = (*s.race_stack, race)
    log((RACE_REMOVED, rs.owner, race))
    self._refill_market(s)
