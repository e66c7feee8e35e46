"""Tests of the pack: its rule files load next to the official ones, it is found through its
entry point, and its races and power play seeded full games against official races.

Run them after installing the pack (``pip install -e .`` then ``pytest``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from smallworld_pack_template import RULES

import smallworld_rules as sw
from smallworld_rules.events import ComboPicked

PACK = "template"
RACES = {"mossfolk": (5, 10), "cliffwardens": (6, 11)}
POWERS = {"tidebound": 4}


@pytest.fixture(scope="module")
def rules() -> sw.Rules:
    return sw.load_rules(packs=[PACK])


def test_the_pack_is_found_through_its_entry_point() -> None:
    packs = {pack.name: pack for pack in sw.available_packs()}
    assert packs[PACK].distribution == "smallworld-pack-template"
    assert packs[PACK].folder() == RULES


def test_the_rule_files_load_next_to_the_official_ones(rules: sw.Rules) -> None:
    assert rules.packs == (PACK,)
    assert {r: (rules.races[r].tokens, rules.races[r].box) for r in RACES} == RACES
    assert {p: rules.powers[p].tokens for p in POWERS} == POWERS
    assert "ratmen" in rules.races  # the official ones are still there
    for rule_id in [*RACES, *POWERS]:
        rule = rules.get(rule_id)
        assert Path(rule.path).is_relative_to(RULES) and rule.text


def test_names_and_aliases_find_the_races(rules: sw.Rules) -> None:
    assert sw.find_race("Cliff Wardens", rules).id == "cliffwardens"
    assert sw.find_race("moss-folk", rules).id == "mossfolk"
    assert sw.find_race("Moosvolk", rules).id == "mossfolk"
    assert rules.find_power("gezeitenvolk").id == "tidebound"


@pytest.mark.parametrize("discount", [1, 2])
def test_cliff_wardens_discount_is_a_game_option(rules: sw.Rules, discount: int) -> None:
    options = {} if discount == 1 else {"cliffwardens_discount": discount}
    game = sw.Game.new(
        players=2, seed=1, rules=rules, combos=[("cliffwardens", "commando")], options=options
    )
    game.apply(sw.PickCombo(0))
    high = [
        r for r in range(len(game.map.regions)) if game.region(r).terrain in ("hill", "mountain")
    ]
    assert high
    for region in high:
        wardens = [
            c
            for c in game.explain_conquest_cost(region).contributions
            if c.path.endswith("cliffwardens.swr")
        ]
        assert [(c.op, c.amount) for c in wardens] == [("sub", discount)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_full_game_against_official_races(rules: sw.Rules, seed: int) -> None:
    """Everyone takes the top combo when picking (so the pack's combos are played first),
    otherwise plays at random; the game ends with winners, and replays identically."""
    combos = [
        ("mossfolk", "tidebound"),
        ("cliffwardens", "commando"),
        ("ratmen", "forest"),
        ("giants", "wealthy"),
    ]

    def play() -> sw.Game:
        game = sw.Game.new(players=3, seed=seed, rules=rules, combos=combos)
        rng = random.Random(seed)
        while not game.is_over:
            actions = list(game.legal_actions())
            top = sw.PickCombo(0)
            game.apply(top if top in actions else rng.choice(actions))
        return game

    game = play()
    assert game.winners
    picked = {e.race for e in game.log if isinstance(e, ComboPicked)}
    assert {"mossfolk", "cliffwardens", "ratmen"} <= picked
    assert play().to_json() == game.to_json()
