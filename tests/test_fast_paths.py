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
