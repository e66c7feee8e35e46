"""Grand Dames of Small World (expansions/grand_dames/): the Priestesses, who gather into an
Ivory Tower as they decline.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Mountain 19
(edge); 1-2 and 2-3 border each other.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, last_score

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    """The official rules, the Grand Dames box and the test-only rule files."""
    return sw.load_rules(expansions=["grand_dames"], paths=[TEST_RULES])


def declining(rules: sw.Rules, regions: tuple[int, ...] = (1, 2, 3)) -> sw.Game:
    """Player 0's Priestesses (with Commando) take ``regions``, player 1's Crowd Mountain 19,
    and player 0 declines in place of expanding."""
    game = sw.Game.new(players=2, seed=1, rules=rules,
                       combos=[("priestesses", "commando"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    for region in regions:
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    return game


def test_priestesses_banner_and_box(box: sw.Rules) -> None:
    """Priestesses: the banner gives 4 tokens; the box holds 9."""
    race = box.races["priestesses"]
    assert (race.tokens, race.box) == (4, 9)


def test_priestesses_gather_into_the_ivory_tower(box: sw.Rules) -> None:
    """Priestesses: going into decline, one Priestess of each region is stacked in one
    region the player chooses (the Ivory Tower); the other regions are left empty; the
    decline turn scores 1 coin per Priestess in the Tower."""
    game = declining(box)
    assert game.phase is sw.Phase.REDEPLOY and game.to_move == 0
    assert set(game.legal_actions()) == {sw.UseAbility("ivory_tower", r) for r in (1, 2, 3)}
    coins = game.coins(0)
    game.apply(sw.UseAbility("ivory_tower", 2))
    assert list(game.legal_actions()) == [sw.EndTurn()]
    game.apply(sw.EndTurn())
    assert (game.region(2).tokens, game.region(2).declined) == (3, True)
    assert game.region(1).race is None and game.region(3).race is None
    assert game.coins(0) == coins + 3 and last_score(game, 0).coins == 3


def test_priestesses_must_raise_the_tower_edge(box: sw.Rules) -> None:
    """Priestesses (edge): the turn is not scored before the Tower is raised: EndTurn is
    refused with the reason, the game unchanged."""
    game = declining(box)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="use ivory_tower first"):
        game.apply(sw.EndTurn())
    assert game.to_json() == before


def test_priestesses_tower_scores_its_tokens_each_turn(box: sw.Rules) -> None:
    """Priestesses: in the turns after, the Tower scores 1 coin per Priestess in it (3, not
    1 for its region)."""
    game = declining(box)
    game.apply(sw.UseAbility("ivory_tower", 2))
    game.apply(sw.EndTurn())
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # player 0's new race
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    score = last_score(game, 0)
    assert dict((race, coins) for race, coins, _ in score.details)["priestesses"] == 3


def test_priestesses_with_one_region_have_nothing_to_gather_edge(box: sw.Rules) -> None:
    """Priestesses (edge): with a single region there is nothing to gather: the decline turn
    is scored at once, that region the Tower."""
    game = declining(box, regions=(1,))
    assert game.to_move == 1
    assert game.region(1).declined and game.region(1).tokens == 1
