"""The fast paths of the roles, pairings and abilities give what the general code gives.

Each test compares a shortcut the legal actions take (a role's purchases listed without a
message per refusal, a pairing looked up without its key, …) with the general code it stands
for, on every position of seeded random games.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules.actions import Purchase

TESTS = Path(__file__).parent
#: The official rules, every folder of test rule files, Necromancer Island, every expansion.
RULE_SETS = {
    "official": {},
    **{
        folder.name: {"paths": [folder]}
        for folder in sorted(TESTS.glob("rules*"))
        if folder.is_dir() and any(folder.glob("**/*.swr"))
    },
    "necromancer_island": {"expansions": ["necromancer_island"]},
    "expansions": {"expansions": "all"},
}


def _rules(how: dict[str, object]) -> sw.Rules:
    if how.get("expansions") == "all":
        return sw.load_rules(expansions=sw.available_expansions())
    return sw.load_rules(**how)  # type: ignore[arg-type]


def _positions(
    rules: sw.Rules, games: int, players: tuple[int, ...], options: dict[str, int] | None = None
) -> list[sw.Game]:
    """Clones of every position of seeded uniformly random games."""
    out = []
    for seed in range(games):
        game = sw.Game.new(
            players=players[seed % len(players)], seed=seed, rules=rules, options=options
        )
        rng = random.Random(seed)
        while not game.is_over:
            out.append(game.clone())
            acts = list(game.legal_actions())
            game.apply(acts[rng.randrange(len(acts))])
    return out


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
    for game in _positions(rules, 8, (3, 4, 5, 6), options):
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
