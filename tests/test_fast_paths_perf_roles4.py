"""The shortcuts of pass 9e give what the general code gives.

* An ability's targets are worked out with a context only when its clause has a condition
  to test: the same masks as the general code (kept here verbatim), for every ability of
  every race of every position of seeded games.
* A context made without its ``__init__`` frame (``new_context``) is the context
  ``_Ctx(...)`` makes: the same values in every slot, the same answers.
* A pairing is joined from what each of its files brings, worked out once per file: the
  same flags, links, reach, abilities, triggers and modifiers, in the same order, as the
  general code (one pass over the files, kept here verbatim), for every race alone, with
  every power and two, and a role with its powers in several orders.
* A target player's condition that reads no value of the moment (``count(coins)`` is
  each player's own) is tested once in one player context, not once per player: the
  same targets (the first point's comparison covers it).
* The listing skips an own region's condition ``when not piece P`` where the ability's
  placement of P, one a region, is checked as a mask of the targets anyway: the same
  UseAbility actions, in the same order, as the listing that tests the condition.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import players_for, playing_positions, rule_sets

import smallworld_rules as sw
from smallworld_rules.dsl.vocabulary import HOOKS
from smallworld_rules.engine import use_ability
from smallworld_rules.engine.context import (
    _Combo,
    _Ctx,
    _PlayerCtx,
    _ReachCtx,
    new_context,
    players_matching,
)
from smallworld_rules.engine.core import Engine
from smallworld_rules.hooks import EvalContext
from smallworld_rules.language import values as language_values
from smallworld_rules.ruledefs import (
    CompiledAbility,
    CompiledModifier,
    CompiledTrigger,
    RuleDef,
)
from smallworld_rules.state import RaceState, State


def _users(s: State) -> list[RaceState]:
    """The races whose abilities may work now: the acting race, the withdrawing race, and
    the active player's races in decline."""
    names = [s.acting, *s.withdrawals, *s.players[s.active].declined]
    return [s.races[n] for n in dict.fromkeys(names) if n is not None and n in s.races]


def _old_ability_targets(
    self: Engine, s: State, rs: RaceState, ability: CompiledAbility, reach: int | None = None
) -> int:
    """``use_ability._ability_targets`` before pass 9e (the general code), verbatim."""
    ctx: EvalContext
    if ability.target == "combo":  # the combos of the market (a condition is refused)
        return (1 << len(s.market)) - 1
    if ability.target == "player":
        ctx = _PlayerCtx(self, s, rs.owner)
        mask = ctx.all_mask
        if ability.condition is not None:  # each player in a context of its own
            return players_matching(self, s, rs.owner, rs.race, ability.condition, mask)
    else:
        ctx = _Ctx(self, s, rs.race) if reach is None else _ReachCtx(self, s, rs.race, reach)
        mask = self.mask_of(s, rs.race) if ability.target == "own region" else ctx.all_mask
        if self._shielding:  # immune to powers: out of reach of other races' abilities
            mask &= ~language_values.shielded_regions(self, s, rs.race)
    if ability.condition is not None:
        mask &= ability.condition(ctx)
    return mask


@rule_sets(necromancer=True, each_box=True)
def test_ability_targets_are_the_general_code(how: dict[str, Any]) -> None:
    """An ability targets what its clause allows (a region, an own region, a player or a
    combo of the market, when its condition holds): the targets worked out with a context
    only for a condition are those of the general code, for every ability of every race
    that may use one, with and without the race's reach given, on every position."""
    rules = sw.load_rules(**how)
    compared = 0
    for game in playing_positions(rules, 4):
        engine, s = game._engine, game._state
        for rs in _users(s):
            reach = engine.reach_mask(s, rs.race)
            for ability in engine.abilities(s, rs.race):
                for given in (None, reach):
                    want = _old_ability_targets(engine, s, rs, ability, given)
                    assert engine._ability_targets(s, rs, ability, given) == want
                    compared += 1
    if any(d.abilities for d in (*rules.races.values(), *rules.powers.values())):
        assert compared > 50


