"""Tritons (rule 2): −1 to conquer coastal regions (next to a Sea or the Lake), min 1;
no discount on the water itself (A3).

Positions are on the 2-player map: Sea 0 borders regions 1 and 5, Sea 22 borders 15, 20 and
21, the Lake (7) borders 2, 6, 8, 12 and 13. Region 1 is an empty Farmland on the edge, 2 an
empty Forest on the edge (Lake shore), 5 an empty Mountain (Sea shore), 21 an empty Forest
whose only edge contact is Sea 22, 3 a Swamp with a Lost Tribe (not coastal), 11 a Farmland
with a Lost Tribe (not coastal) next to 12, a Lake-shore Forest with a Lost Tribe, and 17 an
empty Hill (not coastal). ``plain``/``plain2``/``crowd`` are test rule files (tests/rules/).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import new_game

import smallworld_rules as sw
from smallworld_rules.hooks import CORE


def _tritons(rules: sw.Rules, power: str = "plain") -> sw.Game:
    """Player 0 has just picked Tritons."""
    game = new_game(rules, [("tritons", power), ("crowd", "plain2"), ("ratmen", "hill")])
    game.apply(sw.PickCombo(0))
    return game


def _discount_line(rules: sw.Rules) -> int:
    """The line of races/tritons.swr that writes the discount."""
    lines = Path(rules.races["tritons"].path).read_text(encoding="utf-8").splitlines()
    found = [i for i, text in enumerate(lines, 1) if text.strip().startswith("conquest_cost")]
    assert len(found) == 1
    return found[0]


def test_tritons_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 Tritons: banner 6 tokens, 11 in the box."""
    assert (rules.races["tritons"].tokens, rules.races["tritons"].box) == (6, 11)
    assert _tritons(rules).hand(0) == 6


def test_coastal_regions_cost_one_less_section_2(rules: sw.Rules) -> None:
    """Rule 2 Tritons: a region next to a Sea (1, 21) or the Lake (2) costs 2 − 1 = 1, a coastal
    Mountain (5) 3 − 1 = 2; regions away from the water (3, 17) pay the full cost."""
    game = _tritons(rules)
    costs = {r: game.conquest_cost(r) for r in (1, 2, 5, 21, 3, 17)}
    assert costs == {1: 1, 2: 1, 5: 2, 21: 1, 3: 3, 17: 2}


def test_explanation_names_the_rule_file_and_line_section_2(rules: sw.Rules) -> None:
    """Rule 2 Tritons / issue 3: explain_conquest_cost names races/tritons.swr and the line of
    its discount; a non-coastal region's breakdown has no Tritons contribution."""
    game = _tritons(rules)
    b = game.explain_conquest_cost(5)
    assert (b.base, b.value) == (2, 2)
    triton = [c for c in b.contributions if c.path != CORE]
    assert len(triton) == 1
    c = triton[0]
    assert Path(c.path).as_posix().endswith("races/tritons.swr")
    assert (c.label, c.op, c.amount, c.line) == ("Tritons", "sub", 1, _discount_line(rules))
    assert [x.label for x in b.contributions if x.path == CORE] == ["Mountain"]
    assert all(x.path == CORE for x in game.explain_conquest_cost(3).contributions)


def test_conquest_spends_the_discounted_tokens_section_2(rules: sw.Rules) -> None:
    """Rule 2 Tritons: the discount is what is paid: 1 token into region 1, 2 into the Lake-shore
    Lost Tribe region 12 (reached through the non-coastal 11, which costs the full 3)."""
    game = _tritons(rules)
    game.apply(sw.Conquer(1))
    assert game.hand(0) == 5 and game.region(1).tokens == 1
    inland = _tritons(rules)
    inland.apply(sw.Conquer(11))
    assert inland.hand(0) == 3
    assert inland.conquest_cost(12) == 2
    inland.apply(sw.Conquer(12))
    assert inland.hand(0) == 1 and inland.region(12).tokens == 2


def test_discount_on_defended_coastal_region_section_2(rules: sw.Rules) -> None:
    """Rule 2 Tritons: the discount also applies against an enemy: 2 Crowd tokens on the Sea
    shore region 1 cost 2 + 2 − 1 = 3."""
    game = _tritons(rules)
    game.put(1, 1, 2, race="crowd")
    assert game.conquest_cost(1) == 3
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "tritons" and game.hand(0) == 3


def test_discount_never_below_one_section_2(rules: sw.Rules) -> None:
    """Rule 2 Tritons (edge): with Commando an empty coastal region would cost 2 − 1 − 1 = 0;
    at least 1 token is still required."""
    game = _tritons(rules, "commando")
    b = game.explain_conquest_cost(1)
    assert (b.value, b.clamped_from) == (1, 0)
    game.apply(sw.Conquer(1))
    assert game.region(1).tokens == 1 and game.hand(0) == 6 + 4 - 1


def test_no_discount_on_water_a3(rules: sw.Rules) -> None:
    """A3: Seafaring Tritons pay the full 2 for a Sea or the Lake (water is not coastal),
    while the land on its shore keeps its discount."""
    game = _tritons(rules, "seafaring")
    for water in (0, 22):
        b = game.explain_conquest_cost(water)
        assert b.value == 2 and b.contributions == ()
    game.apply(sw.Conquer(0))
    assert game.hand(0) == 11 - 2 and game.region(0).race == "tritons"
    assert game.conquest_cost(1) == 1
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    assert game.conquest_cost(7) == 2  # the Lake, next to region 2
    game.apply(sw.Conquer(7))
    assert game.region(7).tokens == 2 and game.hand(0) == 11 - 2 - 1 - 1 - 2


def test_enemies_get_no_discount_against_coastal_tritons_section_2(rules: sw.Rules) -> None:
    """Rule 2 Tritons (edge): the discount is the Tritons' own: an enemy attacking a coastal
    Triton region pays the full 2 + tokens."""
    game = _tritons(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 5))  # 5 in hand + nothing lifted: region 1 holds 6
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    b = game.explain_conquest_cost(1)
    assert b.value == 2 + 6
    assert all(c.path == CORE for c in b.contributions)


COASTAL_2P = {1, 2, 5, 6, 8, 12, 13, 15, 20, 21}


@pytest.mark.parametrize("region", range(23))
def test_exactly_the_coastal_land_regions_are_discounted_section_1_15(
    rules: sw.Rules, region: int
) -> None:
    """Rule 1.15 / rule 2 Tritons / A3: each land region of the 2p map bordering a Sea or the Lake
    gets exactly one Tritons discount of 1; other land regions and the water get none."""
    game = _tritons(rules)
    subs = [
        (c.label, c.amount)
        for c in game.explain_conquest_cost(region).contributions
        if c.op == "sub"
    ]
    assert subs == ([("Tritons", 1)] if region in COASTAL_2P else [])
