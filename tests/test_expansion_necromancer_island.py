"""Necromancer Island (rule 4, defaults A15–A20): the last seat plays the
Necromancer, whose Ghosts (race id ``"ghost"``) come from a reserve of 14 (minus the option
``ghosts_removed``), rest on the Island (his hand) and are paid for with the souls of the fallen:
every token lost to a conquest goes into the Well of Souls, and every 4 Well tokens bring one
Ghost from his reserve to the Island.

Games have 3 players on the 2-player map unless said otherwise; player 2 is the Necromancer.
The 2-player map: the Lake is region 7; the regions on its shore (his entry regions) are
2 (Forest, edge), 6 (Hill, Lost Tribe), 8 (Mountain), 12 (Forest, Lost Tribe) and 13 (Farmland,
Lost Tribe). Also used: 1 (Farmland, edge, empty) borders 2, 5 and 6; 3 (Swamp, edge, Lost
Tribe) borders 2, 4 and 8; 4 (Hill, edge, empty) borders 3; 5 (Mountain, edge, empty) borders
1; 17 (Hill, edge, empty); 18 (Swamp, edge, Lost Tribe); 19 (Mountain, edge, empty) borders
13, 18 and 20.

The market is fixed with ``combos=``; the combos after the six visible ones put the powers
wanted for the Necromancer's draft right behind the market, where the draft takes them
(``DRAFT``). Ratmen + Bulky (test-only power, 5 tokens) make a 13-token attacker; Crowd
(test-only race: 8 tokens, box 9) and the Plain powers (0 tokens) keep counts exact.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import budget, deploy_all_and_end, place_withdrawals, saved_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_state_machine import check_position

import smallworld_rules as sw
from smallworld_rules.events import (
    Conquered,
    Exchanged,
    GameOver,
    PowerChosen,
    Scored,
    TokenBought,
    TokensToZone,
    TurnEnded,
    TurnStarted,
)

TEST_RULES = Path(__file__).parent / "rules"
EXPANSION = "necromancer_island"
NECRO = 2  # the Necromancer's seat in a 3-player game
GHOST = "ghost"
LT = "#lost_tribe"
SOUL = "#soul"
LAKESIDE = {2, 6, 8, 12, 13}  # regions bordering the Lake (7) on the 2-player map

MARKET = [
    ("ratmen", "bulky"),
    ("crowd", "plain2"),
    ("orcs", "plain"),
    ("humans", "lingering"),
    ("dwarves", "gliders"),
    ("wizards", "hillguard"),
]
DRAFT = ("alchemist", "forest", "diplomat", "fortified", "hill", "swamp")
#: races that carry the drafted powers into the badge stack (never picked in these tests)
CARRIERS = ["giants", "halflings", "skeletons", "tritons", "trolls", "ghouls", "amazons"]


@pytest.fixture(scope="module")
def ni() -> sw.Rules:
    """Official rules + Necromancer Island + the test-only rule files."""
    return sw.load_rules(expansions=[EXPANSION], paths=[TEST_RULES])


@pytest.fixture(scope="module")
def official_ni() -> sw.Rules:
    """Official rules + Necromancer Island only."""
    return sw.load_rules(expansions=[EXPANSION])


def combos_for(
    market: list[tuple[str, str]], draft: tuple[str, ...] | list[str]
) -> list[tuple[str, str]]:
    """The visible market, then the draft powers on the next badges of the stack."""
    used = {race for race, _ in market}
    carriers = [r for r in [*CARRIERS, "elves", "sorcerers"] if r not in used]
    return list(market) + list(zip(carriers, draft, strict=False))


def ni_game(
    rules: sw.Rules,
    market: list[tuple[str, str]] | None = None,
    draft: tuple[str, ...] | list[str] = DRAFT,
    players: int = 3,
    seed: int = 1,
    options: dict[str, Any] | None = None,
) -> sw.Game:
    """A Necromancer Island game before the Necromancer's choice of power."""
    return sw.Game.new(
        players=players,
        seed=seed,
        rules=rules,
        combos=combos_for(MARKET if market is None else market, draft),
        options=options,
    )


def reserve(game: sw.Game) -> int:
    return int(saved_state(game)["box"][GHOST])


def box(game: sw.Game, race: str) -> int:
    return int(saved_state(game)["box"][race])


def island(game: sw.Game) -> int:
    return game.zone("island")[GHOST]


def ghosts_on_map(game: sw.Game) -> int:
    return sum(
        game.region(r).tokens for r in range(len(game.map.regions)) if game.region(r).race == GHOST
    )


def ghost_total(game: sw.Game, state: dict[str, Any] | None = None) -> int:
    """Ghosts on the map + on the Island + in reserve + in the Well (rule 4.2.5 invariant), read
    through the public API (``state``: the saved state, if the caller has it already)."""
    if state is None:
        state = saved_state(game)
    on_map = sum(
        t for r, t in zip(state["region_race"], state["region_tokens"], strict=True) if r == GHOST
    )
    return int(on_map + island(game) + state["box"][GHOST] + game.zone("well").get(GHOST, 0))


def events(game: sw.Game, kind: type) -> list[Any]:
    return [e for e in game.log if isinstance(e, kind)]


def refused(game: sw.Game, action: sw.Action, match: str) -> None:
    """The action raises IllegalAction (message matching) and changes nothing."""
    before = game.to_json()
    assert action not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def pass_turn(game: sw.Game) -> None:
    """An ordinary player's quiet turn: pick the top combo if needed, conquer nothing."""
    if game.phase is sw.Phase.PICK:
        game.apply(sw.PickCombo(0))
    if sw.EndTurn() in game.legal_actions():
        game.apply(sw.EndTurn())
    else:
        deploy_all_and_end(game)
    place_withdrawals(game)


def conquer_targets(game: sw.Game) -> set[int]:
    return {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer | sw.ConquerWithDie)}


def purchases(game: sw.Game) -> set[sw.Action]:
    return {a for a in game.legal_actions() if isinstance(a, sw.Purchase)}


# ================================================================================== rule 4.1 set-up


