"""Grand Dames of Small World (expansions/grand_dames/): the Gypsies (Nomads), who score the
regions they abandon and may not go back to them in the same turn.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Mountain 5
(edge, next to Farmland 1 only of these), Mountain 19 (edge); 1-2 and 2-3 border each other.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, first_round_on_the_2p_map, last_score

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    """The official rules, the Grand Dames box and the test-only rule files."""
    return sw.load_rules(expansions=["grand_dames"], paths=[TEST_RULES])


def second_turn(rules: sw.Rules) -> sw.Game:
    """Player 0's Gypsies (with Commando) hold Farmland 1 and Forest 2; player 1's Crowd
    Mountain 19; player 0's second turn begins."""
    game = sw.Game.new(players=2, seed=1, rules=rules,
                       combos=[("gypsies", "commando"), ("crowd", "plain2")])
    first_round_on_the_2p_map(game)
    return game


def test_gypsies_banner_and_box(box: sw.Rules) -> None:
    """Gypsies: the banner gives 6 tokens; the box holds 11."""
    race = box.races["gypsies"]
    assert (race.tokens, race.box) == (6, 11)


def test_gypsies_score_a_coin_for_each_abandoned_region(box: sw.Rules) -> None:
    """Gypsies: 1 bonus coin at the end of the turn for each region abandoned at its start
    (Farmland 1): Forest 2 and Swamp 3 held score 2, the abandon 1 more."""
    game = second_turn(box)
    game.apply(sw.Abandon(1))
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 2 + 1


def test_gypsies_score_no_bonus_without_an_abandon_edge(box: sw.Rules) -> None:
    """Gypsies (edge): a turn without an abandoned region scores the regions alone."""
    game = second_turn(box)
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 3


def test_gypsies_may_not_retake_an_abandoned_region_edge(box: sw.Rules) -> None:
    """Gypsies (edge): a region abandoned this turn may not be conquered again by them in
    the same turn: Farmland 1 is not offered and a Conquer of it is refused, the game
    unchanged; in their next turn they may take it again."""
    game = second_turn(box)
    game.apply(sw.Abandon(1))
    assert sw.Conquer(1) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.Conquer(1))
    assert game.to_json() == before
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1
    assert sw.Conquer(1) in game.legal_actions()
