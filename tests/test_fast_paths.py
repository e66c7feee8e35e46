"""The engine's fast paths give exactly what the general code gives.

Playouts take shortcuts the explained results do not (a conquest cost as a bare int, cached
tables per race/badge pairing); these tests compare both on the positions of seeded random
games, with the official rules and with the test rule files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import random_positions

import smallworld_rules as sw
from smallworld_rules.state import Phase

TEST_RULES = Path(__file__).parent / "rules"
TEST_RULES_V3 = Path(__file__).parent / "rules_v3"


@pytest.mark.parametrize("paths", [[], [TEST_RULES]], ids=["official", "test_rules"])
def test_conquest_cost_value_is_the_breakdown_value(paths: list[Path]) -> None:
    rules = sw.load_rules(paths=paths)
    checked = 0
    for game in random_positions(rules, 12, (2, 3, 4)):
        engine, state = game._engine, game._state
        if state.phase is not Phase.CONQUEST:
            continue
        for race in state.races:
            for region in range(engine.n):
                expected = engine.conquest_cost(state, race, region).value
                assert engine.conquest_cost_value(state, race, region) == expected
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize(
    "how",
    [{}, {"paths": [TEST_RULES]}, {"paths": [TEST_RULES_V3]}, {"expansions": "all"}],
    ids=["official", "test_rules", "rules_v3", "expansions"],
)
def test_listed_abilities_are_those_ability_problem_allows(how: dict[str, object]) -> None:
    """A race's abilities are listed as legal exactly when they may be used on that target
    now: the listing (which makes the checks that do not depend on the target once per
    ability) gives, in the same order, every UseAbility that ``ability_problem`` accepts
    among all targets."""
    if how.get("expansions") == "all":
        rules = sw.load_rules(expansions=sw.available_expansions())
    else:
        rules = sw.load_rules(**how)  # type: ignore[arg-type]
    listed = 0
    players = (3, 4, 5) if how.get("expansions") else (2, 3, 4, 5)
    for game in random_positions(rules, 12, players):
        engine, state = game._engine, game._state
        phase = state.phase
        if phase is Phase.WITHDRAWAL:
            acting = state.withdrawals[0]
        elif phase in (Phase.CONQUEST, Phase.REDEPLOY) and state.acting is not None:
            acting = state.acting
        else:
            continue
        rs = state.races[acting]
        expected = []
        for ability in engine.abilities(state, acting):
            if phase.value not in ability.phases:
                continue
            if not ability.target:
                targets: list[int | None] = [None]
            else:
                top = engine.players if ability.target == "player" else engine.n
                targets = list(range(top))
            for target in targets:
                if engine.ability_problem(state, rs, ability, target) is None:
                    expected.append(sw.UseAbility(ability.name, target))
        assert engine._ability_actions(state, rs, phase) == expected
        listed += len(expected)
    assert listed > 20


def test_event_to_dict_is_what_attrs_asdict_gives() -> None:
    """A log event's saved form is ``{"type": name, **fields}``: the per-class field list the
    save uses gives exactly ``attrs.asdict``'s dict, and reads back to the same event."""
    import attrs

    from smallworld_rules.events import event_from_dict

    rules = sw.load_rules(expansions=sw.available_expansions())
    kinds = set()
    for game in random_positions(rules, 6, (3, 4, 5)):
        for event in game.log:
            expected = {"type": type(event).__name__, **attrs.asdict(event)}
            assert repr(event.to_dict()) == repr(expected)
            assert event_from_dict(event.to_dict()) == event
            kinds.add(type(event).__name__)
    assert len(kinds) >= 12


@pytest.mark.parametrize("depth", [1, 2, 23, 24, 25, 40])
def test_check_depth_refuses_exactly_what_is_nested_too_deep(depth: int) -> None:
    """A saved game's lists and objects may nest 24 levels deep and no deeper, whether the
    deepest branch is a list or an object and wherever it sits among shallow siblings (each
    wrapper here holds an empty container too, one level below it)."""
    from smallworld_rules.saved import MAX_JSON_DEPTH, check_depth

    for wrap in (lambda v: [1, "x", v, {}], lambda v: {"a": 1, "b": [], "c": v}):
        data: object = 7
        for _ in range(depth):
            data = wrap(data)
        if depth + 1 > MAX_JSON_DEPTH:
            with pytest.raises(sw.RulesError, match="nested more than 24"):
                check_depth(data, "test")
        else:
            check_depth(data, "test")
    cyclic: list[object] = [1]
    cyclic.append(cyclic)
    with pytest.raises(sw.RulesError, match="nested more than"):
        check_depth(cyclic, "test")


def test_shuffle_draws_what_randbelow_draws() -> None:
    """The seeded shuffle (Fisher–Yates with the game's generator written out) leaves the
    items and the generator exactly as drawing each position with ``randbelow`` does."""
    import random

    from smallworld_rules import rng

    source = random.Random(5)
    for _ in range(2000):
        state, n = source.getrandbits(64), source.randrange(0, 40)
        drawn, shuffled = list(range(n)), list(range(n))
        expected = state
        for i in range(n - 1, 0, -1):
            expected, j = rng.randbelow(expected, i + 1)
            drawn[i], drawn[j] = drawn[j], drawn[i]
        assert rng.shuffle(state, shuffled) == expected
        assert shuffled == drawn
