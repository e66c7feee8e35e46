"""Ghouls (rule 2): every token stays at decline; declined Ghouls take their own
conquest phase before the active race (ruling 37, A11), may attack their owner's active race,
score 1 coin per region, do not act in a turn their owner declines again (A11), and have no
special power in decline.

2-player map: Farmland 1 and Forest 2 are empty edge regions next to each other; Hill 6
(Lost Tribe) borders both; Swamp 3 (Lost Tribe, edge) borders 2 and Hill 4 (edge); Swamp 20
(edge) is far away; Mountain 19 is on the edge.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import (
    ComboPicked,
    Conquered,
    Declined,
    RaceActs,
    Scored,
    TurnStarted,
)


def last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


def ghoul_state(game: sw.Game) -> dict[str, object]:
    state: dict[str, object] = saved_state(game)["races"]["ghouls"]
    return state


def _declined_ghouls(rules: sw.Rules, power: str = "plain", chance: str = "seeded") -> sw.Game:
    """Player 0's Ghouls (5 tokens) take 1 and 2 (1 and 4 tokens) and decline in round 2;
    player 1's Crowd sit in 20. Returned at player 0's round-3 turn (pick phase); the next
    combo is Ratmen + Bulky (13 tokens)."""
    game = new_game(
        rules, [("ghouls", power), ("crowd", "plain2"), ("ratmen", "bulky")], chance=chance
    )
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)
    assert game.active_player == 0 and game.phase is sw.Phase.PICK
    return game


def test_ghouls_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 table / rule 1.1: the Ghouls banner gives 5 tokens; the box holds 10."""
    ghouls = rules.races["ghouls"]
    assert (ghouls.tokens, ghouls.box) == (5, 10)
    game = new_game(rules, [("ghouls", "plain")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 5


def test_all_ghoul_tokens_stay_at_decline_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ghouls / rule 1.12.3: on decline every Ghoul stays on the map (1 and 4 tokens, not 1
    and 1); the decline turn scores 1 coin per region."""
    game = new_game(rules, [("ghouls", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())  # player 0: 5 + 2
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert game.hand(0) == 3  # readied from region 2
    game.apply(sw.Decline())
    assert last(game, Declined).race == "ghouls"
    assert [(game.region(r).tokens, game.region(r).declined) for r in (1, 2)] == [
        (1, True),
        (4, True),
    ]
    assert saved_state(game)["box"]["ghouls"] == 10 - 5
    assert last(game, Scored).coins == 2 and game.coins(0) == 5 + 2 + 2


def test_declined_ghouls_act_before_the_active_race_ruling_37(rules: sw.Rules) -> None:
    """Ruling 37 / A11: in the turn a new race is picked, the declined Ghouls ready, conquer
    and redeploy first (a RaceActs event); EndTurn ends their part and the new race acts."""
    game = _declined_ghouls(rules)
    start = len(game.log)
    game.apply(sw.PickCombo(0))
    assert [type(e) for e in game.log[start:]] == [ComboPicked, RaceActs]
    assert game.log[-1] == RaceActs(0, "ghouls", 3)  # 4 → 1 in region 2
    assert ghoul_state(game)["hand"] == 3 and game.hand(0) == 13  # Ratmen wait
    assert game.conquest_cost(6) == 2 + 1  # the acting race is the Ghouls
    game.apply(sw.Conquer(6))
    event = last(game, Conquered)
    assert (event.race, event.region) == ("ghouls", 6)
    assert game.region(6).race == "ghouls" and game.region(6).declined
    assert ghoul_state(game)["hand"] == 0
    game.apply(sw.EndTurn())  # the Ghouls are done; the Ratmen begin
    assert game.active_player == 0 and game.phase is sw.Phase.CONQUEST
    assert game.log[-1] == RaceActs(0, "ratmen", 0)
    assert sw.Conquer(12) not in game.legal_actions()  # the Ratmen enter at the border
    game.apply(sw.Conquer(19))  # 2 + Mountain
    deploy_all_and_end(game)
    # Ghouls: 3 regions; Ratmen: 1 region; no power bonus anywhere.
    assert last(game, Scored).coins == 3 + 1 and game.coins(0) == 9 + 4


def test_ghoul_phase_comes_before_every_active_turn_a11(rules: sw.Rules) -> None:
    """A11: in later turns too, the Ghouls act first: the turn starts with the Ghouls acting
    (their readied tokens in their hand), and the active race's RaceActs follows their
    EndTurn."""
    game = _declined_ghouls(rules)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1
    assert game.active_player == 0
    assert last(game, TurnStarted) == TurnStarted(4, 0, 3)
    assert ghoul_state(game)["hand"] == 3 and saved_state(game)["acting"] == "ghouls"
    assert sw.Conquer(6) in game.legal_actions()  # next to the Ghouls, not to the Ratmen
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())
    assert game.log[-1] == RaceActs(0, "ratmen", 12)
    assert saved_state(game)["acting"] == "ratmen"


def test_ghouls_final_die_ends_only_their_conquests_a11(rules: sw.Rules) -> None:
    """A11 / ruling 5: the Ghoul phase is a full cycle with its own final die attempt; the
    roll ends the Ghouls' conquests, not the active race's, which then conquers as usual."""
    game = _declined_ghouls(rules, chance="explicit")
    game.put(6, None, 2)  # two Lost Tribe tokens: 2 + 2 = 4, one more than the Ghouls hold
    game.apply(sw.PickCombo(0))
    assert ghoul_state(game)["hand"] == 3 and game.conquest_cost(6) == 4
    assert sw.Conquer(6) not in game.legal_actions()
    game.apply(sw.ConquerWithDie(6))
    assert game.to_move == sw.CHANCE
    game.apply(sw.RollDie(1))
    assert game.region(6).race == "ghouls" and game.phase is sw.Phase.REDEPLOY
    assert saved_state(game)["acting"] == "ghouls"
    with pytest.raises(sw.IllegalAction, match="conquest phase"):
        game.apply(sw.Conquer(3))
    deploy_all_and_end(game)  # the Ghouls place their tokens and end their part
    assert game.log[-1] == RaceActs(0, "ratmen", 0)
    assert game.active_player == 0 and game.phase is sw.Phase.CONQUEST
    assert sw.Conquer(19) in game.legal_actions()
    game.apply(sw.Conquer(19))
    assert last(game, Conquered).race == "ratmen"


def _ratmen_next_to_ghouls(rules: sw.Rules) -> sw.Game:
    """Round 3: the Ghouls (1, 2) pass; the Ratmen take 3 (1 token left) and 4. Returned at
    player 0's round-4 turn, the Ghouls acting with 3 tokens in hand."""
    game = _declined_ghouls(rules)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())
    game.apply(sw.Conquer(3))  # 2 + Lost Tribe
    game.apply(sw.Conquer(4))
    game.apply(sw.Deploy(4, 11))
    game.apply(sw.EndTurn())
    deploy_all_and_end(game)  # player 1
    assert game.region(3).race == "ratmen" and game.region(3).tokens == 1
    assert ghoul_state(game)["hand"] == 3
    return game


def test_declined_ghouls_may_attack_their_own_active_race_ruling_37(rules: sw.Rules) -> None:
    """Ruling 37 / rule 1.8: the declined Ghouls may conquer a region of their owner's active
    Ratmen; the Ratmen lose 1 token, like any defender."""
    game = _ratmen_next_to_ghouls(rules)
    box = saved_state(game)["box"]["ratmen"]
    assert sw.Conquer(3) in game.legal_actions()
    assert game.conquest_cost(3) == 2 + 1
    game.apply(sw.Conquer(3))
    event = last(game, Conquered)
    assert (event.race, event.defender, event.defender_race, event.lost) == (
        "ghouls",
        0,
        "ratmen",
        1,
    )
    assert game.region(3).race == "ghouls" and saved_state(game)["box"]["ratmen"] == box + 1


def test_active_race_may_not_attack_the_acting_ghouls_own_region_section_1_8(
    rules: sw.Rules,
) -> None:
    """Rule 1.8 (edge): the Ghouls never conquer their own region, and an active race may never
    conquer its own active region — only the declined Ghouls cross that line."""
    game = _ratmen_next_to_ghouls(rules)
    before = game.to_json()
    for region in (1, 2):
        assert sw.Conquer(region) not in game.legal_actions()
        with pytest.raises(sw.IllegalAction, match="already hold"):
            game.apply(sw.Conquer(region))
    assert game.to_json() == before
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())  # now the Ratmen act
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="already hold"):
        game.apply(sw.Conquer(4))
    assert game.to_json() == before


