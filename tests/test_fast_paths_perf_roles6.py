"""The shortcuts of pass 10e give what the general code gives.

* The ability listing tests an ability's limit only when it has one; takes an own-region
  ability's targets, when no condition is left to test and no rule shields regions from
  powers, as the race's regions without asking ``_ability_targets``; and lists each
  target of an ability whose effects are checked on no target one by one (and whose use
  key per player need not be looked at) without the per-target loop: the same UseAbility
  actions, the very same objects in the same order, as the listing before the pass (kept
  here verbatim), for every race that may use an ability on every position of seeded
  games, with and without the reach and the pairing's abilities of the phase given.
* A role's tokens find their pairing by the role's powers before any look-up by badge
  (where they are never kept): the pairing of every race on every position is the very
  pairing its rule files make (``_combo(race, _powers(...))``) and the one the look-up
  before the pass (kept here verbatim) gives.
* The names and words of a rule file are interned when it is parsed, so that the engine's
  compares and look-ups of them with its own names go by identity: every name the engine
  compares or looks up is the interned string.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import players_for, playing_positions, rule_sets
from test_fast_paths_perf_roles4 import _pairings

import smallworld_rules as sw
from smallworld_rules.actions import Action, UseAbility
from smallworld_rules.engine import use_ability
from smallworld_rules.engine.basics import _CONQUEST, _PHASE_NAMES, _REDEPLOY, _shared
from smallworld_rules.engine.context import _Combo
from smallworld_rules.engine.core import Engine
from smallworld_rules.language import effects as language_effects
from smallworld_rules.language import flow
from smallworld_rules.ruledefs import CompiledAbility
from smallworld_rules.state import Phase, RaceState, State


def _users(s: State) -> list[RaceState]:
    """The races whose abilities may work now: the acting race, the withdrawing race, and
    the active player's races in decline."""
    names = [s.acting, *s.withdrawals, *s.players[s.active].declined]
    return [s.races[n] for n in dict.fromkeys(names) if n is not None and n in s.races]


def _old_ability_actions(
    self: Engine,
    s: State,
    rs: RaceState,
    phase: Phase,
    reach: int | None = None,
    abilities: tuple[CompiledAbility, ...] | None = None,
) -> list[Action]:
    """``use_ability._ability_actions`` before pass 10e (the general code), verbatim but
    for the module prefixes of what it calls."""
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
        limit = ability.limit
        if limit == "times" and rs.uses.get(ability.name, 0) >= ability.times:
            continue
        # a key per target only when some ability was used this turn (most listings: none)
        per_player = limit == "once_per_player_per_turn" and bool(s.used)
        if limit == "once_per_turn" and ability.name in s.used:
            continue
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
        once, each, conquers, placed, uses, condition = use_ability._plan(self, ability)
        if reach is None and conquers:
            reach = self.reach_mask(s, rs.race)
        targets = self._ability_targets(s, rs, ability, reach, condition)
        if placed and targets:
            targets = use_ability._placeable(self, s, placed, targets)
        if not targets:
            continue
        if once and use_ability._once_problem(self, s, rs, once, targets, reach):
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


def _compare_listings(engine: Engine, s: State) -> int:
    """The listing against the general code for every race that may use an ability now,
    in the ways legal_actions asks for it; the number of actions compared."""
    listed = 0
    for rs in _users(s):
        combo = engine._combo_of(s, rs.race)
        given: list[tuple[CompiledAbility, ...] | None] = [None]
        if s.phase is _CONQUEST:
            given.append(combo.conquest_abilities)
        elif s.phase is _REDEPLOY:
            given.append(combo.redeploy_abilities)
        for abilities in given:
            for reach in (None, engine.reach_mask(s, rs.race)):
                want = _old_ability_actions(engine, s, rs, s.phase, reach, abilities)
                got = engine._ability_actions(s, rs, s.phase, reach, abilities)
                assert got == want, (rs.race, s.phase, got, want)
                assert all(a is b for a, b in zip(got, want, strict=True))
                listed += len(got)
    return listed


@rule_sets(necromancer=True, each_box=True)
def test_ability_listing_is_the_general_code(how: dict[str, Any]) -> None:
    """Rule: a race uses an ability in the phases it names, within its limit (once a turn,
    once a turn against each player, N times), on the targets its clause allows where
    each of its effects can happen. The listing of pass 10e lists exactly the UseAbility
    actions of the general code, the same objects in the same order, on every position
    of seeded games."""
    rules = sw.load_rules(**how)
    listed = 0
    for game in playing_positions(rules, 8):
        listed += _compare_listings(game._engine, game._state)
    if how in ({}, {"expansions": ["necromancer_island"]}):  # abilities on targets listed
        assert listed > 50, listed


