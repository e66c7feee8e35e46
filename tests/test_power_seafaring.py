"""Seafaring (rule 3, ruling 32, A2, A3): while active the race may conquer the two
Seas and the Lake, each one empty region (base cost 2, 1 coin); water is refused to every other
race; water regions are kept and scored after decline; a Sea touching the edge is a border
region for the first conquest (A2); Tritons get no discount on water (A3).

2-player map: Seas 0 (next to 1, 5) and 22 (next to 15, 20, 21), the Lake 7 (next to 2, 6, 8,
12, 13; not on the edge).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered, Scored

WATER = {0, 7, 22}


def _pick(rules: sw.Rules, race: str = "ratmen", power: str = "seafaring") -> sw.Game:
    game = new_game(rules, [(race, power), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def _targets(game: sw.Game) -> set[int]:
    return {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}


def _last_score(game: sw.Game, player: int) -> int:
    return [e.coins for e in game.log if isinstance(e, Scored) and e.player == player][-1]


def test_seafaring_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Seafaring badge gives 5 tokens (Ratmen 8 + 5)."""
    assert rules.powers["seafaring"].tokens == 5
    assert _pick(rules).hand(0) == 13


def test_seafaring_conquers_seas_and_lake_ruling_32(rules: sw.Rules) -> None:
    """Ruling 32: a Sea and the Lake are each one empty region costing 2 and worth 1 coin:
    Sea 0, Farmland 1, Forest 2 and the Lake 7 score 4."""
    game = _pick(rules)
    assert game.conquest_cost(0) == game.conquest_cost(7) == game.conquest_cost(22) == 2
    for region in (0, 1, 2, 7):
        game.apply(sw.Conquer(region))
    assert [(e.region, e.cost) for e in game.log if isinstance(e, Conquered)] == [
        (0, 2),
        (1, 2),
        (2, 2),
        (7, 2),
    ]
    assert game.region(7).race == "ratmen" and game.region(7).terrain == "lake"
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 4 and _last_score(game, 0) == 4


def test_water_refused_without_seafaring_section_1_7(rules: sw.Rules) -> None:
    """Rule 1.7 (negative): without Seafaring no Sea or Lake is offered or accepted, even next
    to the race's regions."""
    game = _pick(rules, power="plain")
    game.apply(sw.Conquer(2))  # next to the Lake 7
    assert not _targets(game) & WATER
    for region in (7, 0):
        before = game.to_json()
        with pytest.raises(sw.IllegalAction, match="water"):
            game.apply(sw.Conquer(region))
        assert game.to_json() == before


def test_seafaring_enters_by_a_sea_not_the_lake_a2(rules: sw.Rules) -> None:
    """A2: the Seas touch the edge, so a first conquest may take one; the Lake does not
    (rule 1.7), so it is refused as a first conquest."""
    game = _pick(rules)
    assert {0, 22} <= _targets(game) and 7 not in _targets(game)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="border"):
        game.apply(sw.Conquer(7))
    assert game.to_json() == before
    game.apply(sw.Conquer(22))
    assert _targets(game) >= {15, 20, 21}


def test_seafaring_water_kept_and_scored_after_decline_ruling_32(rules: sw.Rules) -> None:
    """Ruling 32: the declined race keeps its Sea and Lake and scores them (decline turn and
    later); a race without Seafaring cannot take them from it."""
    game = _pick(rules)
    for region in (0, 1, 2, 7):
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.coins(0) == coins + 4
    for region in (0, 7):
        view = game.region(region)
        assert (view.race, view.declined, view.tokens) == ("ratmen", True, 1)
    assert saved_state(game)["races"]["ratmen"]["power"] is None
    # Player 1's Crowd, next to nothing of ours yet, conquers up to the Lake and is refused it.
    for region in (13, 12):
        game.apply(sw.Conquer(region))
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="water"):
        game.apply(sw.Conquer(7))
    assert game.to_json() == before
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))  # player 0: Giants + Bulky
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 1 + 4  # Giants + the declined Ratmen's 4, water included


def test_declined_seafaring_ghouls_keep_water_but_take_no_more_ruling_32(
    rules: sw.Rules,
) -> None:
    """Ruling 32: declined Seafaring Ghouls keep their Sea but, the badge gone, conquer no
    new water when they act in decline."""
    game = _pick(rules, race="ghouls")  # 5 + 5 tokens
    game.apply(sw.Conquer(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # player 0: Giants; the declined Ghouls act first
    assert saved_state(game)["acting"] == "ghouls"
    assert game.region(0).race == "ghouls" and game.region(0).declined
    assert 7 not in _targets(game) and {6, 8} <= _targets(game)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="water"):
        game.apply(sw.Conquer(7))
    assert game.to_json() == before


def test_seafaring_tritons_no_discount_on_water_a3(rules: sw.Rules) -> None:
    """A3: Seafaring Tritons pay the full 2 for a Sea or the Lake (water is not "coastal"),
    but get their −1 on coastal land (Farmland 1 next to Sea 0, Forest 21 next to Sea 22)."""
    game = _pick(rules, race="tritons")
    for region in WATER:
        b = game.explain_conquest_cost(region)
        assert b.value == 2 and not [c for c in b.contributions if "tritons" in c.path]
    for region in (1, 21):
        b = game.explain_conquest_cost(region)
        assert b.value == 1
        assert [c.path.endswith("races/tritons.swr") for c in b.contributions] == [True]
    game.apply(sw.Conquer(0))
    game.apply(sw.Conquer(1))
    assert [e.cost for e in game.log if isinstance(e, Conquered)] == [2, 1]


def test_sea_shore_stays_a_border_while_a_seafarer_holds_the_sea_ruling_1(
    rules: sw.Rules,
) -> None:
    """Ruling 1: Forest 21 touches the edge only through Sea 22; it stays a border region
    for a new race even while a Seafaring race holds that Sea."""
    game = _pick(rules)
    game.apply(sw.Conquer(22))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd, entering the map
    assert not game.map.regions[21].edge
    assert 21 in _targets(game)
    game.apply(sw.Conquer(21))
    assert game.region(21).owner == 1
