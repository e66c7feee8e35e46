"""The base rules of rule 1 and rulings 1–17; each test names what it checks.

Positions are on the 2-player map (smallworld_rules/maps/2p.json) unless said otherwise:
region 1 is an empty Farmland on the edge, 2 an empty Forest (Mine) on the edge, 3 a Swamp with
a Lost Tribe, 5 a Mountain on the edge, 6 an interior Hill with a Lost Tribe, 7 the Lake,
12 an interior Forest on the Lake shore, 21 a Forest whose only contact with the edge is
Sea 22. Test-only rule files live in tests/rules/ (``plain`` and ``plain2`` powers have no
effect and no tokens; ``crowd`` has 8 tokens in a box of 9).
"""

from __future__ import annotations

import pytest
from helpers import both_enter, deploy_all_and_end, new_game, saved_state, subset

import smallworld_rules as sw
from smallworld_rules.events import Conquered, Declined, Deployed, RaceRemoved, Scored


@pytest.fixture
def game(rules: sw.Rules) -> sw.Game:
    """Player 0 has just picked Ratmen with no power: 8 tokens in hand."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    g.apply(sw.PickCombo(0))
    return g


def last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


# ---------------------------------------------------------------- rules 1.1–1.5 set-up and market


def test_setup_section_1_2(rules: sw.Rules) -> None:
    """Rule 1.2: 5 coins each, 6 visible combos, one Lost Tribe token on each symbol region."""
    game = new_game(rules, [])
    assert [game.coins(p) for p in range(2)] == [5, 5]
    assert len(game.market) == 6
    tribes = [r.id for r in game.map.regions if r.lost_tribe]
    assert len(tribes) == 9
    for r in range(len(game.map.regions)):
        view = game.region(r)
        assert view.lost_tribe == (r in tribes)
        assert view.tokens == (1 if r in tribes else 0)
        assert view.owner is None and view.race is None
    assert game.round == 1 and game.to_move == 0 and game.phase is sw.Phase.PICK


def test_pick_costs_and_coins_section_1_5(rules: sw.Rules) -> None:
    """Rule 1.5: position k costs k coins, one on each combo above; coins on it are collected;
    tokens = banner + badge; the market is refilled to 6."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("elves", "forest")])
    game.apply(sw.PickCombo(2))
    assert game.coins(0) == 3
    assert (game.active_race(0), game.active_power(0), game.hand(0)) == ("elves", "forest", 10)
    assert [c for _, _, c in game.market[:2]] == [1, 1]
    # Refilled while banners last (rule 1.13): these rules have only six races.
    assert len(game.market) == min(6, len(game.rules.races) - 1)
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(1))  # Crowd, carrying 1 coin: pay 1 onto Ratmen, collect 1
    assert game.coins(1) == 5
    assert game.market[0][:2] == ("ratmen", "plain") and game.market[0][2] == 2


def test_pick_needs_the_coins_section_1_5(rules: sw.Rules) -> None:
    """Rule 1.5: a combo further down than your coins reach cannot be picked."""
    game = new_game(rules, [])
    game.set_coins(0, 2)
    assert sw.PickCombo(3) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="costs 3 coins and you have 2"):
        game.apply(sw.PickCombo(3))


