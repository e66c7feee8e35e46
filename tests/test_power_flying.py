"""Flying (rule 3): conquer any land region, adjacent or not, never the Seas or the
Lake; 5 tokens (not 4, as one printing says); the first conquest may be anywhere (A1, the
option ``flying_enters_anywhere``).

Positions on the 2-player map: 0 and 22 are the Seas, 7 the Lake; 9 is an interior Farmland,
19 an edge Mountain far from it, 1 and 5 edge regions next to each other.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import new_game

import smallworld_rules as sw

WATER = {0, 7, 22}


def _flyers(rules: sw.Rules, **kwargs: Any) -> sw.Game:
    """Player 0 picks Ratmen + Flying."""
    game = new_game(rules, [("ratmen", "flying"), ("crowd", "plain2")], **kwargs)
    game.apply(sw.PickCombo(0))
    return game


def _conquer_targets(game: sw.Game) -> set[int]:
    return {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}


def test_flying_has_five_tokens_section_7(rules: sw.Rules) -> None:
    """Rule 3: the Flying badge gives 5 tokens (not seed 001's 4): Ratmen 8 + 5 = 13."""
    assert rules.powers["flying"].tokens == 5
    assert _flyers(rules).hand(0) == 13


def test_flying_first_conquest_anywhere_by_default_a1(rules: sw.Rules) -> None:
    """A1: by default a Flying race may make its first conquest away from the border."""
    game = _flyers(rules)
    assert game.options["flying_enters_anywhere"] is True
    assert sw.Conquer(9) in game.legal_actions()  # interior, not a border region
    game.apply(sw.Conquer(9))
    assert game.region(9).race == "ratmen"


def test_flying_conquers_any_land_region_section_3(rules: sw.Rules) -> None:
    """Rule 3 Flying: every land region is a target, adjacent to the race's regions or not."""
    game = _flyers(rules)
    game.apply(sw.Conquer(1))
    land = set(range(len(game.map.regions))) - WATER
    assert _conquer_targets(game) == land - {1}
    assert 19 not in game.map.regions[1].adjacent
    game.apply(sw.Conquer(19))  # far from region 1
    assert game.region(19).race == "ratmen" and game.region(19).tokens == 3


def test_flying_never_enters_water_section_3(rules: sw.Rules) -> None:
    """Rule 3 Flying (edge): the Seas and the Lake stay out of reach."""
    game = _flyers(rules)
    game.apply(sw.Conquer(1))  # region 1 borders Sea 0
    assert not _conquer_targets(game) & WATER
    for region in sorted(WATER):
        before = game.to_json()
        with pytest.raises(sw.IllegalAction, match="water"):
            game.apply(sw.Conquer(region))
        assert game.to_json() == before


def test_flying_border_rule_restored_by_option_a1(rules: sw.Rules) -> None:
    """A1 option flying_enters_anywhere=False: the first conquest must be a border region;
    after it, the race flies anywhere again."""
    game = _flyers(rules, options={"flying_enters_anywhere": False})
    assert sw.Conquer(9) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="not a border region"):
        game.apply(sw.Conquer(9))
    assert game.to_json() == before
    assert _conquer_targets(game) == {1, 2, 3, 4, 5, 10, 11, 15, 16, 17, 18, 19, 20, 21}
    game.apply(sw.Conquer(19))
    assert 9 not in game.map.regions[19].adjacent
    game.apply(sw.Conquer(9))  # interior and not adjacent: allowed after the entry
    assert game.region(9).race == "ratmen"


def test_flying_cannot_take_the_dragon_region_ruling_23(rules: sw.Rules) -> None:
    """Ruling 23 with Flying (Flying + Dragon): reaching everywhere does not beat the Dragon's
    immunity; the Dragon Master's other regions can be flown to."""
    game = new_game(rules, [("ratmen", "dragon_master"), ("elves", "flying")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.UseAbility("dragon_attack", 5))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(11))
    game.apply(sw.Deploy(11, 13 - 3))  # 1 token stays on 1 and on the Dragon's region 5
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Elves + Flying (11 tokens), no region yet
    assert game.region(5).pieces == {"dragon": 1} and game.region(5).tokens == 1
    assert game.hand(1) == 11 and 2 + 1 + 1 <= 11  # without the Dragon 5 would be affordable
    targets = _conquer_targets(game)
    assert 5 not in targets and 1 in targets and 9 in targets
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(5))
    assert game.to_json() == before
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "elves"