@pytest.mark.parametrize(
    ("players", "map_name", "turns"), [(3, "2p", 10), (4, "3p", 10), (5, "4p", 9), (6, "5p", 8)]
)
def test_map_for_one_player_fewer_section_4_1_1(
    official_ni: sw.Rules, players: int, map_name: str, turns: int
) -> None:
    """Rule 4.1.1: the map (and its turn track) for players − 1; rule 4.1.3: the Necromancer is the
    last seat and chooses his power before the first turn, then player 0 starts."""
    game = sw.Game.new(players=players, seed=3, rules=official_ni)
    assert game.map_name == map_name and game.map.turns == turns
    seat = players - 1
    assert game.to_move == seat and game.phase is sw.Phase.PICK and game.round == 1
    assert game.active_race(seat) == GHOST and game.declined_races(seat) == []
    assert not events(game, TurnStarted)
    power = saved_state(game)["role_reserve"][0]
    game.apply(sw.ChoosePower(power))
    assert game.to_move == 0 and game.active_player == 0 and game.phase is sw.Phase.PICK
    assert events(game, TurnStarted) == [TurnStarted(1, 0, 0)]


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players_section_4_1(official_ni: sw.Rules, players: int) -> None:
    """Rule 4 title: a scenario for 3–6 players; 2 and 7 are refused."""
    with pytest.raises(sw.RulesError, match="3 to 6 players"):
        sw.Game.new(players=players, seed=1, rules=official_ni)


@pytest.mark.parametrize("players", [3, 6])
def test_initial_ghosts_coins_and_draft_section_4_1(official_ni: sw.Rules, players: int) -> None:
    """Rules 4.1.2/4.1.5/rule 4.1.6, A15: 1 Ghost on the Island, 13 in reserve, 5 coins for
    everyone; rule 4.1.4: 6 drafted powers, never Spirit or Stout (any seed), each badge exactly
    once."""
    seat = players - 1
    for seed in range(12):
        game = sw.Game.new(players=players, seed=seed, rules=official_ni)
        state = saved_state(game)
        assert game.zone("island") == {GHOST: 1} and game.hand(seat) == 1
        assert game.zone("island", seat) == {GHOST: 1}
        assert reserve(game) == 13 and game.zone("well") == {} and game.zone_pile("well") == ()
        assert ghosts_on_map(game) == 0 and ghost_total(game) == 14
        assert [game.coins(p) for p in range(players)] == [5] * players
        drafted = state["role_reserve"]
        assert len(drafted) == len(set(drafted)) == 6 and state["role_powers"] == []
        assert not {"spirit", "stout", "cursed"} & set(drafted)
        elsewhere = [p for _, p, _ in game.market] + state["power_stack"] + state["power_discard"]
        assert not set(drafted) & set(elsewhere)
        assert sorted(elsewhere + drafted) == sorted(official_ni.powers)


def test_draft_skips_spirit_and_stout_section_4_1_4(ni: sw.Rules) -> None:
    """Rule 4.1.4: the draft is taken from the badge stack after the market is dealt; Spirit and
    Stout drawn there are skipped and stay on top of the stack."""
    draft = ("spirit", "forest", "stout", "alchemist", "diplomat", "fortified", "hill", "swamp")
    game = ni_game(ni, draft=draft)
    state = saved_state(game)
    drafted = ["forest", "alchemist", "diplomat", "fortified", "hill", "swamp"]
    assert state["role_reserve"] == drafted
    assert state["power_stack"][:2] == ["spirit", "stout"]
    assert [p for _, p, _ in game.market] == [p for _, p in MARKET]
    assert list(game.legal_actions()) == [sw.ChoosePower(p) for p in state["role_reserve"]]


@pytest.mark.parametrize(("removed", "left"), [(0, 13), (1, 12), (2, 11)])
def test_ghosts_removed_option_section_4_1(ni: sw.Rules, removed: int, left: int) -> None:
    """Rule 4.1 difficulty: 1 or 2 Ghosts out of the game leave 12 or 11 in reserve."""
    game = ni_game(ni, options={"ghosts_removed": removed})
    assert island(game) == 1 and reserve(game) == left
    assert ghost_total(game) == 14 - removed


def test_too_many_ghosts_removed_is_refused_section_4_1(ni: sw.Rules) -> None:
    """Rule 4.1: at least the Island's Ghost must exist."""
    with pytest.raises(sw.RulesError):
        ni_game(ni, options={"ghosts_removed": 14})


@pytest.mark.parametrize("coins", [0, 9])
def test_necromancer_coins_option_a15(ni: sw.Rules, coins: int) -> None:
    """A15: the Necromancer's starting coins are an option (default 5); others keep 5."""
    game = ni_game(ni, options={"necromancer_coins": coins})
    assert [game.coins(p) for p in range(3)] == [5, 5, coins]


def test_choose_power_activates_exactly_one_section_4_1_5(ni: sw.Rules) -> None:
    """Rule 4.1.5: he activates 1 of the 6; the other 5 stay in his private reserve; he cannot
    choose a power that was not drafted, nor choose twice, nor pick a combo."""
    game = ni_game(ni)
    refused(game, sw.PickCombo(0), "takes no combo")
    refused(game, sw.ChoosePower("berserk"), "not a drafted power")
    game.apply(sw.ChoosePower("forest"))
    state = saved_state(game)
    assert state["role_powers"] == ["forest"]
    assert state["role_reserve"] == ["alchemist", "diplomat", "fortified", "hill", "swamp"]
    assert events(game, PowerChosen) == [PowerChosen(NECRO, "forest", 0)]
    assert game.coins(NECRO) == 5  # choosing is free
    refused(game, sw.ChoosePower("alchemist"), "only a role")
    # The reserved powers are not mixed back into the badge stack (rule 4.1.5).
    assert not set(state["role_reserve"]) & set(state["power_stack"] + state["power_discard"])


def test_necromancer_never_picks_nor_declines_section_4_4(ni: sw.Rules) -> None:
    """Rule 4.4: in his own turn he has no combo to pick and never goes into decline."""
    game = ni_game(ni)
    game.apply(sw.ChoosePower("alchemist"))
    pass_turn(game)
    pass_turn(game)
    assert game.active_player == NECRO and game.phase is sw.Phase.CONQUEST
    legal = list(game.legal_actions())
    assert not any(isinstance(a, sw.PickCombo | sw.Decline) for a in legal)
    refused(game, sw.Decline(), "never goes into decline")
    refused(game, sw.PickCombo(0), "pick phase")


# ======================================================================== rule 4.2 ordinary players


