"""Stout (rule 3, ruling 34): the race may go into decline at the end of a normal
expansion turn, after scoring — ``Decline()`` in place of ``EndTurn`` — instead of spending a
whole turn on it. The turn scores as an ordinary active turn, then rule 1.12 applies (one token per
region, badge discarded, the older declined race removed); Stout Ghouls keep every token and act
in decline from the next turn (rule 2 Ghouls, ruling 37).
"""

from __future__ import annotations

import pytest
from helpers import both_enter, deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Declined, RaceActs, Scored


def _deploy_all(game: sw.Game) -> None:
    """Place every token in hand (largest placements first) without ending the turn."""
    while sw.EndTurn() not in game.legal_actions():
        deploys = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
        game.apply(max(deploys, key=lambda a: a.count))


def _stout(rules: sw.Rules, race: str = "humans") -> sw.Game:
    """Player 0's Stout race takes 1, 6 and 11 (Farmlands 1, 11); player 1's Crowd 19."""
    game = new_game(rules, [(race, "stout"), ("crowd", "plain2"), ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))
    for region in (1, 6, 11):  # 2 + 3 + 3
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    return game


def test_stout_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Stout badge gives 4 tokens (Humans 5 + 4)."""
    assert rules.powers["stout"].tokens == 4
    game = new_game(rules, [("humans", "stout")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 9


def test_stout_declines_at_the_end_of_a_normal_turn_ruling_34(rules: sw.Rules) -> None:
    """Ruling 34: after a normal turn (one more conquest: the Hill 17) the race scores as
    active — 4 regions + 2 Farmlands (Humans) = 6 — and then declines: one
    token per region, the rest to the box, the badge discarded, a new pick next turn."""
    game = _stout(rules)
    assert game.coins(0) == 5 + 3 + 2
    game.apply(sw.Conquer(17))  # empty Hill next to 11
    _deploy_all(game)
    assert sw.Decline() in game.legal_actions() and sw.EndTurn() in game.legal_actions()
    game.apply(sw.Decline())
    assert game.coins(0) == 10 + 4 + 2
    scored, declined = [e for e in game.log if isinstance(e, Scored | Declined)][-2:]
    assert isinstance(scored, Scored) and scored.coins == 6  # scoring first, then decline
    assert declined == Declined(0, "humans", ())
    assert game.active_race(0) is None and game.declined_races(0) == ["humans"]
    for region in (1, 6, 11, 17):
        view = game.region(region)
        assert (view.race, view.declined, view.tokens) == ("humans", True, 1)
    state = saved_state(game)
    assert state["box"]["humans"] == 10 - 4
    assert state["races"]["humans"]["power"] is None and "stout" in state["power_discard"]
    assert game.active_player == 1  # the turn is over
    deploy_all_and_end(game)
    assert game.active_player == 0 and game.phase is sw.Phase.PICK
    game.apply(sw.PickCombo(0))  # Ratmen + Bulky
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert game.coins(0) == 16 + 1 + 4  # Ratmen 1, declined Humans 4, no Farmland bonus


def test_stout_decline_only_once_the_tokens_are_placed_edge(rules: sw.Rules) -> None:
    """Ruling 34 (edge): ``Decline`` replaces ``EndTurn`` and, like it, waits until every
    token in hand is placed; refused, it changes nothing."""
    game = _stout(rules)
    game.apply(sw.Conquer(17))
    game.apply(sw.Deploy(17, 1))
    assert game.phase is sw.Phase.REDEPLOY and game.hand(0) > 0
    assert sw.Decline() not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="place"):
        game.apply(sw.Decline())
    assert game.to_json() == before


def test_decline_at_turn_end_refused_without_stout_section_1_12(rules: sw.Rules) -> None:
    """Rule 1.12 (negative): without Stout a race declines only instead of expanding: after a
    conquest ``Decline`` is neither offered nor accepted."""
    game = new_game(rules, [("humans", "bulky"), ("crowd", "plain2")])
    both_enter(game, 1, 19)
    game.apply(sw.Conquer(6))
    _deploy_all(game)
    assert sw.Decline() not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="decline"):
        game.apply(sw.Decline())
    assert game.to_json() == before


def test_stout_may_still_decline_instead_of_expanding_section_1_12(rules: sw.Rules) -> None:
    """Rule 1.12: Stout adds a choice; the ordinary decline turn stays: regions score, no
    Humans bonus (rule 1.11)."""
    game = _stout(rules)
    assert sw.Decline() in game.legal_actions()
    game.apply(sw.Decline())
    assert game.coins(0) == 10 + 3
    assert game.declined_races(0) == ["humans"]


def test_stout_decline_removes_the_older_declined_race_after_scoring_ruling_34(
    rules: sw.Rules,
) -> None:
    """Ruling 34 with rule 1.12 step 1: the turn scores with the older declined race still on
    the map (Humans 2 + 1 Farmland + Ratmen 1), then the Stout decline removes it."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("humans", "stout")])
    both_enter(game, 2, 19)
    game.apply(sw.Decline())  # Ratmen decline in region 2
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Humans + Stout
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1
    coins = game.coins(0)
    game.apply(sw.Conquer(11))  # Farmland with a Lost Tribe
    _deploy_all(game)
    game.apply(sw.Decline())
    assert game.coins(0) == coins + 2 + 1 + 1
    assert [e for e in game.log if isinstance(e, Declined)][-1].removed == ("ratmen",)
    assert game.declined_races(0) == ["humans"] and game.region(2).owner is None


