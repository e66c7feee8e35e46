"""The rule language's constructs for the turn's flow, decline and adjacency, each through a
small rule file with an invented name (docs/rule-language.md, "The turn's flow, decline and
adjacency")."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import declined_then_next_picked, deploy_all_and_end, first_round_on_the_2p_map

import smallworld_rules as sw
from smallworld_rules.dsl.formatter import format_source
from smallworld_rules.events import Scored

TEST_RULES = Path(__file__).parent / "rules"


def _file(tmp_path: Path, kind: str, name: str, body: str) -> Path:
    header = "tokens 8\n box 20" if kind == "race" else "tokens 0"
    text = f'{kind} {name} "{name.title()}" {{\n {header}\n text "Test."\n{body}\n}}\n'
    path = tmp_path / f"{name}.swr"
    path.write_text(text)
    return path


def _rules(tmp_path: Path, kind: str, name: str, body: str) -> sw.Rules:
    _file(tmp_path, kind, name, body)
    return sw.load_rules(paths=[tmp_path, TEST_RULES])


def _last_score(game: sw.Game, player: int) -> Scored:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]


# --------------------------------------------------------------------------- groups


def test_count_groups_counts_connected_groups_of_regions(tmp_path: Path) -> None:
    """`count(groups in own regions)`: regions joined by a chain of bordering regions of the
    set are one group (Farmland 1 - Forest 2, and Hill 4 apart: 2 groups)."""
    rules = _rules(tmp_path, "power", "herders", "score add 10 * count(groups in own regions)")
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("skeletons", "herders")])
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 4):
        game.put(region, 0, 1)
    deploy_all_and_end(game)
    assert _last_score(game, 0).coins == 3 + 20


def test_count_groups_of_no_region_is_zero_edge(tmp_path: Path) -> None:
    """`count(groups in …)` (edge): an empty set makes no group, and a filter applies before
    the grouping (no Forest held: 0)."""
    rules = _rules(
        tmp_path, "power", "herders",
        "score add 10 * count(groups in own regions with terrain forest)\n"
        "score add 100 when count(groups in own regions with terrain sea) = 0",
    )
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("skeletons", "herders")])
    game.apply(sw.PickCombo(0))
    game.put(1, 0, 1)
    deploy_all_and_end(game)
    assert _last_score(game, 0).coins == 1 + 100


def test_count_groups_round_trips_through_the_formatter(tmp_path: Path) -> None:
    """`smallworld fmt` writes `count(groups in …)` back as it reads it."""
    path = _file(tmp_path, "power", "herders",
                 "score add 2 when count(groups in own regions with not coastal) = 1")
    out = format_source(path.read_text())
    assert "count(groups in own regions with not coastal) = 1" in out
    assert format_source(out) == out


def test_count_groups_with_a_misspelt_set_is_a_rule_file_error(tmp_path: Path) -> None:
    """A region set misspelt inside `count(groups in …)` is refused with its place."""
    path = _file(tmp_path, "power", "herders", "score add count(groups in owm regions)")
    with pytest.raises(sw.RuleFileError) as info:
        sw.load_rules(paths=[path])
    assert info.value.line == 4


# --------------------------------------------------------------------------- no redeployment


def test_flag_no_redeployment_ends_the_conquests_as_they_stand(tmp_path: Path) -> None:
    """`flag no_redeployment`: no Deploy once the conquests are under way, ending them
    leaves every region as conquered, and the tokens in hand wait off the map (held), back
    in hand next turn."""
    rules = _rules(tmp_path, "race", "rovers", "flag no_redeployment")
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("rovers", "plain"),
                                                               ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    assert all(not isinstance(a, sw.Deploy) for a in game.legal_actions())
    game.apply(sw.EndTurn())
    state = game._state.races["rovers"]
    assert (game.region(1).tokens, state.hand, state.held) == (2, 0, 6)
    assert game.tokens_on_map(0) == 2


def test_flag_no_redeployment_refuses_a_deploy_and_changes_nothing_edge(tmp_path: Path) -> None:
    """`flag no_redeployment` (edge): a Deploy is refused with the reason, the game exactly
    as it was."""
    rules = _rules(tmp_path, "race", "rovers", "flag no_redeployment")
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("rovers", "plain")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="do not redeploy"):
        game.apply(sw.Deploy(1, 2))
    assert game.to_json() == before


# --------------------------------------------------------------------------- vanishing


def test_flag_vanishes_in_decline_counts_regions_first(tmp_path: Path) -> None:
    """`flag vanishes_in_decline`: the decline triggers still see the race's regions, then
    every token leaves the map for its box and the race leaves the game."""
    rules = _rules(tmp_path, "power", "fading",
                   "on decline do gain 10 * count(own regions) coins\nflag vanishes_in_decline")
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("skeletons", "fading"),
                                                               ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.put(1, 0, 1)
    game.put(2, 0, 1)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.coins(0) == coins + 20
    assert game.region(1).race is None and game.region(2).race is None
    assert game.declined_races(0) == [] and game._state.box["skeletons"] == 20


def test_flag_vanishes_in_decline_does_nothing_while_active_edge(tmp_path: Path) -> None:
    """`flag vanishes_in_decline` (edge): it works only as the race declines; a turn of
    conquests leaves the race's tokens where they are."""
    rules = _rules(tmp_path, "power", "fading", "flag vanishes_in_decline")
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("skeletons", "fading")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert game.region(1).race == "skeletons"


