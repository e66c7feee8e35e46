"""The reinforcement die: a final conquest attempt, or a roll an ability makes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules import rng
from smallworld_rules.actions import ConquerWithDie, RollDie
from smallworld_rules.engine.basics import _CONQUEST, _DIE_ROLL, DIE_FACES, DIE_REACH, Log
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import DIE_ROLLED
from smallworld_rules.language import die_conquest, events, flow, hidden_pieces, memory
from smallworld_rules.state import ABILITY_ROLL, EFFECT_ROLL, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def _conquer_with_die(self: Engine, s: State, action: ConquerWithDie, log: Log) -> None:
    rs, cost = self._attempt(s, action)
    r = action.region
    if self.has_flag(s, rs.race, "no_final_die") or s.die_bonus >= 0:
        raise IllegalAction("your race makes no final die attempt (it rolls otherwise)", action)
    if cost <= rs.hand:
        raise IllegalAction(
            f"you have the {cost} tokens region {r} costs: conquer it without the die", action
        )
    if self.second_rounds and flow.in_first_round(self, s, rs.race):
        raise IllegalAction(
            "the final die attempt belongs to your second round of conquests: end the first "
            "with EndTurn",
            action,
        )
    keep = self._keep(s, rs.race)
    if rs.hand < keep:
        raise IllegalAction(
            f"your race holds at least {keep} tokens in a region: with {rs.hand} in hand it "
            "makes no die attempt",
            action,
        )
    if cost - rs.hand > DIE_REACH:
        raise IllegalAction(
            f"region {r} costs {cost}: with {rs.hand} in hand you are more than "
            f"{DIE_REACH} short (ruling 5)",
            action,
        )
    s.acted = True
    # the cost _attempt found is the roll's unless the roll's memory (die) may change it
    self._roll_die(s, r, log, -1 if self.keeps_die else cost)


def _roll_die(self: Engine, s: State, target: int, log: Log, cost: int = -1) -> None:
    """Roll now, or make the roll a chance node (``target``: a region or ABILITY_ROLL;
    ``cost``: the region's conquest cost, if the caller has it and the roll cannot change
    it, else -1)."""
    s.die_target = target
    if self.explicit_chance:
        s.phase = _DIE_ROLL
        return
    s.rng, k = rng.randbelow(s.rng, len(DIE_FACES))
    self._resolve_die(s, DIE_FACES[k], log, cost)


def _roll(self: Engine, s: State, action: RollDie, log: Log) -> None:
    self._need_phase(s, action, _DIE_ROLL)
    if s.lang and hidden_pieces.pending(s):
        raise IllegalAction("a face-down piece is being drawn: answer with DrawPiece", action)
    if action.face not in DIE_FACES:
        raise IllegalAction(f"the die has no face {action.face}", action)
    self._resolve_die(s, action.face, log)


def _resolve_die(self: Engine, s: State, face: int, log: Log, cost: int = -1) -> None:
    """Ruling 5: conquer with every token in hand if hand + die ≥ cost; conquests end.
    A roll made by an ability instead lowers the next conquest's cost (A6). ``cost``: the
    target's conquest cost, if the caller has it (else -1: worked out here)."""
    if s.die_target == EFFECT_ROLL:  # the rule language's `roll` effect
        events.resolve_roll(self, s, face, log)
        return
    assert s.acting is not None
    rs = s.own_race(s.acting)
    if self.keeps_die:
        memory.put(s, "die", face)
    r = s.die_target
    s.die_target = -1
    s.phase = _CONQUEST

    def rolled() -> None:  # the rule language's `on die_roll` triggers, once it is logged
        if "die_roll" in self.trigger_events:
            events.fire(self, s, rs, "die_roll", log)

    if r >= 0 and die_conquest.pending(s):  # `conquer with die`, not a final attempt
        die_conquest.resolve(self, s, rs, r, face, log, rolled)
        return
    if r == ABILITY_ROLL:
        s.die_bonus = face
        reach = self.reach_mask(s, rs.race)
        cheapest = min(
            self.conquest_costs(s, rs.race, reach).values(), default=None
        )
        success = cheapest is not None and cheapest <= rs.hand
        log((DIE_ROLLED, s.active, -1, face, cheapest or 0, rs.hand, success))
        rolled()
        if not success:
            self._enter_redeploy(s, rs, log)  # the attempt fails: conquests end (A6)
        return
    if cost < 0:
        cost = self.conquest_cost_value(s, rs.race, r)
    success = rs.hand + face >= cost
    log((DIE_ROLLED, s.active, r, face, cost, rs.hand, success))
    rolled()
    if success:
        self._take_region(s, rs, r, cost, rs.hand, log)
    self._enter_redeploy(s, rs, log)