def test_lost_tokens_go_to_the_well_section_4_2_1(ni: sw.Rules) -> None:
    """Rule 4.2.1: the token an active race loses, the Lost Tribe and a declined race's token go
    into the Well (oldest first), not into their box."""
    game = ni_game(ni)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))  # Ratmen + Bulky: 13
    game.put(1, 1, 2, race="crowd")  # player 1's active race
    game.put(5, 1, 1, declined=True, race="elves")  # player 1's race in decline
    crowd_box, elves_box = box(game, "crowd"), box(game, "elves")
    assert (crowd_box, elves_box) == (9 - 2, 11 - 1)
    game.apply(sw.Conquer(1))  # 2 + 2
    assert game.zone_pile("well") == ("crowd",)
    assert box(game, "crowd") == 7 and game.hand(1) == 1  # 1 lost, 1 back in hand
    game.apply(sw.Conquer(6))  # 2 + 1 Lost Tribe
    assert game.zone_pile("well") == ("crowd", LT)
    game.apply(sw.Conquer(5))  # 2 + 1 + Mountain
    assert game.zone_pile("well") == ("crowd", LT, "elves")
    assert game.zone("well") == {LT: 1, "crowd": 1, "elves": 1}
    assert box(game, "elves") == 10 and game.declined_races(1) == []  # wiped out, retired
    assert [e.lost for e in events(game, Conquered)] == [1, 1, 1]
    deploy_all_and_end(game)
    assert game.active_player == 1  # 3 tokens in the Well: no exchange yet
    assert game.zone_pile("well") == ("crowd", LT, "elves")
    assert (island(game), reserve(game)) == (1, 13) and not events(game, Exchanged)
    assert box(game, "crowd") == 7 and box(game, "elves") == 10


def test_sorcerer_replaced_token_goes_to_the_well_a16(ni: sw.Rules) -> None:
    """A16: the token a Sorcerer replaces is lost to a conquest: it goes into the Well."""
    game = ni_game(ni, market=[("sorcerers", "bulky"), *MARKET[1:]])
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))  # Sorcerers + Bulky: 10
    game.put(6, 1, 1, race="crowd")
    game.apply(sw.Conquer(1))
    sorcerers = box(game, "sorcerers")
    game.apply(sw.UseAbility("convert", 6))
    assert game.region(6).race == "sorcerers"
    assert game.zone_pile("well") == ("crowd",)
    assert box(game, "crowd") == 9 - 1 and box(game, "sorcerers") == sorcerers - 1


@pytest.mark.parametrize(("race", "to_box", "to_well"), [("crowd", 3, 0), ("elves", 0, 3)])
def test_decline_surplus_box_or_well_section_4_2_2(
    ni: sw.Rules, race: str, to_box: int, to_well: int
) -> None:
    """Rule 4.2.2: the tokens removed on declining go to the box; rule 4.2.3 (A16): for Elves they
    go into the Well (3 here: 3 + 2 tokens on two regions, 1 stays on each)."""
    game = ni_game(ni)
    game.apply(sw.ChoosePower("alchemist"))
    game.put(1, 0, 3, race=race)  # player 0's turn starts with his race active
    game.put(17, 0, 2)
    start = box(game, race)
    game.apply(sw.Decline())
    assert (game.region(1).tokens, game.region(17).tokens) == (1, 1)
    assert box(game, race) == start + to_box
    assert game.zone_pile("well") == (race,) * to_well
    assert game.active_player == 1 and game.coins(0) == 5 + 2
    assert (island(game), reserve(game)) == (1, 13)


def test_elves_decline_surplus_of_four_is_exchanged_section_4_2_3(ni: sw.Rules) -> None:
    """Rule 4.2.3 + rule 4.2.5: 4 Elves off the map on declining fill the Well; at the end of that
    turn they go back to the Elves' box and 1 Ghost goes from the reserve to the Island."""
    game = ni_game(ni)
    game.apply(sw.ChoosePower("alchemist"))
    game.put(1, 0, 4, race="elves")
    game.put(17, 0, 2)
    assert box(game, "elves") == 11 - 6
    game.apply(sw.Decline())
    assert events(game, TokensToZone) == [TokensToZone("well", ("elves",) * 4)]
    assert events(game, Exchanged) == [Exchanged("well", ("elves",) * 4, GHOST, 1)]
    assert game.zone("well") == {} and box(game, "elves") == 5 + 4
    assert (island(game), reserve(game)) == (2, 12)


def test_conquered_ghost_region_without_other_region_section_4_2_4(ni: sw.Rules) -> None:
    """Rule 4.2.4: 3 Ghosts cost 2 + 3; 1 Ghost goes into the Well, 2 back to his hand; with no
    Ghost region left they stay on the Island (1 + 2)."""
    game = ni_game(ni)
    game.put(2, NECRO, 3)
    game.apply(sw.ChoosePower("alchemist"))
    assert (island(game), reserve(game), ghosts_on_map(game)) == (1, 10, 3)
    game.apply(sw.PickCombo(0))
    assert game.conquest_cost(2) == 2 + 3
    game.apply(sw.Conquer(2))
    event = events(game, Conquered)[-1]
    assert (event.defender, event.defender_race, event.lost, event.returned) == (NECRO, GHOST, 1, 2)
    assert game.zone_pile("well") == (GHOST,)
    assert (island(game), reserve(game), ghosts_on_map(game)) == (3, 10, 0)
    deploy_all_and_end(game)
    assert game.phase is not sw.Phase.WITHDRAWAL and game.active_player == 1
    assert (island(game), reserve(game)) == (3, 10) and game.zone_pile("well") == (GHOST,)
    assert ghost_total(game) == 14


def test_returned_ghosts_withdraw_to_his_region_section_4_2_4(ni: sw.Rules) -> None:
    """Rule 4.2.4: the Ghosts that survive a conquest are placed by the Necromancer on his Ghost
    regions at the end of that player's turn (here his Island is empty: he put its Ghost on
    the map in his own turn)."""
    game = ni_game(ni)
    game.put(2, NECRO, 3)
    game.put(8, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    pass_turn(game)
    pass_turn(game)
    assert game.active_player == NECRO and island(game) == 1 + 2  # Island + readied troops
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.EndTurn())
    assert (game.region(2).tokens, game.region(8).tokens, island(game)) == (4, 1, 0)
    assert game.zone_pile("well") == (SOUL, SOUL)  # his harvest: 2 regions
    assert game.active_player == 0 and game.round == 2
    game.apply(sw.Conquer(2))  # player 0's Ratmen, 13 in hand: 2 + 4
    assert game.zone_pile("well") == (SOUL, SOUL, GHOST) and island(game) == 3
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == NECRO
    assert list(game.legal_actions()) == [sw.Deploy(8, 1), sw.Deploy(8, 3)]
    refused(game, sw.EndTurn(), "place the 3")
    game.apply(sw.Deploy(8, 3))
    assert game.active_player == 1 and game.phase is not sw.Phase.WITHDRAWAL
    assert (game.region(8).tokens, island(game), reserve(game)) == (4, 0, 9)
    assert ghost_total(game) == 14