def test_diplomat_truce_does_not_bind_declined_ghouls_ruling_26(rules: sw.Rules) -> None:
    """Ruling 26 / rule 2 Ghouls: a truce binds only the active race: player 1's Diplomat ally
    choice stops player 0's Ratmen, not player 0's declined Ghouls."""
    game = new_game(rules, [("ghouls", "plain"), ("skeletons", "diplomat"), ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Skeletons + Diplomat: 11 tokens
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # player 0's Ghouls decline
    game.apply(sw.Conquer(19))  # player 1
    game.apply(sw.Deploy(20, 1))
    game.apply(sw.UseAbility("choose_ally", 0))  # player 0 may not attack the Skeletons
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Ratmen; the Ghouls act first
    game.put(6, 1, 1)  # a lone Skeleton between the Ghouls' regions
    assert sw.Conquer(6) in game.legal_actions()  # the declined Ghouls are not bound
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())
    assert sw.Conquer(19) not in game.legal_actions()  # the active Ratmen are bound
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="truce"):
        game.apply(sw.Conquer(19))
    assert game.to_json() == before


def test_ghouls_do_not_act_in_a_turn_their_owner_declines_a11(rules: sw.Rules) -> None:
    """A11 / rule 1.12.1: when the owner's active Ratmen decline, the declined Ghouls do not act:
    they leave the map first, and the turn scores only the Ratmen's 2 regions."""
    game = _ratmen_next_to_ghouls(rules)
    coins = game.coins(0)
    assert sw.Decline() in game.legal_actions()
    start = len(game.log)
    game.apply(sw.Decline())
    events = game.log[start:]
    assert not any(isinstance(e, Conquered | RaceActs) for e in events)
    assert last(game, Declined) == Declined(0, "ratmen", ("ghouls",))
    assert all(game.region(r).race is None for r in (1, 2))
    assert saved_state(game)["box"]["ghouls"] == 10
    assert game.declined_races(0) == ["ratmen"]
    assert last(game, Scored).coins == 2 and game.coins(0) == coins + 2


def test_no_decline_once_the_ghouls_have_acted_section_1_12(rules: sw.Rules) -> None:
    """Rule 1.12 / A11 (edge): declining replaces the whole turn; once the Ghouls have conquered,
    the turn is an expansion turn and Decline is refused."""
    game = _ratmen_next_to_ghouls(rules)
    game.apply(sw.Conquer(6))
    assert sw.Decline() not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="before any abandon or conquest"):
        game.apply(sw.Decline())
    assert game.to_json() == before


def test_declined_ghouls_have_no_power_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ghouls / rule 1.12.2: the badge is discarded at decline: Commando's −1 helps the
    active Ghouls (an empty region costs 1) but not the declined ones (it costs 2 again)."""
    game = new_game(rules, [("ghouls", "commando"), ("crowd", "plain2"), ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))  # 5 + 4 tokens
    assert game.conquest_cost(1) == 1
    assert any(c.label == "Commando" for c in game.explain_conquest_cost(1).contributions)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert "commando" in saved_state(game)["power_discard"]
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # the Ghouls act first
    assert saved_state(game)["acting"] == "ghouls"
    breakdown = game.explain_conquest_cost(6)
    assert breakdown.value == 2 + 1
    assert all(c.path == "<core>" for c in breakdown.contributions)
