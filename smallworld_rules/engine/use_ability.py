"""Abilities: a race's or power's actions (UseAbility), their targets, limits and checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import Action, UseAbility
from smallworld_rules.dsl.vocabulary import TAKES_TARGET
from smallworld_rules.engine.basics import (
    _CONQUEST,
    _PHASE_NAMES,
    _REDEPLOY,
    _WITHDRAWAL,
    Log,
    _shared,
)
from smallworld_rules.engine.context import (
    _PlayerCtx,
    _ReachCtx,
    new_context,
    players_matching,
)
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import ABILITY_USED
from smallworld_rules.language import effects as language_effects
from smallworld_rules.language import events, flow
from smallworld_rules.language import values as language_values
from smallworld_rules.ruledefs import CompiledAbility, CompiledEffect
from smallworld_rules.state import LOST_TRIBE, Phase, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine




def _use_key(self: Engine, ability: CompiledAbility, s: State, target: int | None) -> str:
    if ability.limit != "once_per_player_per_turn" or target is None:
        return ability.name
    if ability.target == "player":
        return f"{ability.name}@{target}"
    occupant = s.region_race[target]
    owner = s.races[occupant].owner if occupant in s.races else -1
    return f"{ability.name}@{owner}"


def _ability_targets(
    self: Engine,
    s: State,
    rs: RaceState,
    ability: CompiledAbility,
    reach: int | None = None,
    condition: bool = True,
) -> int:
    """Bitmask of the targets (regions, players or combos of the market) the ability's
    clause allows (``reach``: the race's ``reach_mask``, if the caller has it;
    ``condition``: whether to test the clause's condition, which the listing skips where
    its placement tests the same, see _plan)."""
    if ability.target == "combo":  # the combos of the market (a condition is refused)
        return (1 << len(s.market)) - 1
    test = ability.condition if condition else None
    if ability.target == "player":
        mask = ((1 << self.players) - 1) & ~(1 << rs.owner)  # _PlayerCtx's all_mask
        if test is None:
            return mask
        if ability.per_player:  # each player in a context of its own
            return players_matching(self, s, rs.owner, rs.race, test, mask)
        # no value of the moment read: the same mask in every player's context
        return mask & test(_PlayerCtx(self, s, rs.owner, rs.race))
    # the context made only for a condition (a region ability without one needs none)
    mask = s.race_masks.get(rs.race, 0) if ability.target == "own region" else self.map.all_mask
    if self._shielding:  # immune to powers: out of reach of other races' abilities
        mask &= ~language_values.shielded_regions(self, s, rs.race)
    if test is not None:
        mask &= test(
            new_context(self, s, rs.race) if reach is None else _ReachCtx(self, s, rs.race, reach)
        )
    return mask


def _starting(s: State, phase: str, ability: CompiledAbility) -> bool:
    """Whether an ability ``during turn_start`` may be used now: in the conquests, before the
    turn's first conquest."""
    return phase == "conquest" and not s.conquered and "turn_start" in ability.phases


def ability_problem(
    self: Engine,
    s: State,
    rs: RaceState,
    ability: CompiledAbility,
    target: int | None,
    targets: int | None = None,
    reach: int | None = None,
) -> str | None:
    """Why ``rs`` may not use ``ability`` on ``target`` now, or ``None`` (``targets``: the
    ability's target mask, ``reach``: the race's ``reach_mask``, if the caller has them)."""
    phase = _PHASE_NAMES[s.phase]
    if rs.declined and flow.choosing(s) == rs.race:
        phase = "decline"
    if phase not in ability.phases and not _starting(s, phase, ability):
        when = " or ".join(sorted(ability.phases))
        return f"{ability.name} is used during {when}, not now ({phase})"
    limit = ability.limit
    if limit == "times":
        if rs.uses.get(ability.name, 0) >= ability.times:
            return f"{ability.name} may be used only {ability.times} time(s)"
    elif limit:  # once a turn (per player, if so)
        key = self._use_key(ability, s, target)
        if key in s.used:
            per = " against that player" if "@" in key else ""
            return f"{ability.name} was already used this turn{per}"
    if not ability.target:
        if target is not None:
            return f"{ability.name} takes no target"
    else:
        what = ability.target if ability.target in ("player", "combo") else "region"
        if target is None:
            return f"{ability.name} needs a target {what}"
        top = self.players if what == "player" else len(s.market) if what == "combo" else self.n
        if not 0 <= target < top:
            return f"there is no {what} {target}"
        if targets is None:
            targets = self._ability_targets(s, rs, ability)
        if not (targets >> target) & 1:
            why = "its conditions fail"
            if ability.target == "region":  # say why the race cannot reach it, if so
                why = self.target_problem(s, rs.race, target) or why
            return f"{ability.name} cannot target {what} {target}: {why}"
    if ability.price is not None:
        cost = language_effects.price(self, s, rs, ability.price)
        coins = s.players[rs.owner].coins
        if coins < cost:
            return f"{ability.name} costs {cost} coins and you have {coins}"
    taken = False
    for effect in ability.effects:
        problem = self._effect_problem(s, rs, effect, target, taken, reach)
        if problem:
            return problem
        taken = taken or effect.verb in TAKES_TARGET
    return None


