"""Merchant (rule 3): +1 coin per region the race occupies at the end of each of its
turns while active — its regions only, never the declined race's; nothing in decline (rule 1.11).
"""

from __future__ import annotations

from helpers import both_enter, deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Scored


def _last_score(game: sw.Game, player: int) -> Scored:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]


def _merchant_ratmen(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("ratmen", "merchant"), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def test_merchant_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Merchant badge gives 2 tokens (Ratmen 8 + 2)."""
    assert rules.powers["merchant"].tokens == 2
    assert _merchant_ratmen(rules).hand(0) == 10


def test_merchant_doubles_the_region_score_section_3(rules: sw.Rules) -> None:
    """Rule 3 Merchant: 4 regions score 4 + 4 = 8 coins."""
    game = _merchant_ratmen(rules)
    for region in (1, 2, 6):  # 2 + 2 + 3 tokens
        game.apply(sw.Conquer(region))
    game.apply(sw.Conquer(5))  # Mountain: 3
    assert game.hand(0) == 0
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 8
    assert _last_score(game, 0).coins == 8


def test_merchant_scores_every_turn_while_active_section_3(rules: sw.Rules) -> None:
    """Rule 3 Merchant: the bonus comes at the end of every turn, conquest or not."""
    game = _merchant_ratmen(rules)
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 2
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 0 conquers nothing
    assert game.coins(0) == 7 + 2


def test_merchant_ignores_the_declined_race_regions_edge(rules: sw.Rules) -> None:
    """Rule 1.11 / rule 3 Merchant (edge): the declined race scores 1 per region and no Merchant
    bonus; the Merchant race doubles only its own regions."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("giants", "merchant")])
    both_enter(game, 1, 19)
    game.apply(sw.Decline())  # player 0's Ratmen in region 1
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))  # Giants + Merchant, 8 tokens
    game.apply(sw.Conquer(17))
    game.apply(sw.Conquer(16))  # Lost Tribe: 3
    deploy_all_and_end(game)
    assert game.coins(0) == coins + (2 + 2) + 1


def test_merchant_nothing_in_the_decline_turn_section_1_11(rules: sw.Rules) -> None:
    """Rule 1.11: in the decline turn only the regions score; the badge is discarded."""
    game = _merchant_ratmen(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 4
    game.apply(sw.PickCombo(0))  # player 1
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.coins(0) == 9 + 2
    assert "merchant" in saved_state(game)["power_discard"]
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # Giants + Bulky
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    assert game.coins(0) == 11 + 1 + 2


def test_merchant_with_no_region_scores_nothing_edge(rules: sw.Rules) -> None:
    """Rule 3 Merchant (edge): a race that holds no region gets no bonus (0 regions, 0 coins)."""
    game = _merchant_ratmen(rules)
    game.apply(sw.EndTurn())  # conquers nothing; the tokens stay in hand
    assert game.hand(0) == 10 and game.coins(0) == 5
    assert _last_score(game, 0).coins == 0
