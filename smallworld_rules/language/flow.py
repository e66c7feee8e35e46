"""Constructs of the rule language about the turn's flow: a race with no redeployment
(flag ``no_redeployment``), a race that redeploys before it declines (flag
``redeploys_before_decline``), abilities used as a race declines (``during decline``), the
regions a race may not conquer again in the turn it abandoned them (flag
``no_return_to_abandoned``), two rounds of conquests in a turn (flag
``second_conquest_round``).

A race with no redeployment ends its conquests as they stand: nothing is taken back into
hand, no token is placed, and the tokens left in hand are held off the map until its next
turn (``Engine._hold`` holds them all back, as it holds conquest-only tokens). A withdrawal
after losing a region still places its survivors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import Action, UseAbility
from smallworld_rules.engine.basics import _DECLINE, _END_TURN, _REDEPLOY, Log
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import RACE_ACTS
from smallworld_rules.language import memory
from smallworld_rules.ruledefs import CompiledAbility
from smallworld_rules.state import Phase, RaceState, State

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
    acts: list[Action] = []
    may_decline = False
    if s.phase is not _REDEPLOY:
        may_decline = self._may_decline(s)
        if may_decline:
            acts.append(_DECLINE)
        if self._may_abandon(s):
            acts.extend([self._abandons[r] for r in occupied[0]])
        if rs.hand >= 1:
            self._conquests(s, rs, combo, occupied, acts)
    if combo.abilities:
        acts += self._ability_actions(s, rs, s.phase)
    if self.declined_abilities:
        acts += declined_ability_actions(self, s, s.phase)
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
    if self.decline_choices and offer_decline_choices(self, s, rs.race):
        return
    self._score_and_advance(s, log)


def ends_turn(self: Engine, s: State, rs: RaceState, action: Action, log: Log) -> bool:
    """EndTurn in a redeployment of this module's: the decline after a redeployment before
    it, or the scoring after the choices of a decline (refused while one is left). Returns
    whether it handled the end of the turn."""
    if memory.get(s, "declining") == rs.race:
        decline_after_redeploy(self, s, rs, log)
        return True
    if choosing(s) == rs.race:
        left = self._ability_actions(s, rs, s.phase)
        if left:
            names = sorted({a.name for a in left if isinstance(a, UseAbility)})
            raise IllegalAction(
                f"as your race declines, use {', '.join(names)} first", action
            )
        memory.put(s, "choosing", None)
        s.acting = None
        self._score_and_advance(s, log)
        return True
    return False


def choosing(s: State) -> str | None:
    """The race whose abilities during decline are being offered, if any."""
    race: str | None = memory.get(s, "choosing")
    return race


def decline_abilities(self: Engine, s: State, race: str) -> tuple[CompiledAbility, ...]:
    """The abilities of a declined race: those that work in decline (``while declined``,
    ``always``), and those used during decline while it declines."""
    out = self._combo_of(s, race).declined_abilities if self.declined_abilities else ()
    if not self.decline_choices or choosing(s) != race:
        return out
    return out + tuple(
        a for d in self.defs(s, race) for a in d.abilities
        if "decline" in a.phases and a not in out
    )


def declined_ability_actions(self: Engine, s: State, phase: Phase) -> list[Action]:
    """The abilities the active player's races in decline may use now (in its turn, while
    its active race acts)."""
    acts: list[Action] = []
    for race in s.players[s.active].declined:
        if race in s.races and race != s.acting:
            acts += self._ability_actions(s, s.races[race], phase)
    return acts


def declined_user(self: Engine, s: State, name: str) -> RaceState | None:
    """The active player's race in decline with an ability of that name, if any."""
    for race in s.players[s.active].declined:
        if race in s.races and any(a.name == name for a in self.abilities(s, race)):
            return s.own_race(race)
    return None


def offer_decline_choices(self: Engine, s: State, race: str) -> bool:
    """Right after ``race`` declined in place of expanding: if an ability of it may be used
    during decline, the race acts once more (phase redeploy) to use them; returns whether
    it does."""
    if race not in s.races:
        return False  # it left the game as it declined
    memory.put(s, "choosing", race)
    rs = s.own_race(race)
    if not self._ability_actions(s, rs, _REDEPLOY):
        memory.put(s, "choosing", None)
        return False
    s.acting = race
    s.phase = _REDEPLOY
    return True


def choosing_actions(self: Engine, s: State, rs: RaceState) -> list[Action]:
    """The legal actions while a race declines: its abilities during decline, and EndTurn
    once none may be used any more."""
    return self._ability_actions(s, rs, _REDEPLOY) or [_END_TURN]


def abandoned(s: State, race: str) -> int:
    """The regions ``race`` abandoned this turn and may not conquer again (a bitmask)."""
    if not s.lang:
        return 0
    return int(memory.get(s, "abandoned", {}).get(race, 0))


def remember_abandoned(s: State, race: str, region: int) -> None:
    """``race`` abandoned ``region``: it may not conquer it again this turn."""
    kept = memory.get(s, "abandoned", {})
    memory.put(s, "abandoned", {**kept, race: kept.get(race, 0) | 1 << region})


def in_first_round(self: Engine, s: State, race: str) -> bool:
    """Whether ``race`` conquers in two rounds and is in the first of this turn."""
    return (
        self.has_flag(s, race, "second_conquest_round")
        and memory.get(s, "second_round") != race
        and not s.decline_at_end
    )


def start_second_round(self: Engine, s: State, rs: RaceState, log: Log) -> None:
    """EndTurn in the first round: every token but one per region (or the race's
    ``region_tokens min``) goes back into hand, and the race conquers again; the turn's
    conquests so far still count as this turn's (:class:`RaceActs` gives the tokens)."""
    keep = self._keep(s, rs.race)
    lifted = 0
    for r in self.regions_of(s, rs.race):
        extra = s.region_tokens[r] - keep
        if extra > 0:
            s.region_tokens[r] = keep
            lifted += extra
    rs.hand += lifted
    s.die_bonus = -1
    memory.put(s, "second_round", rs.race)
    log((RACE_ACTS, s.active, rs.race, lifted))
