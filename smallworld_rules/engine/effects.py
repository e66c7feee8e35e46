"""What the rule language's effects do, and triggers running them on an event."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import _WITHDRAWAL, Log
from smallworld_rules.events import PIECE_MOVED, TOKENS_GAINED
from smallworld_rules.language import effects as language_effects
from smallworld_rules.language import events, hidden_pieces
from smallworld_rules.ruledefs import CompiledEffect
from smallworld_rules.state import ABILITY_ROLL, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def _fire(
    self: Engine,
    s: State,
    rs: RaceState,
    event: str,
    target: int,
    log: Log,
    other: int | None = None,
    other_race: str | None = None,
) -> None:
    """Run the race's triggers on ``event`` (see smallworld_rules.language.events)."""
    if self._none_of(rs.race, rs, self._triggering):
        return
    if event not in self._combo_of(s, rs.race).triggers:
        return
    occasion = events.Occasion(event, target, -1 if other is None else other, other_race)
    events.fire(self, s, rs, event, log, occasion)


def _gain(self: Engine, s: State, rs: RaceState, wanted: int, log: Log) -> None:
    """Ruling 40: gains come from the box and stop when it is empty."""
    tokens = max(0, min(wanted, s.box[rs.race]))
    if tokens:
        s.to_box(rs.race, -tokens)
        rs.hand += tokens
        log((TOKENS_GAINED, rs.owner, rs.race, tokens))


def _do_effect(
    self: Engine, s: State, rs: RaceState, effect: CompiledEffect, target: int, log: Log
) -> None:
    verb = effect.verb
    if verb in ("place", "move"):
        assert effect.piece is not None
        name = effect.piece
        source = -1
        if not s.piece_supply[name]:  # move: lift it from where it lies
            source = min(r for r, p in s.pieces.items() if p.get(name) and r != target)
            self._take_piece(s, source, name)
        else:
            s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] - 1}
        if s.regained.get(name) and s.phase is _WITHDRAWAL:
            s.regained = {**s.regained, name: s.regained[name] - 1}
        held = dict(s.pieces.get(target, {}))  # replaced, not changed (copy on write)
        held[name] = held.get(name, 0) + 1
        s.set_pieces(target, held)
        log((PIECE_MOVED, name, target, source))
    elif verb == "conquer":
        cost = self._amount(s, rs, effect, target)
        if self._floors:  # region_tokens min: it holds no region with fewer
            cost = max(cost, self._keep(s, rs.race))
        self._take_region(s, rs, target, cost, cost, log)
    elif verb == "convert":
        # a face-down piece there is turned over before a token is taken
        if self._hiding and s.pieces.get(target) and hidden_pieces.reveal(
            self, s, rs, target, log
        ):
            return
        s.to_box(rs.race, -1)
        rs.hand += 1
        # Ruling 21: the replaced token is lost whatever the defender's losses say.
        lost = s.region_tokens[target]
        to_box = not self.options["converted_token_is_lost"]
        self._seize(s, rs, target, lost, 1, 0, log, to_box=to_box)
    elif verb == "roll_die":
        self._roll_die(s, ABILITY_ROLL, log)
    elif verb == "truce":
        s.truces = (*(t for t in s.truces if t[0] != rs.owner), (rs.owner, target))
    elif verb == "gain":
        self._gain(s, rs, self._amount(s, rs, effect, target), log)
    elif verb in language_effects.EFFECTS:
        occasion = events.Occasion("ability", target)
        language_effects.EFFECTS[verb].do(self, s, rs, effect, occasion, log)


def _take_piece(self: Engine, s: State, r: int, name: str) -> None:
    """Lift one piece off region ``r`` (to be put down elsewhere at once)."""
    held = dict(s.pieces[r])  # replaced, not changed (copy on write)
    held[name] -= 1
    if not held[name]:
        del held[name]
    s.set_pieces(r, held)