def test_lone_ghost_conquered_leaves_the_island_alone_section_4_2_4(ni: sw.Rules) -> None:
    """Rules 4.2.4 and 4.3 b: only the Ghosts that return from the conquered region are placed at
    the end of the turn; a lone Ghost returns none, so the Island's Ghost stays on the Island and
    the Necromancer has nothing to withdraw."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.put(8, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    assert events(game, Conquered)[-1].returned == 0
    deploy_all_and_end(game)
    assert game.active_player == 1 and game.phase is not sw.Phase.WITHDRAWAL
    assert (island(game), game.region(8).tokens) == (1, 1)


def test_only_returned_ghosts_are_withdrawn_section_4_2_4(ni: sw.Rules) -> None:
    """Rule 4.2.4: 3 Ghosts conquered: 1 to the Well, 2 return and are placed on his other region;
    the Island's own Ghost may stay on the Island (he ends the withdrawal after placing 2)."""
    game = ni_game(ni)
    game.put(2, NECRO, 3)
    game.put(8, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.to_move == NECRO
    game.apply(sw.Deploy(8, 2))
    if game.phase is sw.Phase.WITHDRAWAL:
        game.apply(sw.EndTurn())
    assert game.active_player == 1
    assert (game.region(8).tokens, island(game)) == (3, 1)


def test_exchange_four_ghosts_first_section_4_2_5(ni: sw.Rules) -> None:
    """Rule 4.2.5: at the end of an ordinary turn 4 Well tokens leave, the Ghost first (to his
    reserve), then the oldest others (Crowd and Elves to their boxes, the Lost Tribe
    vanishes); 1 Ghost goes from the reserve to the Island."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))  # 13 tokens
    game.put(1, 1, 2, race="crowd")
    game.put(4, 1, 1, declined=True, race="elves")
    game.apply(sw.Conquer(1))  # 2 + 2
    game.apply(sw.Conquer(2))  # 2 + 1 Ghost
    game.apply(sw.Conquer(3))  # 2 + 1 Lost Tribe
    game.apply(sw.Conquer(4))  # 2 + 1 Elf (declined)
    assert game.zone_pile("well") == ("crowd", GHOST, LT, "elves")
    assert (island(game), reserve(game), box(game, "crowd"), box(game, "elves")) == (1, 12, 7, 10)
    deploy_all_and_end(game)
    assert events(game, Exchanged) == [Exchanged("well", (GHOST, "crowd", LT, "elves"), GHOST, 1)]
    assert game.zone_pile("well") == ()
    assert (island(game), reserve(game)) == (2, 12)
    assert (box(game, "crowd"), box(game, "elves")) == (8, 11)
    assert ghost_total(game) == 14 and game.active_player == 1


@pytest.mark.parametrize(("tribe", "left"), [(7, ()), (8, (LT,))])
def test_eight_or_nine_tokens_make_two_exchanges_section_4_2_5(
    ni: sw.Rules, tribe: int, left: tuple[str, ...]
) -> None:
    """Rule 4.2.5: each full group of 4 is exchanged (8 or 9 tokens: two exchanges, 2 Ghosts to
    the Island); the Ghost, though the newest token, leaves in the first group; fewer than 4
    stay."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.put(1, None, tribe)  # a big Lost Tribe
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))  # 2 + tribe
    game.apply(sw.Conquer(2))  # 2 + 1
    assert game.zone_pile("well") == (LT,) * tribe + (GHOST,)
    deploy_all_and_end(game)
    assert events(game, Exchanged) == [
        Exchanged("well", (GHOST, LT, LT, LT), GHOST, 1),
        Exchanged("well", (LT,) * 4, GHOST, 1),
    ]
    assert game.zone_pile("well") == left
    assert (island(game), reserve(game)) == (3, 11) and ghost_total(game) == 14


# ================================================================================ rule 4.3 his turn


def test_purchase_price_and_effect_section_4_3_a(ni: sw.Rules) -> None:
    """Rule 4.3 a, A15: price = active powers + Ghosts on the map + on the Island, recomputed
    after each purchase (1 + 2 + 1 = 4, then 5, then 6, then 7); a token moves from the reserve
    to the Island; a bought power works at once (Forest: +1 for his Forest region)."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)  # Forest
    game.put(8, NECRO, 1)  # Mountain
    game.apply(sw.ChoosePower("alchemist"))
    pass_turn(game)
    pass_turn(game)
    game.set_coins(NECRO, 20)
    assert (len(saved_state(game)["role_powers"]), ghosts_on_map(game), island(game)) == (1, 2, 1)
    reserved = ["forest", "diplomat", "fortified", "hill", "swamp"]
    assert purchases(game) == {sw.Purchase("token")} | {sw.Purchase("power", p) for p in reserved}
    game.apply(sw.Purchase("token"))
    assert events(game, TokenBought) == [TokenBought(NECRO, GHOST, 4)]
    assert (game.coins(NECRO), island(game), reserve(game)) == (16, 2, 10)
    game.apply(sw.Purchase("power", "forest"))
    assert events(game, PowerChosen)[-1] == PowerChosen(NECRO, "forest", 5)
    assert game.coins(NECRO) == 11
    state = saved_state(game)
    assert state["role_powers"] == ["alchemist", "forest"]
    assert state["role_reserve"] == ["diplomat", "fortified", "hill", "swamp"]
    game.apply(sw.Purchase("token"))  # 2 powers + 2 + 2
    assert events(game, TokenBought)[-1].price == 6
    assert (game.coins(NECRO), island(game), reserve(game)) == (5, 3, 9)
    refused(game, sw.Purchase("token"), "costs 7 coins and you have 5")
    refused(game, sw.Purchase("power", "hill"), "costs 7 coins")
    assert purchases(game) == set()
    game.apply(sw.EndTurn())  # 3 Ghosts rest on the Island
    scored = [e for e in events(game, Scored) if e.player == NECRO]
    assert scored[-1].coins == 2 + 2 + 1  # 2 regions + Alchemist + Forest (region 2)
    assert game.coins(NECRO) == 5 + 5 and island(game) == 3
    assert game.zone_pile("well") == (SOUL, SOUL) and ghost_total(game) == 14


def test_purchase_refusals_section_4_3_a(ni: sw.Rules) -> None:
    """Rule 4.3 a: only the Necromancer buys, only reserved powers, only in his turn before his
    first conquest."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    refused(game, sw.Purchase("token"), "in his turn")
    pass_turn(game)
    pass_turn(game)
    refused(game, sw.Purchase("power", "berserk"), "not one of the reserved powers")
    refused(game, sw.Purchase("power", "alchemist"), "not one of the reserved powers")
    refused(game, sw.Purchase("dragon"), "not 'dragon'")
    game.apply(sw.Purchase("token"))  # 1 + 1 + 1 = 3
    assert game.coins(NECRO) == 2 and island(game) == 2
    game.apply(sw.Conquer(1))  # 2 Ghosts: an empty Farmland next to his Forest
    refused(game, sw.Purchase("token"), "before the first conquest")
    assert purchases(game) == set()


