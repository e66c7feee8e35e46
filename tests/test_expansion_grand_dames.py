"""Grand Dames of Small World (expansions/grand_dames/): the items of the box the rule
language can say today.

Historian: 1 coin for each race in decline on the map when the combo is taken, and 1 coin
each time a race goes into decline while the race is active, its own decline included.
Peace-loving: 3 bonus coins at the end of a turn in which the race conquered no region of
another player's active race. The other items of the box wait for constructs the language
lacks, or for sources that agree (docs/expansions.md, expansions/CATALOGUE.toml).

2-player map: Farmland 1 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge), Mountain 19
(edge), Swamp 20 (edge), Forest 21.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, last_score, new_game

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def dames() -> sw.Rules:
    """The official rules, the Grand Dames box and the test-only rule files."""
    return sw.load_rules(expansions=["grand_dames"], paths=[TEST_RULES])


def conquer_and_end(game: sw.Game, region: int) -> None:
    game.apply(sw.Conquer(region))
    deploy_all_and_end(game)


# --------------------------------------------------------------------------- Historian


def test_historian_badge(dames: sw.Rules) -> None:
    """Historian: the badge gives 5 tokens."""
    assert dames.powers["historian"].tokens == 5
    game = new_game(dames, [("ratmen", "historian"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 5


def test_historian_pays_for_the_races_in_decline_when_taken(dames: sw.Rules) -> None:
    """Historian: taking the combo earns 1 coin per race in decline on the map, anyone's: the
    opponent's declined Humans and the player's own declined Orcs make 2."""
    game = new_game(dames, [("ratmen", "historian"), ("crowd", "plain2")])
    game.put(4, 1, 2, declined=True, race="humans")
    game.put(19, 0, 1, declined=True, race="orcs")
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))
    assert game.coins(0) == coins + 2


def test_historian_lost_tribes_are_no_race_in_decline_edge(dames: sw.Rules) -> None:
    """Historian (edge): with no race in decline the combo earns nothing; the Lost Tribes on
    the map are not races in decline."""
    game = new_game(dames, [("ratmen", "historian"), ("crowd", "plain2")])
    assert game.region(3).lost_tribe
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))
    assert game.coins(0) == coins


def test_historian_earns_for_every_decline(dames: sw.Rules) -> None:
    """Historian: the opponent's race going into decline earns 1 coin at once; the Historian's
    own race going into decline earns 1 coin too, besides the turn's score, and the badge
    goes."""
    game = new_game(dames, [("ratmen", "historian"), ("crowd", "plain2"), ("orcs", "plain")])
    game.apply(sw.PickCombo(0))
    conquer_and_end(game, 1)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    conquer_and_end(game, 19)
    conquer_and_end(game, 2)  # player 0, turn 2
    coins = game.coins(0)
    game.apply(sw.Decline())  # player 1 declines
    assert game.coins(0) == coins + 1
    coins = game.coins(0)
    game.apply(sw.Decline())  # player 0 declines: 2 regions score 2
    assert last_score(game, 0).coins == 2
    assert game.coins(0) == coins + 2 + 1
    assert game.active_power(0) is None


def test_historian_no_coin_once_declined_edge(dames: sw.Rules) -> None:
    """Historian (edge): once the Historian's race is in decline, another race's decline
    earns nothing: the badge went with the decline."""
    game = new_game(dames, [("ratmen", "historian"), ("crowd", "plain2"), ("orcs", "plain")])
    game.apply(sw.PickCombo(0))
    conquer_and_end(game, 1)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    conquer_and_end(game, 19)
    game.apply(sw.Decline())  # player 0 declines (1 coin for it)
    conquer_and_end(game, 20)  # player 1, turn 2
    game.apply(sw.PickCombo(0))  # player 0, turn 3: Orcs
    conquer_and_end(game, 4)
    coins = game.coins(0)
    game.apply(sw.Decline())  # player 1 declines
    assert game.coins(0) == coins


# --------------------------------------------------------------------------- Peace-loving


def test_peace_loving_badge(dames: sw.Rules) -> None:
    """Peace-loving: the badge gives 4 tokens."""
    assert dames.powers["peace_loving"].tokens == 4
    game = new_game(dames, [("ratmen", "peace_loving"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 4


def test_peace_loving_scores_three_without_an_attack(dames: sw.Rules) -> None:
    """Peace-loving: a turn of conquests of an empty region and a Lost Tribe, no active race
    attacked, scores 2 regions + 3 bonus coins."""
    game = new_game(dames, [("ratmen", "peace_loving"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # the Lost Tribe
    conquer_and_end(game, 4)
    assert last_score(game, 0).coins == 2 + 3


def test_peace_loving_no_bonus_after_attacking_an_active_race_edge(dames: sw.Rules) -> None:
    """Peace-loving (edge): conquering one region of the opponent's active race costs the
    bonus (2 regions score 2)."""
    game = new_game(dames, [("ratmen", "peace_loving"), ("crowd", "plain2")])
    game.put(20, 1, 1, race="humans")
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    conquer_and_end(game, 20)  # the Humans' region
    assert game.region(20).race == "ratmen"
    assert last_score(game, 0).coins == 2


def test_peace_loving_a_race_in_decline_is_no_attack_edge(dames: sw.Rules) -> None:
    """Peace-loving (edge): conquering a region of the opponent's race in decline keeps the
    bonus: 2 regions + 3."""
    game = new_game(dames, [("ratmen", "peace_loving"), ("crowd", "plain2")])
    game.put(20, 1, 1, declined=True, race="humans")
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    conquer_and_end(game, 20)  # the declined Humans' region
    assert game.region(20).race == "ratmen"
    assert last_score(game, 0).coins == 2 + 3
