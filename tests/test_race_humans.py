"""Humans (rule 2): +1 coin per Farmland region occupied at the end of the turn,
while active only (rule 1.11: no bonus in the decline turn nor in decline).

2-player map: Farmlands are 1 (edge), 9 (interior), 11 (Lost Tribe, edge) and 13 (Lost
Tribe, interior). Forest 2 (edge) borders 1; Swamp 20 (edge) is far from them.
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Scored


def last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


def _humans_on_two_farmlands(rules: sw.Rules) -> sw.Game:
    """Player 0's Humans + Bulky (10 tokens) take Farmland 1, Hill 6 (Lost Tribe) and Farmland
    11 (Lost Tribe) in round 1; player 1's Crowd take 20. Returned at player 0's round-2
    turn."""
    game = new_game(rules, [("humans", "bulky"), ("crowd", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))  # 2
    game.apply(sw.Conquer(6))  # 2 + Lost Tribe
    game.apply(sw.Conquer(11))  # 2 + Lost Tribe
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    return game


def test_humans_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 table / rule 1.1: the Humans banner gives 5 tokens; the box holds 10."""
    humans = rules.races["humans"]
    assert (humans.tokens, humans.box) == (5, 10)
    game = new_game(rules, [("humans", "plain")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 5


def test_humans_score_one_per_farmland_section_2(rules: sw.Rules) -> None:
    """Rule 2 Humans: 3 regions, 2 of them Farmland, score 3 + 2 = 5; the bonus names
    races/humans.swr."""
    game = _humans_on_two_farmlands(rules)
    scored = next(e for e in game.log if isinstance(e, Scored) and e.player == 0)
    assert scored.coins == 3 + 2
    ((race, value, text),) = scored.details
    assert (race, value) == ("humans", 5) and "humans.swr" in text
    assert game.coins(0) == 5 + 5


def test_other_terrain_gives_no_bonus_section_2(rules: sw.Rules) -> None:
    """Rule 2 Humans (edge): only Farmland counts: Farmland 1, Forest 2 and Hill 6 score 3 + 1."""
    game = new_game(rules, [("humans", "bulky")])
    game.apply(sw.PickCombo(0))  # 10 tokens
    for region in (1, 2, 6):
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert last(game, Scored).coins == 3 + 1 and game.coins(0) == 5 + 4


def test_no_farmland_bonus_in_the_decline_turn_ruling_16(rules: sw.Rules) -> None:
    """Ruling 16 / rule 1.11: in the decline turn the Humans score their 3 regions only."""
    game = _humans_on_two_farmlands(rules)  # player 0: 10 coins
    game.apply(sw.Decline())
    assert game.declined_races(0) == ["humans"]
    assert last(game, Scored).coins == 3 and game.coins(0) == 10 + 3


def test_no_farmland_bonus_in_decline_section_2(rules: sw.Rules) -> None:
    """Rule 2 Humans ("works in decline: no"): later, the declined Humans score 1 per region
    and no Farmland bonus; the new Ratmen on Swamp 16 score 1."""
    game = _humans_on_two_farmlands(rules)
    game.apply(sw.Decline())  # 10 + 3 = 13
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Ratmen + Plain Two
    game.apply(sw.Conquer(16))
    deploy_all_and_end(game)
    scored = last(game, Scored)
    assert dict((race, value) for race, value, _ in scored.details) == {"ratmen": 1, "humans": 3}
    assert scored.coins == 4 and game.coins(0) == 13 + 4


def test_humans_score_farmland_held_at_turn_end_only_section_2(rules: sw.Rules) -> None:
    """Rule 2 Humans (edge): the bonus counts the Farmlands occupied at the end of the turn: after
    abandoning Farmland 11 and taking Forest 2, the Humans score 3 regions + 1 Farmland."""
    game = _humans_on_two_farmlands(rules)  # 10 coins
    game.apply(sw.Abandon(11))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert last(game, Scored).coins == 3 + 1 and game.coins(0) == 10 + 4