# ------------------------------------------------------------------------ conquest adjacency


def test_conquest_adjacent_to_honours_map_and_links(tmp_path: Path) -> None:
    """`conquest_adjacent_to REGIONS`: a region bordering the set on the map, or joined to it
    by the race's links (`link feature cavern`: the caverns Swamp 3 and Hill 17), unlike
    `adjacent_to`, which is the map's borders alone."""
    rules = _rules(
        tmp_path, "race", "delvers",
        "link feature cavern\n"
        "conquest_cost add 10 when target conquest_adjacent_to own regions\n"
        "conquest_cost add 100 when target adjacent_to own regions",
    )
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("delvers", "plain")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # a cavern
    assert game.conquest_cost(17) == 2 + 10  # linked, not bordering
    assert game.conquest_cost(4) == 2 + 10 + 100  # bordering
    assert game.conquest_cost(3 + 16) == 3 + 0  # Mountain 19: neither


def test_conquest_adjacent_to_is_refused_in_a_link_edge(tmp_path: Path) -> None:
    """`conquest_adjacent_to` (edge): a `link` may not use it, since the links are what it
    reads; the error names the file, line and column."""
    path = _file(tmp_path, "race", "delvers",
                 "link conquest_adjacent_to all regions with terrain lake")
    with pytest.raises(sw.RuleFileError) as info:
        sw.load_rules(paths=[path])
    assert (info.value.line, info.value.column) == (5, 6)


# ------------------------------------------------------------------- redeploy before decline


def _declining(tmp_path: Path, body: str) -> sw.Game:
    rules = _rules(tmp_path, "power", "lingerers", body)
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("ratmen", "lingerers"),
                                                               ("crowd", "plain2")])
    first_round_on_the_2p_map(game)
    game.apply(sw.Decline())
    return game


def test_redeploys_before_decline_then_declines_at_end_turn(tmp_path: Path) -> None:
    """`flag redeploys_before_decline`: Decline in place of expanding leaves the readied
    troops in hand for a redeployment; EndTurn declines the race (here one token per region
    stays, the rest go back to the box) and scores the decline turn."""
    game = _declining(tmp_path, "flag redeploys_before_decline")
    assert game.phase is sw.Phase.REDEPLOY and game.active_race(0) == "ratmen"
    game.apply(sw.Deploy(2, game.hand(0)))
    coins = game.coins(0)
    game.apply(sw.EndTurn())
    assert game.declined_races(0) == ["ratmen"] and game.active_race(0) is None
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)
    assert game.coins(0) == coins + 2 and game.to_move == 1


def test_redeploys_before_decline_survives_a_save_edge(tmp_path: Path) -> None:
    """`flag redeploys_before_decline` (edge): a game saved during that redeployment loads
    and goes on to the decline."""
    game = _declining(tmp_path, "flag redeploys_before_decline\nflag keeps_tokens_in_decline")
    loaded = sw.Game.from_json(game.to_json(), rules=game.rules)
    loaded.apply(sw.Deploy(2, loaded.hand(0)))
    loaded.apply(sw.EndTurn())
    assert loaded.declined_races(0) == ["ratmen"]
    assert loaded.region(1).tokens + loaded.region(2).tokens == 8  # every token kept


# --------------------------------------------------------------------- during decline, gather


_TOWER = "ability keep {\n during decline\n once_per_turn\n target own region\n gather\n}"