def _effect_problem(
    self: Engine,
    s: State,
    rs: RaceState,
    effect: CompiledEffect,
    target: int | None,
    taken: bool = False,
    reach: int | None = None,
) -> str | None:
    """Why the effect cannot happen now; ``taken``: an earlier effect of the same ability
    conquers the target first (its pieces are gone by then); ``reach``: the race's
    ``reach_mask``, if the caller has it."""
    verb = effect.verb
    if verb in ("place", "move"):
        assert effect.piece is not None and target is not None
        piece = self.rules.pieces[effect.piece]
        if s.region_race[target] != rs.race and not taken and not piece.placed_anywhere:
            return f"region {target} is not held by your race"
        here = 0
        if not taken and target in s.pieces:  # only regions with pieces are listed there
            here = s.pieces[target].get(piece.name, 0)
        if piece.one_per_region and here:
            return f"region {target} already holds a {piece.name}"
        on_map = piece.supply - s.piece_supply[piece.name]
        if not s.piece_supply[piece.name] and not (verb == "move" and on_map > here):
            return f"no {piece.name} is left to place"
        if s.phase is _WITHDRAWAL and piece.kept_when_lost and not s.regained.get(piece.name, 0):
            return f"only a {piece.name} lost this turn is placed again now (ruling 25)"
    elif verb == "conquer":
        assert target is not None
        if reach is None or not (reach >> target) & 1:  # else target_problem finds none
            problem = self.target_problem(s, rs.race, target)
            if problem:
                return problem
        return _hand_problem(self, s, rs, effect)
    elif verb == "convert":
        assert target is not None
        occupant = s.region_race[target]
        if occupant is None or occupant == LOST_TRIBE or occupant == rs.race:
            return f"region {target} holds no enemy race token to replace"
        if s.region_tokens[target] != 1:
            return f"region {target} holds more than one token"
        if self.immune_piece(s, target) is not None or (
            self._immunizing and (language_values.immune_regions(self, s) >> target) & 1
        ):
            return f"region {target} is immune"
        if s.box[rs.race] < 1:
            return f"no {self.race_defs[rs.race].name} token is left in the box"
    elif verb == "roll_die":
        if s.die_bonus >= 0:
            return "a roll already waits for the next conquest"
        if rs.hand < 1:
            return "a conquest needs at least one token in hand (ruling 4)"
    elif verb in language_effects.EFFECTS:
        occasion = events.Occasion("ability", -1 if target is None else target)
        return language_effects.EFFECTS[verb].problem(self, s, rs, effect, occasion)
    return None


def _hand_problem(self: Engine, s: State, rs: RaceState, effect: CompiledEffect) -> str | None:
    """Why a ``conquer`` effect lacks the tokens in hand (whatever its target)."""
    least = self._keep(s, rs.race) if self._floors else 1  # region_tokens min
    if rs.hand < max(least, self._amount(s, rs, effect)):
        if least > 1:
            return f"not enough tokens in hand (your race holds a region with {least})"
        return "not enough tokens in hand (a conquest needs at least one, ruling 4)"
    return None


#: An ability's effects as the listing checks them (see _plan): those checked once per
#: position (with whether an earlier effect takes the target), those checked for each
#: target (with that, and whether only the conquest's reach is left to check), whether
#: one conquers, the placements checked as a mask of the targets (_placeable), the
#: shared UseAbility of each target listed so far (filled as they are listed), and
#: whether the target's condition is to be tested (not when _placeable tests the same).
_Plan = tuple[
    tuple[tuple[CompiledEffect, bool], ...],
    tuple[tuple[CompiledEffect, bool, bool], ...],
    bool,
    tuple[CompiledEffect, ...],
    dict[int, Action],
    bool,
]


