"""Orcs (rule 2): +1 coin per non-empty region conquered this turn; Lost Tribe and
declined regions count, empty ones (an empty Mountain too) do not (ruling 17).

2-player map: Swamp 3 (Lost Tribe, edge) borders Hill 4 (edge), Forest 2 (edge) and Mountain 8;
Forest 10 (Lost Tribe, edge) borders 4; Farmland 1 (edge) borders Mountain 5 (edge).
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Conquered, Scored


def last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


def orcs(rules: sw.Rules, power: str = "bulky") -> sw.Game:
    game = new_game(rules, [("orcs", power), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_orcs_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 table / rule 1.1: the Orcs banner gives 5 tokens; the box holds 10."""
    race = rules.races["orcs"]
    assert (race.tokens, race.box) == (5, 10)
    assert orcs(rules, "plain").hand(0) == 5


def test_lost_tribe_declined_and_active_regions_count_ruling_17(rules: sw.Rules) -> None:
    """Ruling 17: a Lost Tribe region (3), a declined region (4) and an active enemy region
    (10) are all non-empty: 3 regions + 3 = 6 coins; the bonus names races/orcs.swr."""
    game = orcs(rules)  # 10 tokens
    game.put(4, 1, 1, declined=True, race="crowd")
    game.put(10, 1, 1, race="humans")
    game.apply(sw.Conquer(3))  # 2 + Lost Tribe
    game.apply(sw.Conquer(4))  # 2 + 1 declined Crowd
    game.apply(sw.Conquer(10))  # 2 + 1 Human
    assert [e.defender_race for e in game.log if isinstance(e, Conquered)] == [
        "#lost_tribe",
        "crowd",
        "humans",
    ]
    deploy_all_and_end(game)
    scored = last(game, Scored)
    assert scored.player == 0 and scored.coins == 3 + 3
    ((race, value, text),) = scored.details
    assert (race, value) == ("orcs", 6) and "orcs.swr" in text
    assert game.coins(0) == 5 + 6


def test_own_declined_region_counts_ruling_17(rules: sw.Rules) -> None:
    """Ruling 17 with ruling 11: conquering your own declined region is a non-empty conquest:
    Farmland 1 (own declined Crowd) and empty Forest 2 score 2 + 1."""
    game = orcs(rules)
    game.put(1, 0, 1, declined=True, race="crowd")
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.declined_races(0) == []
    assert last(game, Scored).coins == 2 + 1 and game.coins(0) == 5 + 3


def test_empty_regions_do_not_count_ruling_17(rules: sw.Rules) -> None:
    """Ruling 17 (edge): an empty Mountain (5, with its marker) and an empty Farmland (1) are
    empty: 2 regions, no bonus."""
    game = orcs(rules, "plain")  # 5 tokens
    game.apply(sw.Conquer(5))  # 2 + Mountain
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert last(game, Scored).coins == 2 and game.coins(0) == 5 + 2


def test_only_this_turns_conquests_count_section_2(rules: sw.Rules) -> None:
    """Rule 2 Orcs (edge): regions conquered in an earlier turn do not score the bonus again: the
    next turn, one new empty region (Hill 4) gives 3 regions and no bonus."""
    game = orcs(rules)
    game.apply(sw.Conquer(3))  # Lost Tribe
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert last(game, Scored).coins == 2 + 1  # 8 coins
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    assert last(game, Scored).coins == 3 and game.coins(0) == 8 + 3


def test_no_bonus_in_the_decline_turn_ruling_16(rules: sw.Rules) -> None:
    """Ruling 16: the decline turn conquers nothing and scores the Orcs' regions only."""
    game = orcs(rules)
    game.apply(sw.Conquer(3))
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)  # 2 regions + 1 = 3: 8 coins
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert last(game, Scored).coins == 2 and game.coins(0) == 8 + 2
