"""Forest (rule 3): +1 coin per Forest region occupied at the end of the turn, while
the race is active.

Positions on the 2-player map: Forests are regions 2 (edge), 10 (edge, Lost Tribe), 12
(interior, Lost Tribe) and 21; region 1 is an empty Farmland, 6 a Hill with a Lost Tribe,
20 an empty Swamp.
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Scored


def _last_score(game: sw.Game, player: int) -> Scored:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]


def _foresters(rules: sw.Rules) -> sw.Game:
    """Player 0 picks Ratmen + Forest (8 + 4 tokens); player 1 gets Crowd, no power."""
    game = new_game(rules, [("ratmen", "forest"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_forest_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Forest badge gives 4 tokens."""
    assert rules.powers["forest"].tokens == 4
    assert _foresters(rules).hand(0) == 8 + 4


def test_forest_scores_one_per_forest_region_section_3(rules: sw.Rules) -> None:
    """Rule 3 Forest: 4 regions, 2 of them Forests (2 and 12) → 4 + 2 coins."""
    game = _foresters(rules)
    for region in (2, 1, 6, 12):  # 2 + 2 + 3 + 3 tokens
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert _last_score(game, 0).coins == 4 + 2
    assert game.coins(0) == 5 + 6
    assert "forest.swr" in _last_score(game, 0).details[0][2]  # the bonus names its file


def test_forest_without_forest_regions_scores_nothing_extra_section_3(rules: sw.Rules) -> None:
    """Rule 3 Forest (edge): no Forest region held → no bonus, only the region coins."""
    game = _foresters(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(6))  # Farmland and Hill
    deploy_all_and_end(game)
    assert _last_score(game, 0).coins == 2 and game.coins(0) == 7


def test_forest_bonus_lost_in_decline_section_1_11(rules: sw.Rules) -> None:
    """Rule 1.11 / rule 3 (After decline: lost): the decline turn scores the regions only."""
    game = _foresters(rules)
    for region in (2, 1, 6, 12):
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    coins = game.coins(0)
    assert coins == 11
    game.apply(sw.Decline())
    assert _last_score(game, 0).coins == 4  # 4 declined regions, the 2 Forests pay nothing
    assert game.coins(0) == 11 + 4