def _plan(self: Engine, ability: CompiledAbility) -> _Plan:
    """Which of the ability's effects _effect_problem checks whatever the target: a die
    roll; a piece placed or moved onto a target an earlier effect takes (the race holds it
    then, and it holds no piece); a piece placed on an own region (the race holds it) that
    a region may hold more than one of; a conquest's tokens in hand (its reach is left to
    check per target); any other piece placed on a target no earlier effect takes is
    checked for all targets at once, as a mask (_placeable). The condition of an own
    region without a piece P (``when not piece P``) is that very test when such a
    placement of P, one a region, is checked as a mask: not tested again. Worked out once
    per ability of the engine's rules."""
    known = self._plans.get(id(ability))
    if known is not None and known[0] is ability:  # kept with it: the id stays its own
        return known[1]
    once: list[tuple[CompiledEffect, bool]] = []
    each: list[tuple[CompiledEffect, bool, bool]] = []
    placed: list[CompiledEffect] = []
    taken = False
    for effect in ability.effects:
        verb = effect.verb
        if (
            verb == "roll_die"
            or (taken and verb in ("place", "move"))
            or (
                verb == "place"
                and ability.target == "own region"
                and not self.rules.pieces[effect.piece].one_per_region  # type: ignore[index]
            )
        ):
            once.append((effect, taken))
        elif verb == "conquer":
            once.append((effect, taken))
            each.append((effect, taken, True))
        elif verb == "place" and not taken:
            placed.append(effect)
        else:
            each.append((effect, taken, False))
        taken = taken or verb in TAKES_TARGET
    conquers = any(e.verb == "conquer" for e in ability.effects)
    absent = ability.absent_piece
    condition = not (  # _placeable's mask is own regions without the piece: the condition's
        absent
        and ability.target == "own region"
        and any(e.piece == absent and self.rules.pieces[absent].one_per_region for e in placed)
    )
    plan: _Plan = (tuple(once), tuple(each), conquers, tuple(placed), {}, condition)
    self._plans[id(ability)] = (ability, plan)
    return plan


def _once_problem(
    self: Engine,
    s: State,
    rs: RaceState,
    once: tuple[tuple[CompiledEffect, bool], ...],
    targets: int,
    reach: int | None,
) -> bool:
    """Whether an effect of ``once`` (see _plan) fails, checked on the lowest target."""
    first = (targets & -targets).bit_length() - 1
    for effect, taken in once:
        if effect.verb == "conquer":
            if _hand_problem(self, s, rs, effect):
                return True
        elif self._effect_problem(s, rs, effect, first, taken, reach):
            return True
    return False


def _placeable(self: Engine, s: State, placed: tuple[CompiledEffect, ...], targets: int) -> int:
    """The ``targets`` on which each piece of ``placed`` (see _plan) may be placed:
    _effect_problem's checks of a placement on a target no earlier effect takes, as a mask
    (none of the piece there if a region holds one at most), and what depends on no target
    (one left in the supply; in a withdrawal, only one lost this turn). That the race holds
    the target is not checked again: a placement's target is an own region (the semantic
    pass refuses any other unless the piece goes anywhere), whose mask is the race's."""
    for effect in placed:
        piece = self.rules.pieces[effect.piece]  # type: ignore[index]
        name = piece.name
        if not s.piece_supply[name] or (
            s.phase is _WITHDRAWAL and piece.kept_when_lost and not s.regained.get(name, 0)
        ):
            return 0
        if piece.one_per_region:
            for r, here in s.pieces.items():  # only regions with pieces are listed
                if here.get(name):
                    targets &= ~(1 << r)
    return targets


def _amount(self: Engine, s: State, rs: RaceState, effect: CompiledEffect, target: int = -1) -> int:
    assert effect.amount is not None
    return effect.amount(new_context(self, s, rs.race, target))


