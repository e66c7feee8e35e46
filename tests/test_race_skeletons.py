"""Skeletons (rule 2): at redeployment, +1 token from the box per 2 non-empty regions
conquered this turn — rulings 17, 18 and 40.

Positions are on the 2-player map. Region 11 is a Farmland with a Lost Tribe on the edge; its
neighbours 12 and 16 (and 6, next to 12) hold Lost Tribes, 5 is an empty Mountain, 17 an empty
Hill. With Commando (−1) every Lost Tribe region, a lone declined token and the empty Mountain
cost 2 tokens, an empty region 1. ``plain``/``plain2``/``crowd`` are test rule files
(tests/rules/): powers with no effect, and a race with no ability.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import TokensGained


def _skeletons(rules: sw.Rules, power: str = "commando", **kwargs: object) -> sw.Game:
    """Player 0 has just picked Skeletons (6 + 4 = 10 tokens with Commando)."""
    game = new_game(
        rules, [("skeletons", power), ("crowd", "plain2"), ("ratmen", "hill")], **kwargs
    )
    game.apply(sw.PickCombo(0))
    return game


def _gains(game: sw.Game) -> list[TokensGained]:
    return [e for e in game.log if isinstance(e, TokensGained)]


def _box(game: sw.Game) -> int:
    box: int = saved_state(game)["box"]["skeletons"]
    return box


def test_skeletons_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 Skeletons: banner 6 tokens, 20 in the box."""
    assert (rules.races["skeletons"].tokens, rules.races["skeletons"].box) == (6, 20)
    game = _skeletons(rules, "plain")
    assert game.hand(0) == 6 and _box(game) == 20 - 6


def test_two_gained_for_four_non_empty_regions_ruling_17(rules: sw.Rules) -> None:
    """Rule 2 Skeletons / ruling 17: three Lost Tribe regions and a declined region are four
    non-empty regions: 4 // 2 = 2 new Skeletons from the box at redeployment."""
    game = _skeletons(rules)
    game.put(17, 1, 1, declined=True, race="crowd")
    for region in (11, 16, 17, 12):  # 4 × 2 tokens
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 2 and _gains(game) == []
    game.apply(sw.Deploy(11, 1))  # conquests end: 2 in hand + 4 lifted + 2 gained
    assert _gains(game) == [TokensGained(0, "skeletons", 2)]
    assert _box(game) == 20 - 10 - 2
    assert game.hand(0) == 2 + 4 + 2 - 1 and game.region(11).tokens == 2


def test_gain_is_rounded_down_and_empty_mountain_does_not_count_ruling_17(
    rules: sw.Rules,
) -> None:
    """Rule 2 Skeletons / ruling 17: an empty Mountain is an empty region, so three non-empty
    regions and the Mountain give 3 // 2 = 1 token, not 2."""
    game = _skeletons(rules)
    for region in (11, 16, 12, 5):  # 3 Lost Tribes + the empty Mountain, 2 tokens each
        game.apply(sw.Conquer(region))
    game.apply(sw.Deploy(11, 1))
    assert _gains(game) == [TokensGained(0, "skeletons", 1)]
    assert _box(game) == 20 - 10 - 1


def test_one_non_empty_region_gains_nothing_section_2(rules: sw.Rules) -> None:
    """Rule 2 Skeletons (edge): one non-empty region and an empty one gain nothing (1 // 2 = 0):
    no token leaves the box."""
    game = _skeletons(rules)
    game.apply(sw.Conquer(11))  # a Lost Tribe, 2 tokens
    game.apply(sw.Conquer(17))  # empty, 1 token
    game.apply(sw.Deploy(11, 1))
    assert _gains(game) == [] and _box(game) == 20 - 10
    assert game.hand(0) == 7 + 1 - 1  # 7 in hand, 1 lifted from region 11, 1 placed


def test_gain_capped_by_the_box_ruling_40(rules: sw.Rules) -> None:
    """Rulings 18 and 40: the gain comes from the box only; with 1 Skeleton left in the box,
    four non-empty regions bring 1 token, not 2."""
    game = _skeletons(rules)
    game.put(17, 0, 9)  # the box goes from 10 to 1 (17 borders 11, 12 and 16)
    assert _box(game) == 1
    for region in (11, 16, 12, 6):
        game.apply(sw.Conquer(region))
    game.apply(sw.Deploy(11, 1))
    assert _gains(game) == [TokensGained(0, "skeletons", 1)] and _box(game) == 0
    assert _box(game) + game.hand(0) + game.tokens_on_map(0) == 20


