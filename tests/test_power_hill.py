"""Hill (rule 3): +1 coin per Hill region the race occupies at the end of each of
its turns while active; nothing in decline (rule 1.11, rule 1.12).

Hill regions of the 2-player map: 4 (edge, empty), 6 (interior, Lost Tribe), 14 (interior,
Lost Tribe) and 17 (edge, empty).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Scored

HILLS = {4, 6, 14, 17}


def _last_score(game: sw.Game, player: int) -> Scored:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]


def _hill_ratmen(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("ratmen", "hill"), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def test_hill_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Hill badge gives 4 tokens (Ratmen 8 + 4)."""
    assert rules.powers["hill"].tokens == 4
    assert _hill_ratmen(rules).hand(0) == 12


def test_hill_scores_one_per_hill_region_section_3(rules: sw.Rules) -> None:
    """Rule 3 Hill: regions 17 and 6 are Hills, 11 is Farmland: 3 regions + 2 = 5 coins."""
    game = _hill_ratmen(rules)
    game.put(4, 1, 2, race="crowd")  # an opponent's Hill: not ours, no bonus
    for region in (17, 11, 6):  # 2 + 3 + 3 tokens
        game.apply(sw.Conquer(region))
    assert {r for r in (17, 11, 6) if game.map.regions[r].terrain == "hill"} == {17, 6}
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 5
    assert _last_score(game, 0).coins == 5


def test_hill_scores_every_turn_while_active_section_3(rules: sw.Rules) -> None:
    """Rule 3 Hill: the bonus comes at the end of each turn, not only the turn of the conquest."""
    game = _hill_ratmen(rules)
    game.apply(sw.Conquer(4))  # Hill on the edge
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 2  # 1 region + 1 Hill
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Conquer(9))  # Farmland next to 4
    deploy_all_and_end(game)
    assert game.coins(0) == 7 + 3  # 2 regions + 1 Hill


def test_hill_no_bonus_without_hills_edge(rules: sw.Rules) -> None:
    """Rule 3 Hill (edge): a race holding no Hill scores its regions only."""
    game = _hill_ratmen(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert not {1, 2} & HILLS
    assert game.coins(0) == 5 + 2


def test_hill_nothing_in_decline_section_1_11(rules: sw.Rules) -> None:
    """Rule 1.11 / rule 1.12: the decline turn scores the regions only (no Hill bonus), the badge is
    discarded, and the declined Hills score 1 each later."""
    game = _hill_ratmen(rules)
    game.apply(sw.Conquer(17))
    game.apply(sw.Conquer(16))  # Swamp next to 17
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 3  # 2 regions + 1 Hill
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.coins(0) == 8 + 2  # regions only
    assert "hill" in saved_state(game)["power_discard"]
    assert saved_state(game)["races"]["ratmen"]["power"] is None
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # Giants + Bulky
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert game.coins(0) == 10 + 1 + 2  # Giants 1 region + declined Ratmen 2 regions


@pytest.mark.parametrize("region", sorted(HILLS))
def test_every_hill_region_is_counted(rules: sw.Rules, region: int) -> None:
    """Rule 3 Hill: each Hill region of the map gives the bonus (set up with ``put``)."""
    game = _hill_ratmen(rules)
    game.put(region, 0, 1)
    deploy_all_and_end(game)
    assert game.region(region).tokens == 12 + 1
    assert game.coins(0) == 5 + 1 + 1
