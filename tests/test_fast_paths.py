"""The engine's fast paths give exactly what the general code gives.

Playouts take shortcuts the explained results do not (a conquest cost as a bare int, cached
tables per race/badge pairing); these tests compare both on the positions of seeded random
games, with the official rules and with the test rule files.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules.state import Phase

TEST_RULES = Path(__file__).parent / "rules"


def positions(rules: sw.Rules, games: int) -> list[sw.Game]:
    """Clones of every position of seeded random games (2 to 4 players)."""
    out = []
    for seed in range(games):
        game = sw.Game.new(players=2 + seed % 3, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            out.append(game.clone())
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    return out


@pytest.mark.parametrize("paths", [[], [TEST_RULES]], ids=["official", "test_rules"])
def test_conquest_cost_value_is_the_breakdown_value(paths: list[Path]) -> None:
    rules = sw.load_rules(paths=paths)
    checked = 0
    for game in positions(rules, 12):
        engine, state = game._engine, game._state
        if state.phase is not Phase.CONQUEST:
            continue
        for race in state.races:
            for region in range(engine.n):
                expected = engine.conquest_cost(state, race, region).value
                assert engine.conquest_cost_value(state, race, region) == expected
                checked += 1
    assert checked > 1000