def test_no_gain_from_an_empty_box_ruling_40(rules: sw.Rules) -> None:
    """Ruling 40 (edge): with all 20 Skeletons out of the box, nothing is gained at all."""
    game = _skeletons(rules)
    game.put(17, 0, 10)
    assert _box(game) == 0
    for region in (11, 16, 12, 6):
        game.apply(sw.Conquer(region))
    hand = game.hand(0)
    game.apply(sw.Deploy(11, 1))
    assert _gains(game) == [] and _box(game) == 0
    assert game.hand(0) == hand + 4 + 9 - 1  # only the lifted tokens (4 + 9 from region 17)


def test_new_tokens_arrive_at_redeployment_ruling_18(rules: sw.Rules) -> None:
    """Ruling 18: the new Skeletons arrive when the conquests end, so they can't conquer: the
    hand does not grow during the conquests, and a conquest after the gain is refused."""
    game = _skeletons(rules)
    for region in (11, 16, 12, 6):
        game.apply(sw.Conquer(region))
        assert _gains(game) == []
    assert game.hand(0) == 2 and game.conquest_cost(17) == 1
    game.apply(sw.Deploy(11, 1))
    assert game.phase is sw.Phase.REDEPLOY and game.hand(0) == 2 + 4 + 2 - 1
    assert not any(isinstance(a, sw.Conquer) for a in game.legal_actions())
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="conquest phase"):
        game.apply(sw.Conquer(17))
    assert game.to_json() == before


def test_final_die_conquest_counts_and_gain_follows_ruling_18(rules: sw.Rules) -> None:
    """Ruling 18 / ruling 5: a Lost Tribe region taken with the reinforcement die is a second
    non-empty region: +1 Skeleton as the conquests end; a failed roll gains nothing."""
    game = _skeletons(rules, "plain", chance="explicit")  # 6 tokens
    game.apply(sw.Conquer(11))  # Lost Tribe: 3
    game.apply(sw.Conquer(17))  # empty: 2
    game.apply(sw.ConquerWithDie(16))  # Lost Tribe: 3, with 1 in hand
    failed = game.clone()
    game.apply(sw.RollDie(2))
    assert game.region(16).race == "skeletons" and game.phase is sw.Phase.REDEPLOY
    assert _gains(game) == [TokensGained(0, "skeletons", 1)] and _box(game) == 20 - 6 - 1
    assert game.hand(0) == 2 + 1 + 1  # lifted from 11 and 17, plus the new one
    failed.apply(sw.RollDie(0))
    assert failed.phase is sw.Phase.REDEPLOY
    assert _gains(failed) == [] and _box(failed) == 20 - 6


def test_ending_conquests_with_an_empty_hand_leaves_the_gain_to_place_ruling_18(
    rules: sw.Rules,
) -> None:
    """Ruling 18: ending the conquests with nothing in hand still brings the new Skeletons
    (5 non-empty regions: +2), and the turn cannot end before they are placed."""
    game = _skeletons(rules)
    game.put(17, 1, 1, declined=True, race="crowd")
    for region in (11, 16, 17, 12, 6):  # 5 × 2 = all 10 tokens
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 0
    game.apply(sw.EndTurn())
    assert game.phase is sw.Phase.REDEPLOY and game.active_player == 0
    assert game.hand(0) == 2 and _gains(game) == [TokensGained(0, "skeletons", 2)]
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="place the 2"):
        game.apply(sw.EndTurn())
    assert game.to_json() == before
    game.apply(sw.Deploy(6, 2))
    game.apply(sw.EndTurn())
    assert game.active_player == 1 and game.region(6).tokens == 4
    assert game.tokens_on_map(0) == 12 and _box(game) == 20 - 12


def test_declined_skeletons_gain_nothing_section_2(rules: sw.Rules) -> None:
    """Rule 2 Skeletons (not in decline): after the Skeletons decline, the player's new race
    conquers two non-empty regions that turn; the declined Skeletons gain no token."""
    game = _skeletons(rules, "plain")
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 4))  # 2 in hand + 2 lifted
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # the Skeletons keep 1 token in each of 1 and 2
    deploy_all_and_end(game)
    assert _box(game) == 20 - 2 and game.declined_races(0) == ["skeletons"]
    game.apply(sw.PickCombo(0))  # player 0: Ratmen with Hill, 8 + 4 tokens
    game.apply(sw.Conquer(11))  # Lost Tribe, 3
    game.apply(sw.Conquer(16))  # Lost Tribe, 3
    game.apply(sw.Deploy(11, 2))
    assert game.phase is sw.Phase.REDEPLOY
    assert _gains(game) == [] and _box(game) == 20 - 2
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)
