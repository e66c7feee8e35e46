"""The rule language's constructs for conquest costs, coins and per-region counts, with
the invented rule files of tests/rules_cost/ (no published race is named here).

``discount N``: an ability aimed at a region makes the acting race's conquest of it cost N
tokens less this turn (a ``sub`` before the clamp); several add up, the conquest spends
them, the rest lapse. ``discounted``: a discount waits on the region.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game, play_pair_at_random
from test_lang_v3_errors import _errors, _race

import smallworld_rules as sw
from smallworld_rules.dsl.parser import parse
from smallworld_rules.errors import RuleFileError

COST_RULES = Path(__file__).parent / "rules_cost"
TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def rules() -> sw.Rules:
    """The official rules, the invented files of tests/rules_cost and the test-only ones."""
    return sw.load_rules(paths=[COST_RULES, TEST_RULES])


def bargainers(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("bargainers", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def uses(game: sw.Game, name: str) -> list[int | None]:
    return [
        a.target for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name == name
    ]


def test_discount_lowers_the_target_region_only(rules: sw.Rules) -> None:
    """discount N: the bribe (2 coins) makes Swamp 3 (2 + 1 Lost Tribe) cost 3 less, so 1
    after the clamp; Hill 4 next to it keeps its cost; the breakdown labels the discount."""
    game = bargainers(rules)
    coins = game.coins(0)
    game.apply(sw.UseAbility("bribe", 3))
    assert game.coins(0) == coins - 2
    breakdown = game.explain_conquest_cost(3)
    assert (breakdown.clamped_from, breakdown.value) == (0, 1)
    assert breakdown.contributions[-1].label == "discount"
    assert game.conquest_cost(4) == 2


def test_discounted_allows_one_discount_per_region(rules: sw.Rules) -> None:
    """discounted: once a discount waits on a region, `not discounted` refuses another
    bribe there (the game is left as it was); other regions may still be bribed."""
    game = bargainers(rules)
    game.apply(sw.UseAbility("bribe", 3))
    assert 3 not in uses(game, "bribe") and 4 in uses(game, "bribe")
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="cannot target region 3"):
        game.apply(sw.UseAbility("bribe", 3))
    assert game.to_json() == before


def test_discounts_add_up_and_the_conquest_spends_them(rules: sw.Rules) -> None:
    """discount N: 2 Bargains earned by 2 conquests, both spent on one region, lower it by
    2; its conquest spends the discounts (nothing is left in the saved state)."""
    game = bargainers(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    assert game.conquest_cost(3) == 3
    game.apply(sw.UseAbility("haggle", 3))
    game.apply(sw.UseAbility("haggle", 3))
    assert uses(game, "haggle") == []  # the counter is spent
    assert game.conquest_cost(3) == 1
    game.apply(sw.Conquer(3))
    assert "discounts" not in json.loads(game.to_json())["state"].get("lang", {})


def test_discount_lapses_when_the_conquests_end(rules: sw.Rules) -> None:
    """discount N: a discount not spent lapses with the race's conquests: next turn the
    region costs its full price again."""
    game = bargainers(rules)
    game.apply(sw.UseAbility("bribe", 4))
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert game.to_move == 0 and game.conquest_cost(4) == 2


def test_discount_is_only_the_acting_races(rules: sw.Rules) -> None:
    """discount N: it lowers the cost for the race that got it, not another race's cost of
    the same region."""
    game = bargainers(rules)
    game.apply(sw.UseAbility("bribe", 4))
    assert game.conquest_cost(4) == 1
    engine, state = game._engine, game._state
    assert engine.conquest_cost(state, "crowd", 4).value == 2
    assert engine.conquest_costs(state, "crowd", 1 << 4) == {4: 2}


def test_a_save_with_a_discount_waiting_loads_back(rules: sw.Rules) -> None:
    """A save made while a discount waits loads back with it; a corrupt one is refused
    with a short message."""
    game = bargainers(rules)
    game.apply(sw.UseAbility("bribe", 4))
    saved = game.to_json()
    assert sw.Game.from_json(saved, rules=rules).conquest_cost(4) == 1
    data = json.loads(saved)
    data["state"]["lang"]["discounts"] = [[4, 0]]
    with pytest.raises(sw.RulesError, match="discounts"):
        sw.Game.from_json(json.dumps(data), rules=rules)


def test_discount_in_a_trigger_is_refused_with_a_hint() -> None:
    """discount N is a player's decision: a trigger with it is refused at its column, with
    a hint to write an ability."""
    (error,) = _errors(_race("on conquest do discount 1"))
    assert (error.line, error.column) == (5, 20)
    assert "cannot 'discount'" in error.message and "ability" in error.hint


def test_discount_needs_a_target_region() -> None:
    """discount N aims at a region: an ability without a target, or aimed at a player, is
    refused with a hint."""
    (error,) = _errors(_race("ability a { during conquest discount 1 }"))
    assert "needs a target" in error.message and "target region" in error.hint
    (error,) = _errors(_race("ability a { during conquest target player discount 1 }"))
    assert "needs a target region" in error.message


def test_discount_round_trips_through_the_formatter() -> None:
    """fmt writes `discount N` back as it was read."""
    from smallworld_rules.dsl.formatter import format_source

    text = (COST_RULES / "bargainers.swr").read_text()
    assert format_source(text) == text


@pytest.mark.parametrize("power", ["plain", "berserk", "dragon_master", "flying", "commando"])
def test_bargainers_play_random_games(rules: sw.Rules, power: str) -> None:
    """Random games with the discounts: every invariant holds after every action."""
    play_pair_at_random(rules, "bargainers", power, seed=7)


def pickpockets(rules: sw.Rules, crowd_at: int = 20, coins: int = 5) -> sw.Game:
    """Player 0's Pickpockets Ratmen; player 1's Crowd on one region with some coins."""
    game = new_game(rules, [("ratmen", "pickpockets"), ("crowd", "plain2")])
    game.put(crowd_at, 1, 2, race="crowd")
    game.set_coins(1, coins)
    game.apply(sw.PickCombo(0))
    return game


def test_tokens_predicate_counts_regions_by_their_tokens(rules: sw.Rules) -> None:
    """tokens OP N: `own regions with tokens >= 4` counts the regions holding 4 or more;
    among this turn's conquests `tokens >= 2` reads what each held when conquered (Swamp 3's
    Lost Tribe: 1, so it does not count)."""
    game = pickpockets(rules)
    game.apply(sw.Conquer(3))  # a Lost Tribe (1 token)
    game.apply(sw.Conquer(4))  # empty
    game.apply(sw.Deploy(3, 3))  # the conquests end: Swamp 3 holds 4
    game.apply(sw.Deploy(4, game.hand(0)))  # and Hill 4 the rest (8)
    coins = game.coins(0)
    game.apply(sw.EndTurn())
    # 2 regions, 2 with 4 or more, no conquest that held 2; the Crowd far away pays nothing
    assert game.coins(0) == coins + 2 + 2 + 0


def test_tokens_predicate_reads_the_conquered_regions_as_they_were(rules: sw.Rules) -> None:
    """tokens OP N in `conquests with …`: Swamp 20 held the Crowd's 2 tokens when conquered,
    so it counts though it holds the Ratmen's now."""
    game = pickpockets(rules, crowd_at=20, coins=0)
    game.apply(sw.Conquer(20))  # 2 + 2 Crowd tokens
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 1 + 1 + 1  # 1 region, it holds 4 or more, it held 2


