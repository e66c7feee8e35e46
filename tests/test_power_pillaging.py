"""Pillaging (rule 3, ruling 17): +1 coin per non-empty region conquered this turn —
a region with a Lost Tribe or race token (active or declined, your own declined race too);
an empty region (a lone Mountain included) gives nothing; only this turn's conquests count.
"""

from __future__ import annotations

import pytest
from helpers import both_enter, deploy_all_and_end, new_game, place_withdrawals, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered, Scored


def _last_score(game: sw.Game, player: int) -> Scored:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]


def _pillaging_ratmen(rules: sw.Rules, **kwargs: object) -> sw.Game:
    game = new_game(
        rules, [("ratmen", "pillaging"), ("crowd", "plain2"), ("giants", "bulky")], **kwargs
    )
    game.apply(sw.PickCombo(0))
    return game


def test_pillaging_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Pillaging badge gives 5 tokens (Ratmen 8 + 5)."""
    assert rules.powers["pillaging"].tokens == 5
    assert _pillaging_ratmen(rules).hand(0) == 13


def test_pillaging_counts_lost_tribe_declined_and_active_regions_ruling_17(
    rules: sw.Rules,
) -> None:
    """Ruling 17: a declined enemy region (2), a Lost Tribe (6) and an active enemy region
    (12) count; the empty region 1 does not: 4 regions + 3 = 7 coins."""
    game = _pillaging_ratmen(rules)
    game.put(2, 1, 1, declined=True, race="giants")
    game.put(12, 1, 2, race="crowd")
    game.put(19, 1, 2)
    for region in (2, 6, 12, 1):  # 3 + 3 + 4 + 2 tokens
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 1
    deploy_all_and_end(game)
    place_withdrawals(game)  # Crowd's survivor from 12 goes to 19
    assert game.coins(0) == 5 + 4 + 3
    assert _last_score(game, 0).coins == 7


def test_pillaging_empty_regions_and_lone_mountain_give_nothing_ruling_17(
    rules: sw.Rules,
) -> None:
    """Ruling 17 (edge): empty regions, a Mountain without tokens included, give no bonus:
    3 regions, 3 coins."""
    game = _pillaging_ratmen(rules)
    for region in (1, 5, 2):  # 2 + 3 (Mountain) + 2
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 3


def test_pillaging_counts_only_this_turns_conquests_section_3(rules: sw.Rules) -> None:
    """Rule 3 Pillaging: "conquered this turn": regions taken in an earlier turn give nothing."""
    game = _pillaging_ratmen(rules)
    game.apply(sw.Conquer(11))  # Lost Tribe
    game.apply(sw.Conquer(6))  # Lost Tribe
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 2 + 2
    game.apply(sw.PickCombo(0))  # player 1
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 0 conquers nothing
    assert game.coins(0) == 9 + 2
    deploy_all_and_end(game)  # player 1
    game.apply(sw.Conquer(12))  # player 0: one more Lost Tribe
    deploy_all_and_end(game)
    assert game.coins(0) == 11 + 3 + 1


def test_pillaging_counts_own_declined_region_rulings_11_and_17(rules: sw.Rules) -> None:
    """Rulings 11 and 17: conquering a region of your own declined race is a conquest of a
    non-empty region: +1."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("giants", "pillaging")])
    both_enter(game, 1, 19)
    game.apply(sw.Decline())  # player 0's Ratmen decline in region 1
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))  # Giants + Pillaging
    game.apply(sw.Conquer(1))  # own declined token: cost 3, the Ratmen leave
    assert game.declined_races(0) == []
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 1 + 1


def test_pillaging_counts_a_final_die_conquest_ruling_17(rules: sw.Rules) -> None:
    """Ruling 17 with ruling 5: a Lost Tribe region taken with the reinforcement die counts."""
    game = _pillaging_ratmen(rules, chance="explicit")
    for region in (1, 5, 6, 11):  # 2 + 3 (Mountain) + 3 + 3 tokens
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 2 and game.conquest_cost(12) == 3
    game.apply(sw.ConquerWithDie(12))  # Lost Tribe: one token short
    game.apply(sw.RollDie(1))
    assert game.region(12).race == "ratmen"
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 5 + 3  # 5 regions; 6, 11 and 12 were not empty


@pytest.mark.parametrize("stop", [0, 1])
def test_pillaging_no_bonus_without_conquest_edge(rules: sw.Rules, stop: int) -> None:
    """Rule 3 Pillaging (edge): a turn without conquest scores no bonus; the badge's coins are
    not paid in the decline turn either (rule 1.11)."""
    game = _pillaging_ratmen(rules)
    game.apply(sw.Conquer(11))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    coins = game.coins(0)
    if stop:
        game.apply(sw.Decline())
        assert "pillaging" in saved_state(game)["power_discard"]
    else:
        deploy_all_and_end(game)
    assert game.coins(0) == coins + 1
    assert len([e for e in game.log if isinstance(e, Conquered) and e.player == 0]) == 1
