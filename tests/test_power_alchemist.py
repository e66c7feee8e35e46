"""Alchemist (rule 3): +2 coins at the end of each turn while active — ruling 36.

Positions on the 2-player map: regions 1 (Farmland) and 2 (Forest) are empty edge regions,
6 an interior Hill with a Lost Tribe, 20 an empty edge Swamp.
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Scored


def _scores(game: sw.Game, player: int) -> list[int]:
    return [e.coins for e in game.log if isinstance(e, Scored) and e.player == player]


def _alchemists(rules: sw.Rules) -> sw.Game:
    """Player 0 picks Ratmen + Alchemist; next in the market: Crowd, Elves (no powers)."""
    game = new_game(rules, [("ratmen", "alchemist"), ("crowd", "plain2"), ("elves", "plain")])
    game.apply(sw.PickCombo(0))
    return game


def test_alchemist_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Alchemist badge gives 4 tokens (Ratmen 8 + 4 = 12 in hand)."""
    assert rules.powers["alchemist"].tokens == 4
    assert _alchemists(rules).hand(0) == 12


def test_alchemist_scores_two_each_active_turn_ruling_36(rules: sw.Rules) -> None:
    """Ruling 36: the Alchemist pays +2 at the end of every turn while the race is active."""
    game = _alchemists(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 2 + 2  # 2 regions + Alchemist
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert game.coins(1) == 5 + 1  # no bonus for the player without the badge
    game.apply(sw.Conquer(6))  # Lost Tribe: 3 tokens
    deploy_all_and_end(game)
    assert game.coins(0) == 9 + 3 + 2  # 3 regions + Alchemist, again
    assert _scores(game, 0) == [4, 5]


def test_alchemist_pays_nothing_in_the_decline_turn_ruling_36(rules: sw.Rules) -> None:
    """Ruling 36 / rule 1.11 (edge): in the turn the race declines it scores its regions only,
    and as a declined race later it never earns the +2 again."""
    game = _alchemists(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert game.coins(0) == 9
    game.apply(sw.Decline())
    assert _scores(game, 0)[-1] == 2 and game.coins(0) == 9 + 2  # 2 declined regions only
    assert game.active_power(0) is None
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # a new race for player 0
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    assert (game.active_race(0), game.active_power(0)) == ("elves", "plain")
    # 1 region of the new race (no-effect power) + 2 declined Ratmen regions: no +2.
    assert _scores(game, 0)[-1] == 1 + 2
