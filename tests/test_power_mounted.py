"""Mounted (rule 3): −1 token to conquer a Hill or Farmland region, at least 1
(rule 1.7 one final clamp); no change elsewhere; lost with the badge in decline.

2-player map: Hills 4, 17 (empty, edge), 6, 14 (Lost Tribe); Farmland 1 (empty, edge, next to
Sea 0), 9 (empty), 11, 13 (Lost Tribe).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered

MOUNTED_LINE = 6  # powers/mounted.swr: the conquest_cost line


def _pick(rules: sw.Rules, race: str = "ratmen", power: str = "mounted") -> sw.Game:
    game = new_game(rules, [(race, power), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def test_mounted_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Mounted badge gives 5 tokens (Ratmen 8 + 5)."""
    assert rules.powers["mounted"].tokens == 5
    assert _pick(rules).hand(0) == 13


@pytest.mark.parametrize(
    ("region", "plain", "mounted"),
    [
        (4, 2, 1),  # empty Hill
        (17, 2, 1),  # empty Hill
        (6, 3, 2),  # Hill with a Lost Tribe
        (14, 3, 2),
        (1, 2, 1),  # empty Farmland
        (9, 2, 1),
        (11, 3, 2),  # Farmland with a Lost Tribe
        (13, 3, 2),
        (2, 2, 2),  # Forest: no discount
        (3, 3, 3),  # Swamp with a Lost Tribe
        (5, 3, 3),  # Mountain
        (20, 2, 2),  # Swamp
    ],
)
def test_mounted_discount_on_hill_and_farmland_section_3(
    rules: sw.Rules, region: int, plain: int, mounted: int
) -> None:
    """Rule 3 Mounted: Hill and Farmland cost 1 less; Forest, Swamp and Mountain do not."""
    assert _pick(rules, power="plain").conquest_cost(region) == plain
    assert _pick(rules).conquest_cost(region) == mounted


def test_mounted_explain_names_the_rule_file_and_line(rules: sw.Rules) -> None:
    """Rule 3 Mounted, the hook points: the breakdown names powers/mounted.swr and its line; no
    Mounted contribution on a Forest."""
    game = _pick(rules)
    b = game.explain_conquest_cost(11)
    assert (b.base, b.value) == (2, 2)
    mounted = [c for c in b.contributions if c.path.endswith("powers/mounted.swr")]
    assert len(mounted) == 1
    assert (mounted[0].op, mounted[0].amount, mounted[0].line) == ("sub", 1, MOUNTED_LINE)
    assert not [
        c for c in game.explain_conquest_cost(2).contributions if c.path.endswith("mounted.swr")
    ]


def test_mounted_pays_the_discounted_cost_section_3(rules: sw.Rules) -> None:
    """Rule 3 Mounted: the conquest moves the discounted number of tokens (1 into the empty Hill
    17, 2 into the Lost Tribe Farmland 11)."""
    game = _pick(rules)
    game.apply(sw.Conquer(17))
    game.apply(sw.Conquer(11))
    assert [(e.region, e.cost, e.tokens) for e in game.log if isinstance(e, Conquered)] == [
        (17, 1, 1),
        (11, 2, 2),
    ]
    assert game.hand(0) == 13 - 3


def test_mounted_clamps_once_at_one_with_tritons_section_1_7(rules: sw.Rules) -> None:
    """Rule 1.7 (edge): discounts add up and the total clamps once at 1: Tritons + Mounted on
    the coastal Farmland 1 is 2 − 1 − 1 = 0 → 1; on the Lake-side Hill 6 with a Lost Tribe
    3 − 1 − 1 = 1 (no clamp)."""
    game = _pick(rules, race="tritons")
    b = game.explain_conquest_cost(1)
    assert b.value == 1 and b.clamped_from == 0
    assert sorted(c.path.rsplit("/", 2)[-2] for c in b.contributions) == ["powers", "races"]
    b6 = game.explain_conquest_cost(6)
    assert b6.value == 1 and b6.clamped_from is None
    game.apply(sw.Conquer(1))
    assert game.region(1).tokens == 1


def test_mounted_still_needs_a_token_in_hand_ruling_4(rules: sw.Rules) -> None:
    """Ruling 4 (edge): a discounted cost of 1 still needs one token in hand."""
    game = _pick(rules)  # 13 tokens
    for region in (1, 6, 5, 11, 2, 12):  # 1 + 2 + 3 + 2 + 2 + 3 = 13
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 0
    assert game.conquest_cost(17) == 1
    assert sw.Conquer(17) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="ruling 4"):
        game.apply(sw.Conquer(17))
    assert game.to_json() == before


def test_mounted_lost_in_decline_for_acting_ghouls_section_3(rules: sw.Rules) -> None:
    """Rule 3 Mounted "Lost" after decline: declined Ghouls still conquer (rule 2 Ghouls), but their
    badge is gone, so the Hill 6 costs them the full 3."""
    game = _pick(rules, race="ghouls")  # 5 + 5 tokens
    assert game.conquest_cost(6) == 2
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # Ghouls keep every token
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # player 0: Giants; the declined Ghouls act first
    assert saved_state(game)["acting"] == "ghouls"
    b = game.explain_conquest_cost(6)
    assert b.value == 3 and not [c for c in b.contributions if "mounted" in c.path]
    game.apply(sw.Conquer(6))
    assert [e.cost for e in game.log if isinstance(e, Conquered)][-1] == 3