def _ability_actions(
    self: Engine,
    s: State,
    rs: RaceState,
    phase: Phase,
    reach: int | None = None,
    abilities: tuple[CompiledAbility, ...] | None = None,
) -> list[Action]:
    """Every legal UseAbility of the race in this phase (``reach``: the race's
    ``reach_mask``, ``abilities``: its pairing's abilities, if the caller has them; a race
    in decline's are looked up whatever is given)."""
    acts: list[Action] = []
    # self.abilities(s, rs.race), the banner in hand
    if rs.declined:
        abilities = flow.decline_abilities(self, s, rs.race)
        if not abilities:
            return acts
        name = "decline" if flow.choosing(s) == rs.race else _PHASE_NAMES[phase]
    else:
        if abilities is None:
            abilities = self._combo_of(s, rs.race).abilities
        if not abilities:  # most races: nothing to check
            return acts
        name = _PHASE_NAMES[phase]
    for ability in abilities:
        if name not in ability.phases and (  # inline _starting: this runs per legal action
            name != "conquest" or s.conquered or "turn_start" not in ability.phases
        ):
            continue
        if not ability.target:
            if self.ability_problem(s, rs, ability, None) is None:
                acts.append(_shared(UseAbility, ability.name))
            continue
        # ability_problem's checks are pure tests joined by "and" (only their message
        # depends on their order): those that do not depend on the target are made once
        # here, then only the rest for each target of the mask (which, being the
        # ability's own target mask, holds only targets in range that the clause allows).
        limit = ability.limit
        per_player = False
        if limit:  # most abilities on targets have none
            if limit == "once_per_turn":
                if ability.name in s.used:
                    continue
            elif limit == "times":
                if rs.uses.get(ability.name, 0) >= ability.times:
                    continue
            else:  # a key per target only when some ability was used this turn (most: none)
                per_player = limit == "once_per_player_per_turn" and bool(s.used)
        price = ability.price
        if price is not None and (
            s.players[rs.owner].coins < language_effects.price(self, s, rs, price)
        ):
            continue
        effects = ability.effects
        if effects and effects[0].verb == "place":
            piece = self.rules.pieces[effects[0].piece]  # type: ignore[index]
            if not s.piece_supply[piece.name]:
                continue  # none left: the first effect fails on every target (_effect_problem)
        once, each, conquers, placed, uses, condition = _plan(self, ability)
        if reach is None and conquers:
            reach = self.reach_mask(s, rs.race)
        if ability.target == "own region" and not self._shielding and (
            not condition or ability.condition is None
        ):  # _ability_targets' answer without its frame: the race's regions
            targets = s.race_masks.get(rs.race, 0)
        else:
            targets = self._ability_targets(s, rs, ability, reach, condition)
        if placed and targets:
            targets = _placeable(self, s, placed, targets)
        if not targets:
            continue
        if once and _once_problem(self, s, rs, once, targets, reach):
            continue
        if not each and not per_player:  # nothing checked per target: each one listed
            for target in self.regions_in(targets):
                use = uses.get(target)
                if use is None:
                    use = uses[target] = _shared(UseAbility, ability.name, target)
                acts.append(use)
            continue
        near = 0 if reach is None else reach  # a conquest's is known (worked out above)
        for target in self.regions_in(targets):
            if per_player and self._use_key(ability, s, target) in s.used:
                continue
            for effect, taken, conquest in each:
                if conquest:  # its hand is checked once: only its reach is left
                    if not (near >> target) & 1 and self.target_problem(s, rs.race, target):
                        break
                elif self._effect_problem(s, rs, effect, target, taken, reach):
                    break
            else:  # the shared action, kept by target with the plan (no key tuple)
                use = uses.get(target)
                if use is None:
                    use = uses[target] = _shared(UseAbility, ability.name, target)
                acts.append(use)
    return acts


def _use_ability(self: Engine, s: State, action: UseAbility, log: Log) -> None:
    phase = s.phase
    if phase is not _CONQUEST and phase is not _REDEPLOY and phase is not _WITHDRAWAL:
        self._need_phase(s, action, _CONQUEST, _REDEPLOY, _WITHDRAWAL)  # raises
    rs = s.own_race(s.withdrawals[0]) if phase is _WITHDRAWAL else self._acting_race(s, action)
    # self.abilities(s, rs.race), the banner in hand, searched in a loop (no generator)
    if rs.declined:
        abilities = flow.decline_abilities(self, s, rs.race)
    else:
        abilities = self._combo_of(s, rs.race).abilities
    ability = None
    for a in abilities:
        if a.name == action.name:
            ability = a
            break
    if ability is None and self.declined_abilities and s.phase is not _WITHDRAWAL:
        user = flow.declined_user(self, s, action.name)  # a race in decline's ability
        if user is not None:
            rs = user
            ability = next(a for a in self.abilities(s, rs.race) if a.name == action.name)
    if ability is None:
        known = sorted({a.name for a in self.abilities(s, rs.race)})
        have = f"(yours: {', '.join(known)})" if known else "(your race has none now)"
        raise IllegalAction(f"your race has no ability {action.name!r} {have}", action)
    target = action.target
    if target is not None and not isinstance(target, int):
        raise IllegalAction(f"{ability.name} targets a region or player number", action)
    problem = self.ability_problem(s, rs, ability, target)
    if problem:
        raise IllegalAction(problem, action)
    if ability.limit == "times":
        rs.uses = {**rs.uses, ability.name: rs.uses.get(ability.name, 0) + 1}
    elif ability.limit:
        s.used = (*s.used, self._use_key(ability, s, target))
    if s.phase is _CONQUEST:
        s.acted = True
    if ability.price is not None:
        s.own_player(rs.owner).coins -= language_effects.price(self, s, rs, ability.price)
    log((ABILITY_USED, rs.owner, rs.race, ability.name, target))
    if ability.language:
        where = -1 if target is None else target
        other = where if ability.target == "player" else -1
        events.run_ability(self, s, rs, ability.effects, ability.name, where, other, log)
    else:
        for effect in ability.effects:
            self._do_effect(s, rs, effect, -1 if target is None else target, log)
    if s.phase is _WITHDRAWAL:
        self._withdrawal_progress(s, log)
