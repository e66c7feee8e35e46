"""Halflings (rule 2): first conquest anywhere; a Hole-in-the-Ground in each of the
first two regions the race ever conquers (ruling 29), making them immune to conquest and to
racial and special powers (ruling 23: Dragon attacks, Sorcerer conversion); Holes are removed
on decline or abandon and never replaced.

2-player map: Farmland 9 is interior (not a border region); it borders Hill 14 (Lost Tribe),
Farmland 13 (Lost Tribe) and Hill 4 (edge). Forest 21 borders 14 and Swamp 20 (edge); 20 also
borders 14 and 13. Region 7 is the Lake.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import PieceMoved


def holes(game: sw.Game) -> dict[int, int]:
    """Regions holding Holes-in-the-Ground."""
    return {r: n for r in range(len(game.map.regions)) if (n := game.region(r).pieces.get("hole"))}


def hole_supply(game: sw.Game) -> int:
    return int(saved_state(game)["piece_supply"]["hole"])


def assert_illegal(game: sw.Game, action: sw.Action, match: str | None = None) -> None:
    assert action not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _halflings_dug_in(rules: sw.Rules, opponent: tuple[str, str]) -> sw.Game:
    """Player 0's Halflings + Bulky (11 tokens) enter at interior 9 and take 14, 21 and
    Mountain 15; every token but one per region goes to 15. Returned at player 1's turn
    (pick phase) with ``opponent`` on top of the market."""
    game = new_game(rules, [("halflings", "bulky"), opponent])
    game.apply(sw.PickCombo(0))
    for region in (9, 14, 21, 15):
        game.apply(sw.Conquer(region))
    game.apply(sw.Deploy(15, 1))
    while sw.EndTurn() not in game.legal_actions():
        game.apply(sw.Deploy(15, game.hand(0)))
    game.apply(sw.EndTurn())
    assert [game.region(r).tokens for r in (9, 14, 21)] == [1, 1, 1]
    assert holes(game) == {9: 1, 14: 1}
    return game


def test_halflings_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 table / rule 1.1: the Halflings banner gives 6 tokens; the box holds 11; the game has
    2 Holes-in-the-Ground."""
    race = rules.races["halflings"]
    assert (race.tokens, race.box) == (6, 11)
    assert rules.pieces["hole"].supply == 2 and rules.pieces["hole"].immune
    game = new_game(rules, [("halflings", "plain")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 6


def test_first_conquest_anywhere_section_2(rules: sw.Rules) -> None:
    """Rule 2 Halflings / rule 1.7: the first conquest may be any land region, interior ones too
    (a race without that right may not enter at interior 9); water stays closed."""
    game = new_game(rules, [("halflings", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    conquerable = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert {9, 12, 13, 14} <= conquerable and not {0, 7, 22} & conquerable
    assert_illegal(game, sw.Conquer(7), "water")
    game.apply(sw.Conquer(9))
    assert game.region(9).race == "halflings"
    other = new_game(rules, [("ratmen", "plain")])
    other.apply(sw.PickCombo(0))
    assert_illegal(other, sw.Conquer(9), "border")


def test_later_conquests_need_adjacency_section_2(rules: sw.Rules) -> None:
    """Rule 2 Halflings (edge) / ruling 2: only the entry is free; after it, conquests must be
    adjacent again (Swamp 16 is far from 9)."""
    game = new_game(rules, [("halflings", "plain")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(9))
    assert_illegal(game, sw.Conquer(16), "not adjacent")


def test_holes_in_the_first_two_conquests_only_ruling_29(rules: sw.Rules) -> None:
    """Ruling 29: a Hole goes into each of the first two regions conquered, not the third."""
    game = new_game(rules, [("halflings", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(9))
    assert holes(game) == {9: 1}
    game.apply(sw.Conquer(14))
    assert holes(game) == {9: 1, 14: 1} and hole_supply(game) == 0
    game.apply(sw.Conquer(13))
    assert holes(game) == {9: 1, 14: 1}
    placed = [e for e in game.log if isinstance(e, PieceMoved) and e.piece == "hole"]
    assert [e.region for e in placed] == [9, 14]


def test_holes_are_per_race_not_per_turn_ruling_29(rules: sw.Rules) -> None:
    """Ruling 29: the two Holes go into the first two regions the race *ever* conquers: one
    in the first turn, one at the first conquest of the next turn, none afterwards."""
    game = new_game(rules, [("halflings", "bulky"), ("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(9))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    assert holes(game) == {9: 1}
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(14))
    assert holes(game) == {9: 1, 4: 1}
    deploy_all_and_end(game)
    deploy_all_and_end(game)
    game.apply(sw.Conquer(13))
    assert holes(game) == {9: 1, 4: 1}


def test_hole_regions_are_immune_to_conquest_ruling_23(rules: sw.Rules) -> None:
    """Ruling 23 / rule 2 Halflings: an enemy may not conquer a Hole region (Hill 14), while the
    Halflings' Forest 21 without a Hole is open to attack."""
    game = _halflings_dug_in(rules, ("ratmen", "plain"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    assert sw.Conquer(21) in game.legal_actions()
    assert_illegal(game, sw.Conquer(14), "immune")
    assert not any(
        getattr(a, "region", None) == 14 or getattr(a, "target", None) == 14
        for a in game.legal_actions()
    )


def test_hole_regions_are_immune_to_the_dragon_ruling_23(rules: sw.Rules) -> None:
    """Ruling 23: a Dragon attack (a power's ability) cannot target a Hole region; it can
    target the Halflings' Forest 21 next door."""
    game = _halflings_dug_in(rules, ("ratmen", "dragon_master"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    assert sw.UseAbility("dragon_attack", 21) in game.legal_actions()
    assert_illegal(game, sw.UseAbility("dragon_attack", 14))
    game.apply(sw.UseAbility("dragon_attack", 21))
    assert game.region(21).race == "ratmen" and game.region(21).pieces == {"dragon": 1}


def test_hole_regions_are_immune_to_sorcerers_ruling_23(rules: sw.Rules) -> None:
    """Ruling 23: a Sorcerer conversion (a race's ability) cannot target the lone Halfling in
    Hole region 14; the lone Halfling in Forest 21 can be converted."""
    game = _halflings_dug_in(rules, ("sorcerers", "plain"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    assert sw.UseAbility("convert", 21) in game.legal_actions()
    assert_illegal(game, sw.UseAbility("convert", 14))
    game.apply(sw.UseAbility("convert", 21))
    assert game.region(21).race == "sorcerers"


def test_holes_removed_on_decline_ruling_29(rules: sw.Rules) -> None:
    """Ruling 29 / rule 1.12.3: when the Halflings decline, their Holes leave the map (back to the
    supply) and the regions can be conquered again."""
    game = _halflings_dug_in(rules, ("ratmen", "plain"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.declined_races(0) == ["halflings"]
    assert holes(game) == {} and hole_supply(game) == 2
    assert game.region(14).declined and game.region(14).tokens == 1
    assert sw.Conquer(14) in game.legal_actions()
    game.apply(sw.Conquer(14))
    assert game.region(14).race == "ratmen"


def test_hole_removed_on_abandon_and_never_replaced_ruling_29(rules: sw.Rules) -> None:
    """Ruling 29: abandoning a Hole region removes its Hole; the race's next conquests get no
    new Hole although one is back in the supply (the two conquests with Holes were its only
    ones so far)."""
    game = new_game(rules, [("halflings", "bulky"), ("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(9))
    game.apply(sw.Conquer(14))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    assert holes(game) == {9: 1, 14: 1}
    game.apply(sw.Abandon(9))
    assert holes(game) == {14: 1} and hole_supply(game) == 1
    game.apply(sw.Conquer(10))  # Forest 10 (Lost Tribe) next to 14
    game.apply(sw.Conquer(9))  # the old Hole region, retaken
    assert holes(game) == {14: 1} and hole_supply(game) == 1
    assert not game.region(9).pieces and not game.region(10).pieces


def test_no_new_holes_after_re_entering_ruling_29(rules: sw.Rules) -> None:
    """Ruling 29 (edge): Holes are not a per-turn power: a Halflings race that leaves the map
    entirely and re-enters anywhere gets no new Hole."""
    game = _halflings_dug_in(rules, ("ratmen", "plain"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    for region in (9, 14, 21, 15):
        game.apply(sw.Abandon(region))
    assert holes(game) == {} and hole_supply(game) == 2
    conquerable = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert 12 in conquerable  # interior: the first conquest is again anywhere
    game.apply(sw.Conquer(12))
    game.apply(sw.Conquer(13))
    assert holes(game) == {}
