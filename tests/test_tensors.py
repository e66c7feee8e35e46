"""Observation tensors: a fixed layout, the position's numbers in it, and no secret in a
player's view (docs/ai.md, "Observation tensors")."""

from __future__ import annotations

import random

import pytest

import smallworld_rules as sw
from smallworld_rules.tensors import observation_tensor, tensor_layout


def _played(players: int, seed: int, actions: int, expansions: tuple[str, ...] = ()) -> sw.Game:
    game = sw.Game.new(players=players, seed=seed, rules=sw.load_rules(expansions=expansions))
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        legal = list(game.legal_actions())
        game.apply(legal[rng.randrange(len(legal))])
    return game


def _restacked(game: sw.Game) -> sw.Game:
    """The same new game with the unseen stacks in another order."""
    state = game._state
    visible = [(race, power) for race, power, _ in game.market]
    hidden = list(zip(state.race_stack, state.power_stack, strict=False))
    other = sw.Game.new(players=game.players, seed=game.seed, combos=visible + hidden[::-1])
    assert list(other._state.race_stack) != list(state.race_stack)
    return other


def test_the_players_view_does_not_show_the_stack_order() -> None:
    """The order of the combo stacks is secret: two games differing only in it give every
    player the same tensor, and different perfect-information tensors."""
    game = sw.Game.new(players=3, seed=5)
    other = _restacked(game)
    for player in range(3):
        assert observation_tensor(game, player) == observation_tensor(other, player)
        assert observation_tensor(game, player, "public") == observation_tensor(
            other, player, "public")
        assert observation_tensor(game, player, "perfect") != observation_tensor(
            other, player, "perfect")


def test_the_players_view_does_not_show_other_players_coins() -> None:
    """Victory coins are kept face down: changing another player's coins leaves a player's
    tensor as it was; changing the player's own coins does not."""
    game = _played(2, 3, 40)
    # set_coins edits the position between turns
    while game.phase not in (sw.Phase.PICK, sw.Phase.CONQUEST) or (
        game._state.acted or game._state.withdrawals
    ):
        game.apply(game.legal_actions()[0])
    richer = game.clone()
    richer.set_coins(1, game.coins(1) + 17)
    assert observation_tensor(game, 0) == observation_tensor(richer, 0)
    assert observation_tensor(game, 1) != observation_tensor(richer, 1)
    assert observation_tensor(game, 0, "perfect") != observation_tensor(richer, 0, "perfect")
    # The public view hides even the observer's own coins.
    assert observation_tensor(game, 1, "public") == observation_tensor(richer, 1, "public")


def test_the_numbers_are_the_position() -> None:
    """Each section holds what the game says: tokens and owners of regions, hands, coins."""
    game = _played(3, 11, 60)
    layout = tensor_layout(game)
    tensor = observation_tensor(game, 1)
    assert len(tensor) == layout.size
    players = game.players
    terrains, features = len(layout.terrains), len(layout.features)
    for r, row in enumerate(layout.section(tensor, "regions")):
        view = game.region(r)
        owner = row[terrains + features:terrains + features + players]
        assert owner == [float(view.owner == p) for p in range(players)]
        lost, declined, tokens = row[terrains + features + players:][:3]
        assert (lost, declined, tokens) == (view.lost_tribe, view.declined, view.tokens)
        assert row[layout.terrains.index(view.terrain)] == 1.0
    rows = layout.section(tensor, "players")
    for p, row in enumerate(rows):
        coins, known, hand, on_map = row[:4]
        assert known == float(p == 1)
        assert coins == (game.coins(p) if p == 1 else 0)
        assert (hand, on_map) == (game.hand(p), game.tokens_on_map(p))
    assert layout.section(tensor, "observer") == [0.0, 1.0, 0.0]
    assert layout.section(tensor, "round") == [game.round, game.map.turns]
    phase = layout.section(tensor, "phase")
    assert phase[list(sw.Phase).index(game.phase)] == 1.0 and sum(phase) == 1


def test_the_perfect_view_shows_the_stacks_in_order() -> None:
    """The perfect-information view lists the stacks top first, one-hot per position."""
    game = sw.Game.new(players=2, seed=4)
    layout = tensor_layout(game, "perfect")
    tensor = observation_tensor(game, 0, "perfect")
    rows = layout.section(tensor, "race_stack")
    stack = list(game._state.race_stack)
    for slot, row in enumerate(rows):
        expected = stack[slot] if slot < len(stack) else None
        assert row == [float(kind == expected) for kind in layout.kinds]


def test_a_roles_reserve_is_its_own_secret() -> None:
    """A role's reserved powers are private: the role's seat sees them, no other seat does,
    and the perfect view shows them."""
    game = sw.Game.new(players=3, seed=2, rules=sw.load_rules(expansions=["necromancer_island"]))
    role = game._engine.role_seat
    other = (role + 1) % game.players
    layout = tensor_layout(game)
    assert sum(layout.section(observation_tensor(game, role), "role_reserve")) > 0
    assert sum(layout.section(observation_tensor(game, other), "role_reserve")) == 0
    perfect = tensor_layout(game, "perfect")
    assert sum(perfect.section(observation_tensor(game, other, "perfect"), "role_reserve")) > 0


@pytest.mark.parametrize(("players", "expansions"), [(2, ()), (5, ()),
                                                     (6, ("necromancer_island",))])
def test_the_layout_is_fixed_by_the_set_up(players: int, expansions: tuple[str, ...]) -> None:
    """Every position of a game has a tensor of the layout's size, in every view."""
    game = sw.Game.new(players=players, seed=1, rules=sw.load_rules(expansions=expansions))
    rng = random.Random(1)
    sizes = {view: tensor_layout(game, view).size for view in ("player", "public", "perfect")}
    steps = 0
    while not game.is_over and steps < 300:
        for view, size in sizes.items():
            assert len(observation_tensor(game, steps % players, view)) == size
        legal = list(game.legal_actions())
        game.apply(legal[rng.randrange(len(legal))])
        steps += 1


def test_bad_views_and_sections_are_refused() -> None:
    """An unknown view or section is refused with the list of known ones."""
    game = sw.Game.new(players=2, seed=1)
    with pytest.raises(sw.RulesError, match="player, public, perfect"):
        observation_tensor(game, 0, "everything")
    with pytest.raises(sw.RulesError, match="sections: observer"):
        tensor_layout(game).section(observation_tensor(game, 0), "nothing")


def test_the_docs_table_lists_every_section() -> None:
    """docs/ai.md documents each section of the perfect view's layout, in order."""
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    table = page.split("## Observation tensors", 1)[1].split("\n## ", 1)[0]
    documented = [line.split("`")[1] for line in table.splitlines()
                  if line.startswith("| `")]
    views = documented[:3]
    sections = documented[3:]
    assert [v.strip('"') for v in views] == ["player", "public", "perfect"]
    layout = tensor_layout(sw.Game.new(players=2, seed=1), "perfect")
    assert sections == [name for name, _ in layout.sections]
