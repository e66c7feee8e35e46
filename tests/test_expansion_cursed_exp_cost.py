"""Cursed! (expansions/cursed/): Kobolds, written with `region_tokens min 2`.

Kobolds: never occupy nor conquer a region with fewer than 2 Kobold tokens; in decline a
single token per region, as normal.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4
(edge), Mountain 19 (edge).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw


def kobolds(rules: sw.Rules, power: str = "plain") -> sw.Game:
    game = new_game(rules, [("kobolds", power), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def kobold_regions(game: sw.Game) -> dict[int, int]:
    return {
        r: game.region(r).tokens for r in range(len(game.map.regions))
        if game.region(r).race == "kobolds"
    }


def other_player_turn(game: sw.Game) -> None:
    """The other player enters at Mountain 19 (or only redeploys) and ends his turn."""
    if sw.PickCombo(0) in game.legal_actions():
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(19))
    deploy_all_and_end(game)


def test_kobolds_banner_and_box(cursed: sw.Rules) -> None:
    """Kobolds: the banner gives 11 tokens; the box holds 16 (the banner and the largest
    badge, 5)."""
    race = cursed.races["kobolds"]
    assert (race.tokens, race.box) == (11, 16)
    assert kobolds(cursed).hand(0) == 11


def test_kobolds_conquer_with_at_least_two(cursed: sw.Rules) -> None:
    """Kobolds: no region is conquered with fewer than 2 Kobolds: with Commando, empty Hill
    4 (2 - 1) still costs 2, and the breakdown says it was clamped."""
    game = kobolds(cursed, "commando")
    breakdown = game.explain_conquest_cost(4)
    assert (breakdown.clamped_from, breakdown.value) == (1, 2)
    game.apply(sw.Conquer(4))
    assert kobold_regions(game) == {4: 2}


def test_kobolds_redeploy_and_ready_leave_two_per_region(cursed: sw.Rules) -> None:
    """Kobolds: ending the conquests takes back every token but 2 per region, and so does
    readying them next turn; the tokens in hand are what is beyond 2 per region."""
    game = kobolds(cursed)
    game.apply(sw.Conquer(4))  # 2
    game.apply(sw.Conquer(3))  # 3: the Lost Tribe
    deploy_all_and_end(game)  # 6 in hand, all put on one region
    other_player_turn(game)
    assert game.to_move == 0
    assert sorted(kobold_regions(game).values()) == [2, 2]
    assert game.hand(0) == 11 - 4


def test_kobolds_make_no_die_attempt_with_one_token(cursed: sw.Rules) -> None:
    """Kobolds: with a single Kobold in hand there is no final die attempt (the region
    would hold 1), and ConquerWithDie is refused without changing the game."""
    game = kobolds(cursed)
    for region in (4, 3, 9, 10):
        if game.hand(0) >= game.conquest_cost(region):
            game.apply(sw.Conquer(region))
    assert game.hand(0) == 1
    assert not [a for a in game.legal_actions() if isinstance(a, sw.ConquerWithDie)]
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="at least 2 tokens"):
        game.apply(sw.ConquerWithDie(14))
    assert game.to_json() == before


def test_kobolds_dragon_conquers_with_two(cursed: sw.Rules) -> None:
    """Kobolds: the Dragon Master's single-token conquest takes 2 Kobolds, as no region is
    occupied with fewer; with 1 in hand the Dragon cannot be used."""
    game = kobolds(cursed, "dragon_master")
    game.apply(sw.UseAbility("dragon_attack", 3))
    assert kobold_regions(game) == {3: 2} and game.hand(0) == 16 - 2
    small = kobolds(cursed, "dragon_master")
    while small.hand(0) > 1:
        region = next(a.region for a in small.legal_actions() if isinstance(a, sw.Conquer))
        small.apply(sw.Conquer(region))
    with pytest.raises(sw.IllegalAction, match="holds a region with 2"):
        small.apply(next(
            sw.UseAbility("dragon_attack", r) for r in range(len(small.map.regions))
            if small.region(r).race is None and small.map.regions[r].terrain not in ("sea", "lake")
            and any(small.region(n).race == "kobolds" for n in small.map.regions[r].adjacent)
        ))


def test_kobolds_in_decline_keep_one_per_region(cursed: sw.Rules) -> None:
    """Kobolds: when they go into decline, a single token stays in each region, as
    normal."""
    game = kobolds(cursed)
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    other_player_turn(game)
    game.apply(sw.Decline())
    assert sorted(kobold_regions(game).values()) == [1, 1]