def test_one_purchase_a_turn_option_a15(ni: sw.Rules) -> None:
    """A15: option ``necromancer_purchases`` = 1 allows one purchase a turn."""
    game = ni_game(ni, options={"necromancer_purchases": 1, "necromancer_coins": 30})
    game.apply(sw.ChoosePower("alchemist"))
    pass_turn(game)
    pass_turn(game)
    game.apply(sw.Purchase("token"))  # 1 + 0 + 1
    assert (game.coins(NECRO), island(game)) == (28, 2)
    assert purchases(game) == set()
    refused(game, sw.Purchase("token"), "at most 1 purchase")
    refused(game, sw.Purchase("power", "forest"), "at most 1 purchase")
    game.apply(sw.EndTurn())
    pass_turn(game)
    pass_turn(game)
    game.apply(sw.Purchase("power", "forest"))  # next turn: again one; 1 + 0 + 2
    assert game.coins(NECRO) == 28 + 2 - 3


def test_no_token_left_in_reserve_section_4_3_a(ni: sw.Rules) -> None:
    """Rule 4.3 a: with an empty reserve he cannot buy a Ghost; A18: a Ghost in the Well means he
    has not won although his reserve is empty."""
    game = ni_game(ni)
    game.put(19, NECRO, 12)
    game.put(2, NECRO, 1)
    assert reserve(game) == 0
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))  # the lone Ghost goes into the Well
    deploy_all_and_end(game)
    place_withdrawals(game)
    assert not game.is_over and game.zone_pile("well") == (GHOST,)
    pass_turn(game)
    assert game.active_player == NECRO and reserve(game) == 0
    refused(game, sw.Purchase("token"), "no Ghost token is left")
    game.set_coins(NECRO, 50)
    assert purchases(game) == {sw.Purchase("power", p) for p in DRAFT[1:]}


def test_first_conquest_from_the_lake_section_4_3_b(ni: sw.Rules) -> None:
    """Rule 4.3 b: with no region, his first conquest is one of the regions touching the Lake
    (exactly 2, 6, 8, 12, 13 here); an edge region away from the Lake and the Lake itself are
    refused; the Island is not a region (the Lake stays empty)."""
    game = ni_game(ni)
    lakes = [r.id for r in game.map.regions if r.terrain == "lake"]
    shore = {a for lake in lakes for a in game.map.regions[lake].adjacent}
    assert lakes == [7] and shore == LAKESIDE
    assert game.region(7).tokens == 0 and game.region(7).race is None
    game.apply(sw.ChoosePower("alchemist"))
    pass_turn(game)
    pass_turn(game)
    game.apply(sw.Purchase("token"))  # 1 + 0 + 1
    game.apply(sw.Purchase("token"))  # 1 + 0 + 2
    assert (game.coins(NECRO), island(game), reserve(game)) == (0, 3, 11)
    assert conquer_targets(game) == LAKESIDE
    refused(game, sw.Conquer(1), "not a region where the Ghost tokens enter")
    refused(game, sw.Conquer(19), "not a region where the Ghost tokens enter")
    refused(game, sw.Conquer(7), "under the Necromancer Island")
    game.apply(sw.Conquer(8))  # Mountain: 2 + 1
    assert game.region(8).race == GHOST and island(game) == 0
    assert game.region(7).tokens == 0


def test_re_entry_from_the_lake_section_4_3_b(ni: sw.Rules) -> None:
    """Rule 4.3 b: after losing every region, he re-enters from the Lake's shore again (his old
    region 19, at the edge and away from the Lake, no longer counts)."""
    game = ni_game(ni)
    game.put(19, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))  # 2 + 1 + Mountain
    deploy_all_and_end(game)
    pass_turn(game)
    assert game.active_player == NECRO and island(game) == 1
    game.apply(sw.Purchase("token"))
    game.apply(sw.Purchase("token"))
    assert island(game) == 3 and conquer_targets(game) == LAKESIDE


def test_later_conquests_are_ordinary_section_4_3_b(ni: sw.Rules) -> None:
    """Rule 4.3 b: once on the map, he conquers next to his regions like any race."""
    game = ni_game(ni)
    game.put(19, NECRO, 4)
    game.apply(sw.ChoosePower("alchemist"))
    pass_turn(game)
    pass_turn(game)
    assert island(game) == 1 + 3
    assert conquer_targets(game) == {13, 18, 20}