def test_supply_cap_section_1_1(rules: sw.Rules) -> None:
    """Rule 1.1: tokens taken are capped by the race's physical tokens (Crowd 8 + Bulky 5 > 9)."""
    game = new_game(rules, [("crowd", "bulky")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 9
    assert saved_state(game)["box"]["crowd"] == 0


# ---------------------------------------------------------------- rule 1.7 conquest


def test_cost_formula_section_1_7(game: sw.Game) -> None:
    """Rule 1.7: 2 + Lost Tribe tokens + 1 for a Mountain; core contributions name no file."""
    assert game.conquest_cost(1) == 2
    assert game.conquest_cost(3) == 3
    assert game.conquest_cost(5) == 3
    b = game.explain_conquest_cost(3)
    assert b.base == 2 and [(c.label, c.amount) for c in b.contributions] == [
        ("Lost Tribe tokens", 1)
    ]
    assert b.contributions[0].path == "<core>"


def test_cost_counts_occupants_and_piece_defence_section_1_7(game: sw.Game) -> None:
    """Rule 1.7: other race tokens count one each; a piece's defence adds, named by its file."""
    game.put(1, 1, 3, race="crowd")
    game.put(2, 1, 1, pieces={"ward": 1})
    assert game.conquest_cost(1) == 5
    b = game.explain_conquest_cost(2)
    assert b.value == 4
    ward = next(c for c in b.contributions if c.label == "ward")
    assert ward.path.endswith("warded.swr") and ward.line == 5


def test_immune_region_section_1_7(game: sw.Game) -> None:
    """Rule 1.7: an immune region (a piece declared `immune`) cannot be conquered at all."""
    game.put(1, 1, 1, race="crowd", pieces={"sanctum": 1})
    assert sw.Conquer(1) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(1))


def test_water_not_conquerable_section_1_7(game: sw.Game) -> None:
    """Rule 1.7: Seas and the Lake are never conquered by a race that may not enter water."""
    with pytest.raises(sw.IllegalAction, match="water"):
        game.apply(sw.Conquer(0))
    assert not any(getattr(a, "region", None) in (0, 7, 22) for a in game.legal_actions())


def test_own_active_region_not_conquerable_section_1_8(game: sw.Game) -> None:
    """Rule 1.8: you never conquer a region of your own active race."""
    game.apply(sw.Conquer(1))
    with pytest.raises(sw.IllegalAction, match="already hold"):
        game.apply(sw.Conquer(1))


def test_ruling_1_border_includes_sea_shores(game: sw.Game) -> None:
    """Ruling 1: the shore of an edge Sea is a border region; a Lake shore is not."""
    assert sw.Conquer(21) in game.legal_actions()
    assert sw.Conquer(12) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="border"):
        game.apply(sw.Conquer(12))


def test_ruling_2_only_first_region_must_be_border(game: sw.Game) -> None:
    """Ruling 2: after the first conquest, further conquests need adjacency, not the edge."""
    game.apply(sw.Conquer(2))
    game.apply(sw.Conquer(8))  # interior Mountain next to 2
    assert game.region(8).race == "ratmen"
    with pytest.raises(sw.IllegalAction, match="not adjacent"):
        game.apply(sw.Conquer(17))  # a border region, but not adjacent to 2 or 8


