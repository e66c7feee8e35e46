"""Scenario tests of the constructs of version 3 of the rule language, through the rule files
of tests/rules_v3/ (exact coins, tokens and costs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end

import smallworld_rules as sw
from smallworld_rules.dsl.formatter import format_source
from smallworld_rules.dsl.parser import parse

V3 = Path(__file__).parent / "rules_v3"


@pytest.fixture(scope="module")
def v3() -> sw.Rules:
    return sw.load_rules(paths=[V3])


def _game(rules: sw.Rules, *combos: tuple[str, str], players: int = 2, **kw: object) -> sw.Game:
    return sw.Game.new(players=players, seed=3, rules=rules, combos=list(combos), **kw)  # type: ignore[arg-type]


def _first(game: sw.Game, wanted: object) -> int:
    """The first region with a legal Conquer whose contents match ``wanted``."""
    for action in game.legal_actions():
        if isinstance(action, sw.Conquer):
            region = game.region(action.region)
            kind = "tribe" if region.lost_tribe else "empty" if region.tokens == 0 else "race"
            if kind == wanted:
                return action.region
    raise AssertionError(f"no conquerable {wanted} region")


def test_every_v3_file_formats_to_the_same_tree() -> None:
    """The formatter prints every new construct so that it parses back to the same tree."""
    for path in sorted(V3.glob("*.swr")):
        text = path.read_text()
        assert parse(format_source(text)) == parse(text), path.name


def test_conquering_a_lost_tribe_region_earns_a_coin_and_an_empty_one_does_not(
    v3: sw.Rules,
) -> None:
    """`on conquest when target lost_tribe do gain 1 coin`: the condition reads the region as
    it was before the conquest."""
    game = _game(v3, ("tollkeepers", "nothing"))
    game.apply(sw.PickCombo(0))
    coins = game.coins(0)
    game.apply(sw.Conquer(_first(game, "tribe")))
    assert game.coins(0) == coins + 1
    game.apply(sw.Conquer(_first(game, "empty")))
    assert game.coins(0) == coins + 1


def test_an_ability_price_is_paid_and_refused_without_the_coins(v3: sw.Rules) -> None:
    """`ability bribe { … price 2 gain 2 }`: it costs 2 coins and gives 2 tokens; a player
    with fewer coins is not offered it."""
    game = _game(v3, ("tollkeepers", "nothing"))
    game.apply(sw.PickCombo(0))
    coins, hand = game.coins(0), game.hand(0)
    assert sw.UseAbility("bribe") in game.legal_actions()
    game.apply(sw.UseAbility("bribe"))
    assert (game.coins(0), game.hand(0)) == (coins - 2, hand + 2)
    other = _game(v3, ("tollkeepers", "nothing"))
    other.apply(sw.PickCombo(0))
    other.set_coins(0, 1)
    assert sw.UseAbility("bribe") not in other.legal_actions()
    with pytest.raises(sw.IllegalAction, match="costs 2 coins and you have 1"):
        other.apply(sw.UseAbility("bribe"))


def test_the_defender_pays_what_it_has(v3: sw.Rules) -> None:
    """`on conquest when target enemy_active do defender pays 1 coin`: conquering a region
    of another player's active race takes 1 coin from that player; a player with no coin
    pays nothing (coins never go below 0)."""
    game = _game(v3, ("tollkeepers", "nothing"), ("diceborn", "alchemist"))
    game.apply(sw.PickCombo(0))
    region = _first(game, "empty")
    game.clear(region)
    game.put(region, 1, 1, race="diceborn")
    game.set_coins(0, 4)
    game.set_coins(1, 3)
    if sw.Conquer(region) not in game.legal_actions():
        pytest.skip("the region is not reachable on this map")
    game.apply(sw.Conquer(region))
    assert (game.coins(0), game.coins(1)) == (5, 2)
    other = _game(v3, ("tollkeepers", "nothing"), ("diceborn", "alchemist"))
    other.apply(sw.PickCombo(0))
    other.put(region, 1, 1, race="diceborn")
    other.set_coins(0, 4)
    other.set_coins(1, 0)
    other.apply(sw.Conquer(region))
    assert (other.coins(0), other.coins(1)) == (4, 0)


def test_the_die_of_a_trigger_is_a_chance_node_with_explicit_chance(v3: sw.Rules) -> None:
    """`on turn_start do roll, gain die coins`: with chance="explicit" the roll is a chance
    node; the face rolled is the coins gained."""
    game = _game(v3, ("diceborn", "nothing"), chance="explicit")
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(_first(game, "empty")))
    deploy_all_and_end(game)
    # player 1's turn: picks, then ends; then player 0's turn starts with the roll
    game.apply(sw.PickCombo(0))
    while game.to_move == 1:
        acts = game.legal_actions()
        game.apply(next((a for a in acts if isinstance(a, sw.EndTurn)), acts[0]))
    while game.to_move not in (sw.CHANCE, 0):
        game.apply(game.legal_actions()[0])
    assert game.to_move is sw.CHANCE
    coins = game.coins(0)
    game.apply(sw.RollDie(3))
    assert game.coins(0) == coins + 3
    assert game.to_move == 0


def test_immune_regions_cannot_be_attacked(v3: sw.Rules) -> None:
    """`immune when terrain forest`: another race may not conquer the race's Forests."""
    game = _game(v3, ("tollkeepers", "nothing"), ("wardens", "alchemist"))
    forest = next(
        r for r in range(len(game.map.regions)) if game.map.regions[r].terrain == "forest"
    )
    game.apply(sw.PickCombo(0))
    game.put(forest, 1, 2, race="wardens")
    assert game.explain_conquest_cost(forest).value >= 1
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(forest))


def test_the_floor_of_a_conquest_cost(v3: sw.Rules) -> None:
    """`region_tokens min 2`: no conquest of the race costs less than 2 tokens."""
    game = _game(v3, ("wardens", "nothing"))
    game.apply(sw.PickCombo(0))
    costs = [game.explain_conquest_cost(a.region).value for a in game.legal_actions()
             if isinstance(a, sw.Conquer)]
    assert costs and min(costs) >= 2


def test_skipping_a_combo_costs_its_skip_coins(v3: sw.Rules) -> None:
    """`skip_coins 2`: picking the combo below one with Scavengers costs 2 coins, and they
    lie on the skipped combo."""
    game = _game(v3, ("diceborn", "scavengers"), ("tollkeepers", "nothing"))
    coins = game.coins(0)
    game.apply(sw.PickCombo(1))
    assert game.coins(0) == coins - 2
    assert game.market[0][2] == 2


def test_counters_and_decline_events(v3: sw.Rules) -> None:
    """Chroniclers: `on decline do gain 3 coins` fires when the race declines, before its
    badge is discarded; `on any_decline` does not then, as the badge is gone."""
    game = _game(v3, ("tollkeepers", "chroniclers"), ("diceborn", "alchemist"))
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(_first(game, "empty")))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    while game.to_move != 0 or game.to_move is sw.CHANCE:
        if game.to_move is sw.CHANCE:
            game.apply(game.chance_outcomes()[0][0])
            continue
        acts = game.legal_actions()
        game.apply(next((a for a in acts if isinstance(a, sw.EndTurn)), acts[0]))
    coins = game.coins(0)
    regions = sum(1 for r in range(len(game.map.regions)) if game.region(r).race == "tollkeepers")
    game.apply(sw.Decline())
    # 3 (decline) + the score of the regions in decline
    assert game.coins(0) == coins + 3 + regions
