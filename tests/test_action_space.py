"""The fixed action space: every action has one index and back, and the legal mask is
exactly the legal actions (docs/ai.md, "The action space")."""

from __future__ import annotations

import random

import pytest

import smallworld_rules as sw
from smallworld_rules.action_space import action_space


def _random_games(expansions: list[str], players: tuple[int, ...], games: int) -> list[sw.Game]:
    rules = sw.load_rules(expansions=expansions)
    return [
        sw.Game.new(players=players[k % len(players)], seed=k, rules=rules, chance="explicit")
        for k in range(games)
    ]


@pytest.mark.parametrize(
    ("expansions", "players"),
    [([], (2, 3, 4, 5)), (["necromancer_island"], (3, 4, 5, 6))],
    ids=["base", "necromancer_island"],
)
def test_every_legal_action_round_trips_and_the_mask_is_the_legal_actions(
    expansions: list[str], players: tuple[int, ...]
) -> None:
    """Every legal action of many random games maps to one index and back, and legal_mask
    has a 1 exactly at the indices of the legal actions."""
    seen: set[str] = set()
    for game in _random_games(expansions, players, 24):
        rng = random.Random(game.seed)
        size = action_space(game).size
        while not game.is_over:
            legal = list(game.legal_actions())
            indices = [game.action_index(a) for a in legal]
            assert [game.action_at(i) for i in indices] == legal
            assert len(set(indices)) == len(legal)
            mask = game.legal_mask()
            assert len(mask) == size
            assert [i for i, bit in enumerate(mask) if bit] == sorted(indices)
            seen.update(type(a).__name__ for a in legal)
            game.apply(legal[rng.randrange(len(legal))])
    assert {"PickCombo", "Conquer", "Deploy", "EndTurn", "RollDie", "Decline"} <= seen
    if expansions:
        assert {"ChoosePower", "Purchase"} <= seen


def test_the_space_is_fixed_by_the_set_up() -> None:
    """Two games of the same rules, map and players number every action the same way, and
    the numbering does not change as a game is played."""
    first, second = sw.Game.new(players=3, seed=1), sw.Game.new(players=3, seed=99)
    before = [first.action_at(i) for i in range(action_space(first).size)]
    first.apply(first.legal_actions()[0])
    assert [first.action_at(i) for i in range(action_space(first).size)] == before
    assert [second.action_at(i) for i in range(action_space(second).size)] == before


def test_every_index_round_trips() -> None:
    """action_index(action_at(i)) == i for every index of the space."""
    game = sw.Game.new(players=4, seed=2, rules=sw.load_rules(expansions=["necromancer_island"]))
    space = action_space(game)
    assert all(game.action_index(game.action_at(i)) == i for i in range(space.size))


def test_deploy_counts_go_up_to_the_largest_supply() -> None:
    """The deploy cap is the largest token supply of the rules: Deploy(r, cap) has a slot,
    Deploy(r, cap + 1) has none."""
    game = sw.Game.new(players=2, seed=1)
    cap = action_space(game).deploy_cap
    assert cap == max(race.box for race in game.rules.races.values())
    game.action_index(sw.Deploy(0, cap))
    with pytest.raises(sw.RulesError, match="no index"):
        game.action_index(sw.Deploy(0, cap + 1))


@pytest.mark.parametrize(
    "action",
    [sw.Conquer(10_000), sw.UseAbility("no_such_ability"), sw.PickCombo(6), "Conquer(1)",
     sw.PickCombo(True)],
)
def test_an_action_without_a_slot_is_refused(action: object) -> None:
    """An action the space cannot hold (a region off the map, an unknown ability, a seventh
    combo, not an action at all) is refused with RulesError."""
    game = sw.Game.new(players=2, seed=1)
    with pytest.raises(sw.RulesError):
        game.action_index(action)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [-1, 10_000, True, 1.0, "0"])
def test_a_bad_index_is_refused(index: object) -> None:
    """action_at takes an integer index of the space, and says so otherwise."""
    game = sw.Game.new(players=2, seed=1)
    with pytest.raises(sw.RulesError, match="action index"):
        game.action_at(index)  # type: ignore[arg-type]


def test_the_blocks_tile_the_space() -> None:
    """The documented blocks follow one another with no gap and cover every index."""
    space = action_space(sw.Game.new(players=5, seed=1))
    start = 0
    for _, first, slots in space.blocks:
        assert first == start
        start += slots
    assert start == space.size
    names = [name for name, _, _ in space.blocks]
    assert names[:8] == ["PickCombo", "Decline", "EndTurn", "Abandon", "Conquer",
                         "ConquerWithDie", "Deploy", "RollDie"]


def test_the_docs_table_lists_every_block() -> None:
    """docs/ai.md documents the blocks in the order of the space (with the expansions'
    blocks: Necromancer Island's role, A Spider's Web's face-down pieces)."""
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    table = page.split("## The action space", 1)[1].split("## Observation tensors", 1)[0]
    documented = [line.split("`")[1].split("(")[0] for line in table.splitlines()
                  if line.startswith("| `")]
    rules = sw.load_rules(expansions=["necromancer_island", "spiders_web"])
    space = action_space(sw.Game.new(players=3, seed=1, rules=rules))
    kinds = []
    for name, _, _ in space.blocks:
        kind = name.split()[0]
        if kind not in kinds:
            kinds.append(kind)
    assert documented == kinds