def _cloisters(tmp_path: Path, body: str = _TOWER) -> sw.Game:
    rules = _rules(tmp_path, "race", "cloisters", body)
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("cloisters", "plain"),
                                                               ("crowd", "plain2")])
    first_round_on_the_2p_map(game)
    game.apply(sw.Decline())
    return game


def test_an_ability_during_decline_is_offered_before_the_scoring(tmp_path: Path) -> None:
    """`during decline`: right after the race declined in place of expanding, its abilities
    during decline are the only actions; `gather` moves one token of each other region into
    the target; EndTurn then scores the decline turn."""
    game = _cloisters(tmp_path)
    assert set(game.legal_actions()) == {sw.UseAbility("keep", 1), sw.UseAbility("keep", 2)}
    game.apply(sw.UseAbility("keep", 1))
    assert (game.region(1).tokens, game.region(2).race) == (2, None)
    game.apply(sw.EndTurn())
    assert _last_score(game, 0).coins == 1 and game.to_move == 1


def test_an_ability_during_decline_survives_a_save_edge(tmp_path: Path) -> None:
    """`during decline` (edge): a game saved while the choice is pending loads and offers
    the same actions."""
    game = _cloisters(tmp_path)
    loaded = sw.Game.from_json(game.to_json(), rules=game.rules)
    assert set(loaded.legal_actions()) == set(game.legal_actions())


def test_an_ability_during_decline_needs_a_limit_edge(tmp_path: Path) -> None:
    """`during decline` (edge): without a limit the decline would never end: the checker
    refuses it (`decline-ability-without-limit`)."""
    path = _file(tmp_path, "race", "cloisters",
                 "ability keep {\n during decline\n target own region\n gather\n}")
    with pytest.raises(sw.RuleFileError) as info:
        sw.load_rules(paths=[path])
    assert info.value.label == "decline-ability-without-limit"


def test_gather_needs_a_target_own_region_edge(tmp_path: Path) -> None:
    """`gather` (edge): it needs a target own region; without one the checker says so."""
    path = _file(tmp_path, "race", "cloisters",
                 "ability keep {\n during decline\n once_per_turn\n gather\n}")
    with pytest.raises(sw.RuleFileError) as info:
        sw.load_rules(paths=[path])
    assert info.value.label == "ability-without-target"


# --------------------------------------------------------------------- no return to abandoned


def _wanderers(tmp_path: Path) -> sw.Game:
    rules = _rules(tmp_path, "race", "wanderers",
                   "flag no_return_to_abandoned\non abandon do gain 1 coin")
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("wanderers", "plain"),
                                                               ("crowd", "plain2")])
    first_round_on_the_2p_map(game)
    return game


def test_no_return_to_abandoned_keeps_the_race_out_for_the_turn(tmp_path: Path) -> None:
    """`flag no_return_to_abandoned`: a region the race abandoned this turn is not offered
    and a conquest of it is refused with the reason, the game unchanged; `on abandon do
    gain 1 coin` pays for the abandon."""
    game = _wanderers(tmp_path)
    coins = game.coins(0)
    game.apply(sw.Abandon(1))
    assert game.coins(0) == coins + 1
    assert sw.Conquer(1) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="abandoned region 1 this turn"):
        game.apply(sw.Conquer(1))
    assert game.to_json() == before


def test_no_return_to_abandoned_lasts_one_turn_edge(tmp_path: Path) -> None:
    """`flag no_return_to_abandoned` (edge): the next turn the region may be conquered
    again, and a saved game remembers the abandon within the turn."""
    game = _wanderers(tmp_path)
    game.apply(sw.Abandon(1))
    loaded = sw.Game.from_json(game.to_json(), rules=game.rules)
    assert sw.Conquer(1) not in loaded.legal_actions()
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1
    assert sw.Conquer(1) in game.legal_actions()


def test_a_coin_for_a_conquest_not_adjacent_before_it(tmp_path: Path) -> None:
    """`on conquest when target not conquest_adjacent_to own regions and count(own regions)
    >= 2`: the target is the race's own once conquered, so the condition holds for a region
    that bordered none of its other regions, reached two away by `reach 2` (Hill 4 from
    Forest 2, through Swamp 3); entering the map and a neighbour earn nothing."""
    rules = _rules(
        tmp_path, "race", "throwers",
        "reach 2\n"
        "on conquest when target not conquest_adjacent_to own regions and count(own regions)"
        " >= 2 do gain 1 coin",
    )
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("throwers", "plain")])
    game.apply(sw.PickCombo(0))
    coins = game.coins(0)
    game.apply(sw.Conquer(2))  # entering the map: no coin
    assert game.coins(0) == coins
    game.apply(sw.Conquer(1))  # next to Forest 2: no coin
    assert game.coins(0) == coins
    game.apply(sw.Conquer(4))  # two away, through Swamp 3: 1 coin
    assert game.coins(0) == coins + 1