@rule_sets(necromancer=True, each_box=True)
def test_listing_without_a_repeated_condition_is_the_listing_with_it(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A piece one a region (a Hero, a Fortress) goes only on an own region without one:
    where an ability's condition says just that (``when not piece P``) and its placement
    of P is checked as a mask, the listing that skips the condition gives the very
    UseAbility actions, in order, of the listing that tests it, on every position."""
    rules = sw.load_rules(**how)
    plan = use_ability._plan
    skipped = [0]
    listed = 0

    def tested(self: Engine, ability: CompiledAbility) -> Any:
        *rest, condition = plan(self, ability)
        if not condition:
            skipped[0] += 1
        return (*rest, True)

    for game in playing_positions(rules, 4):
        engine, s = game._engine, game._state
        for rs in _users(s):
            fast = engine._ability_actions(s, rs, s.phase)
            with monkeypatch.context() as m:
                m.setattr(use_ability, "_plan", tested)
                general = engine._ability_actions(s, rs, s.phase)
            assert fast == general
            listed += len(fast)
    if how in ({}, {"expansions": ["necromancer_island"]}):  # Heroic and Fortified listed
        assert skipped[0] > 0 and listed > 20, (skipped, listed)


def test_the_condition_skipped_is_exactly_a_missing_piece(tmp_path: Any) -> None:
    """Only a condition that is exactly ``not piece P`` names the piece, and the listing
    skips it only for a placement of P on an own region, P one a region."""
    (tmp_path / "markers.swr").write_text(MARKERS, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    abilities = {a.name: a for d in rules.powers.values() for a in d.abilities}
    assert abilities["flag"].absent_piece == "flag"
    assert abilities["posts"].absent_piece == "post"
    assert abilities["flag_by_sea"].absent_piece == ""
    assert abilities["other"].absent_piece == "post"
    game = sw.Game.new(players=2, seed=1, rules=rules)
    engine = game._engine
    mine = ("flag", "posts", "flag_by_sea", "other")
    condition = {name: use_ability._plan(engine, abilities[name])[5] for name in mine}
    assert condition == {"flag": False, "posts": True, "flag_by_sea": True, "other": True}


def test_a_player_condition_is_tested_once_unless_it_reads_a_players_values() -> None:
    """A target player's condition is each player's own only through a value of the
    moment (``count(coins)``: that player's coins): the official Diplomat's ``not
    attacked`` is tested once for all players, a test power's ``count(coins) > 5`` for
    each apart."""
    rules = sw.load_rules(paths=[Path(__file__).parent / "rules_cost"])
    players = {
        a.name: a.per_player
        for d in (*rules.powers.values(), *rules.races.values())
        for a in d.abilities
        if a.target == "player"
    }
    assert players == {"choose_ally": False, "fleece": True}


MARKERS = """\
# A power of this test: conditions that are, or are not, the placement's own test.
power markers "Markers" {
    tokens 5
    text "Place markers."
    piece flag supply 3 { one_per_region }
    piece post supply 6 { defence 1 }
    ability flag {
        during redeploy
        target own region when not piece flag
        place flag
    }
    ability posts {
        during redeploy
        target own region when not piece post
        place post
    }
    ability flag_by_sea {
        during redeploy
        target own region when not piece flag and coastal
        place flag
    }
    ability other {
        during redeploy
        target own region when not piece post
        place flag
    }
}
"""


@rule_sets(necromancer=True, each_box=True)
def test_contexts_made_without_init_are_those_init_makes(how: dict[str, Any]) -> None:
    """The context a race's rules are evaluated in, made without its ``__init__`` frame,
    holds what ``_Ctx(engine, state, race, target)`` holds in every slot, and answers the
    same (its regions, tokens, powers, the map's properties), for every race of every
    position, with and without a target."""
    rules = sw.load_rules(**how)
    compared = 0
    for game in playing_positions(rules, 2):
        engine, s = game._engine, game._state
        races = sorted(set(s.races) | set(s.race_masks))
        for race in races:
            for target in (-1, engine.n - 1):
                made = new_context(engine, s, race, target)
                want = _Ctx(engine, s, race, target)
                assert isinstance(made, _Ctx) and not hasattr(made, "__dict__")
                for name in _Ctx.__slots__:
                    assert getattr(made, name) == getattr(want, name), name
                assert made.engine is engine and made.state is s
                assert made.occasion is None
                assert made.powers_count() == want.powers_count()
                assert made.own_mask() == want.own_mask()
                for place in ("map", "reserve"):
                    assert made.tokens_in(place) == want.tokens_in(place)
                for name in ("non_empty", "lone", "first_turn", "on_map"):
                    assert made.property_mask(name) == want.property_mask(name)
                compared += 1
    assert compared > 100


# --------------------------------------------------------------------------- pairings


class _OldCombo:
    """``context._Combo`` before pass 9e (the general code), verbatim: one pass over the
    files of the pairing."""

    __slots__ = (
        "abilities",
        "active_modifiers",
        "conquest_tokens",
        "declined_abilities",
        "declined_modifiers",
        "defs",
        "far",
        "flags",
        "floor",
        "lifts_pieces",
        "link",
        "near",
        "reach",
        "region_max",
        "triggers",
    )

    def __init__(self, engine: Any, defs: tuple[RuleDef, ...]) -> None:
        # One pass over the files (a pairing is built afresh for each new race/badge
        # pairing a game meets): each attribute as its comment says, in file order.
        self.defs = defs  #: the race's rule file, then its power's
        flags: frozenset[str] = frozenset()
        link = conquest_tokens = region_max = 0
        reach = floor = 1
        abilities: list[CompiledAbility] = []
        declined_abilities: list[CompiledAbility] = []
        #: the triggers of each event, in file order
        self.triggers: dict[str, tuple[CompiledTrigger, ...]] = {}
        for i, d in enumerate(defs):
            key = d.kind, d.id
            flags |= engine.flags[key]
            for mask in engine.links[key]:
                link |= mask
            conquest_tokens += d.conquest_tokens
            reach = d.reach if i == 0 else max(reach, d.reach)
            floor = max(floor, d.region_min)
            if d.region_max and (not region_max or d.region_max < region_max):
                region_max = d.region_max
            for a in d.abilities:
                if a.status != "declined":
                    abilities.append(a)
                if a.status != "active":
                    declined_abilities.append(a)
            for trigger in d.triggers:
                self.triggers[trigger.event] = (*self.triggers.get(trigger.event, ()), trigger)
        self.flags = flags
        #: the regions its links make adjacent to one another
        self.link = link
        self.conquest_tokens = conquest_tokens
        #: how many steps its conquests reach (``reach N``), the least a conquest costs
        self.reach = reach
        self.far = reach > 1 or "crosses_water" in flags  # see values.far_reach
        #: its conquests reach only the land bordering its regions (see reach._reach)
        self.near = not self.far and not flags & {"conquer_anywhere", "enter_water"}
        self.floor = floor
        #: the most tokens a region may hold after redeployment (0: no limit)
        self.region_max = region_max
        #: while active, and in decline (``while declined``, ``always``)
        self.abilities = tuple(abilities)
        self.declined_abilities = tuple(declined_abilities)
        #: whether it holds pieces that go back to the supply when it redeploys
        self.lifts_pieces = False
        ids = {d.id for d in defs}
        for p in engine.rules.pieces.values():
            if p.lifted_at_redeploy and p.holder in ids:
                self.lifts_pieces = True
                break
        #: the modifiers that apply on each hook, while active and once in decline
        self.active_modifiers, self.declined_modifiers = self._modifiers()

    def _modifiers(
        self,
    ) -> tuple[dict[str, tuple[CompiledModifier, ...]], dict[str, tuple[CompiledModifier, ...]]]:
        """Each hook's modifiers in file order (the race's, then its powers'), while active
        and once in decline; in one pass over the few the files have (a pairing is built
        afresh for each new race/badge pairing of a game)."""
        active: dict[str, tuple[CompiledModifier, ...]] = dict.fromkeys(HOOKS, ())
        declined = dict(active)
        for d in self.defs:
            for hook in HOOKS:
                for m in d.modifiers[hook]:
                    if m.applies_to(False):
                        active[hook] += (m,)
                    if m.applies_to(True):
                        declined[hook] += (m,)
        return active, declined


def _pairings(engine: Engine, rules: sw.Rules) -> list[tuple[RuleDef, ...]]:
    """No file; every race alone, with every power and with two; a role's token kind with
    its first powers in two orders (as it activates them)."""
    powers = sorted(rules.powers)
    out: list[tuple[RuleDef, ...]] = [()]
    for race in sorted(engine.race_defs):
        rd = engine.race_defs[race]
        out.append((rd,))
        for i, power in enumerate(powers):
            out.append((rd, rules.powers[power]))
            out.append((rd, rules.powers[power], rules.powers[powers[i - 3]]))
    if engine.role_race is not None:
        rd = engine.race_defs[engine.role_race]
        for start in range(0, len(powers), 3):
            chosen = [rules.powers[p] for p in powers[start : start + 6]]
            out.append((rd, *chosen))
            out.append((rd, *reversed(chosen)))
    return out


@rule_sets(necromancer=True, each_box=True)
def test_pairings_joined_from_their_files_parts_are_the_general_code(
    how: dict[str, Any],
) -> None:
    """A race and its power add up (a role's powers all work, in the order activated):
    the pairing joined from what each file brings is, attribute by attribute, the pairing
    of the general code: the same values, the very same abilities, triggers and
    modifiers in the same order, each table's keys in the same order."""
    rules = sw.load_rules(**how)
    players = players_for(rules)[0]
    engine = sw.Game.new(players=players, seed=0, rules=rules)._engine
    compared = 0
    for defs in _pairings(engine, rules):
        for _ in range(2):  # made afresh, then from the parts kept by the first
            new, old = _Combo(engine, defs), _OldCombo(engine, defs)
            for name in _OldCombo.__slots__:  # (pass 9i's, made from ``abilities``: there)
                got, want = getattr(new, name), getattr(old, name)
                assert got == want, name
                assert type(got) is type(want), name
            assert list(new.triggers) == list(old.triggers)
            for event, triggers in old.triggers.items():
                assert all(a is b for a, b in zip(new.triggers[event], triggers, strict=True))
            for tables in ("active_modifiers", "declined_modifiers"):
                got_t, want_t = getattr(new, tables), getattr(old, tables)
                assert list(got_t) == list(want_t) == list(HOOKS)
                for hook in HOOKS:
                    assert all(a is b for a, b in zip(got_t[hook], want_t[hook], strict=True))
            compared += 1
    assert compared > 20
