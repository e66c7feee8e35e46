"""Interactions between a race and a power that count the same thing (rule 2, rule 3,
ruling 17, A7): Skeletons + Pillaging both count the non-empty regions conquered this turn;
a Sorcerer conversion counts as such a conquest for Pillaging.

(Seafaring + Tritons, Spirit + a second decline and Stout + Ghouls are tested in
test_power_seafaring.py, test_power_spirit.py and test_power_stout.py.)
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Scored, TokensGained


def _skeletons(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("skeletons", "pillaging"), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 6 + 5
    return game


def _gained(game: sw.Game) -> list[int]:
    return [e.tokens for e in game.log if isinstance(e, TokensGained)]


def _last_score(game: sw.Game) -> int:
    return [e.coins for e in game.log if isinstance(e, Scored)][-1]


def test_skeletons_pillaging_count_the_same_three_conquests_ruling_17(rules: sw.Rules) -> None:
    """Ruling 17, rule 2 Skeletons, rule 3 Pillaging: a declined enemy region (2), a Lost Tribe (6)
    and an active enemy region (12) are non-empty, the empty region 1 is not: Pillaging pays
    +3 (4 regions + 3 = 7 coins), Skeletons gain floor(3 / 2) = 1 token from the box."""
    game = _skeletons(rules)
    game.put(2, 1, 1, declined=True, race="giants")
    game.put(12, 1, 1, race="crowd")
    game.put(19, 1, 3)
    for region in (2, 6, 12, 1):  # 3 + 3 + 3 + 2 = 11 tokens
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 0
    game.apply(sw.Deploy(1, 1))  # the first Deploy starts redeployment: the gain arrives
    assert _gained(game) == [1]
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 7 and _last_score(game) == 7
    assert game.tokens_on_map(0) == 11 + 1
    assert saved_state(game)["box"]["skeletons"] == 20 - 12


def test_skeletons_pillaging_two_of_four_conquests_ruling_17(rules: sw.Rules) -> None:
    """Ruling 17: two Lost Tribe regions (6, 3) and two empty ones (1, 2): +2 coins
    (4 regions + 2 = 6) and +1 Skeleton."""
    game = _skeletons(rules)
    for region in (1, 2, 6, 3):  # 2 + 2 + 3 + 3
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert _gained(game) == [1]
    assert game.coins(0) == 5 + 6
    assert game.tokens_on_map(0) == 12


def test_skeletons_pillaging_one_conquest_and_a_lone_mountain_ruling_17(
    rules: sw.Rules,
) -> None:
    """Ruling 17 (edge): the empty Mountain 5 counts for neither; one Lost Tribe (6) gives
    Pillaging +1 (4 regions + 1 = 5 coins) and Skeletons floor(1 / 2) = 0 tokens."""
    game = _skeletons(rules)
    for region in (1, 5, 2, 6):  # 2 + 3 + 2 + 3
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert _gained(game) == []
    assert game.coins(0) == 5 + 5
    assert game.tokens_on_map(0) == 11 and saved_state(game)["box"]["skeletons"] == 9


def test_skeletons_pillaging_next_turn_counts_afresh_ruling_17(rules: sw.Rules) -> None:
    """Ruling 17: "this turn": the next turn counts only its own conquests — two more Lost
    Tribes (11, 12) give +2 coins and +1 Skeleton, whatever the first turn took."""
    game = _skeletons(rules)
    for region in (1, 2, 6, 3):
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)  # 12 Skeletons on the map
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Conquer(11))
    game.apply(sw.Conquer(12))
    deploy_all_and_end(game)
    assert _gained(game) == [1, 1]
    assert game.coins(0) == coins + 6 + 2
    assert game.tokens_on_map(0) == 13


@pytest.mark.parametrize("convert", [True, False])
def test_sorcerer_conversion_counts_for_pillaging_a7(rules: sw.Rules, convert: bool) -> None:
    """A7: a Sorcerer conversion is a conquest of a non-empty region for Pillaging: +1.
    Without it (the contrast), the same turn scores the regions only."""
    game = new_game(rules, [("sorcerers", "pillaging"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))  # 5 + 5 tokens
    game.put(2, 1, 1, race="crowd")  # a lone active enemy token next to 1
    game.put(19, 1, 2)
    game.apply(sw.Conquer(1))
    if convert:
        assert sw.UseAbility("convert", 2) in game.legal_actions()
        game.apply(sw.UseAbility("convert", 2))
        assert game.region(2).race == "sorcerers"
        expected = 2 + 1
    else:
        expected = 1
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + expected