def test_opponents_with_a_condition_pay_only_when_it_holds(rules: sw.Rules) -> None:
    """opponents with PRED: a neighbouring opponent with 3 coins or more pays 1 coin; with 2
    coins, the condition (his own coins) fails and he pays nothing."""
    rich = pickpockets(rules, coins=3)
    rich.apply(sw.Conquer(19))  # next to the Crowd's Swamp 20
    deploy_all_and_end(rich)
    assert rich.coins(1) == 2
    poor = pickpockets(rules, coins=2)
    poor.apply(sw.Conquer(19))
    deploy_all_and_end(poor)
    assert poor.coins(1) == 2


def test_a_player_condition_reads_that_players_coins(rules: sw.Rules) -> None:
    """A `target player` condition reads the target player's coins: with 6 coins the
    opponent may be fleeced, with 5 he may not (once read as 0 for every player)."""
    game = pickpockets(rules, coins=6)
    assert sw.UseAbility("fleece", 1) in game.legal_actions()
    game.apply(sw.UseAbility("fleece", 1))
    assert game.coins(1) == 4
    other = pickpockets(rules, coins=5)
    assert sw.UseAbility("fleece", 1) not in other.legal_actions()
    with pytest.raises(sw.IllegalAction, match="its conditions fail"):
        other.apply(sw.UseAbility("fleece", 1))