PLEDGES = """\
# A power of this test: abilities on targets where nothing is checked target by target,
# one limited once against each player a turn, one with a condition of its own, one used
# at the start of the turn.
power pledges "Pledges" {
    tokens 5
    text "Pledge your regions, once against each player a turn; light beacons by the sea."
    piece pledge supply 30 { defence 1 }
    ability pledge {
        during redeploy
        once_per_player_per_turn
        target own region
        place pledge
    }
    ability beacon {
        during redeploy
        target own region when coastal
        place pledge
    }
    ability rally {
        during turn_start
        target own region
        place pledge
    }
}
"""


def test_abilities_on_unchecked_targets_are_listed_as_their_rules_say(tmp_path: Path) -> None:
    """Rule: an ability limited once a turn against each player is not used twice in a
    turn against the same player (on an own region that player is oneself), and an
    ability targets only the regions its condition allows. The listing of abilities whose
    targets need no check of their own still looks at the use key of each target once
    something was used this turn, and still tests an own region's condition: the general
    code's actions on every position of seeded games, none of the limited ability once it
    was used in the turn, and only coastal regions for the other."""
    (tmp_path / "pledges.swr").write_text(PLEDGES, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    after_use = lit = 0
    for seed in range(16):
        players = players_for(rules)[seed % 4]
        game = sw.Game.new(players=players, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            engine, s = game._engine, game._state
            _compare_listings(engine, s)
            if s.phase is _REDEPLOY and any(k.startswith("pledge@") for k in s.used):
                rs = s.races[s.acting] if s.acting is not None else None
                if rs is not None and rs.power == "pledges":
                    acts = engine._ability_actions(s, rs, s.phase)
                    assert not [a for a in acts if a.name == "pledge"]
                    after_use += 1
            if s.phase is _REDEPLOY and s.acting is not None:
                rs = s.races[s.acting]
                if rs.power == "pledges" and not rs.declined:
                    beacons = [a.target for a in engine._ability_actions(s, rs, s.phase)
                               if a.name == "beacon"]
                    coastal = engine.map.coastal_mask
                    assert all((coastal >> r) & 1 for r in beacons)
                    lit += bool(beacons) and beacons != list(engine.regions_of(s, rs.race))
            acts = list(game.legal_actions())
            game.apply(acts[rng.randrange(len(acts))])
    assert after_use > 5 and lit > 5, (after_use, lit)


# --------------------------------------------------------------------------- pairings


def _old_combo_of(self: Engine, s: State, race: str) -> _Combo:
    """``races._combo_of`` before pass 10e (the general code), verbatim."""
    rs = s.races.get(race)
    if rs is not None:  # the common case first: a race in play whose pairing is known
        by_race = self._badge_combos.get(rs.power)  # by badge, then race: no key tuple
        if by_race is not None:
            combo = by_race.get(race)
            if combo is not None:  # never a role's token kind: it is not kept here
                return combo
    if race == self.role_race:  # by its powers (a tuple, replaced when they change)
        powers = s.role_powers
        last, combo = self._role_last  # the same tuple as last time: no hash of it
        if last is powers and combo is not None:
            return combo
        combo = self._role_combos.get(powers)
        if combo is None:
            combo = self._role_combos[powers] = self._combo(race, powers)
        self._role_last = (powers, combo)
        return combo
    badge = None if rs is None else rs.power
    if self._borrowers and badge in self._borrowers:  # by what it borrows now: not kept here
        return self._combo(race, self._powers(s, race))
    by_race = self._badge_combos.get(badge)
    if by_race is None:
        by_race = self._badge_combos[badge] = {}
    combo = by_race.get(race)
    if combo is None:
        combo = by_race[race] = self._combo(race, self._powers(s, race))
    return combo


@rule_sets(necromancer=True, each_box=True)
def test_pairings_looked_up_are_those_of_their_rule_files(how: dict[str, Any]) -> None:
    """Rule: a race's rules are its own file's and its power's (a role's: all the powers
    it activated, in their order). The pairing looked up for every race of every position
    of seeded games is the very pairing its rule files make, and the one the look-up
    before pass 10e gives; positions of two games are asked in turn, so that a role's
    pairing kept from the other game's powers is never given."""
    rules = sw.load_rules(**how)
    games = [playing_positions(rules, 3), playing_positions(rules, 3)]
    next(games[1], None)  # the second game a move apart: its role's powers differ often
    compared = roles = 0
    for pair in zip(*games, strict=False):
        for game in pair:
            engine, s = game._engine, game._state
            for race in sorted(set(s.races) | {engine.role_race or ""} - {""}):
                made = engine._combo(race, engine._powers(s, race))
                assert engine._combo_of(s, race) is made, race
                assert _old_combo_of(engine, s, race) is made, race
                compared += 1
                roles += race == engine.role_race
    assert compared > 100
    if rules.roles:
        assert roles > 30


@rule_sets(necromancer=True, each_box=True)
def test_pairings_abilities_of_each_phase_are_joined_from_their_files(
    how: dict[str, Any],
) -> None:
    """Rule: an ability works in the phases it names (``turn_start``: in the conquests,
    before the first). A pairing's abilities of the conquests and of the redeployment,
    joined from what each of its files brings, are those of all its abilities that name
    the phase (the filter before pass 10e), the very objects in their order: every race
    alone, with every power and with two, a role's tokens with up to six powers in two
    orders, each pairing made with its files' parts fresh and then kept."""
    _check_phase_tuples(sw.load_rules(**how))


def test_an_ability_at_the_start_of_the_turn_is_one_of_the_conquests(tmp_path: Path) -> None:
    """Rule: an ability ``during turn_start`` is used in the conquests, before the first
    (no shipped active ability has one): a pairing with a test power that has one keeps it
    among its abilities of the conquests, as the filter before pass 10e does."""
    (tmp_path / "pledges.swr").write_text(PLEDGES, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    _check_phase_tuples(rules)
    engine = sw.Game.new(players=2, seed=0, rules=rules)._engine
    combo = _Combo(engine, (engine.race_defs["ratmen"], rules.powers["pledges"]))
    assert [a.name for a in combo.conquest_abilities] == ["rally"]


def _check_phase_tuples(rules: sw.Rules) -> None:
    engine = sw.Game.new(players=players_for(rules)[0], seed=0, rules=rules)._engine
    engine._parts.clear()
    compared = 0
    for defs in _pairings(engine, rules):
        for _ in range(2):  # the parts made afresh, then the kept ones
            combo = _Combo(engine, defs)
            conquest = tuple(
                a for a in combo.abilities if "conquest" in a.phases or "turn_start" in a.phases
            )
            redeploy = tuple(a for a in combo.abilities if "redeploy" in a.phases)
            for got, want in ((combo.conquest_abilities, conquest),
                              (combo.redeploy_abilities, redeploy)):
                assert type(got) is tuple and len(got) == len(want)
                assert all(a is b for a, b in zip(got, want, strict=True))
            compared += bool(combo.abilities)
    assert compared > 10


# --------------------------------------------------------------------------- names


def _interned(name: str) -> bool:
    return sys.intern(name) is name


@rule_sets(necromancer=True, each_box=True)
def test_the_names_of_rule_files_are_interned(how: dict[str, Any]) -> None:
    """The names and words a rule file gives that the engine compares with its own or
    looks up (its id, flags, abilities' names, phases, targets and limits, effects'
    pieces, triggers' events, pieces, zones, a role's places) are interned strings, so
    that equal names are the same object: what the engine finds by them is what equal
    strings find, only sooner."""
    rules = sw.load_rules(**how)
    seen: list[str] = []
    for d in (*rules.races.values(), *rules.powers.values(), *rules.expansions.values()):
        seen += [d.id, *d.flags]
        for a in d.abilities:
            seen += [a.name, *a.phases, a.target, a.limit, a.absent_piece]
            seen += [e.piece for e in a.effects if e.piece is not None]
        seen += [t.event for t in d.triggers]
        for role in d.roles:
            seen += [role.id, role.race.id]
            seen += [z for z in (role.hand_zone,) if z is not None]
            if role.harvest is not None:
                seen.append(role.harvest[1])
            if role.exchange is not None:
                seen.append(role.exchange[1])
            seen += list(role.buys)
    for name, piece in rules.pieces.items():
        seen += [name, piece.name, piece.holder]
    for name, zone in rules.zones.items():
        seen += [name, zone.id]
    assert len(seen) > 40
    assert [n for n in seen if not _interned(n)] == []


@pytest.mark.parametrize("text", [PLEDGES])
def test_a_file_parsed_twice_gives_the_same_names(text: str, tmp_path: Path) -> None:
    """A rule file read again gives equal rules whose names are the very same strings as
    the first reading's (interned once per process, not per file)."""
    (tmp_path / "pledges.swr").write_text(text, encoding="utf-8")
    first = sw.load_rules(paths=[tmp_path]).powers["pledges"]
    second = sw.load_rules(paths=[tmp_path]).powers["pledges"]
    assert first.id is second.id
    assert len(first.abilities) == len(second.abilities) == 3
    for a, b in zip(first.abilities, second.abilities, strict=True):
        assert a.name is b.name and a.target is b.target and a.limit is b.limit
        assert sorted(a.phases) == sorted(b.phases)
        assert all(p is q for p, q in zip(sorted(a.phases), sorted(b.phases), strict=True))
