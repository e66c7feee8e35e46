"""A Spider's Web (expansions/spiders_web/): the Slingmen, who conquer over one region and
earn a coin for each such conquest.

2-player map: Farmland 1 (edge) borders the Sea 0, Forest 2, Mountain 5 and Hill 6; Forest 2
borders Swamp 3 (edge, Lost Tribe), Lake 7 and Mountain 8; Hill 6 borders Hill 12; Swamp 3
borders Hill 4 (edge) and Farmland 9, which is three borders from Farmland 1.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end

import smallworld_rules as sw


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    """The official rules and the A Spider's Web box."""
    return sw.load_rules(expansions=["spiders_web"])


def slingmen(rules: sw.Rules) -> sw.Game:
    """Player 0's Slingmen (with Commando) enter on Farmland 1."""
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("slingmen", "commando")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    return game


def conquerable(game: sw.Game) -> set[int]:
    return {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}


def test_slingmen_banner_and_box(box: sw.Rules) -> None:
    """Slingmen: the banner gives 5 tokens; the box holds 10."""
    race = box.races["slingmen"]
    assert (race.tokens, race.box) == (5, 10)


def test_slingmen_conquer_over_one_region(box: sw.Rules) -> None:
    """Slingmen: from Farmland 1 they may conquer a region beyond one that borders it
    (Swamp 3 and Mountain 8 beyond Forest 2, Hill 12 beyond Hill 6), not three borders away
    (Farmland 9)."""
    game = slingmen(box)
    assert {2, 3, 5, 6, 8, 12} <= conquerable(game)
    assert 9 not in conquerable(game) and 4 not in conquerable(game)


def test_slingmen_earn_a_coin_for_each_conquest_over_a_region(box: sw.Rules) -> None:
    """Slingmen: each conquest of a region not adjacent to theirs earns 1 victory coin at
    once (Swamp 3 from Farmland 1), on top of the turn's score."""
    game = slingmen(box)
    coins = game.coins(0)
    game.apply(sw.Conquer(3))
    assert game.coins(0) == coins + 1
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 1 + 2


def test_slingmen_earn_nothing_next_to_their_regions_edge(box: sw.Rules) -> None:
    """Slingmen (edge): a conquest next to one of their regions earns nothing (Forest 2
    next to Farmland 1, then Hill 4 next to Swamp 3 once Swamp 3 is theirs), nor does the
    conquest that enters the map."""
    game = sw.Game.new(players=2, seed=1, rules=box, combos=[("slingmen", "commando")])
    game.apply(sw.PickCombo(0))
    coins = game.coins(0)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    assert game.coins(0) == coins
    game.apply(sw.Conquer(3))
    game.apply(sw.Conquer(4))
    assert game.coins(0) == coins
