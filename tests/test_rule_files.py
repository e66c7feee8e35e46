"""The shipped rule files: each parses, and each of the six first files does what its race or
power says (rule 2 and rule 3), through the hook it proves."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import both_enter, deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.dsl import check, parse_file
from smallworld_rules.events import Conquered, Scored
from smallworld_rules.rules import rules_root

SHIPPED = sorted(
    p for folder in ("races", "powers", "expansions") for p in (rules_root() / folder).glob("*.swr")
)


def line_of(path: str, needle: str) -> int:
    """The line of a rule file holding ``needle`` (so tests don't hard-code line numbers)."""
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_rule_file_parses(path: Path) -> None:
    """Every file under races/, powers/, expansions/ parses and passes the semantic pass, its
    id is its file stem, and it carries its printed rules text."""
    tree = parse_file(str(path))
    expansions = [tree.id] if tree.kind == "expansion" else []
    rules = sw.load_rules(expansions=expansions)
    assert check(tree, path.read_text(), rules.pieces, rules.options) == []
    assert tree.id == path.stem
    rule = rules.get(tree.id)
    assert rule.text and (rule.tokens > 0 or rule.kind == "expansion")


def test_official_numbers() -> None:
    """Rules 2/3 tables: tokens and box maximums of the files written so far."""
    rules = sw.load_rules()
    races = {r: (d.tokens, d.box) for r, d in rules.races.items()}
    powers = {p: d.tokens for p, d in rules.powers.items()}
    expected_races = {"ratmen": (8, 13), "elves": (6, 11), "giants": (6, 11)}
    expected_powers = {"commando": 4, "forest": 4, "wealthy": 4}
    assert {r: races[r] for r in expected_races} == expected_races
    assert {p: powers[p] for p in expected_powers} == expected_powers


# ---------------------------------------------------------------- Ratmen


def test_ratmen_have_no_ability(rules: sw.Rules) -> None:
    """Rule 2 Ratmen: no racial power: no modifier, no flag, no piece; plain costs and scores."""
    ratmen = rules.races["ratmen"]
    assert not any(ratmen.modifiers.values()) and not ratmen.flags and not ratmen.pieces
    game = new_game(rules, [("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8
    assert [c.path for c in game.explain_conquest_cost(3).contributions] == ["<core>"]
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 1


# ---------------------------------------------------------------- Elves (losses hook)


def test_elves_keep_all_tokens_when_conquered_while_active(rules: sw.Rules) -> None:
    """Rule 2 Elves: an active Elf region conquered: the owner keeps every token (losses 0)."""
    game = new_game(rules, [("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(4, 1, 3, race="elves")
    game.put(17, 1, 1)
    box = saved_state(game)["box"]["elves"]
    game.apply(sw.Conquer(4))
    event = [e for e in game.log if isinstance(e, Conquered)][-1]
    assert (event.lost, event.returned) == (0, 3)
    assert saved_state(game)["box"]["elves"] == box
    deploy_all_and_end(game)
    game.apply(sw.Deploy(17, 3))
    assert game.region(17).tokens + game.hand(1) == 4


def test_declined_elves_lose_a_token_normally(rules: sw.Rules) -> None:
    """Rule 2 Elves (active only): declined Elves lose one token like any race (ruling 7)."""
    game = new_game(rules, [("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(4, 1, 1, declined=True, race="elves")
    game.apply(sw.Conquer(4))
    event = [e for e in game.log if isinstance(e, Conquered)][-1]
    assert (event.lost, event.returned) == (1, 0)


# ---------------------------------------------------------------- Giants (conditional cost)


def test_giants_discount_next_to_a_mountain_they_hold(rules: sw.Rules) -> None:
    """Rule 2 Giants / ruling 24: −1 to conquer a region adjacent to a Mountain the Giants occupy;
    the Breakdown names giants.swr and its line."""
    game = new_game(rules, [("giants", "plain")])
    game.apply(sw.PickCombo(0))
    assert game.conquest_cost(1) == 2  # no Mountain held yet
    game.apply(sw.Conquer(5))  # the Mountain itself: 2 + 1
    b = game.explain_conquest_cost(1)
    assert b.value == 1
    giants = next(c for c in b.contributions if c.path.endswith("giants.swr"))
    assert (giants.op, giants.amount, giants.label) == ("sub", 1, "Giants")
    assert giants.line == line_of(giants.path, "conquest_cost")
    assert game.conquest_cost(6) == 2  # a Lost Tribe next to the Mountain: 3 − 1


def test_giants_no_discount_from_a_mountain_held_by_others(rules: sw.Rules) -> None:
    """Ruling 24: the Mountain must be occupied by a Giant, not merely nearby."""
    game = new_game(rules, [("giants", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(8, 1, 1, race="ratmen")  # the Mountain next to 2 and 3 belongs to someone else
    game.apply(sw.Conquer(2))
    assert game.conquest_cost(3) == 3  # Lost Tribe: 2 + 1, no discount
    contributions = game.explain_conquest_cost(3).contributions
    assert all(not c.path.endswith("giants.swr") for c in contributions)


def test_giants_and_commando_clamp_once_at_one(rules: sw.Rules) -> None:
    """Rule 1.7: discounts are cumulative and the cost clamps once at 1 (2 − 1 − 1 → 1)."""
    game = new_game(rules, [("giants", "commando")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(5))
    b = game.explain_conquest_cost(1)
    assert (b.value, b.base, b.clamped_from) == (1, 2, 0)
    assert sorted(Path(c.path).name for c in b.contributions) == ["commando.swr", "giants.swr"]


# ---------------------------------------------------------------- Commando (flat cost)


def test_commando_costs_one_less_everywhere(rules: sw.Rules) -> None:
    """Rule 3 Commando: −1 on any conquest, minimum 1 (an empty region costs 1, a Lost Tribe 2)."""
    game = new_game(rules, [("ratmen", "commando")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 12
    assert (game.conquest_cost(1), game.conquest_cost(3), game.conquest_cost(5)) == (1, 2, 2)
    b = game.explain_conquest_cost(1)
    assert b.clamped_from is None
    commando = b.contributions[-1]
    assert Path(commando.path).name == "commando.swr"
    assert commando.line == line_of(commando.path, "conquest_cost")


def test_commando_does_not_apply_to_the_opponent(rules: sw.Rules) -> None:
    """Rule 3: a power works for its own race only: the other player pays full price."""
    game = new_game(rules, [("ratmen", "commando"), ("giants", "plain")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    assert game.active_race(1) == "giants" and game.conquest_cost(19) == 3


# ---------------------------------------------------------------- Forest (score by terrain)


def test_forest_scores_forest_regions_while_active(rules: sw.Rules) -> None:
    """Rule 3 Forest: +1 coin per Forest region occupied at the end of the turn."""
    game = new_game(rules, [("ratmen", "forest")])
    game.apply(sw.PickCombo(0))  # 8 + 4
    for region in (2, 1, 6, 12):  # Forest, Farmland, Hill, Forest
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    scored = [e for e in game.log if isinstance(e, Scored)][-1]
    assert scored.coins == 4 + 2
    assert game.coins(0) == 5 + 6


def test_forest_gives_nothing_in_decline(rules: sw.Rules) -> None:
    """Rule 3 Forest is lost in decline: the decline turn scores regions only (ruling 16)."""
    game = new_game(rules, [("ratmen", "forest"), ("giants", "plain")])
    both_enter(game, 2, 19)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.coins(0) == coins + 1


# ---------------------------------------------------------------- Wealthy (first turn)


def test_wealthy_pays_seven_once_ruling_36(rules: sw.Rules) -> None:
    """Rule 3 Wealthy / ruling 36: +7 at the end of the race's first turn, and never again."""
    game = new_game(rules, [("ratmen", "wealthy"), ("giants", "plain")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 1 + 7
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 0's second turn
    assert game.coins(0) == 5 + 1 + 7 + 1
