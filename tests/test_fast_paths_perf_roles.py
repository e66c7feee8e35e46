"""The fast paths of the roles, pairings and abilities give what the general code gives.

Each test compares a shortcut the legal actions take (a role's purchases listed without a
message per refusal, a pairing looked up without its key, …) with the general code it stands
for, on every position of seeded random games.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import random_positions, rule_set_table, rules_and_players

import smallworld_rules as sw
from smallworld_rules.actions import Purchase
from smallworld_rules.state import Phase

TESTS = Path(__file__).parent
#: The official rules, every folder of test rule files, Necromancer Island, every expansion.
RULE_SETS = rule_set_table(necromancer=True)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"necromancer_purchases": 1, "necromancer_coins": 12},
        {"ghosts_removed": 2, "necromancer_coins": 30},
    ],
    ids=["defaults", "one_purchase_a_turn", "rich_and_few_ghosts"],
)
def test_role_purchases_are_those_purchase_problem_allows(options: dict[str, int]) -> None:
    """The Necromancer buys Ghosts or reserved powers in his turn, before conquering, at
    their price (rule 4.3): on every position of seeded games the purchases listed (their
    checks made once per position, no message written) are exactly those, in the token then
    reserve order, whose own ``purchase_problem`` (pricing each alone) allows them."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    offered = refused = 0
    for game in random_positions(rules, 8, (3, 4, 5, 6), options):
        engine, state = game._engine, game._state
        wanted = [("token", None)] + [("power", p) for p in state.role_reserve]
        expected = [
            Purchase(item, power)
            for item, power in wanted
            if engine.purchase_problem(state, item, power) is None
        ]
        assert engine._purchases(state) == expected
        offered += len(expected)
        refused += len(wanted) - len(expected)
    assert offered > 50 and refused > 50


def _acting(state: object) -> str | None:
    phase = state.phase  # type: ignore[attr-defined]
    if phase is Phase.WITHDRAWAL:
        return state.withdrawals[0]  # type: ignore[attr-defined, no-any-return]
    if phase in (Phase.CONQUEST, Phase.REDEPLOY):
        return state.acting  # type: ignore[attr-defined, no-any-return]
    return None


def _listed_as_ability_problem_allows(rules: sw.Rules, players: tuple[int, ...]) -> int:
    """Compare the listing with ``ability_problem`` on every position of 10 seeded games;
    the number of abilities listed."""
    listed = 0
    for game in random_positions(rules, 10, players):
        engine, state = game._engine, game._state
        acting = _acting(state)
        if acting is None:
            continue
        # the acting race, and the player's races in decline (whose abilities may work)
        users = [acting, *(r for r in state.players[state.active].declined if r != acting)]
        for race in users:
            if race not in state.races:
                continue
            rs = state.races[race]
            expected = []
            for ability in engine.abilities(state, race):
                targets: list[int | None] = [None]
                if ability.target:
                    top = {"player": engine.players, "combo": len(state.market)}
                    targets = list(range(top.get(ability.target, engine.n)))
                expected += [
                    sw.UseAbility(ability.name, target)
                    for target in targets
                    if engine.ability_problem(state, rs, ability, target) is None
                ]
            assert engine._ability_actions(state, rs, state.phase) == expected
            reach = engine.reach_mask(state, race)
            assert engine._ability_actions(state, rs, state.phase, reach) == expected
            listed += len(expected)
    return listed


