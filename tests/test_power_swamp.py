"""Swamp (rule 3): +1 coin per Swamp region the race occupies at the end of each of
its turns while active; nothing in decline (rule 1.11, rule 1.12).

Swamp regions of the 2-player map: 3 (edge, Lost Tribe), 16 (edge, Lost Tribe), 18 (edge,
Lost Tribe) and 20 (edge, empty).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Scored

SWAMPS = {3, 16, 18, 20}


def _last_score(game: sw.Game, player: int) -> Scored:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]


def _swamp_ratmen(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("ratmen", "swamp"), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def test_swamp_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Swamp badge gives 4 tokens (Ratmen 8 + 4)."""
    assert rules.powers["swamp"].tokens == 4
    assert _swamp_ratmen(rules).hand(0) == 12


def test_swamp_scores_one_per_swamp_region_section_3(rules: sw.Rules) -> None:
    """Rule 3 Swamp: 16 and 18 are Swamps, 17 a Hill and 11 Farmland: 4 regions + 2 = 6."""
    game = _swamp_ratmen(rules)
    game.put(20, 1, 2, race="crowd")  # an opponent's Swamp: no bonus for us
    for region in (16, 17, 18, 11):  # 3 + 2 + 3 + 3 tokens
        game.apply(sw.Conquer(region))
    assert {r for r in (16, 17, 18, 11) if game.map.regions[r].terrain == "swamp"} == {16, 18}
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 6
    assert _last_score(game, 0).coins == 6


def test_swamp_scores_every_turn_while_active_section_3(rules: sw.Rules) -> None:
    """Rule 3 Swamp: the bonus comes at the end of each turn the race is active."""
    game = _swamp_ratmen(rules)
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 2
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.Conquer(21))  # Forest next to 20
    deploy_all_and_end(game)
    assert game.coins(0) == 7 + 3  # 2 regions + 1 Swamp


def test_swamp_no_bonus_without_swamps_edge(rules: sw.Rules) -> None:
    """Rule 3 Swamp (edge): a race holding no Swamp scores its regions only."""
    game = _swamp_ratmen(rules)
    game.apply(sw.Conquer(19))  # Mountain
    game.apply(sw.Conquer(13))  # Farmland
    deploy_all_and_end(game)
    assert not {19, 13} & SWAMPS
    assert game.coins(0) == 5 + 2


def test_swamp_nothing_in_decline_section_1_11(rules: sw.Rules) -> None:
    """Rule 1.11 / rule 1.12: the decline turn scores the regions only (no Swamp bonus); the badge
    is discarded; declined Swamps score 1 each later."""
    game = _swamp_ratmen(rules)
    game.apply(sw.Conquer(20))
    game.apply(sw.Conquer(21))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 3
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.coins(0) == 8 + 2
    assert "swamp" in saved_state(game)["power_discard"]
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # Giants + Bulky
    game.apply(sw.Conquer(16))  # a Swamp, but Giants have no Swamp power
    deploy_all_and_end(game)
    assert game.coins(0) == 10 + 1 + 2


@pytest.mark.parametrize("region", sorted(SWAMPS))
def test_every_swamp_region_is_counted(rules: sw.Rules, region: int) -> None:
    """Rule 3 Swamp: each Swamp region of the map gives the bonus (set up with ``put``)."""
    game = _swamp_ratmen(rules)
    game.put(region, 0, 1)
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 1 + 1
