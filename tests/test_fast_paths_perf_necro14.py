"""Pass 14a: Necromancer Island per action. A role's first Deploy of a turn and its Conquers
are made in place (``smallworld_rules.in_place``) unless its pairing (its race and every
power it activated) has triggers; what the move gives must be what the forking path gives.
A pairing's trigger and modifier tables are shared where none of its files brings any: it
must join its files as the general code does.

The comparisons use ``play_alongside`` (test_fast_paths_perf_state4): each seeded game is
played twice, as ``Game.apply`` plays it and forced down the forking path, positions and
logs equal after every move, every move made in place exactly when the predicates say.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from helpers import rule_set_table, rules_and_players
from test_fast_paths_perf_state4 import made_by_any, play_alongside

import smallworld_rules as sw
from benchmarks.measure import play_random
from smallworld_rules.dsl.vocabulary import HOOKS
from smallworld_rules.engine import context

#: Necromancer Island alone (no power a role may draft has triggers), and every box
#: together (the role may activate powers with triggers: those moves fork)
ROLE_SETS = pytest.mark.parametrize(
    "how",
    [{"expansions": ["necromancer_island"]}, {"expansions": list(sw.available_expansions())}],
    ids=["necromancer_island", "expansions"],
)


def _role_move(seen: Counter[str]) -> Any:
    """A ``taken_back`` predicate for ``play_alongside``: the role's first Deploy of a turn
    and its Conquers, counted in ``seen`` by kind and by whether its pairing triggers (the
    moves it picks are then expected in place, and taken back and played again)."""

    def pick(game: sw.Game, action: sw.Action) -> bool:
        s = game._state
        engine = game._engine
        if s.acting is None or s.acting != engine.role_race or s.lang:
            return False
        if type(action) is sw.Deploy and s.phase is sw.Phase.CONQUEST:
            kind = "deploy"
        elif type(action) is sw.Conquer and s.phase is sw.Phase.CONQUEST:
            kind = "conquer"
        else:
            return False
        if not engine._triggering.isdisjoint(s.role_powers):
            seen[f"{kind} with triggers"] += 1
            return False
        seen[kind] += 1
        return made_by_any(game, action)

    return pick


@ROLE_SETS
def test_a_role_s_first_deploy_and_conquests_are_made_in_place_as_on_a_fork(
    how: dict[str, object],
) -> None:
    """Rule 1.10 (the conquests end) and rule 1.8 (a conquest) for the Necromancer (rule
    4.3: he conquers like any player) are carried out alike in place and on a fork: every
    first Deploy and Conquer of his that may be made in place was, each is taken back and
    played again; with every box, those of a pairing with triggers fork (and still give
    the same game)."""
    seen: Counter[str] = Counter()
    taken = play_alongside(how, made_by_any, _role_move(seen))
    deploys = [r for a, r, _ in taken if type(a) is sw.Deploy]
    conquers = [r for a, r, _ in taken if type(a) is sw.Conquer]
    assert all(len(r) == 6 for r in deploys)  # the record of a turn's first Deploy
    if how["expansions"] == ["necromancer_island"]:
        assert len(deploys) >= 10 and len(conquers) >= 10, seen
    else:  # fewer turns of his (more seats, other roles' boxes), some with triggers
        assert deploys, seen
        assert seen["deploy with triggers"] and seen["conquer with triggers"], seen


def _joined_as_before(engine: Any, defs: tuple[Any, ...]) -> dict[str, Any]:
    """``_Combo.__init__`` before pass 14a (the general code), verbatim but for writing its
    attributes into a dict: every table made afresh for every pairing."""
    flags: frozenset[str] = frozenset()
    link = conquest_tokens = region_max = 0
    reach = floor = 1
    abilities: tuple[Any, ...] = ()
    declined_abilities: tuple[Any, ...] = ()
    conquest_abilities: tuple[Any, ...] = ()
    redeploy_abilities: tuple[Any, ...] = ()
    parts = engine._parts
    lifts = False
    out: dict[str, Any] = {"defs": defs, "triggers": {}}
    active = dict(context._NO_MODIFIERS)
    declined = dict(context._NO_MODIFIERS)
    first = True
    for d in defs:
        kept = parts.get(id(d))
        part = kept[1] if kept is not None and kept[0] is d else context._part(engine, d)
        flags |= part.flags
        link |= part.link
        conquest_tokens += d.conquest_tokens
        if first:
            reach, first = d.reach, False
        elif d.reach > reach:
            reach = d.reach
        if d.region_min > floor:
            floor = d.region_min
        if d.region_max and (not region_max or d.region_max < region_max):
            region_max = d.region_max
        abilities += part.abilities
        declined_abilities += part.declined_abilities
        conquest_abilities += part.conquest_abilities
        redeploy_abilities += part.redeploy_abilities
        for event, triggers in part.triggers:
            out["triggers"][event] = out["triggers"].get(event, ()) + triggers
        lifts = lifts or part.lifts_pieces
        for hook, mods in part.active_modifiers:
            active[hook] += mods
        for hook, mods in part.declined_modifiers:
            declined[hook] += mods
    far = reach > 1 or "crosses_water" in flags
    out.update(
        flags=flags, link=link, conquest_tokens=conquest_tokens, reach=reach, far=far,
        near=not far and not flags & context._NOT_NEAR, floor=floor, region_max=region_max,
        abilities=abilities, declined_abilities=declined_abilities,
        conquest_abilities=conquest_abilities, redeploy_abilities=redeploy_abilities,
        lifts_pieces=lifts, active_modifiers=active, declined_modifiers=declined,
    )
    return out


def _same(got: Any, want: Any) -> bool:
    """Equal, and every tuple's items (a table's values' items) the very objects."""
    if isinstance(want, dict):
        return list(got) == list(want) and all(_same(got[k], want[k]) for k in want)
    if isinstance(want, tuple):
        return len(got) == len(want) and all(a is b for a, b in zip(got, want, strict=True))
    return bool(got == want) and type(got) is type(want)


