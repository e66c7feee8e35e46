"""Wealthy (rule 3, ruling 36): +7 coins once, at the end of the race's first turn,
and never again — not in later turns, not in the decline turn.
"""

from __future__ import annotations

from helpers import both_enter, deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Scored

BONUS = 7


def _scores(game: sw.Game, player: int) -> list[int]:
    return [e.coins for e in game.log if isinstance(e, Scored) and e.player == player]


def _wealthy_ratmen(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("ratmen", "wealthy"), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def test_wealthy_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Wealthy badge gives 4 tokens (Ratmen 8 + 4)."""
    assert rules.powers["wealthy"].tokens == 4
    assert _wealthy_ratmen(rules).hand(0) == 12


def test_wealthy_pays_seven_once_ruling_36(rules: sw.Rules) -> None:
    """Ruling 36: the first turn scores 2 regions + 7; the next turns the regions only."""
    game = _wealthy_ratmen(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 2 + BONUS
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 0, second turn
    assert game.coins(0) == 14 + 2
    deploy_all_and_end(game)  # player 1
    game.apply(sw.Conquer(6))  # player 0, third turn: Lost Tribe Hill
    deploy_all_and_end(game)
    assert game.coins(0) == 16 + 3
    assert _scores(game, 0) == [2 + BONUS, 2, 3]


def test_wealthy_not_in_the_decline_turn_ruling_36(rules: sw.Rules) -> None:
    """Ruling 36 / rule 1.11 (edge): the decline turn scores the regions, no second bonus."""
    game = _wealthy_ratmen(rules)
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.coins(0) == coins + 1
    assert _scores(game, 0) == [1 + BONUS, 1]


def test_wealthy_first_turn_of_a_race_picked_late_ruling_36(rules: sw.Rules) -> None:
    """Ruling 36: "the race's first turn", not the game's: a Wealthy race picked in round 3
    pays 7 then, beside the declined race's regions."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("giants", "wealthy")])
    both_enter(game, 1, 19)
    game.apply(sw.Decline())  # round 2: player 0's Ratmen decline in region 1
    deploy_all_and_end(game)
    assert game.round == 3
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))  # Giants + Wealthy
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 1 + BONUS + 1  # Giants region, bonus, declined Ratmen
    deploy_all_and_end(game)  # player 1
    deploy_all_and_end(game)  # player 0: Giants' second turn
    assert game.coins(0) == coins + 9 + 2


def test_wealthy_pays_even_without_a_region_edge(rules: sw.Rules) -> None:
    """Ruling 36 (edge): the bonus is for the end of the first turn, whatever was conquered:
    a race that takes no region still collects 7."""
    game = _wealthy_ratmen(rules)
    game.apply(sw.EndTurn())
    assert game.hand(0) == 12
    assert game.coins(0) == 5 + BONUS


def test_no_bonus_for_a_race_without_wealthy(rules: sw.Rules) -> None:
    """Rule 1.11 (the contrast): the same first turn without the badge scores the regions only."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 2
