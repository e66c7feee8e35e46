"""Spirit (rule 3, ruling 33, A12): a Spirit race in decline does not count toward the
one-declined-race limit (rule 1.12): it stays when a later race declines (the other, non-Spirit
declined race goes as usual), both declined races score, and it leaves the map only through
enemy conquest. The badge stays with the declined race.
"""

from __future__ import annotations

import pytest
from helpers import both_enter, deploy_all_and_end, new_game, place_withdrawals, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Declined, RaceRemoved, Scored


def _scored(game: sw.Game) -> Scored:
    return [e for e in game.log if isinstance(e, Scored)][-1]


def _declined(game: sw.Game) -> Declined:
    return [e for e in game.log if isinstance(e, Declined)][-1]


def _spirit_after_ratmen(rules: sw.Rules) -> sw.Game:
    """Player 0: Ratmen (region 1) decline; then Spirit Giants (17, 16) decline beside them.

    Player 1 holds Crowd in 19 and passes each turn.
    """
    game = new_game(
        rules, [("ratmen", "plain"), ("crowd", "plain2"), ("giants", "spirit"), ("elves", "bulky")]
    )
    both_enter(game, 1, 19)
    game.apply(sw.Decline())  # player 0: Ratmen decline
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # Giants + Spirit: 11 tokens
    game.apply(sw.Conquer(17))
    game.apply(sw.Conquer(16))  # Lost Tribe
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1
    game.apply(sw.Decline())  # player 0: Spirit Giants decline
    return game


def test_spirit_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Spirit badge gives 5 tokens (Giants 6 + 5)."""
    assert rules.powers["spirit"].tokens == 5
    game = new_game(rules, [("giants", "spirit")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 11


def test_spirit_declining_displaces_nobody_a12(rules: sw.Rules) -> None:
    """A12: the Spirit race goes into decline beside the declined Ratmen (none removed); the
    decline turn scores both declined races: Giants 2 + Ratmen 1 = 3."""
    game = _spirit_after_ratmen(rules)
    assert _declined(game).removed == ()
    assert game.declined_races(0) == ["ratmen", "giants"]
    assert _scored(game).player == 0 and _scored(game).coins == 2 + 1
    assert saved_state(game)["races"]["giants"]["power"] == "spirit"  # the badge stays
    assert "spirit" not in saved_state(game)["power_discard"]


def test_spirit_stays_when_a_later_race_declines_ruling_33(rules: sw.Rules) -> None:
    """Ruling 33 / Spirit + a second decline: when the next race (Elves) declines, the other
    declined race (Ratmen) leaves the map, the Spirit Giants stay; the decline turn scores
    Giants 2 + Elves 1."""
    game = _spirit_after_ratmen(rules)
    deploy_all_and_end(game)  # player 1
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))  # Elves + Bulky
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 1 + 1 + 2  # Elves, Ratmen, Giants
    deploy_all_and_end(game)  # player 1
    coins = game.coins(0)
    game.apply(sw.Decline())  # the Elves decline
    assert _declined(game).removed == ("ratmen",)
    assert game.declined_races(0) == ["giants", "elves"]
    assert game.region(1).owner is None and game.region(1).tokens == 0
    assert (game.region(17).race, game.region(16).race) == ("giants", "giants")
    assert game.coins(0) == coins + 2 + 1
    assert saved_state(game)["box"]["ratmen"] == 13


def test_non_spirit_limit_still_holds_section_1_12(rules: sw.Rules) -> None:
    """Rule 1.12 (contrast): the same play with a plain badge on the Giants removes the Ratmen
    at the Giants' decline: one declined race only."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("giants", "bulky")])
    both_enter(game, 1, 19)
    game.apply(sw.Decline())
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert _declined(game).removed == ("ratmen",)
    assert game.declined_races(0) == ["giants"]


def test_spirit_leaves_only_through_enemy_conquest_section_3(rules: sw.Rules) -> None:
    """Rule 3 Spirit: the Spirit tokens leave the map through enemy conquest: each conquered
    region costs its lone token; when the last one falls the race leaves."""
    game = _spirit_after_ratmen(rules)
    # Player 1's Crowd (8 tokens in 19) marches on the declined Giants in 17 and 16.
    game.apply(sw.Conquer(18))  # Lost Tribe next to 19: 3
    game.apply(sw.Conquer(17))  # 2 + 1 declined Giant
    assert game.region(17).owner == 1
    deploy_all_and_end(game)
    assert game.declined_races(0) == ["ratmen", "giants"]
    game.apply(sw.PickCombo(0))  # player 0: Elves
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    game.apply(sw.Conquer(16))  # the last Spirit region
    place_withdrawals(game)
    deploy_all_and_end(game)
    assert game.declined_races(0) == ["ratmen"]
    assert RaceRemoved(0, "giants") in game.log
    assert saved_state(game)["box"]["giants"] == 11


@pytest.mark.parametrize("spirit", [True, False])
def test_both_declined_races_score_every_turn_section_1_11(rules: sw.Rules, spirit: bool) -> None:
    """Rule 1.11: "both declined races if Spirit applies": with the Spirit exemption the next
    turn scores active Elves 1 + Ratmen 1 + Giants 2; without it Elves 1 + Giants 1."""
    if spirit:
        game = _spirit_after_ratmen(rules)
        expected = 1 + 1 + 2
    else:
        game = new_game(
            rules,
            [("ratmen", "plain"), ("crowd", "plain2"), ("giants", "commando"), ("elves", "bulky")],
        )
        both_enter(game, 1, 19)
        game.apply(sw.Decline())
        deploy_all_and_end(game)
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(17))
        deploy_all_and_end(game)
        deploy_all_and_end(game)
        game.apply(sw.Decline())
        expected = 1 + 1
    deploy_all_and_end(game)  # player 1
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))  # Elves
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    assert game.coins(0) == coins + expected
