"""Small World Underground (expansions/underground/): the items whose rules are about the
turn's flow, the decline, adjacency and the connectivity of a race's regions.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge),
Mountain 5 (edge), Mountain 19 (edge), Swamp 20 (edge), Forest 21 (edge); 1-2, 2-3, 3-4 and
19-20-21 border one another, 1 and 4 do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end

import smallworld_rules as sw
from smallworld_rules.events import Scored

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def underground() -> sw.Rules:
    """The official rules, the Underground box and the test-only rule files."""
    return sw.load_rules(expansions=["underground"], paths=[TEST_RULES])


def last_score(game: sw.Game, player: int) -> Scored:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]


def holding(rules: sw.Rules, power: str, regions: list[int]) -> sw.Game:
    """Player 0's Skeletons with the power hold one token on each of ``regions`` (set up with
    ``put``), the rest of the tokens on the first of them, and end the turn."""
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("skeletons", power)])
    game.apply(sw.PickCombo(0))
    for region in regions:
        game.put(region, 0, 1)
    deploy_all_and_end(game)
    return game


# --------------------------------------------------------------------------- Flocking


def test_flocking_badge(underground: sw.Rules) -> None:
    """Flocking: the badge gives 5 tokens."""
    assert underground.powers["flocking"].tokens == 5


def test_flocking_scores_two_for_one_connected_group(underground: sw.Rules) -> None:
    """Flocking: 2 bonus coins when all the race's regions form a single group of adjacent
    regions (Farmland 1, Forest 2 and Swamp 3 in a chain)."""
    game = holding(underground, "flocking", [1, 2, 3])
    assert last_score(game, 0).coins == 3 + 2


def test_flocking_scores_nothing_for_two_groups_edge(underground: sw.Rules) -> None:
    """Flocking (edge): Farmland 1 and Hill 4 do not border each other, nor does any region
    the race holds join them: two groups, no bonus."""
    game = holding(underground, "flocking", [1, 4])
    assert last_score(game, 0).coins == 2


def test_flocking_scores_nothing_in_decline_edge(underground: sw.Rules) -> None:
    """Flocking (edge): the bonus is for a race that is not in decline; the decline turn
    scores the regions alone and the badge is discarded."""
    game = holding(underground, "flocking", [1, 2])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert last_score(game, 0).coins == 2
    assert not underground.powers["flocking"].works_in_decline


# --------------------------------------------------------------------------- Vanishing


def test_vanishing_badge(underground: sw.Rules) -> None:
    """Vanishing: the badge gives 5 tokens."""
    assert underground.powers["vanishing"].tokens == 5


def test_vanishing_takes_every_token_off_for_two_coins_a_region(underground: sw.Rules) -> None:
    """Vanishing: going into decline, every token of the race leaves the map and its player
    collects 2 coins per region they occupied (3 regions: 6 coins); the race leaves the game
    and nothing of it is scored in the decline turn."""
    game = holding(underground, "vanishing", [1, 2, 3])
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert not any(game.region(r).race == "skeletons" for r in range(len(game.map.regions)))
    assert game.declined_races(0) == []
    assert game.active_race(0) is None
    assert game.coins(0) == coins + 6 + 0


def test_vanishing_leaves_the_previous_declined_race_gone_too_edge(underground: sw.Rules) -> None:
    """Vanishing (edge): the previous race in decline leaves as in every decline (one
    race in decline at most), so the player then has no race on the map at all."""
    game = sw.Game.new(players=2, seed=1, rules=underground,
                       combos=[("ratmen", "plain"), ("crowd", "plain2"),
                               ("skeletons", "vanishing")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # the Ratmen decline on Farmland 1
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 0: Skeletons + Vanishing
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    held = {game.region(r).race for r in range(len(game.map.regions))}
    assert not held & {"ratmen", "skeletons"}
    assert not game.declined_races(0) and game.active_race(0) is None
    assert game.coins(0) == coins + 2