@pytest.mark.parametrize("how", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_listed_abilities_are_each_one_ability_problem_allows(how: dict[str, object]) -> None:
    """A race uses an ability only in its phases, within its limits, at its price, on a
    target its clause allows and where every effect can happen: the listing (checking a die
    roll, a piece placed on a target the ability takes and a conquest's tokens in hand once,
    only the rest per target) gives, in the same order, every UseAbility ``ability_problem``
    accepts among all targets, whether it is handed the race's reach or works it out."""
    rules, players = rules_and_players(how)
    assert _listed_as_ability_problem_allows(rules, players) > 20


STAKERS = """\
# A power of this test: its clauses leave the per-target checks to the effects.
power stakers "Stakers" {
    tokens 5
    text "Place a Stake on any of your regions without one. Once per turn, conquer any region"
         "for 1 token and place a Stake there."
    piece stake supply 3 { one_per_region }
    ability stake {
        during conquest, redeploy
        target own region
        place stake
    }
    ability leap {
        during conquest
        once_per_turn
        target region
        conquer paying 1
        place stake
    }
}
"""


def test_listed_abilities_check_each_target_the_clause_lets_through(tmp_path: Path) -> None:
    """One Stake a region, a conquest only within the race's reach: where the target clause
    allows any region (own regions, any region), the listing still checks for each target
    what depends on it (a Stake already there, the region out of reach) and gives exactly
    what ``ability_problem`` accepts."""
    (tmp_path / "stakers.swr").write_text(STAKERS, encoding="utf-8")
    assert _listed_as_ability_problem_allows(sw.load_rules(paths=[tmp_path]), (3,)) > 100




def _pairing_as_its_files_say(engine: object, defs: tuple[object, ...]) -> dict[str, object]:
    """What a pairing brings, each attribute worked out from its files on its own."""
    e: Any = engine
    ds: Any = defs
    triggers: dict[str, tuple[object, ...]] = {}
    for d in ds:
        for trigger in d.triggers:
            triggers[trigger.event] = (*triggers.get(trigger.event, ()), trigger)
    link = 0
    for d in ds:
        for mask in e.links[d.kind, d.id]:
            link |= mask
    flags = frozenset().union(*(e.flags[d.kind, d.id] for d in ds))
    reach = max((d.reach for d in ds), default=1)
    ids = {d.id for d in ds}
    return {
        "defs": defs,
        "flags": flags,
        "link": link,
        "conquest_tokens": sum(d.conquest_tokens for d in ds),
        "reach": reach,
        "far": reach > 1 or "crosses_water" in flags,
        "floor": max([1, *(d.region_min for d in ds)]),
        "region_max": min([d.region_max for d in ds if d.region_max], default=0),
        "abilities": tuple(a for d in ds for a in d.abilities if a.status != "declined"),
        "declined_abilities": tuple(a for d in ds for a in d.abilities if a.status != "active"),
        "lifts_pieces": any(
            p.lifted_at_redeploy and p.holder in ids for p in e.rules.pieces.values()
        ),
        "triggers": triggers,
    }


#: every rule set, and one with two caps and two floors (region_tokens max / min) to combine
PAIRING_SETS = {
    **RULE_SETS,
    "with_rules_v3": {"expansions": list(sw.available_expansions()), "paths": [TESTS / "rules_v3"]},
}


@pytest.mark.parametrize("how", list(PAIRING_SETS.values()), ids=list(PAIRING_SETS))
def test_pairings_bring_what_each_of_their_files_says(how: dict[str, object]) -> None:
    """A race and its power add up: their flags, links, reach, floors and caps, abilities,
    triggers and modifiers (the race's first, each file's in its own order; a modifier
    works while active, in decline or always as its file says). For no file, every race
    alone, with every power and with two, and a role's tokens, the pairing built in one
    pass over its files holds what each attribute's definition gives from them (also for
    files no game pairs, to combine two caps, floors or reaches)."""
    from smallworld_rules.dsl.vocabulary import HOOKS
    from smallworld_rules.engine.context import _Combo

    rules = sw.load_rules(**how)
    engine = sw.Game.new(players=3 if how.get("expansions") else 2, seed=0, rules=rules)._engine
    powers = sorted(rules.powers)
    pairings: list[tuple[Any, ...]] = [()]
    pairings += [(role.race,) for role in rules.roles.values()]
    every = [*engine.race_defs.values(), *rules.powers.values()]
    bounded = [d for d in every if d.region_max or d.region_min or d.reach != 1]
    for race in sorted(engine.race_defs):
        pairings.append((engine.race_defs[race],))
        # any files at all, as with a file that caps, floors or reaches (two to combine)
        pairings += [(engine.race_defs[race], d) for d in bounded]
        for i, power in enumerate(powers):
            for pair in ((power,), (power, powers[i - 1])):
                pairings.append((engine.race_defs[race], *(rules.powers[p] for p in pair)))
    found = 0
    for defs in pairings:
        combo = _Combo(engine, defs)
        for name, expected in _pairing_as_its_files_say(engine, defs).items():
            assert getattr(combo, name) == expected, name
        assert type(combo.flags) is frozenset
        for declined, got in ((False, combo.active_modifiers), (True, combo.declined_modifiers)):
            assert list(got) == list(HOOKS)
            for hook in HOOKS:
                modifiers = tuple(
                    m for d in defs for m in d.modifiers[hook] if m.applies_to(declined)
                )
                assert got[hook] == modifiers
                assert all(a is b for a, b in zip(got[hook], modifiers, strict=True))
                found += len(modifiers)
    assert found > 0


@pytest.mark.parametrize("how", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_race_modifiers_are_its_pairings_for_its_status(how: dict[str, object]) -> None:
    """A race's modifiers are its pairing's while it is active, those that work in decline
    once it is declined (the role's tokens, whose powers all work, included): on every
    position of seeded games, for every race in play and every hook, ``_modifiers`` (which
    looks the pairing up itself) gives the very tuple of the pairing ``_combo_of`` finds."""
    from smallworld_rules.dsl.vocabulary import HOOKS

    rules = sw.load_rules(**how)
    checked = 0
    for game in random_positions(rules, 6, (3, 4, 5) if how.get("expansions") else (2, 3, 4))[::3]:
        engine, state = game._engine, game._state
        for race, rs in state.races.items():
            combo = engine._combo_of(state, race)
            kept = combo.declined_modifiers if rs.declined else combo.active_modifiers
            for hook in HOOKS:
                assert engine._modifiers(state, race, hook) is kept[hook]
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("how", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_regions_of_a_race_are_those_holding_its_tokens(how: dict[str, object]) -> None:
    """A race's regions are those holding its tokens, in id order: on every position of
    seeded games, for every race in play (and one never in play), ``regions_of`` (reading
    the table of masks itself) gives exactly the regions the map shows it in, and the very
    tuple ``_occupied`` keeps for that mask."""
    rules = sw.load_rules(**how)
    checked = 0
    for game in random_positions(rules, 6, (3, 4, 5) if how.get("expansions") else (2, 3, 4))[::2]:
        engine, state = game._engine, game._state
        for race in [*state.races, "nobody"]:
            regions = engine.regions_of(state, race)
            assert regions == tuple(r for r in range(engine.n) if state.region_race[r] == race)
            assert regions is engine._occupied(state, race)[0]
            checked += len(regions)
    assert checked > 1000


def test_role_pairing_is_its_race_with_every_power_it_activated() -> None:
    """The Necromancer's powers all work, always (A20): on every position of seeded games,
    visited in play order, backwards and shuffled (so the role's last pairing is now the
    one wanted, now not), ``_combo_of`` gives his tokens the pairing of his token kind with
    exactly the powers he has activated, in the order he did."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    positions = random_positions(rules, 8, (4,))  # one engine: one player count
    engine = positions[0]._engine
    assert all(game._engine is engine for game in positions)
    mixed = positions[:]
    random.Random(7).shuffle(mixed)
    powers_seen = set()
    for game in [*positions, *reversed(positions), *mixed]:
        state = game._state
        race = engine.role_race
        assert race is not None
        combo = engine._combo_of(state, race)
        assert combo is engine._combo(race, state.role_powers)
        assert [d.id for d in combo.defs] == [race, *state.role_powers]
        powers_seen.add(state.role_powers)
    assert len(powers_seen) > 10
