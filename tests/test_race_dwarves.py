"""Dwarves (rule 2): +1 coin per Mine region, also in decline and in the decline
turn (ruling 16, rule 1.11).

2-player map: Mines are on regions 2 (Forest, edge), 5 (Mountain, edge), 15 (Mountain, edge)
and 18 (Swamp with a Lost Tribe, edge); region 1 is an empty Farmland on the edge without a
Mine; region 20 is an empty Swamp on the edge, far from them.
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Scored


def last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


def _dwarves_on_two_mines(rules: sw.Rules) -> sw.Game:
    """Player 0's Dwarves (3 + Bulky 5 = 8 tokens) take Mountain 5 (Mine), Farmland 1 and
    Forest 2 (Mine) in their first turn; player 1's Crowd enter at 20."""
    game = new_game(rules, [("dwarves", "bulky"), ("crowd", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8
    game.apply(sw.Conquer(5))  # 2 + Mountain = 3
    game.apply(sw.Conquer(1))  # 2
    game.apply(sw.Conquer(2))  # 2
    deploy_all_and_end(game)
    return game


def test_dwarves_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 table / rule 1.1: the Dwarves banner gives 3 tokens; the box holds 8."""
    dwarves = rules.races["dwarves"]
    assert (dwarves.tokens, dwarves.box) == (3, 8)
    game = new_game(rules, [("dwarves", "plain")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 3


def test_dwarves_score_one_per_mine_while_active_section_2(rules: sw.Rules) -> None:
    """Rule 2 Dwarves: 3 regions (two of them Mines) score 3 + 2 = 5 coins; the bonus names
    races/dwarves.swr."""
    game = _dwarves_on_two_mines(rules)
    scored = last(game, Scored)
    assert scored.player == 0 and scored.coins == 3 + 2
    assert game.coins(0) == 5 + 5
    ((race, value, text),) = scored.details
    assert (race, value) == ("dwarves", 5) and "dwarves.swr" in text


def test_dwarves_without_mines_score_regions_only_section_2(rules: sw.Rules) -> None:
    """Rule 2 Dwarves (edge): regions without a Mine give no bonus — Farmland 1 and Hill 6."""
    game = new_game(rules, [("dwarves", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(6))
    deploy_all_and_end(game)
    assert last(game, Scored).coins == 2 and game.coins(0) == 5 + 2


def test_dwarves_mine_bonus_in_the_decline_turn_ruling_16(rules: sw.Rules) -> None:
    """Ruling 16 / rule 2 Dwarves: in the turn they go into decline the Dwarves still score their
    Mines: 3 regions + 2 Mines = 5."""
    game = _dwarves_on_two_mines(rules)  # player 0: 5 + 5 = 10
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.declined_races(0) == ["dwarves"]
    assert last(game, Scored).coins == 3 + 2 and game.coins(0) == 10 + 5


def test_declined_dwarves_keep_scoring_mines_section_2(rules: sw.Rules) -> None:
    """Rule 2 Dwarves ("works in decline") / rule 1.11: a later turn scores the declined Dwarves'
    3 regions + 2 Mines, plus 1 for the new Ratmen region; the Mine under the Ratmen
    (Swamp 18) gives no bonus, as the Ratmen have none."""
    game = _dwarves_on_two_mines(rules)  # 10
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # 15
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Ratmen + Plain Two
    assert game.active_race(0) == "ratmen"
    game.apply(sw.Conquer(18))  # a Mine with a Lost Tribe
    deploy_all_and_end(game)
    scored = last(game, Scored)
    assert dict((race, value) for race, value, _ in scored.details) == {
        "ratmen": 1,
        "dwarves": 3 + 2,
    }
    assert scored.coins == 6 and game.coins(0) == 15 + 6


def test_dwarves_lose_the_bonus_of_a_lost_mine_section_2(rules: sw.Rules) -> None:
    """Rule 2 Dwarves (edge): only Mines the Dwarves occupy at the end of the turn count; a Mine
    taken from them (Forest 2, by player 1's Crowd) no longer scores for them."""
    game = _dwarves_on_two_mines(rules)  # Dwarves: 5 (Mine), 1, 2 (Mine)
    game.put(3, 1, 5, race="crowd")  # player 1's Crowd next to Forest 2
    assert game.region(2).tokens == 1 and game.conquest_cost(2) == 2 + 1
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)  # the lone Dwarf is lost: nothing to withdraw
    assert game.region(2).race == "crowd" and game.active_player == 0
    coins = game.coins(0)
    deploy_all_and_end(game)  # player 0 just redeploys: 2 regions, 1 Mine
    assert last(game, Scored).coins == 2 + 1 and game.coins(0) == coins + 3
