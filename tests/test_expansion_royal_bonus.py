"""Royal Bonus (expansions/royal_bonus/): the items of the box the rule language can say
today.

Shrubmen: their Forest regions are immune to enemy conquests and powers, in decline too.
Aquatic: 1 bonus coin per region bordering a Sea or the Lake, 1 coin less per other region,
while active. The other items of the box wait for constructs the language lacks
(docs/expansions.md, expansions/CATALOGUE.toml).

2-player map: Farmland 1 (edge, by the Sea), Forest 2 (edge, by the Lake), Swamp 3 (edge,
Lost Tribe, inland), Hill 4 (edge, inland), Mountain 19 (edge), Hill 6 (by the Lake).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, last_score, new_game

import smallworld_rules as sw

# --------------------------------------------------------------------------- Shrubmen


def test_shrubmen_banner_and_box(royal: sw.Rules) -> None:
    """Shrubmen: the banner gives 6 tokens; the box holds 11."""
    race = royal.races["shrubmen"]
    assert (race.tokens, race.box) == (6, 11)


def shrubmen_in_forest(royal: sw.Rules, power: str) -> sw.Game:
    """Player 0's Shrubmen hold Farmland 1 and Forest 2; player 1 has picked Ratmen."""
    game = new_game(royal, [("shrubmen", "plain"), ("ratmen", power)])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Ratmen
    return game


def test_shrubmen_forest_cannot_be_conquered(royal: sw.Rules) -> None:
    """Shrubmen: their Forest is no target for an enemy conquest (refused, not listed); their
    Farmland is."""
    game = shrubmen_in_forest(royal, "plain2")
    legal = game.legal_actions()
    assert sw.Conquer(1) in legal and sw.Conquer(2) not in legal
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.Conquer(2))
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "ratmen"


def test_shrubmen_forest_is_immune_to_powers_edge(royal: sw.Rules) -> None:
    """Shrubmen (edge): the Forest is immune to special powers too: the Dragon cannot attack
    it; the Farmland it can."""
    game = shrubmen_in_forest(royal, "dragon_master")
    legal = game.legal_actions()
    assert sw.UseAbility("dragon_attack", 2) not in legal
    assert sw.UseAbility("dragon_attack", 1) in legal
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("dragon_attack", 2))


def test_shrubmen_forest_stays_immune_in_decline_edge(royal: sw.Rules) -> None:
    """Shrubmen (edge): in decline their Forest is still immune."""
    game = shrubmen_in_forest(royal, "plain2")
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # player 0's Shrubmen go into decline
    assert game.region(2).race == "shrubmen" and game.region(2).declined
    assert sw.Conquer(2) not in game.legal_actions()


# --------------------------------------------------------------------------- Aquatic


def test_aquatic_badge(royal: sw.Rules) -> None:
    """Aquatic: the badge gives 3 tokens."""
    assert royal.powers["aquatic"].tokens == 3
    game = new_game(royal, [("ratmen", "aquatic"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 3


def test_aquatic_scores_by_the_water(royal: sw.Rules) -> None:
    """Aquatic: two regions by the water (Farmland 1 by the Sea, Forest 2 by the Lake) and one
    inland (Swamp 3) score 3 + 2 - 1 = 4."""
    game = new_game(royal, [("ratmen", "aquatic"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 3):
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 4


def test_aquatic_inland_scores_nothing_edge(royal: sw.Rules) -> None:
    """Aquatic (edge): two inland regions (Swamp 3, Hill 4) score 2 - 2 = 0."""
    game = new_game(royal, [("ratmen", "aquatic"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 0