def test_tokens_predicate_misuse_is_refused_with_a_hint() -> None:
    """tokens OP N tests a region: in a `score` condition, or about a player, it is refused
    at its line and column with a hint."""
    (error,) = _errors(_race("score add 1 when tokens >= 3"))
    assert (error.line, error.column) == (5, 22)
    assert "tests a target region" in error.message and "count(own regions" in error.hint
    (error,) = _errors(_race(
        "on turn_end do opponents with tokens > 1 pay 1 coin"
    ))
    assert "the target is a player" in error.message


def test_neighbour_is_a_player_property_only() -> None:
    """neighbour describes a player: as a region property it is unknown, with a hint."""
    (error,) = _errors(_race("score add count(own regions with neighbour)"))
    assert "unknown property 'neighbour'" in error.message


@pytest.mark.parametrize("race", ["ratmen", "sorcerers", "ghouls", "bargainers"])
def test_pickpockets_play_random_games(rules: sw.Rules, race: str) -> None:
    """Random games with the tokens predicate and conditional payments: every invariant
    holds after every action."""
    play_pair_at_random(rules, race, "pickpockets", seed=11)


def hermits_game(rules: sw.Rules, power: str, declined: bool = False) -> sw.Game:
    """Player 0 picks Bargainers with ``power``; player 1's Hermits hold Forest 2 and Hill 4,
    one token each."""
    game = new_game(rules, [("bargainers", power), ("crowd", "plain2")])
    game.put(2, 1, 1, race="hermits", declined=declined)
    game.put(4, 1, 1, declined=declined)
    game.apply(sw.PickCombo(0))
    return game


def test_immune_to_powers_only_where_the_condition_holds(rules: sw.Rules) -> None:
    """immune to powers when PRED: the Hermits' Forest 2 costs 3 (2 + 1) whatever Commando
    says, their Hill 4 costs 2 (3 - 1 Commando); the bribe may aim at Hill 4 only."""
    game = hermits_game(rules, "commando")
    assert (game.conquest_cost(2), game.conquest_cost(4)) == (3, 2)
    assert 4 in uses(game, "bribe") and 2 not in uses(game, "bribe")
    costs = game._engine.conquest_costs(game._state, "bargainers", (1 << 2) | (1 << 4))
    assert costs == {2: 3, 4: 2} and list(costs) == [2, 4]  # lowest first, as ever
    game.apply(sw.Conquer(2))  # still conquered as usual
    assert game.region(2).race == "bargainers"


def test_immune_to_powers_follows_its_status(rules: sw.Rules) -> None:
    """immune to powers (edge): `while active` is the default, so the declined Hermits' Forest
    is costed with the conqueror's powers again (3 - 1 Commando)."""
    game = hermits_game(rules, "commando", declined=True)
    assert game.conquest_cost(2) == 2


def test_immune_to_powers_misuse_is_refused() -> None:
    """immune to powers takes a condition on the region: an unknown terrain there is
    refused with a hint."""
    (error,) = _errors(_race("immune to powers when terrain forrest"))
    assert error.label == "unknown-terrain" and "forest" in error.hint