@pytest.mark.parametrize(
    "how", list(rule_set_table(necromancer=True, each_box=True).values()),
    ids=list(rule_set_table(necromancer=True, each_box=True)),
)
def test_pairings_made_with_shared_empty_tables_are_those_made_afresh(
    how: dict[str, object],
) -> None:
    """A pairing (a race alone, with each power, a role with several powers in two orders)
    joins its files' parts as the general code does, every attribute equal and its tuples
    the very objects in order, though its trigger and modifier tables are shared where no
    file of it brings any; and the shared tables are left empty after seeded games."""
    rules, players = rules_and_players(how)
    game = sw.Game.new(players=players[0], seed=0, rules=rules)
    engine = game._engine
    races = [r for r in engine.race_defs if r != engine.role_race]
    powers = sorted(rules.powers)
    pairings = [(r, ()) for r in races] + [(r, (p,)) for r in races for p in powers]
    if engine.role_race is not None:
        pairings += [(engine.role_race, tuple(powers[i : i + 3])) for i in range(len(powers))]
        pairings += [(engine.role_race, tuple(powers[i : i + 3])[::-1]) for i in range(len(powers))]
    shared = 0
    for race, chosen in pairings:
        defs = (engine.race_defs[race], *(rules.powers[p] for p in chosen))
        combo = context._Combo(engine, defs)
        want = _joined_as_before(engine, defs)
        for name, value in want.items():
            assert _same(getattr(combo, name), value), (race, chosen, name)
        shared += combo.triggers is context._NO_TRIGGERS
        shared += combo.declined_modifiers is context._NO_MODIFIERS
    assert shared > len(pairings) // 2
    for seed in range(2):
        play_random(rules, players[seed % len(players)], seed)
    assert dict.fromkeys(HOOKS, ()) == context._NO_MODIFIERS
    assert not context._NO_TRIGGERS