def test_ruling_3_new_race_need_not_enter_next_to_declined(rules: sw.Rules) -> None:
    """Ruling 3: a new race enters by any border region, wherever the declined race is."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("elves", "forest")])
    both_enter(game, 1, 20)
    game.apply(sw.Decline())  # player 0's Ratmen decline in region 1
    deploy_all_and_end(game)  # player 1 passes
    game.apply(sw.PickCombo(0))
    assert sw.Conquer(19) in game.legal_actions()  # far from the declined Ratmen
    assert sw.Conquer(6) not in game.legal_actions()  # next to them, but interior


def test_ruling_4_one_token_in_hand_whatever_the_cost(rules: sw.Rules) -> None:
    """Ruling 4: a conquest needs ≥ 1 token in hand even when the cost is clamped to 1."""
    game = new_game(rules, [("giants", "commando")])
    game.apply(sw.PickCombo(0))  # 6 + 4 tokens
    for region in (5, 1, 11, 6, 2, 12, 16):
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 0
    assert game.conquest_cost(17) == 1
    assert not any(isinstance(a, sw.Conquer | sw.ConquerWithDie) for a in game.legal_actions())
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="ruling 4"):
        game.apply(sw.Conquer(17))
    assert game.to_json() == before


def test_ruling_5_final_die_attempt(rules: sw.Rules) -> None:
    """Ruling 5 / rule 1.9: name the target, then roll; success moves every hand token in;
    conquests end whatever the result; on failure the hand tokens go to your own regions."""
    game = new_game(rules, [("ratmen", "plain")], chance="explicit")
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 6):
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 1
    assert sw.ConquerWithDie(5) in game.legal_actions()  # Mountain: cost 3, 2 short
    assert sw.Conquer(5) not in game.legal_actions()
    game.apply(sw.ConquerWithDie(5))
    assert game.to_move == sw.CHANCE and game.phase is sw.Phase.DIE_ROLL
    outcomes = {a.face: p for a, p in game.chance_outcomes()}
    assert outcomes == {0: 0.5, 1: 1 / 6, 2: 1 / 6, 3: 1 / 6}
    failed = game.clone()
    game.apply(sw.RollDie(2))
    assert game.region(5).race == "ratmen" and game.region(5).tokens == 1
    assert game.phase is sw.Phase.REDEPLOY and game.hand(0) > 0  # surplus taken back
    with pytest.raises(sw.IllegalAction, match="conquest phase"):
        game.apply(sw.Conquer(11))
    failed.apply(sw.RollDie(1))
    assert failed.region(5).race is None and failed.phase is sw.Phase.REDEPLOY
    assert sw.Deploy(1, 1) in failed.legal_actions()


def test_ruling_5_die_only_when_short_by_at_most_three(game: sw.Game) -> None:
    """Ruling 5 / rule 1.9: a target more than 3 tokens short cannot be attempted with the die;
    one you can afford is conquered without it."""
    game.put(19, 1, 5, race="crowd")  # 2 + 5 + Mountain = 8
    game.apply(sw.Conquer(20))
    game.apply(sw.Conquer(21))
    assert game.hand(0) == 4 and game.conquest_cost(19) == 8
    assert sw.ConquerWithDie(19) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="more than 3 short"):
        game.apply(sw.ConquerWithDie(19))
    with pytest.raises(sw.IllegalAction, match="without the die"):
        game.apply(sw.ConquerWithDie(14))


def test_seeded_die_is_reproducible_ruling_5(rules: sw.Rules) -> None:
    """Ruling 5 with chance="seeded": the game rolls from its seed, the same every time."""
    faces = []
    for _ in range(2):
        game = new_game(rules, [("ratmen", "plain")], seed=11)
        game.apply(sw.PickCombo(0))
        for region in (1, 2, 6):
            game.apply(sw.Conquer(region))
        game.apply(sw.ConquerWithDie(5))
        faces.append(last(game, sw.events.DieRolled))
    assert faces[0] == faces[1] and game.phase is sw.Phase.REDEPLOY


def test_ruling_6_stop_conquering_any_time(game: sw.Game) -> None:
    """Ruling 6: you may stop whenever you like and place hand tokens without rolling."""
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 7))  # 1 of the 2 there stays, 1 is taken back: 7 to place
    assert game.phase is sw.Phase.REDEPLOY
    assert game.region(1).tokens == 8 and game.hand(0) == 0
    game.apply(sw.EndTurn())
    assert game.active_player == 1


def test_redeploy_section_1_10(game: sw.Game) -> None:
    """Rule 1.10: redeployment takes all but one token per region into hand; EndTurn only once
    nothing is left to place."""
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(2, 1))
    assert game.region(1).tokens == 1 and game.region(2).tokens == 2 and game.hand(0) == 5
    assert sw.EndTurn() not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="place the 5"):
        game.apply(sw.EndTurn())
    assert sw.Deploy(1, 3) in game.legal_actions()  # any count is legal, listed or not
    assert sw.Deploy(1, 6) not in game.legal_actions()
    game.apply(sw.Deploy(1, 5))
    assert sw.EndTurn() in game.legal_actions()


def test_ready_troops_section_1_6(game: sw.Game) -> None:
    """Rule 1.6: at the start of an expansion turn every token but one per region is in hand."""
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 4))
    game.apply(sw.Deploy(2, 2))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert game.active_player == 0 and game.phase is sw.Phase.CONQUEST
    assert (game.region(1).tokens, game.region(2).tokens, game.hand(0)) == (1, 1, 6)


def test_abandon_before_first_conquest_section_1_6(game: sw.Game) -> None:
    """Rule 1.6 / A5: regions may be abandoned before the first conquest, not after; abandoning
    every region makes the next conquest a first conquest again."""
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Abandon(1))
    assert game.region(1).race is None and game.hand(0) == 8
    assert sw.Conquer(6) not in game.legal_actions()  # interior: a border entry is needed
    game.apply(sw.Conquer(19))
    with pytest.raises(sw.IllegalAction, match="before the first conquest"):
        game.apply(sw.Abandon(19))


def test_ruling_7_defender_loses_one_and_withdraws(game: sw.Game) -> None:
    """Ruling 7: the defender loses exactly 1 token; he redeploys the rest at the end of the
    attacker's turn into any region of that race."""
    game.put(4, 1, 3, race="crowd")
    game.put(17, 1, 1)
    box = saved_state(game)["box"]["crowd"]
    game.apply(sw.Conquer(4))  # 2 + 3
    event = last(game, Conquered)
    assert (event.defender, event.lost, event.returned) == (1, 1, 2)
    assert saved_state(game)["box"]["crowd"] == box + 1
    game.apply(sw.Deploy(4, 7))
    game.apply(sw.EndTurn())
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 1
    assert list(game.legal_actions()) == [sw.Deploy(17, 1), sw.Deploy(17, 2)]
    game.apply(sw.Deploy(17, 2))
    assert last(game, Deployed) == Deployed(1, "crowd", 17, 2)
    assert game.active_player == 1 and game.phase is sw.Phase.CONQUEST
    assert game.region(17).tokens + game.hand(1) == 3  # then readied for player 1's turn