def slingers(rules: sw.Rules) -> sw.Game:
    """Player 0's Slingers Ratmen, entered at Farmland 1."""
    game = new_game(rules, [("ratmen", "slingers"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    return game


def test_distance_is_exactly_n_borders_away(rules: sw.Rules) -> None:
    """distance N to SET: the regions exactly N borders from the set's nearest region:
    Hill 4, Farmland 9 and Forest 13 are 3 from Farmland 1; no region at 1 or 2 is."""
    game = slingers(rules)
    targets = set(uses(game, "sling"))
    one = set(game.map.regions[1].adjacent)
    two = {n for r in one for n in game.map.regions[r].adjacent} - one - {1}
    assert targets and not targets & (one | two | {1})
    assert {4, 9, 13} <= targets


def test_conquer_less_takes_a_far_region_at_a_discount(rules: sw.Rules) -> None:
    """conquer less N: the sling conquers Forest 13 (2 + 1 Lost Tribe), 3 away, for 3 - 2 =
    1 token, clamped at 1; a Conquer of it is not even legal."""
    game = slingers(rules)
    assert sw.Conquer(13) not in game.legal_actions()
    hand = game.hand(0)
    game.apply(sw.UseAbility("sling", 13))
    assert game.region(13).race == "ratmen" and game.hand(0) == hand - 1


def test_conquer_less_never_reaches_what_a_conquest_may_not(rules: sw.Rules) -> None:
    """conquer less N (edge): a region 3 away that no conquest may take (the Lake; an
    immune region) is refused with the reason, and nothing changes."""
    game = new_game(rules, [("ratmen", "slingers"), ("crowd", "plain2")])
    game.put(9, 1, 1, race="crowd", pieces={"dragon": 1})  # the Dragon makes it immune
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    far = set(uses(game, "sling"))
    assert 7 not in far and 9 not in far and 4 in far  # the Lake: water
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.UseAbility("sling", 9))
    assert game.to_json() == before


def test_distance_misuse_is_refused() -> None:
    """distance N: N is from 1 to 3, or the file is refused with a hint."""
    (error,) = _errors(_race("score add count(all regions with distance 4 to own regions)"))
    assert error.label == "bad-reach" and "1 <= N <= 3" in error.hint


def test_conquer_less_and_distance_round_trip_through_the_formatter() -> None:
    """fmt writes `conquer less N` and `distance N to …` back as they were read."""
    from smallworld_rules.dsl.formatter import format_source

    for name in ("slingers", "hermits", "pickpockets"):
        text = (COST_RULES / f"{name}.swr").read_text()
        assert format_source(text) == text


@pytest.mark.parametrize("race", ["ratmen", "tritons", "hermits"])
def test_slingers_play_random_games(rules: sw.Rules, race: str) -> None:
    """Random games with far conquests: every invariant holds after every action."""
    play_pair_at_random(rules, race, "slingers", seed=5)


def test_loot_pays_the_conqueror_per_piece(tmp_path: Path) -> None:
    """loot N: conquering a region with 2 pieces of `loot 2` gives the conqueror 4 coins
    from the bank; the pieces go back to their supply."""
    (tmp_path / "misers.swr").write_text(
        'race misers "Misers" {\n    tokens 5\n    box 10\n    text "Chests."\n'
        "    piece chest supply 3 { loot 2 }\n}\n"
    )
    rules = sw.load_rules(paths=[tmp_path, TEST_RULES])
    game = new_game(rules, [("crowd", "plain"), ("misers", "plain2")])
    game.put(4, 1, 1, race="misers", pieces={"chest": 2})
    game.apply(sw.PickCombo(0))
    coins = game.coins(0)
    game.apply(sw.Conquer(4))
    assert game.coins(0) == coins + 4
    assert not game.region(4).pieces


def test_loot_needs_a_number() -> None:
    """loot N takes a number: a bare `loot` is refused with a hint."""
    (error,) = _errors(_race("piece chest supply 3 { loot }"))
    assert error.label == "missing-property-value" and "loot 1" in error.hint


def test_a_comparison_may_start_with_a_parenthesis() -> None:
    """A comparison's left side may start with a parenthesis (once refused): `(count(own
    regions) + 1) / 2 > 3` parses as that comparison, nested groups too, and fmt keeps it
    as written."""
    from smallworld_rules.dsl import ast
    from smallworld_rules.dsl.formatter import format_source

    source = _race("score add 1 when (count(own regions) + 1) / 2 > 3 and (first_turn)")
    assert _errors(source) == []
    modifier = parse(source).statements[-1]
    assert isinstance(modifier, ast.Modifier) and isinstance(modifier.condition, ast.And)
    compare = modifier.condition.left
    assert isinstance(compare, ast.Compare) and compare.op == ">"
    assert isinstance(compare.left, ast.BinOp) and compare.left.op == "/"
    assert isinstance(modifier.condition.right, ast.Property)
    assert "(count(own regions) + 1) / 2 > 3" in format_source(source)
    assert _errors(_race("conquest_cost sub 1 when ((count(coins) * 2) > 3) or not (lone)")) == []


def test_a_parenthesised_comparison_reads_its_values(tmp_path: Path) -> None:
    """A comparison with a parenthesised left side is worked out in play: 5 coins give
    (5 + 1) / 2 = 3 >= 3, so the race scores 1 more."""
    (tmp_path / "thrifty.swr").write_text(
        'race thrifty "Thrifty" {\n    tokens 5\n    box 10\n    text "Thrift."\n'
        "    score add 1 when (count(coins) + 1) / 2 >= 3\n}\n"
    )
    rules = sw.load_rules(paths=[tmp_path, TEST_RULES])
    game = new_game(rules, [("thrifty", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    coins = game.coins(0)
    deploy_all_and_end(game)
    assert game.coins(0) == coins + 1 + 1


def test_a_number_alone_is_not_a_condition() -> None:
    """A number where a condition belongs is refused at its column with a hint, and so is
    a condition in parentheses used as a number; `option NAME` alone stays a condition."""
    with pytest.raises(RuleFileError) as caught:
        parse(_race("score add 1 when count(own regions)"))
    assert (caught.value.label, caught.value.line, caught.value.column) == (
        "not-a-condition", 5, 22
    )
    assert "compare it" in caught.value.hint
    with pytest.raises(RuleFileError) as caught:
        parse(_race("score add 1 when not (count(coins) + 1)"))
    assert caught.value.label == "not-a-condition"
    with pytest.raises(RuleFileError) as caught:
        parse(_race("score add 1 when (first_turn) * 2 > 1"))
    assert caught.value.label == "not-a-number"
    from smallworld_rules.dsl import ast

    flag = parse(_race('option bold default true "m"', "flag enter_water when option bold"))
    assert isinstance(flag.statements[-1], ast.Flag)
    assert isinstance(flag.statements[-1].condition, ast.OptionIs)


def test_fast_costs_agree_with_the_breakdowns(rules: sw.Rules) -> None:
    """The costs legal_actions works out (conquest_costs, one int per region) are the
    breakdowns' values on the positions of random games with discounts waiting, regions
    immune to powers and per-region floors in play."""
    import random

    from smallworld_rules.state import Phase

    checked = discounted = 0
    for seed in range(12):
        combos = [("bargainers", "commando"), ("hermits", "slingers"), ("ratmen", "berserk")]
        game = new_game(rules, combos[seed % 3:] + combos[: seed % 3], players=3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            engine, state = game._engine, game._state
            if state.phase is Phase.CONQUEST:
                discounted += bool(state.lang and state.lang.get("discounts"))
                for race in state.races:
                    fast = engine.conquest_costs(state, race, engine.map.all_mask)
                    assert list(fast) == sorted(fast)
                    for region, cost in fast.items():
                        assert cost == engine.conquest_cost(state, race, region).value
                        checked += 1
            actions = list(game.legal_actions())
            game.apply(actions[rng.randrange(len(actions))])
    assert checked > 1000 and discounted > 0
