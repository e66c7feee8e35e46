"""A Spider's Web (expansions/spiders_web/): the Slingmen, who conquer over one region and
earn a coin for each such conquest; Soul-Touch, whose decline revives its owner's previous
race in decline.

2-player map: Farmland 1 (edge) borders the Sea 0, Forest 2, Mountain 5 and Hill 6; Forest 2
borders Swamp 3 (edge, Lost Tribe), Lake 7 and Mountain 8; Hill 6 borders Hill 12; Swamp 3
borders Hill 4 (edge) and Farmland 9, which is three borders from Farmland 1.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import (
    check_invariants,
    deploy_all_and_end,
    every_listed_action_applies,
    first_round_on_the_2p_map,
)

import smallworld_rules as sw
from smallworld_rules.events import TokensGained, TurnStarted

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    """The official rules, the A Spider's Web box and the test-only rule files."""
    return sw.load_rules(expansions=["spiders_web"], paths=[TEST_RULES])


def slingmen(rules: sw.Rules) -> sw.Game:
    """Player 0's Slingmen (with Commando) enter on Farmland 1."""
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("slingmen", "commando")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    return game


def conquerable(game: sw.Game) -> set[int]:
    return {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}


def test_slingmen_banner_and_box(box: sw.Rules) -> None:
    """Slingmen: the banner gives 5 tokens; the box holds 10."""
    race = box.races["slingmen"]
    assert (race.tokens, race.box) == (5, 10)


def test_slingmen_conquer_over_one_region(box: sw.Rules) -> None:
    """Slingmen: from Farmland 1 they may conquer a region beyond one that borders it
    (Swamp 3 and Mountain 8 beyond Forest 2, Hill 12 beyond Hill 6), not three borders away
    (Farmland 9)."""
    game = slingmen(box)
    assert {2, 3, 5, 6, 8, 12} <= conquerable(game)
    assert 9 not in conquerable(game) and 4 not in conquerable(game)


def test_slingmen_earn_a_coin_for_each_conquest_over_a_region(box: sw.Rules) -> None:
    """Slingmen: each conquest of a region not adjacent to theirs earns 1 victory coin at
    once (Swamp 3 from Farmland 1), on top of the turn's score."""
    game = slingmen(box)
    coins = game.coins(0)
    game.apply(sw.Conquer(3))
    assert game.coins(0) == coins + 1
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 1 + 2


def test_slingmen_earn_nothing_next_to_their_regions_edge(box: sw.Rules) -> None:
    """Slingmen (edge): a conquest next to one of their regions earns nothing (Forest 2
    next to Farmland 1, then Hill 4 next to Swamp 3 once Swamp 3 is theirs), nor does the
    conquest that enters the map."""
    game = sw.Game.new(players=2, seed=1, rules=box, combos=[("slingmen", "commando")])
    game.apply(sw.PickCombo(0))
    coins = game.coins(0)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    assert game.coins(0) == coins
    game.apply(sw.Conquer(3))
    game.apply(sw.Conquer(4))
    assert game.coins(0) == coins


# --------------------------------------------------------------------------- Soul-Touch


def soul_touched(rules: sw.Rules, first: str = "ratmen") -> sw.Game:
    """Player 0's first race (with Commando) takes Farmland 1 and Forest 2 and declines; his
    Humans with Soul-Touch take Hill 4; player 1's Crowd holds Mountain 19; then player 0's
    Humans go into decline."""
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[
        (first, "commando"), ("crowd", "plain2"), ("humans", "soul_touch")])
    first_round_on_the_2p_map(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # the Humans with Soul-Touch
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1
    game.apply(sw.Decline())
    return game


def test_soul_touch_badge(box: sw.Rules) -> None:
    """Soul-Touch: the badge gives 4 tokens."""
    assert box.powers["soul_touch"].tokens == 4


def test_soul_touch_revives_the_previous_race_in_decline(box: sw.Rules) -> None:
    """Soul-Touch: when the race goes into decline, the owner's previous race in decline
    does not leave; at the start of his next turn it is his active race again, with its
    banner's tokens (Ratmen: 8) less those still on the map (2) in hand and no badge."""
    game = soul_touched(box)
    assert game.declined_races(0) == ["ratmen", "humans"]
    assert game.region(1).race == "ratmen" and game.region(1).declined
    deploy_all_and_end(game)  # player 1
    assert (game.active_race(0), game.declined_races(0)) == ("ratmen", ["humans"])
    assert game.active_power(0) is None
    assert game.phase is sw.Phase.CONQUEST and game.hand(0) == 8 - 2
    assert not game.region(1).declined
    assert isinstance(game.log[-1], TurnStarted)
    assert game.log[-2] == TokensGained(0, "ratmen", 6)
    assert sw.Conquer(3) in game.legal_actions()


def test_soul_touch_without_a_race_in_decline_just_declines_edge(box: sw.Rules) -> None:
    """Soul-Touch (edge): with no previous race in decline, the race simply declines, and
    its owner picks a new combo in his next turn."""
    game = sw.Game.new(players=2, seed=1, rules=box,
                       combos=[("humans", "soul_touch"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)  # player 1
    assert game.active_race(0) is None and game.phase is sw.Phase.PICK
    assert game.declined_races(0) == ["humans"]


def test_soul_touch_revival_survives_a_save_edge(box: sw.Rules) -> None:
    """Soul-Touch (edge): the race waiting to be revived is saved with the game; the loaded
    game revives it as the original does."""
    game = soul_touched(box)
    again = sw.Game.from_json(game.to_json(), rules=box)
    assert again.to_json() == game.to_json()
    deploy_all_and_end(game)
    deploy_all_and_end(again)
    assert again.active_race(0) == game.active_race(0) == "ratmen"
    assert again.to_json() == game.to_json()


def test_soul_touch_revived_race_plays_on_at_random_edge(box: sw.Rules) -> None:
    """Soul-Touch (edge): after a revival, seeded random games go on to their end with
    every token accounted for and every listed action legal."""
    for seed in range(3):
        game = soul_touched(box, first=("ratmen", "dwarves", "amazons")[seed])
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            assert step < 5000
            if step % 5 == 0:
                every_listed_action_applies(game, step)
            game.apply(rng.choice(list(game.legal_actions())))
            step += 1
            check_invariants(game, box, step)
        assert game.winners