def test_ruling_8_withdrawals_clockwise_from_active(rules: sw.Rules) -> None:
    """Ruling 8: several defenders redeploy clockwise, starting from the active player."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")], players=3)  # 3p map
    game.apply(sw.PickCombo(1))  # player 0: Crowd
    game.apply(sw.Conquer(28))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Ratmen, 8 tokens
    game.clear(28)
    game.put(4, 0, 2)
    game.put(28, 0, 1)
    game.put(5, 2, 2, race="miners")
    game.put(25, 2, 1)
    game.apply(sw.Conquer(4))  # 2 + 2
    game.apply(sw.Conquer(5))  # 2 + 2
    game.apply(sw.EndTurn())
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 2  # clockwise from player 1
    game.apply(sw.Deploy(25, 1))
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 0
    game.apply(sw.Deploy(28, 1))
    assert game.active_player == 2 and game.phase is sw.Phase.CONQUEST
    placed = [(e.player, e.region) for e in game.log if isinstance(e, Deployed)][-2:]
    assert placed == [(2, 25), (0, 28)]


def test_ruling_9_defender_without_region_keeps_tokens(game: sw.Game) -> None:
    """Ruling 9: a defender with no region left keeps the survivors in hand and re-enters
    next turn through a border region."""
    game.put(4, 1, 3, race="crowd")
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    assert game.active_player == 1 and game.phase is sw.Phase.CONQUEST
    assert game.hand(1) == 2
    assert sw.Conquer(17) in game.legal_actions()  # a border region
    assert sw.Conquer(9) not in game.legal_actions()  # interior


def test_ruling_10_lone_tokens_discarded(game: sw.Game) -> None:
    """Ruling 10: a lone Lost Tribe or declined token is simply discarded."""
    game.apply(sw.Conquer(3))
    event = last(game, Conquered)
    assert (event.defender, event.defender_race, event.lost, event.returned) == (
        None, "#lost_tribe", 1, 0,
    )
    game.undo()
    game.put(4, 1, 1, declined=True, race="crowd")
    box = saved_state(game)["box"]["crowd"]
    game.apply(sw.Conquer(4))
    assert saved_state(game)["box"]["crowd"] == box + 1
    assert game.declined_races(1) == []  # its last token is gone: the race left the map
    assert last(game, RaceRemoved).race == "crowd"
    # Rule 1.13: the banner goes under the race stack, or into the lowest empty market slot.
    stack = saved_state(game)["race_stack"]
    assert (stack[-1] if stack else game.market[-1][0]) == "crowd"


def test_ruling_11_conquer_own_declined_region(game: sw.Game) -> None:
    """Ruling 11: you may conquer your own declined region, losing that token."""
    game.put(1, 0, 1, declined=True, race="crowd")
    assert game.conquest_cost(1) == 3
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "ratmen" and not game.region(1).declined
    assert game.declined_races(0) == []


def _wipe_out_player_0(rules: sw.Rules) -> sw.Game:
    """Player 0's Ratmen lose their last token during player 1's turn; player 0 also has a
    declined Miners region."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.put(1, 0, 1)  # the Ratmen shrink to one token
    game.put(16, 0, 1, declined=True, race="miners")
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    return game


