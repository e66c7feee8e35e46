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