def test_stout_ghouls_keep_every_token_and_act_next_turn_section_2(rules: sw.Rules) -> None:
    """Stout + Ghouls (ruling 34, rule 2 Ghouls, ruling 37): at the Stout decline the Ghouls
    keep all 9 tokens on the map; on the player's next turn, after the pick, the declined
    Ghouls act first (ready, conquer, redeploy, ``EndTurn``), then the new active race."""
    game = _stout(rules, race="ghouls")  # 5 + 4 tokens in 1, 6 and 11
    game.apply(sw.Conquer(12))  # Lost Tribe next to 6 and 11
    _deploy_all(game)
    layout = {r: game.region(r).tokens for r in (1, 6, 11, 12)}
    assert sum(layout.values()) == 9
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.coins(0) == coins + 4  # Ghouls have no bonus: 4 regions
    assert {r: game.region(r).tokens for r in (1, 6, 11, 12)} == layout  # all stay
    assert all(game.region(r).declined for r in layout)
    assert saved_state(game)["box"]["ghouls"] == 10 - 9
    deploy_all_and_end(game)  # player 1
    assert game.phase is sw.Phase.PICK and game.declined_races(0) == ["ghouls"]
    game.apply(sw.PickCombo(0))  # Ratmen + Bulky
    assert game.log[-1] == RaceActs(0, "ghouls", 9 - 4)
    state = saved_state(game)
    assert state["acting"] == "ghouls" and state["races"]["ghouls"]["hand"] == 5
    assert game.hand(0) == 13  # the active Ratmen wait
    game.apply(sw.Conquer(13))  # the declined Ghouls conquer (Lost Tribe next to 12)
    assert game.region(13).race == "ghouls" and game.region(13).declined
    deploy_all_and_end(game)  # the Ghouls end their part of the turn
    assert saved_state(game)["acting"] == "ratmen"
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 4 + 1 + 5  # then Ratmen 1 + Ghouls 5 regions


def test_stout_decline_waits_for_the_withdrawals_ruling_34(rules: sw.Rules) -> None:
    """Ruling 34 with rule 1.8: after a Stout ``Decline`` the defender still places its
    survivors first (the Humans stay active meanwhile); then the turn scores (4 regions + 2
    Farmlands = 6) and the Humans decline."""
    game = _stout(rules)
    game.put(19, 1, 6)  # player 1's Crowd: 6 in 19 (2 back to the box) ...
    game.put(12, 1, 2)  # ... and 2 in 12, next to 6 and 11
    game.apply(sw.Conquer(12))  # 2 + 2 Crowd tokens
    _deploy_all(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 1
    assert game.active_race(0) == "humans" and game.coins(0) == coins
    game.apply(sw.Deploy(19, 1))  # Crowd's survivor
    assert game.coins(0) == coins + 6
    assert game.declined_races(0) == ["humans"] and game.active_player == 1
    assert [game.region(r).tokens for r in (1, 6, 11, 12)] == [1, 1, 1, 1]


@pytest.mark.parametrize("allowed", [True, False])
def test_stout_decline_in_the_turn_of_the_pick_is_an_option_ruling_34(
    rules: sw.Rules, allowed: bool
) -> None:
    """Ruling 34 (judgement call, option ``end_of_turn_decline_when_picked``): by default a
    Stout race may decline at the end of the very turn it was picked; with the option off it
    must wait for a later turn."""
    game = new_game(
        rules,
        [("ratmen", "stout"), ("crowd", "plain2")],
        options={"end_of_turn_decline_when_picked": allowed},
    )
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    while sw.EndTurn() not in game.legal_actions():
        game.apply(sw.Deploy(1, max(a.count for a in game.legal_actions()
                                    if isinstance(a, sw.Deploy))))
    assert (sw.Decline() in game.legal_actions()) is allowed
    if allowed:
        game.apply(sw.Decline())
        assert game.declined_races(0) == ["ratmen"] and game.active_race(0) is None
    else:
        before = game.to_json()
        with pytest.raises(sw.IllegalAction):
            game.apply(sw.Decline())
        assert game.to_json() == before


def test_stout_decline_from_the_conquests_waits_for_gained_tokens_ruling_34(
    rules: sw.Rules,
) -> None:
    """Ruling 34 with a redeploy gain (rule 2 Skeletons): Decline() straight from the conquests
    ends them like EndTurn; the Skeletons' new token must be placed first, so the turn goes on
    in redeployment (nothing declined yet) and Decline is offered again there."""
    game = new_game(rules, [("skeletons", "stout"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 3, 6):  # 2 + 2 + 3 + 3 = 10 tokens; two Lost Tribes
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 0 and sw.Decline() in game.legal_actions()
    game.apply(sw.Decline())
    assert game.phase is sw.Phase.REDEPLOY and game.hand(0) == 1  # 2 non-empty -> +1
    assert game.active_race(0) == "skeletons" and game.declined_races(0) == []
    game.apply(sw.Deploy(6, 1))
    assert sw.Decline() in game.legal_actions()
    game.apply(sw.Decline())
    assert game.declined_races(0) == ["skeletons"] and game.active_race(0) is None