def test_ruling_12_wiped_out_race_scores_declined_only(rules: sw.Rules) -> None:
    """Ruling 12: with every active token destroyed you may not pick a new combo: either
    score only your declined race (EndTurn) or decline."""
    game = _wipe_out_player_0(rules)
    assert game.active_player == 0 and game.hand(0) == 0 and game.active_race(0) == "ratmen"
    assert set(game.legal_actions()) == {sw.Decline(), sw.EndTurn()}
    coins = game.coins(0)
    game.apply(sw.EndTurn())
    assert game.coins(0) == coins + 1  # the declined Miners' region


def test_ruling_12_wiped_out_race_declines(rules: sw.Rules) -> None:
    """Ruling 12: declining the wiped-out race removes the old declined race too and scores 0;
    the next turn picks a new combo."""
    game = _wipe_out_player_0(rules)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.coins(0) == coins
    assert game.declined_races(0) == [] and game.region(16).race is None
    deploy_all_and_end(game)
    assert game.active_player == 0 and game.phase is sw.Phase.PICK


def test_ruling_14_tie_break_counts_race_tokens_only(rules: sw.Rules) -> None:
    """Ruling 14 / rule 1.14: equal coins → most race tokens on the map wins; pieces don't count."""
    game = _endgame(rules)
    game.put(1, 0, 10, pieces={"ward": 1, "sanctum": 2})  # pieces add nothing to the count
    _final_turns(game)
    assert game.is_over and game.coins(0) == game.coins(1)
    assert (game.tokens_on_map(0), game.tokens_on_map(1)) == (10, 8)
    assert game.winners == [0]


def test_shared_victory_ambiguity_a14(rules: sw.Rules) -> None:
    """A14: equal coins and equal tokens on the map → a shared victory."""
    game = _endgame(rules)
    game.put(1, 0, 8)
    _final_turns(game)
    assert game.winners == [0, 1]


def _endgame(rules: sw.Rules) -> sw.Game:
    """Both players sit still until player 1's last turn (Ratmen+Warded 10 in region 1,
    Crowd 8 in region 20), then get equal coins before that last turn scores 1."""
    game = new_game(rules, [("ratmen", "warded"), ("crowd", "plain")])
    both_enter(game, 1, 20)
    while not (game.round == game.map.turns and game.active_player == 1):
        deploy_all_and_end(game)
    game.set_coins(0, 41)
    game.set_coins(1, 40)
    return game


def _final_turns(game: sw.Game) -> None:
    while not game.is_over:
        deploy_all_and_end(game)


def test_end_of_game_section_1_14(rules: sw.Rules) -> None:
    """Rule 1.14 / rule 1.3: the game ends after the last player's turn in the last round."""
    game = _endgame(rules)
    assert not game.is_over
    deploy_all_and_end(game)
    assert game.is_over and game.to_move is None and list(game.legal_actions()) == []
    with pytest.raises(sw.IllegalAction, match="over"):
        game.apply(sw.EndTurn())
    turns = [e for e in game.log if isinstance(e, sw.events.TurnEnded)]
    assert len(turns) == 2 * game.map.turns


def test_ruling_15_active_and_declined_are_separate(game: sw.Game) -> None:
    """Ruling 15: active and declined tokens never mix: no Deploy into a declined region,
    and readying never takes declined tokens."""
    game.put(1, 0, 2, declined=True, race="crowd")
    game.apply(sw.Conquer(2))
    with pytest.raises(sw.IllegalAction, match="not held by your Ratmen"):
        game.apply(sw.Deploy(1, 1))
    deploy_all_and_end(game)
    assert game.region(1).tokens == 2 and game.region(1).declined


