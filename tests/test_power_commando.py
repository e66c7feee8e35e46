"""Commando (rule 3): −1 token on any conquest, minimum 1 (rule 1.7, ruling 4).

Positions on the 2-player map: region 1 is an empty Farmland on the edge (coastal, next to
Sea 0), 3 a Swamp with a Lost Tribe, 5 an empty Mountain on the edge (coastal), 17 an empty
Hill on the edge, 20 an empty Swamp on the edge.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import RaceActs


def _line_of(path: str, text: str) -> int:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip().startswith(text))


def test_commando_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Commando badge gives 4 tokens."""
    assert rules.powers["commando"].tokens == 4
    game = new_game(rules, [("ratmen", "commando")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 4


def test_commando_costs_one_less_section_3(rules: sw.Rules) -> None:
    """Rule 3 Commando: every conquest costs 1 less — empty 2 → 1, Lost Tribe 3 → 2, Mountain
    3 → 2, an enemy stack 2 + 4 → 5."""
    game = new_game(rules, [("ratmen", "commando"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.put(17, 1, 4, race="crowd")
    assert [game.conquest_cost(r) for r in (1, 3, 5, 17)] == [1, 2, 2, 5]
    hand = game.hand(0)
    game.apply(sw.Conquer(3))
    assert game.region(3).tokens == 2 and game.hand(0) == hand - 2


def test_commando_explained_by_its_rule_file(rules: sw.Rules) -> None:
    """Rule 3 Commando: the cost breakdown names powers/commando.swr and the modifier's line."""
    game = new_game(rules, [("ratmen", "commando")])
    game.apply(sw.PickCombo(0))
    b = game.explain_conquest_cost(3)
    assert (b.base, b.value) == (2, 2)
    commando = b.contributions[-1]
    assert Path(commando.path).parts[-2:] == ("powers", "commando.swr")
    assert (commando.op, commando.amount) == ("sub", 1)
    assert commando.line == _line_of(commando.path, "conquest_cost sub 1") == 6


def test_commando_discount_clamps_once_at_one_section_1_7(rules: sw.Rules) -> None:
    """Rule 1.7 (edge): Tritons −1 on a coastal region plus Commando −1 on an empty region would
    give 0: the cost is clamped once, to 1."""
    game = new_game(rules, [("tritons", "commando")])
    game.apply(sw.PickCombo(0))
    b = game.explain_conquest_cost(1)  # coastal, empty
    assert b.value == 1 and b.clamped_from == 0
    game.apply(sw.Conquer(1))
    assert game.region(1).tokens == 1


def test_commando_needs_a_token_in_hand_ruling_4(rules: sw.Rules) -> None:
    """Ruling 4 (edge): with an empty hand no conquest is possible, although it costs 1."""
    game = new_game(rules, [("ratmen", "commando")])
    game.apply(sw.PickCombo(0))  # 12 tokens
    for region in (1, 2, 5, 6, 11, 3, 4):  # 1 + 1 + 2 + 2 + 2 + 2 + 1 = 11
        game.apply(sw.Conquer(region))
    game.apply(sw.Conquer(9))  # the last token
    assert game.hand(0) == 0 and game.conquest_cost(10) == 2 and game.conquest_cost(16) == 2
    assert game.conquest_cost(8) == 2 and game.conquest_cost(17) == 1
    assert not any(isinstance(a, sw.Conquer) for a in game.legal_actions())
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="ruling 4"):
        game.apply(sw.Conquer(17))
    assert game.to_json() == before


def test_commando_lost_in_decline_section_3(rules: sw.Rules) -> None:
    """Rule 3 Commando (After decline: lost): declined Ghouls, which still conquer, no longer get
    the discount once their badge is discarded."""
    game = new_game(rules, [("ghouls", "commando"), ("crowd", "plain2"), ("ratmen", "plain")])
    game.apply(sw.PickCombo(0))  # Ghouls + Commando: 5 + 4
    assert game.conquest_cost(1) == 1
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # every Ghoul stays; the badge is discarded
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Ratmen; the declined Ghouls act first
    assert game.phase is sw.Phase.CONQUEST and game.active_power(0) == "plain"
    assert game.log[-1] == RaceActs(0, "ghouls", game.log[-1].readied)
    assert game.declined_races(0) == ["ghouls"]
    assert game.conquest_cost(2) == 2 and game.conquest_cost(6) == 3  # full price again
    assert not game.explain_conquest_cost(2).contributions