def test_score_and_harvest_section_4_3_c(ni: sw.Rules) -> None:
    """Rule 4.3 c, A19: he scores 1 per region + his powers' bonus (2 regions + Forest 1 = 3),
    then puts 1 soul per region into the Well; 2 Lost Tribes + 2 souls are exchanged (souls
    before the older Lost Tribes): 1 Ghost to the Island; no race's box is drawn down."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.put(8, NECRO, 1)
    game.apply(sw.ChoosePower("forest"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Crowd: 8
    game.apply(sw.Conquer(18))
    deploy_all_and_end(game)
    assert game.zone_pile("well") == (LT, LT) and game.active_player == NECRO
    boxes = dict(saved_state(game)["box"])
    game.apply(sw.EndTurn())
    scored = events(game, Scored)[-1]
    assert (scored.player, scored.coins) == (NECRO, 3) and game.coins(NECRO) == 8
    assert events(game, TokensToZone)[-1] == TokensToZone("well", (SOUL, SOUL))
    assert events(game, Exchanged)[-1] == Exchanged("well", (SOUL, SOUL, LT, LT), GHOST, 1)
    assert game.zone_pile("well") == ()
    assert (island(game), reserve(game), ghosts_on_map(game)) == (2, 10, 2)
    after = saved_state(game)["box"]
    assert {r: after[r] for r in boxes if r != GHOST} == {r: boxes[r] for r in boxes if r != GHOST}
    assert events(game, TurnEnded)[-1] == TurnEnded(NECRO) and game.round == 2


def test_no_region_no_harvest_section_4_3_c(ni: sw.Rules) -> None:
    """Rule 4.3 c: the Island does not count as a region: no region, no coin for regions, no
    soul; A20: his Alchemist still gives 2."""
    game = ni_game(ni)
    game.apply(sw.ChoosePower("alchemist"))
    pass_turn(game)
    pass_turn(game)
    game.apply(sw.EndTurn())
    assert events(game, Scored)[-1] == Scored(NECRO, 2, events(game, Scored)[-1].details)
    assert game.coins(NECRO) == 7 and game.zone_pile("well") == ()
    assert island(game) == 1 and game.round == 2


def test_instant_win_after_an_exchange_a18(ni: sw.Rules) -> None:
    """Rule 4.3 d, A18: 11 of 12 Ghosts in play, 4 Lost Tribes into the Well: the exchange moves
    the last reserve Ghost to the Island, no Ghost is in the Well: he wins at once, in
    round 1 of 10."""
    game = ni_game(ni, options={"ghosts_removed": 2})
    game.put(19, NECRO, 10)
    game.put(1, None, 4)
    assert (island(game), reserve(game)) == (1, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))  # 2 + 4
    deploy_all_and_end(game)
    assert game.is_over and game.winners == [NECRO] and game.round == 1
    assert (island(game), reserve(game), game.zone_pile("well")) == (2, 0, ())
    tail = game.log[-3:]
    assert tail[0] == Exchanged("well", (LT,) * 4, GHOST, 1)
    assert tail[1] == TurnEnded(0)
    assert tail[2] == GameOver((NECRO,), (game.coins(0), game.coins(1), game.coins(NECRO)))
    assert game.to_move is None and list(game.legal_actions()) == []
    refused(game, sw.EndTurn(), "game is over")


def test_instant_win_when_all_ghosts_are_in_play_a18(ni: sw.Rules) -> None:
    """A18: the win is checked after every turn: every Ghost on the map or the Island and
    none in the Well ends the game at the end of the next turn."""
    game = ni_game(ni)
    game.put(19, NECRO, 13)
    game.apply(sw.ChoosePower("alchemist"))
    assert not game.is_over
    pass_turn(game)
    assert game.is_over and game.winners == [NECRO] and game.round == 1
    assert events(game, GameOver)[0].winners == (NECRO,)


# ========================================================================== rule 4.4 Ghosts' status


def test_sorcerers_cannot_convert_a_ghost_section_4_4(ni: sw.Rules) -> None:
    """Rule 4.4: Ghosts count as a race in decline: a lone Ghost next to the Sorcerers cannot be
    converted (only the lone active Crowd token can)."""
    game = ni_game(ni, market=[("sorcerers", "bulky"), *MARKET[1:]])
    game.put(2, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.put(6, 1, 1, race="crowd")
    game.apply(sw.Conquer(1))  # borders 2 (Ghost) and 6 (Crowd)
    targets = {
        a.target
        for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name == "convert"
    }
    assert targets == {6}
    refused(game, sw.UseAbility("convert", 2), "cannot target region 2")


@pytest.mark.parametrize(
    ("combo", "coins"), [(("orcs", "pillaging"), 2 + 1 + 1), (("ratmen", "pillaging"), 2 + 1)]
)
def test_ghost_region_is_non_empty_section_4_4(
    ni: sw.Rules, combo: tuple[str, str], coins: int
) -> None:
    """Rule 4.4: Orcs and Pillaging count a conquered Ghost region as non-empty (2 regions, one of
    them a Ghost's: Orcs + Pillaging score 2 + 1 + 1, Pillaging alone 2 + 1)."""
    game = ni_game(ni, market=[combo, *[c for c in MARKET if c[0] != combo[0]][:5]])
    game.put(2, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))  # 2 + 1 Ghost
    game.apply(sw.Conquer(1))  # empty
    deploy_all_and_end(game)
    place_withdrawals(game)
    assert events(game, Scored)[-1] == Scored(0, coins, events(game, Scored)[-1].details)
    assert game.coins(0) == 5 + coins


def test_his_diplomat_protects_nothing_a20(ni: sw.Rules) -> None:
    """A20: the Necromancer may choose an ally with his Diplomat, but his Ghosts count as
    declined, so the ally may still attack them."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.put(8, NECRO, 1)
    game.apply(sw.ChoosePower("diplomat"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))  # next to his region 2
    deploy_all_and_end(game)
    pass_turn(game)
    assert game.active_player == NECRO
    game.apply(sw.Deploy(2, 1))  # redeployment: the Island Ghost goes to region 2
    allies = {
        a.target
        for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name == "choose_ally"
    }
    assert allies == {0, 1}
    game.apply(sw.UseAbility("choose_ally", 0))
    assert saved_state(game)["truces"] == [[NECRO, 0]]
    game.apply(sw.EndTurn())
    assert game.active_player == 0 and saved_state(game)["truces"] == [[NECRO, 0]]
    assert sw.Conquer(2) in game.legal_actions()  # 2 + 2 Ghosts: the truce protects nothing
    game.apply(sw.Conquer(2))
    assert game.region(2).race == "ratmen" and game.zone_pile("well")[-1] == GHOST


def test_a_players_truce_does_not_bar_ghosts_section_4_4(ni: sw.Rules) -> None:
    """Rule 4.4: a Diplomat truce binds active races only: attacking a Ghost does not count as
    attacking the Necromancer (he may still be chosen), and his Ghosts may attack the
    Diplomat's race all the same."""
    draft = ("alchemist", "forest", "berserk", "fortified", "hill", "swamp")
    game = ni_game(ni, market=[("ratmen", "diplomat"), *MARKET[1:]], draft=draft)
    game.put(2, NECRO, 4)
    game.put(6, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))  # 8 + 5
    game.apply(sw.Conquer(1))  # 2
    game.apply(sw.Conquer(6))  # 2 + 1 Ghost + Lost Tribe gone: 3
    game.apply(sw.Deploy(1, 1))
    assert sw.UseAbility("choose_ally", NECRO) in game.legal_actions()
    game.apply(sw.UseAbility("choose_ally", NECRO))
    assert saved_state(game)["truces"] == [[0, NECRO]]
    game.apply(sw.Deploy(6, game.hand(0)))  # region 1 keeps 2 Ratmen
    game.apply(sw.EndTurn())
    place_withdrawals(game)
    pass_turn(game)
    assert game.active_player == NECRO and saved_state(game)["truces"] == [[0, NECRO]]
    ratmen = game.region(1).tokens
    assert game.conquest_cost(1) == 2 + ratmen and game.hand(NECRO) >= 2 + ratmen
    assert sw.Conquer(1) in game.legal_actions()
    game.apply(sw.Conquer(1))
    assert game.region(1).race == GHOST and game.zone_pile("well")[-1] == "ratmen"