def test_ruling_16_decline_turn(rules: sw.Rules) -> None:
    """Ruling 16 / rule 1.12: declining: the old declined race leaves first, one token per region
    stays, the badge is discarded, and only region coins (plus `always` bonuses) are scored."""
    game = new_game(rules, [("miners", "forest"), ("crowd", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))  # Forest Miners: 3 + 4 tokens
    game.apply(sw.Conquer(2))  # a Forest with a Mine
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.put(16, 0, 1, declined=True, race="ratmen")  # an older declined race
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert last(game, Declined).removed == ("ratmen",)
    assert game.region(16).race is None
    assert (game.region(2).tokens, game.region(1).tokens) == (1, 1)
    assert game.declined_races(0) == ["miners"] and game.active_race(0) is None
    # 2 regions + 1 Mine (an `always` bonus); no Forest coin in the decline turn.
    assert last(game, Scored).coins == 3 and game.coins(0) == coins + 3
    assert "forest" in saved_state(game)["power_discard"]
    assert game.active_player == 1


def test_decline_not_after_acting_section_1_12(game: sw.Game) -> None:
    """Rule 1.12: decline replaces expanding: not in the turn a race is picked, nor after a
    conquest or abandon."""
    assert sw.Decline() not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="picked"):
        game.apply(sw.Decline())
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert sw.Decline() in game.legal_actions()
    game.apply(sw.Abandon(1))
    with pytest.raises(sw.IllegalAction, match="before any abandon or conquest"):
        game.apply(sw.Decline())


def test_ruling_17_non_empty_regions(rules: sw.Rules) -> None:
    """Ruling 17: non-empty = a race or Lost Tribe token (declined included); an empty
    Mountain is empty. Raiders score 1 per non-empty region conquered this turn."""
    game = new_game(rules, [("raiders", "bulky")])
    game.apply(sw.PickCombo(0))  # 10 tokens
    game.put(4, 1, 1, declined=True, race="crowd")
    game.apply(sw.Conquer(3))  # Lost Tribe
    game.apply(sw.Conquer(4))  # declined token
    game.apply(sw.Conquer(9))  # empty
    deploy_all_and_end(game)
    assert last(game, Scored).coins == 3 + 2
    mountain = new_game(rules, [("raiders", "plain")])
    mountain.apply(sw.PickCombo(0))  # 5 tokens
    mountain.apply(sw.Conquer(5))  # an empty Mountain
    mountain.apply(sw.Conquer(1))
    deploy_all_and_end(mountain)
    assert last(mountain, Scored).coins == 2


def test_scoring_section_1_11(game: sw.Game) -> None:
    """Rule 1.11: 1 coin per region of the active race and of each declined race."""
    game.put(16, 0, 1, declined=True, race="crowd")
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 3


def test_badge_reshuffle_ruling_38(rules: sw.Rules) -> None:
    """Ruling 38 / rule 1.13: when the badge stack is empty, the discarded badges are shuffled
    into a new stack, so a returning banner gets a badge."""
    few = subset(rules, ["ratmen", "crowd", "elves", "giants", "miners", "raiders"],
                 ["plain", "plain2", "forest", "commando", "wealthy", "warded"])
    game = new_game(few, [("ratmen", "plain"), ("crowd", "plain2")])
    both_enter(game, 1, 20)
    assert saved_state(game)["power_stack"] == [] and saved_state(game)["race_stack"] == []
    game.apply(sw.Decline())  # Ratmen decline: their badge is discarded
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    second_power = game.active_power(0)
    game.apply(sw.Conquer(17))  # away from the declined Ratmen in region 1
    deploy_all_and_end(game)
    deploy_all_and_end(game)
    size = len(game.market)
    game.apply(sw.Decline())  # the Ratmen leave the map; their banner returns
    assert len(game.market) == size + 1
    race, power, _ = game.market[-1]
    assert race == "ratmen" and power in {"plain", second_power}
    assert len(saved_state(game)["power_discard"]) == 1


def test_game_length_section_1_3() -> None:
    """Rule 1.3: 10, 10, 9 and 8 turns on the 2p, 3p, 4p and 5p maps."""
    assert [sw.load_map(f"{n}p").turns for n in (2, 3, 4, 5)] == [10, 10, 9, 8]
