"""Withdrawals: defenders place the tokens they kept, clockwise from the active player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import _WITHDRAWAL, Log
from smallworld_rules.language import limits
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def _start_withdrawals(self: Engine, s: State, log: Log) -> None:
    """Ruling 8: defenders place their survivors clockwise from the active player."""
    players = self.players
    if len(s.withdrawals) > 1:
        s.withdrawals = tuple(sorted(
            s.withdrawals, key=lambda race: ((s.races[race].owner - s.active) % players, race)
        ))
    self._next_withdrawal(s, log)


def _withdraws(self: Engine, s: State, rs: RaceState) -> bool:
    """Whether a defender has something to place: tokens, or pieces it places again."""
    if rs.race not in s.region_race:
        return False
    if rs.hand and self._capping and limits.full(self, s, rs.race):
        return bool(self._ability_actions(s, rs, _WITHDRAWAL))  # no room: nothing to place
    return bool(rs.hand) or bool(self._ability_actions(s, rs, _WITHDRAWAL))


def _withdrawal_progress(self: Engine, s: State, log: Log) -> None:
    rs = s.races[s.withdrawals[0]]
    if not rs.hand and not self._withdraws(s, rs):
        s.withdrawals = s.withdrawals[1:]
        self._next_withdrawal(s, log)


def _next_withdrawal(self: Engine, s: State, log: Log) -> None:
    while s.withdrawals:
        race = s.withdrawals[0]
        rs = s.races[race]
        s.phase = _WITHDRAWAL
        if self._withdraws(s, rs):
            return
        s.withdrawals = s.withdrawals[1:]
        if rs.hand and self._capping and limits.full(self, s, race):
            limits.set_aside(s.own_race(race), rs.hand)  # no room: off the map till its turn
            rs = s.races[race]
        if rs.hand and rs.declined:
            self._retire(s, race, log)
        # ruling 9: an active race with no region keeps its tokens and re-enters later
    self._score_and_advance(s, log)
