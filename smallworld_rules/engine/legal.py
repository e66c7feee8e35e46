"""The legal actions of a position, and carrying out an action (checked first)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from smallworld_rules.actions import Action, ChoosePower, PickCombo, RollDie, action_problem
from smallworld_rules.engine.basics import (
    _CONQUEST,
    _DECLINE,
    _DIE_ROLL,
    _END_TURN,
    _OVER,
    _PICK,
    _REDEPLOY,
    _WELL_FORMED,
    DIE_FACES,
    DIE_REACH,
    Log,
    _region_deploys,
    _shared,
)

# The module's functions themselves: as Engine's staticmethods, a call is not specialised
from smallworld_rules.engine.conquest import (
    KeptCosts,
    ReachCosts,
    _with_defence,
    cost_table,
)
from smallworld_rules.engine.redeploy import _held_back, _may_end_conquest, _surplus
from smallworld_rules.errors import IllegalAction
from smallworld_rules.language import events, flow, hidden_pieces, limits, memory, swaps
from smallworld_rules.state import Phase, RaceState, State

#: the shared PickCombo of each market position up to this many (the pick listing names
#: each position it lists: an index, not a _shared look-up per position)
_PICKS_KEPT = 32
_PICKS = tuple(_shared(PickCombo, i) for i in range(_PICKS_KEPT))

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import _Occupied
    from smallworld_rules.engine.context import _Combo
    from smallworld_rules.engine.core import Engine


def legal_actions(self: Engine, s: State) -> list[Action]:
    """Every legal action for whoever must act now (Deploy: 1 or all per region)."""
    phase = s.phase
    if phase is not _CONQUEST and phase is not _REDEPLOY:  # the others, tested only here
        if phase is _PICK:
            if self._swapping and memory.get(s, "swap"):
                return list(swaps.choices(self, s))
            if s.active == self.role_seat:
                return [ChoosePower(p) for p in s.role_reserve]
            coins = s.players[s.active].coins
            # here and below loops, not comprehensions that read this function's names:
            # those would be cells, dearer to read on every path of the function
            picks: list[Action] = []
            for i in range(len(s.market)):
                if (self.pick_price(s, i) if self.skip_pricing else i) <= coins:
                    picks.append(_PICKS[i] if i < _PICKS_KEPT else _shared(PickCombo, i))
            return picks or [_END_TURN]
        if phase is _DIE_ROLL:
            if s.lang and hidden_pieces.pending(s):
                return [action for action, _ in hidden_pieces.outcomes(self, s)]
            return [_shared(RollDie, face) for face in sorted(set(DIE_FACES))]
        if phase is _OVER:
            return []
        # the withdrawal phase, the last one left
        wrs = s.races[s.withdrawals[0]]
        limit = limits.cap(self, s, wrs.race) if self._capping else 0
        if limit:
            acts = limits.deploys(self, s, wrs.race, limit, wrs.hand, lifted=False)
        else:
            acts = self._deploys(self.regions_of(s, wrs.race), wrs.hand)
        acts += self._ability_actions(s, wrs, phase)
        if not wrs.hand or (limit and limits.full(self, s, wrs.race)):
            acts.append(_END_TURN)
        return acts
    assert s.acting is not None
    rs = s.races[s.acting]
    race = rs.race
    # _combo_of's look-ups, inline, with rs at hand: a role's pairing is kept with the very
    # powers tuple; a race in play's by badge, then race, read by subscripts (get() is a
    # method call each); the others (a borrower's, a first) in _combo_of
    role = race == self.role_race
    if role:
        last, combo = self._role_last
        if last is not s.role_powers or combo is None:
            combo = self._combo_of(s, race)
    else:
        try:
            combo = self._badge_combos[rs.power][race]
        except KeyError:  # not kept there (yet)
            combo = self._combo_of(s, race)
    occupied = self._by_mask.get(s.race_masks.get(race, 0))  # _occupied's look-up, inline
    if occupied is None:
        occupied = self._occupied(s, race)
    own = occupied[0]
    wanted = combo.conquest_tokens
    hold = _held_back(s, rs, wanted, own) if wanted else 0  # _hold, from what is here
    hand = rs.hand
    if self._no_redeploy and "no_redeployment" in combo.flags:
        return flow.unredeployed_actions(self, s, rs, combo, occupied)
    if self._capping:  # region_tokens max (few rule files): legal actions of their own
        limit = limits.cap(self, s, race)
        if limit:
            return _capped_actions(self, s, rs, limit, hold)
    if phase is _REDEPLOY:
        if s.lang and flow.choosing(s) == race:
            return flow.choosing_actions(self, s, rs)  # abilities during decline
        acts = []  # the deploys first
        available = hand - hold
    else:
        acts = self._purchases(s) if role else []
        # _may_decline, inline (a frame per listing): never once the turn's race has acted
        may_decline = False
        if not s.acted and not s.picked:
            decliner = s.players[s.active].active
            may_decline = decliner is not None and decliner != self.role_race
        if may_decline:
            acts.append(_DECLINE)
        if not s.conquered or self.options["abandon_mid_conquest"]:  # _may_abandon, inline
            abandons = self._abandons
            for r in own:
                acts.append(abandons[r])
        # the race's reach, once worked out: the abilities' listing shares it
        reach = _conquests(self, s, rs, combo, occupied, acts) if hand >= 1 else None
        # those that may work in the conquests (a race in decline's are its own: looked up)
        if combo.conquest_abilities or (rs.declined and combo.abilities):
            acts += self._ability_actions(s, rs, phase, reach, combo.conquest_abilities)
        if self.declined_abilities:  # abilities of its player's races in decline
            acts += flow.declined_ability_actions(self, s, phase)
        if self._floors:
            surplus = _surplus(s, own, combo.floor)
        else:  # _surplus(s, own), inline (a frame per listing): tokens beyond 1 per region
            surplus = -len(own)
            tokens = s.region_tokens
            for r in own:  # (a loop: cheaper than sum over a map of tokens.__getitem__)
                surplus += tokens[r]
        available = hand + surplus - hold
    if available >= 1:  # _deploys(own, available), inline (a frame per listing)
        single = self._single_deploys
        if available == 1:
            for r in own:
                acts.append(single[r])
        else:
            every = self._all_deploys.get(available)
            if every is None:
                every = self._all_deploys[available] = _region_deploys(self.n, available)
            for r in own:
                acts.append(single[r])
                acts.append(every[r])
    if phase is _REDEPLOY:
        if hand < hold:
            abandons = self._abandons
            for r in own:  # ruling 13: forced abandonment
                acts.append(abandons[r])
        if combo.redeploy_abilities or (rs.declined and combo.abilities):
            acts += self._ability_actions(s, rs, phase, None, combo.redeploy_abilities)
        if self.declined_abilities:  # abilities of its player's races in decline
            acts += flow.declined_ability_actions(self, s, phase)
        if hand == hold or not own or role:
            acts.append(_END_TURN)
            # _may_decline_at_end's first test, has_flag, on the pairing at hand
            if "decline_at_turn_end" in combo.flags and self._may_decline_at_end(s, rs):
                acts.append(_DECLINE)
        return acts
    # _may_end_conquest, inline
    if role or not own or hand == hold or hand < hold >= hand + surplus:
        acts.append(_END_TURN)
        # Decline at the end of the turn, unless Decline already means a decline turn.
        if (
            not may_decline
            and "decline_at_turn_end" in combo.flags  # has_flag, on the pairing at hand
            and self._may_decline_at_end(s, rs)
        ):
            acts.append(_DECLINE)
    elif self.second_rounds and flow.in_first_round(self, s, race):
        acts.append(_END_TURN)  # the end of a first round of conquests, tokens in hand or not
    return acts


def _conquests(
    self: Engine, s: State, rs: RaceState, combo: _Combo, occupied: _Occupied, acts: list[Action]
) -> int:
    """The conquests the acting race ``rs`` (with a token in hand; its pairing and regions
    given) may attempt now, Conquer or a final die attempt, added to ``acts`` in region
    order. Returns its reach. Every listing of the conquest phase has these."""
    race, hand = rs.race, rs.hand
    # A race that holds at least N tokens per region makes no die attempt with fewer.
    die = s.die_bonus < 0 and "no_final_die" not in combo.flags and (
        not self._floors or hand >= combo.floor
    ) and not (self.second_rounds and flow.in_first_round(self, s, race))
    conquers, die_conquers = self._conquers, self._die_conquers
    reach = self._reach(s, race, combo, occupied)
    # conquest_costs with a table that fixes every cost but the tokens (see cost_table)
    modifiers = (combo.declined_modifiers if rs.declined else combo.active_modifiers)[
        "conquest_cost"
    ]
    kept = self._cost_tables.get(id(modifiers))
    if kept is not None and kept[0] is modifiers and kept[1] and s.die_bonus < 0:
        if kept[2] is not s.pieces:  # the pieces' defence, added again if they changed
            kept = self._cost_tables[id(modifiers)] = _with_defence(self, kept, s.pieces)
        table, tokens = kept[3], s.region_tokens
        if kept[4]:  # the modifiers that may change (own regions read): added where they apply
            table = list(table)
            for applies, amount in self._applying(s, race, "conquest_cost", kept[4])[0]:
                for r in self.regions_in(applies & reach):
                    table[r] += amount
        top = hand + DIE_REACH if die else hand
        for r in self.regions_in(reach):
            cost = tokens[r] + table[r]
            if cost <= hand:
                acts.append(conquers[r])
            elif cost <= top:
                acts.append(die_conquers[r])
        # derived: a conquest attempt asks them. ReachCosts(), not _new(ReachCosts): a call
        # of a class with no __init__ is cheaper than object.__new__ (CPython 3.11)
        lazy = ReachCosts()
        lazy.engine = self
        lazy.race = race
        lazy.reach = reach
        lazy.table = table
        lazy.tokens = tokens
        s.reach_costs = lazy
        return reach
    costs = self.conquest_costs(s, race, reach, combo)
    if kept is None:  # after conquest_costs, which made the fixed table if there is one
        self._cost_tables[id(modifiers)] = cost_table(self, modifiers, s, race)
    full = KeptCosts()  # derived: a conquest attempt reuses them (see ReachCosts above)
    full.engine = self
    full.race = race
    full.costs = costs
    s.reach_costs = full
    for r, cost in costs.items():
        if cost <= hand:
            acts.append(conquers[r])
        elif die and cost - hand <= DIE_REACH:
            acts.append(die_conquers[r])
    return reach


def _deploys(self: Engine, regions: tuple[int, ...], available: int) -> list[Action]:
    """Deploy 1, and all ``available``, on each region."""
    if available < 1:
        return []
    single = self._single_deploys
    acts: list[Action] = []  # loops, not a comprehension: it would make `single` a cell
    if available == 1:
        for r in regions:
            acts.append(single[r])
        return acts
    every = self._all_deploys.get(available)
    if every is None:  # Deploy(r, available) of every region, made once per count
        every = self._all_deploys[available] = _region_deploys(self.n, available)
    for r in regions:
        acts.append(single[r])
        acts.append(every[r])
    return acts


#: The rule carrying out each shared, well-formed action (basics._shared: those legal_actions
#: hands out), by its ``id``, as ``Engine._handlers`` gives it for the action's type: one look-up
#: for apply in place of the check, the type and the table. Filled as the actions are applied
#: (the shared actions are kept for good, so their ids are never reused).
_HANDLER_OF_SHARED: dict[int, Callable[[Engine, State, Any, Log], None]] = {}


def apply(self: Engine, s: State, action: Action, log: Log) -> None:
    """Carry out ``action`` on ``s``; raise :class:`IllegalAction` if it is not legal.

    Every check comes before the first change, except where noted; the caller restores
    its copy of the state if anything raises.
    """
    handler = _HANDLER_OF_SHARED.get(id(action))
    if handler is None:
        if id(action) not in _WELL_FORMED:  # actions from legal_actions are known good
            problem = action_problem(action)
            if problem:
                raise IllegalAction(problem)
        if s.phase is _OVER:
            raise IllegalAction("the game is over", action)
        handler = self._handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"{type(action).__name__} is not an action of this game", action)
        if id(action) in _WELL_FORMED:
            _HANDLER_OF_SHARED[id(action)] = handler
    elif s.phase is _OVER:
        raise IllegalAction("the game is over", action)
    handler(self, s, action, log)
    if s.lang:  # triggers and abilities waiting for a roll of the die run now
        events.after_action(self, s, log)
    s.reach_costs = None  # they were those of the position before the action


def _acting_race(self: Engine, s: State, action: Action) -> RaceState:
    """The acting race, to change in place (``s.own_race``: copy on write)."""
    if s.acting is None:
        raise IllegalAction("you have no active race: pick a combo first", action)
    return s.own_race(s.acting)


def _need_phase(self: Engine, s: State, action: Action, *phases: Phase) -> None:
    if s.phase not in phases:
        wanted = " or ".join(p.value for p in phases)
        raise IllegalAction(
            f"{type(action).__name__} is played in the {wanted} phase, "
            f"not now ({s.phase.value})",
            action,
        )


def _capped_actions(self: Engine, s: State, rs: RaceState, limit: int, hold: int) -> list[Action]:
    """legal_actions for a race whose regions hold at most ``limit`` tokens once it has
    redeployed (``region_tokens max``; see smallworld_rules.language.limits)."""
    race = rs.race
    own = self.regions_of(s, race)
    if s.phase is _REDEPLOY:
        acts = limits.deploys(self, s, race, limit, rs.hand - hold, lifted=False)
        if rs.hand < hold:
            acts.extend([self._abandons[r] for r in own])  # ruling 13: forced abandonment
        acts += self._ability_actions(s, rs, s.phase)
        if rs.hand == hold or not own or limits.full(self, s, race):
            acts.append(_END_TURN)
            if self._may_decline_at_end(s, rs):
                acts.append(_DECLINE)
        return acts
    # Conquests: as for any race, with deploys that fit once the conquests end.
    combo = self._combo_of(s, race)
    acts = []
    may_decline = self._may_decline(s)
    if may_decline:
        acts.append(_DECLINE)
    if self._may_abandon(s):
        acts.extend([self._abandons[r] for r in own])
    if rs.hand >= 1:
        _conquests(self, s, rs, combo, self._occupied(s, race), acts)
    if combo.abilities:
        acts += self._ability_actions(s, rs, s.phase)
    if self.declined_abilities:  # abilities of its player's races in decline
        acts += flow.declined_ability_actions(self, s, s.phase)
    surplus = _surplus(s, own, combo.floor)
    deploys = limits.deploys(self, s, race, limit, rs.hand + surplus - hold, lifted=True)
    acts.extend(deploys)
    # End as they stand if every region is within the limit; with no room anywhere, ending
    # the conquests sets the tokens that fit nowhere aside.
    if (_may_end_conquest(rs, hold, surplus, own) and limits.within(self, s, race)) or (
        not deploys
    ):
        acts.append(_END_TURN)
    if not may_decline and self._may_decline_at_end(s, rs):
        acts.append(_DECLINE)
    return acts