# ------------------------------------------------------------- abilities in decline, hand_over


_PHOENIX = (
    "counter reborn per_turn\n"
    "ability rebirth {\n during conquest\n while declined\n"
    " target own region when counter reborn < 2\n hand_over\n add 1 to reborn\n}"
)


def _reborn(tmp_path: Path) -> sw.Game:
    """Player 0's Ratmen with the invented power hold Farmland 1, Forest 2 and Swamp 3 and
    decline; in player 0's next turn the Humans are picked."""
    rules = _rules(tmp_path, "power", "phoenixes", _PHOENIX)
    return declined_then_next_picked(
        rules, [("ratmen", "phoenixes"), ("crowd", "plain2"), ("humans", "plain")]
    )


def test_an_ability_while_declined_hands_a_region_over(tmp_path: Path) -> None:
    """`while declined` in an ability: the race in decline may use it in its owner's turn;
    `hand_over` replaces its token with one of the owner's active race, from that race's
    hand; the badge stays with the race in decline."""
    game = _reborn(tmp_path)
    assert game.active_race(0) == "humans"
    assert {sw.UseAbility("rebirth", r) for r in (1, 2, 3)} <= set(game.legal_actions())
    hand = game.hand(0)
    game.apply(sw.UseAbility("rebirth", 2))
    assert (game.region(2).race, game.region(2).tokens, game.region(2).declined) == (
        "humans", 1, False)
    assert game.hand(0) == hand - 1
    assert game._state.races["ratmen"].power == "phoenixes"


def test_an_ability_while_declined_keeps_its_limit_edge(tmp_path: Path) -> None:
    """`while declined` (edge): the counter limits it to 2 a turn; an active race is not
    offered it, and a third use is refused with the reason."""
    game = _reborn(tmp_path)
    game.apply(sw.UseAbility("rebirth", 1))
    game.apply(sw.UseAbility("rebirth", 2))
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    with pytest.raises(sw.IllegalAction, match="cannot target region 3"):
        game.apply(sw.UseAbility("rebirth", 3))


# --------------------------------------------------------------------------- a second round


def _ravaging(tmp_path: Path, **kwargs: object) -> sw.Game:
    rules = _rules(tmp_path, "power", "ravaging", "flag second_conquest_round")
    game = sw.Game.new(players=2, seed=1, rules=rules,
                       combos=[("ratmen", "ravaging"), ("crowd", "plain2")], **kwargs)  # type: ignore[arg-type]
    game.apply(sw.PickCombo(0))
    return game


def test_second_conquest_round_takes_the_tokens_back_and_conquers_again(
    tmp_path: Path,
) -> None:
    """`flag second_conquest_round`: the first EndTurn of the conquests ends a first round:
    every token but one per region goes back into hand and the race conquers again; the
    next EndTurn ends the conquests as usual."""
    game = _ravaging(tmp_path)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))  # 2 + 2 of 8
    game.apply(sw.EndTurn())
    assert game.phase is sw.Phase.CONQUEST and game.hand(0) == 8 - 2
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)
    game.apply(sw.Conquer(3))  # the Lost Tribe: 3
    assert game.hand(0) == 3
    deploy_all_and_end(game)
    assert game.to_move == 1 and game.region(3).race == "ratmen"


def test_second_conquest_round_keeps_the_die_for_the_second_edge(tmp_path: Path) -> None:
    """`flag second_conquest_round` (edge): no final die attempt in the first round (not
    offered, refused with the reason); in the second it is offered."""
    game = _ravaging(tmp_path)
    for region in (1, 2, 3):
        game.apply(sw.Conquer(region))  # 2 + 2 + 3: 1 left
    assert not [a for a in game.legal_actions() if isinstance(a, sw.ConquerWithDie)]
    with pytest.raises(sw.IllegalAction, match="belongs to your second round"):
        game.apply(sw.ConquerWithDie(4))
    game.apply(sw.EndTurn())
    assert game.hand(0) == 1 + 1 + 1 + 2
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))  # 2 + 2: 1 left
    assert [a for a in game.legal_actions() if isinstance(a, sw.ConquerWithDie)]
