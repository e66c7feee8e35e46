"""Small World Underground (expansions/underground/), played on the base maps: the items
written with the rule language's constructs for conquest costs and coins.

Iron Dwarves: at the end of each turn a Silver Hammer per Mine region held; in a later
conquest each Hammer spent on a region makes its conquest cost 1 token less (at least 1).

2-player map: Forest 2 (edge, Mine), Swamp 3 (edge, Lost Tribe), Hill 4 (edge), Mountain 5
(edge, Mine), Mountain 19 (edge).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def underground() -> sw.Rules:
    """The official rules, the Underground box and the test-only rule files."""
    return sw.load_rules(expansions=["underground"], paths=[TEST_RULES])


def picked(rules: sw.Rules, race: str, power: str = "plain") -> sw.Game:
    game = new_game(rules, [(race, power), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def abilities(game: sw.Game, name: str) -> list[sw.UseAbility]:
    return [
        a for a in game.legal_actions() if isinstance(a, sw.UseAbility) and a.name == name
    ]


def next_turn(game: sw.Game) -> None:
    """Player 0 ends the turn; the other player enters at Mountain 19 and ends his."""
    deploy_all_and_end(game)
    if game.to_move == 1:
        if sw.PickCombo(0) in game.legal_actions():
            game.apply(sw.PickCombo(0))
            game.apply(sw.Conquer(19))
        deploy_all_and_end(game)
    assert game.to_move == 0


def test_iron_dwarves_banner_and_box(underground: sw.Rules) -> None:
    """Iron Dwarves: the banner gives 7 tokens; the box holds 12."""
    race = underground.races["iron_dwarves"]
    assert (race.tokens, race.box) == (7, 12)
    assert picked(underground, "iron_dwarves").hand(0) == 7


def test_iron_dwarves_hammer_per_mine_lowers_a_conquest_by_one(underground: sw.Rules) -> None:
    """Iron Dwarves: 2 Mine regions held at the end of the turn give 2 Silver Hammers; next
    turn each spent on Swamp 3 (2 + 1 Lost Tribe) lowers its cost by 1, and once both are
    spent none is left."""
    game = picked(underground, "iron_dwarves")
    assert abilities(game, "strike") == []  # no Hammer yet
    game.put(2, 0, 1)
    game.put(5, 0, 1)
    game.apply(sw.Conquer(1))
    next_turn(game)
    assert game.conquest_cost(3) == 3
    game.apply(sw.UseAbility("strike", 3))
    assert game.conquest_cost(3) == 2
    game.apply(sw.UseAbility("strike", 3))
    assert game.conquest_cost(3) == 1
    assert abilities(game, "strike") == []
    game.apply(sw.Conquer(3))


def test_iron_dwarves_minimum_of_one_token(underground: sw.Rules) -> None:
    """Iron Dwarves: a minimum of 1 token is still required: 3 Hammers (from 3 Mines) on
    Swamp 3 (2 + 1 Lost Tribe) leave it at 1."""
    game = picked(underground, "iron_dwarves")
    for mine in (2, 5, 18):
        game.put(mine, 0, 1)
    game.apply(sw.Conquer(1))
    next_turn(game)
    for _ in range(3):
        game.apply(sw.UseAbility("strike", 3))
    assert game.explain_conquest_cost(3).clamped_from == 0
    assert game.conquest_cost(3) == 1


def test_iron_dwarves_hammers_come_at_the_end_of_the_turn(underground: sw.Rules) -> None:
    """Iron Dwarves: a Mine conquered this turn gives its Hammer only at the end of the
    turn, so it lowers no conquest of the same turn."""
    game = picked(underground, "iron_dwarves")
    game.apply(sw.Conquer(2))
    assert abilities(game, "strike") == []
