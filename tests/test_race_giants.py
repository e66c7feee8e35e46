"""Giants (rule 2): −1 conquest cost next to a Mountain region a Giant occupies
(ruling 24: a Mountain merely adjacent, not held, gives nothing); minimum 1 (rule 1.7).

2-player map: Mountain 5 (edge) borders Farmland 1 (edge), Hill 6 (Lost Tribe) and Farmland 11
(Lost Tribe, edge); Mountain 8 (interior) borders Forest 2, Swamp 3 (Lost Tribe) and Farmland
9; Swamp 20 (edge) borders Mountain 19 and Hill 14 (Lost Tribe).
"""

from __future__ import annotations

from pathlib import Path

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw


def discount_line(rules: sw.Rules) -> int:
    """The line of races/giants.swr that declares the discount."""
    text = Path(rules.races["giants"].path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(text, 1) if line.strip().startswith("conquest_cost"))


def giants(rules: sw.Rules, power: str = "plain") -> sw.Game:
    game = new_game(rules, [("giants", power)])
    game.apply(sw.PickCombo(0))
    return game


def test_giants_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 table / rule 1.1: the Giants banner gives 6 tokens; the box holds 11."""
    race = rules.races["giants"]
    assert (race.tokens, race.box) == (6, 11)
    assert giants(rules).hand(0) == 6


def test_discount_next_to_a_held_mountain_section_2(rules: sw.Rules) -> None:
    """Rule 2 Giants: once a Giant stands on Mountain 5 (conquered this turn), each neighbour of 5
    costs 1 less: empty Farmland 1 costs 1, Lost Tribe Hill 6 costs 2."""
    game = giants(rules)
    assert (game.conquest_cost(1), game.conquest_cost(11)) == (2, 3)  # no Mountain held yet
    game.apply(sw.Conquer(5))  # 2 + Mountain
    assert game.hand(0) == 3
    assert (game.conquest_cost(1), game.conquest_cost(6), game.conquest_cost(11)) == (1, 2, 2)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(6))
    assert game.hand(0) == 0
    assert [game.region(r).race for r in (5, 1, 6)] == ["giants"] * 3


def test_explain_names_the_giants_rule_file_and_line_section_2(rules: sw.Rules) -> None:
    """Rule 2 Giants, the hook points: the breakdown names races/giants.swr and the discount's
    line."""
    game = giants(rules)
    game.apply(sw.Conquer(5))
    breakdown = game.explain_conquest_cost(6)
    assert (breakdown.base, breakdown.value) == (2, 2)
    giant = [c for c in breakdown.contributions if c.path != "<core>"]
    assert len(giant) == 1
    (c,) = giant
    assert (c.label, c.op, c.amount) == ("Giants", "sub", 1)
    assert Path(c.path).as_posix().endswith("races/giants.swr")
    assert c.line == discount_line(rules)
    assert f"giants.swr:{c.line}" in breakdown.explain()


def test_no_discount_next_to_a_mountain_not_held_ruling_24(rules: sw.Rules) -> None:
    """Ruling 24: a Mountain merely adjacent to the Giants' region gives nothing: holding
    Forest 2 next to the empty Mountain 8, the Giants pay full price for 3 and 9's other
    neighbours; the explanation carries no Giants contribution."""
    game = giants(rules)
    game.apply(sw.Conquer(2))
    game.apply(sw.Conquer(1))  # also next to Mountain 5, which nobody holds
    for region, cost in ((3, 3), (6, 3), (8, 3), (5, 3)):
        breakdown = game.explain_conquest_cost(region)
        assert breakdown.value == cost
        assert all(c.label != "Giants" for c in breakdown.contributions)


def test_mountain_held_by_another_race_gives_nothing_ruling_24(rules: sw.Rules) -> None:
    """Ruling 24 (edge): a Mountain held by someone else is no Giant Mountain: next to player
    1's Mountain 19 the Giants pay 2 for Swamp 20."""
    game = giants(rules)
    game.put(19, 1, 1, race="crowd")
    game.apply(sw.Conquer(21))  # next to 20, not to 19
    assert game.explain_conquest_cost(20).value == 2
    assert game.conquest_cost(14) == 3  # Hill 14: 2 + Lost Tribe, no discount


def test_discount_stops_when_the_mountain_is_lost_ruling_24(rules: sw.Rules) -> None:
    """Ruling 24 (edge): the Giant must be on the Mountain now: after the Giants' Mountain 5 is
    taken by player 1, the Giants in 1 pay full price for Hill 6 again."""
    game = new_game(rules, [("giants", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(5))
    game.apply(sw.Conquer(1))  # 1 with the discount
    deploy_all_and_end(game)
    assert game.region(5).tokens == 1
    game.apply(sw.PickCombo(0))
    game.put(11, 1, 1)  # the Crowd enter next to Mountain 5
    game.apply(sw.Conquer(5))  # 2 + 1 Giant + Mountain
    deploy_all_and_end(game)
    assert game.active_player == 0 and game.region(5).race == "crowd"
    assert game.conquest_cost(6) == 3 and game.conquest_cost(2) == 2


def test_discount_is_clamped_to_one_section_1_7(rules: sw.Rules) -> None:
    """Rule 2 Giants / rule 1.7: with Commando too, an empty neighbour of the Giants' Mountain would
    cost 2 − 1 − 1 = 0; the cost is clamped to 1, and a conquest still needs a token."""
    game = giants(rules, "commando")  # 6 + 4 tokens
    game.apply(sw.Conquer(5))  # 3 − 1 = 2
    breakdown = game.explain_conquest_cost(1)
    assert breakdown.value == 1 and breakdown.clamped_from == 0
    assert sorted(c.label for c in breakdown.contributions) == ["Commando", "Giants"]
    game.apply(sw.Conquer(1))
    assert game.region(1).tokens == 1 and game.hand(0) == 10 - 2 - 1


def test_declined_giants_give_no_discount_to_the_next_race_section_2(rules: sw.Rules) -> None:
    """Rule 2 Giants ("works in decline: no") / rule 1.11: the discount belongs to the Giants; the
    owner's new race pays full price next to the declined Giants' Mountain."""
    game = new_game(rules, [("giants", "plain"), ("crowd", "plain2"), ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(5))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.region(5).race == "giants" and game.region(5).declined
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Ratmen
    game.apply(sw.Conquer(11))  # an edge region next to the declined Giants' Mountain 5
    assert game.conquest_cost(6) == 3
    assert all(c.label != "Giants" for c in game.explain_conquest_cost(6).contributions)