def test_his_fortified_works_a20(ni: sw.Rules) -> None:
    """A20: his own powers always work although Ghosts count as declined: Fortified places a
    Fortress (+1 coin, +1 defence)."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.apply(sw.ChoosePower("fortified"))
    pass_turn(game)
    pass_turn(game)
    assert sw.UseAbility("fortify", 2) in game.legal_actions()
    game.apply(sw.UseAbility("fortify", 2))
    assert game.region(2).pieces == {"fortress": 1}
    game.apply(sw.EndTurn())
    assert events(game, Scored)[-1].coins == 1 + 1 and game.coins(NECRO) == 7
    assert game.conquest_cost(2) == 2 + 1 + 1


def test_put_places_only_ghosts_for_the_necromancer(ni: sw.Rules) -> None:
    """Set-up: ``put`` for his seat places Ghosts from his reserve (naming the race or not);
    no other race may join his seat, and nobody else may hold Ghosts."""
    game = ni_game(ni)
    game.put(2, NECRO, 2, race=GHOST)
    game.put(8, NECRO, 1)
    assert (game.region(2).race, game.region(8).race) == (GHOST, GHOST)
    assert (reserve(game), island(game), ghost_total(game)) == (10, 1, 14)
    before = game.to_json()
    attempts: list[tuple[tuple[int, int, int], dict[str, Any]]] = [
        ((12, NECRO, 1), {"race": "crowd"}),
        ((12, 0, 1), {"race": GHOST}),
        ((12, NECRO, 1), {"declined": True}),
        ((12, NECRO, 11), {}),
    ]
    for args, kwargs in attempts:
        with pytest.raises(sw.RulesError):
            game.put(*args, **kwargs)
        assert game.to_json() == before
    game.clear(2)
    assert reserve(game) == 12 and game.region(2).race is None


# =========================================================================== saving


def _rich_position(ni: sw.Rules) -> sw.Game:
    """Ghosts on the map, Island, reserve, Well with several kinds, bought power."""
    game = ni_game(ni)
    game.put(2, NECRO, 2)
    game.put(8, NECRO, 1)
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    pass_turn(game)
    game.apply(sw.Purchase("power", "forest"))  # 1 power + 2 on the map + 2 in hand: 5
    return game


def test_json_round_trip_section_4_5(ni: sw.Rules) -> None:
    """Rule 4.5: the Well (ordered, tagged), Island, reserve, role powers and purchases survive
    to_json/from_json exactly, and the restored game plays the same."""
    game = _rich_position(ni)
    text = game.to_json()
    state = json.loads(text)["state"]
    assert state["zones"] == {"well": [LT]} and state["purchases"] == 1
    assert state["role_powers"] == ["alchemist", "forest"] and state["box"][GHOST] == 10
    restored = sw.Game.from_json(text, rules=ni)
    assert restored.to_json() == text
    assert list(restored.legal_actions()) == list(game.legal_actions())
    assert restored.zone_pile("well") == (LT,) and restored.zone("island") == {GHOST: 1 + 1}
    for g in (game, restored):
        g.apply(sw.EndTurn())
    assert restored.to_json() == game.to_json()
    assert game.zone_pile("well") == (LT, SOUL, SOUL)


def test_undo_is_exact_section_4_5(ni: sw.Rules) -> None:
    """Undo restores the exact position after a purchase, a Ghost conquest (a Ghost into the
    Well) and a turn end with an exchange."""
    game = _rich_position(ni)
    bought = game.to_json()
    game.undo()
    assert saved_state(game)["role_powers"] == ["alchemist"] and game.coins(NECRO) == 5
    game.apply(sw.Purchase("power", "forest"))
    assert game.to_json() == bought
    game.apply(sw.EndTurn())  # Well: Lost Tribe + 2 souls
    assert game.active_player == 0 and game.zone_pile("well") == (LT, SOUL, SOUL)
    start = game.to_json()
    game.apply(sw.Conquer(2))  # from region 3: 2 + 1 Ghost
    after_conquest = game.to_json()
    assert game.zone_pile("well") == (LT, SOUL, SOUL, GHOST)
    deploy_all_and_end(game)
    place_withdrawals(game)
    assert game.active_player == 1 and game.zone_pile("well") == ()
    assert events(game, Exchanged)[-1] == Exchanged("well", (GHOST, SOUL, SOUL, LT), GHOST, 1)
    while game.to_json() != after_conquest:
        game.undo()
    game.undo()
    assert game.to_json() == start


def _tampered(text: str, change: Any) -> str:
    doc = json.loads(text)
    change(doc["state"])
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda s: s["box"].__setitem__(GHOST, s["box"][GHOST] + 1), "ghost"),
        (lambda s: s["zones"]["well"].append(GHOST), "ghost"),
        (lambda s: s["zones"]["well"].append("dragon"), "unknown race 'dragon'"),
        (lambda s: s["zones"].pop("well"), "zones"),
        (lambda s: s["zones"].__setitem__("pit", []), "zones"),
        (lambda s: s["role_reserve"].append("flying"), "power badge"),
        (lambda s: s["role_powers"].append("wings"), "unknown power"),
        (lambda s: s["races"].pop(GHOST), "ghost|players"),
    ],
)
def test_tampered_save_is_refused_section_4_5(ni: sw.Rules, change: Any, match: str) -> None:
    """A save with a wrong Ghost count, an unknown Well kind, a missing or unknown zone, a
    role badge held twice or unknown, or no Ghost race is refused with RulesError."""
    text = _rich_position(ni).to_json()
    with pytest.raises(sw.RulesError, match=match):
        sw.Game.from_json(_tampered(text, change), rules=ni)


# =========================================================================== property


BUDGETS = {"dev": {"games": 5}, "ci": {"games": 30}, "thorough": {"games": 1000}}


@settings(
    max_examples=budget(BUDGETS, "games"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(3, 6),
    removed=st.integers(0, 2),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 2**32),
)
def test_random_games_conserve_ghosts_section_4_2_5(
    official_ni: sw.Rules, players: int, removed: int, seed: int, moves: int
) -> None:
    """Rule 4.2.5: in random games (3–6 players, 0–2 Ghosts removed) after every action Ghosts on
    the map + Island + reserve + Well == 14 − removed, every invariant holds, and the game ends
    with winners (the Necromancer alone if he wins at once, A18)."""
    game = sw.Game.new(
        players=players, seed=seed, rules=official_ni, options={"ghosts_removed": removed}
    )
    rng = random.Random(moves)
    check_position(game)
    for _ in range(20_000):
        if game.is_over:
            break
        game.apply(rng.choice(list(game.legal_actions())))
        doc = json.loads(game.to_json())
        assert ghost_total(game, doc["state"]) == 14 - removed
        # The Island is his hand, with the Ghosts set aside while he places returned ones.
        ghost = doc["state"]["races"][GHOST]
        assert game.zone("island") == {GHOST: ghost["hand"] + ghost["held"]}
        check_position(game, doc)
    assert game.is_over and game.winners
    ended = sum(isinstance(e, TurnEnded) for e in game.log)
    if ended < players * game.map.turns:  # A18: he won at once
        assert game.winners == [players - 1] and reserve(game) == 0
        assert not game.zone("well").get(GHOST)
    else:
        assert ended == players * game.map.turns



def test_a16_options_send_elves_surplus_to_the_box(ni: sw.Rules) -> None:
    """A16 as an option: with ``elves_decline_surplus_lost`` false the Elves' decline surplus
    goes to the box (3 here), as for any race; the Well stays empty."""
    game = ni_game(ni, options={"elves_decline_surplus_lost": False})
    game.apply(sw.ChoosePower("alchemist"))
    game.put(1, 0, 3, race="elves")
    game.put(17, 0, 2)
    start = box(game, "elves")
    game.apply(sw.Decline())
    assert box(game, "elves") == start + 3
    assert game.zone_pile("well") == ()


def test_a16_option_sends_the_converted_token_to_its_box(ni: sw.Rules) -> None:
    """A16 as an option: with ``converted_token_is_lost`` false the token a Sorcerer replaces
    goes back to its box, not into the Well."""
    game = ni_game(
        ni, market=[("sorcerers", "bulky"), *MARKET[1:]],
        options={"converted_token_is_lost": False},
    )
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    game.put(6, 1, 1, race="crowd")
    game.apply(sw.Conquer(1))
    crowd = box(game, "crowd")
    game.apply(sw.UseAbility("convert", 6))
    assert game.region(6).race == "sorcerers"
    assert game.zone_pile("well") == ()
    assert box(game, "crowd") == crowd + 1


# =========================================================================== what everyone sees


def test_a_ghost_region_reads_as_declined(ni: sw.Rules) -> None:
    """Ghosts count as a race in decline for every other race and power (the expansion's
    ``counts_as declined``): ``region(r).declined`` says so on a Ghost region, and so does the
    observation, though the Ghosts are the Necromancer's active race (he never declines)."""
    game = ni_game(ni)
    game.put(2, NECRO, 1)
    game.put(5, 0, 1, race="crowd")
    view = game.region(2)
    assert (view.race, view.owner, view.declined) == (GHOST, NECRO, True)
    assert game.active_race(NECRO) == GHOST and game.declined_races(NECRO) == []
    assert not game.region(5).declined  # an active race's region
    for p in range(game.players):
        regions = game.observation(p)["regions"]
        assert (regions[2]["declined"], regions[5]["declined"]) == (True, False)


