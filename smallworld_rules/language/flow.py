"""Constructs of the rule language about the turn's flow: a race with no redeployment
(flag ``no_redeployment``), a race that redeploys before it declines (flag
``redeploys_before_decline``).

A race with no redeployment ends its conquests as they stand: nothing is taken back into
hand, no token is placed, and the tokens left in hand are held off the map until its next
turn (``Engine._hold`` holds them all back, as it holds conquest-only tokens). A withdrawal
after losing a region still places its survivors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import Action
from smallworld_rules.engine.basics import _DECLINE, _END_TURN, _REDEPLOY, DIE_REACH, Log
from smallworld_rules.language import memory
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import _Occupied
    from smallworld_rules.engine.context import _Combo
    from smallworld_rules.engine.core import Engine


def unredeployed_actions(
    self: Engine, s: State, rs: RaceState, combo: _Combo, occupied: _Occupied
) -> list[Action]:
    """The legal actions of a race with no redeployment (flag ``no_redeployment``): its
    conquests, abandons and abilities, never a Deploy; the turn may end at any time, the
    tokens in hand then wait off the map."""
    race, own, hand = rs.race, occupied[0], rs.hand
    acts: list[Action] = []
    may_decline = False
    if s.phase is not _REDEPLOY:
        may_decline = self._may_decline(s)
        if may_decline:
            acts.append(_DECLINE)
        if self._may_abandon(s):
            acts.extend([self._abandons[r] for r in own])
        if hand >= 1:
            die = s.die_bonus < 0 and "no_final_die" not in combo.flags and (
                not self._floors or hand >= combo.floor
            )
            costs = self.conquest_costs(s, race, self._reach(s, race, combo, occupied))
            s.reach_costs = (self, race, costs)
            for r, cost in costs.items():
                if cost <= hand:
                    acts.append(self._conquers[r])
                elif die and cost - hand <= DIE_REACH:
                    acts.append(self._die_conquers[r])
    if combo.abilities:
        acts += self._ability_actions(s, rs, s.phase)
    acts.append(_END_TURN)
    if not may_decline and self._may_decline_at_end(s, rs):
        acts.append(_DECLINE)
    return acts


def redeploy_before_decline(self: Engine, s: State, race: str, log: Log) -> None:
    """``Decline`` in place of expanding, for a race that redeploys first: its readied troops
    stay in hand and it redeploys them (phase redeploy); ``EndTurn`` then declines it and
    scores the turn (:func:`decline_after_redeploy`)."""
    if s.acting is not None and s.acting != race:
        # A race acting in decline before it (acts_in_decline): its troops go back.
        acting = s.own_race(s.acting)
        for r, taken in s.readied:
            s.region_tokens[r] += taken
            acting.hand -= taken
        s.readied = ()
        self._begin_cycle(s, race, log)
    rs = s.own_race(race)
    s.acted = True
    memory.put(s, "declining", race)
    self._enter_redeploy(s, rs, log)


def decline_after_redeploy(self: Engine, s: State, rs: RaceState, log: Log) -> None:
    """The redeployment before the decline is over: the race goes into decline and the turn
    is scored, as a decline turn is."""
    memory.put(s, "declining", None)
    self._go_into_decline(s, rs, log)
    self._score_and_advance(s, log)