def test_his_reserve_and_powers_are_readable(ni: sw.Rules) -> None:
    """Every place tokens can be is readable: ``zone("reserve")`` counts the Ghosts in his
    reserve (with or without his seat; no other seat's), ``powers(player)`` lists his active
    powers in the order he got them (``active_power`` names a race's badge: he has none), and
    both are in every player's observation."""
    game = ni_game(ni)
    game.put(2, NECRO, 2)
    assert game.zone("reserve") == game.zone("reserve", NECRO) == {GHOST: reserve(game)} == {
        GHOST: 11
    }
    with pytest.raises(sw.RulesError, match="belongs to player 2"):
        game.zone("reserve", 0)
    assert game.powers(NECRO) == []
    game.apply(sw.ChoosePower("alchemist"))
    game.apply(sw.PickCombo(0))
    assert game.powers(NECRO) == ["alchemist"] and game.active_power(NECRO) is None
    assert game.powers(0) == [game.active_power(0)] == ["bulky"] and game.powers(1) == []
    deploy_all_and_end(game)
    pass_turn(game)
    game.set_coins(NECRO, 20)
    game.apply(sw.Purchase("power", "forest"))
    game.apply(sw.Purchase("token"))
    assert game.powers(NECRO) == ["alchemist", "forest"]
    # the Island: 1 at the start, 1 readied from region 2 in his turn, 1 bought
    assert game.zone("reserve") == {GHOST: 10} and game.zone("island") == {GHOST: 3}
    for p in range(game.players):
        obs = game.observation(p)
        powers = [entry["powers"] for entry in obs["players"]]
        assert powers == [["bulky"], ["plain2"], ["alchemist", "forest"]]
        assert obs["zones"] == {"island": {GHOST: 3}, "reserve": {GHOST: 10}, "well": {}}


def test_reserve_is_no_zone_without_a_role() -> None:
    """``zone("reserve")`` answers for a role's reserve only: a game without a role has no
    such zone, and says which zones it has."""
    game = sw.Game.new(players=2, seed=1)
    with pytest.raises(sw.RulesError, match="no zone 'reserve'"):
        game.zone("reserve")


def test_nobody_conquers_the_lake_under_the_island(ni: sw.Rules) -> None:
    """The Island sits on the Lake (``hand_zone island … on terrain lake``), and nobody may
    conquer it: not a race that may enter water (here with the test power Sailors), though it
    may conquer the Lake in a game without the expansion; not the Necromancer with Seafaring
    among his powers."""
    market = [("ratmen", "sailors"), *MARKET[1:]]
    plain = sw.Game.new(players=2, seed=1, rules=sw.load_rules(paths=[TEST_RULES]),
                        combos=market)
    plain.apply(sw.PickCombo(0))
    plain.apply(sw.Conquer(2))  # the Forest on the shore
    assert 7 in conquer_targets(plain)  # without the Island the Lake is open to Sailors
    game = ni_game(ni, market=market, draft=("seafaring", *DRAFT[1:]))
    game.apply(sw.ChoosePower("seafaring"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    assert 7 not in conquer_targets(game) and 6 in conquer_targets(game)
    refused(game, sw.Conquer(7), "region 7 lies under the Necromancer Island: nobody may")
    deploy_all_and_end(game)
    pass_turn(game)
    game.put(12, NECRO, 1)
    assert game.powers(NECRO) == ["seafaring"] and game.hand(NECRO) >= 1
    assert 7 not in conquer_targets(game) and 13 in conquer_targets(game)
    refused(game, sw.Conquer(7), "under the Necromancer Island")
