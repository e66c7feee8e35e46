"""Random games with the rule files of tests/rules_v3/, which use every construct of version 3
of the rule language: every invariant of the game holds after every action, saves round-trip,
and seeded games are deterministic."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules.events import GameOver, TurnEnded
from smallworld_rules.state import _plain as memory_plain
from smallworld_rules.state import state_to_dict

V3 = Path(__file__).parent / "rules_v3"
V3_IDS = ("tollkeepers", "diceborn", "wardens", "chroniclers", "scavengers", "omens", "nothing")


@pytest.fixture(scope="module")
def v3_rules() -> sw.Rules:
    return sw.load_rules(paths=[V3])


def _snapshot(game: sw.Game) -> str:
    state = game._state
    return json.dumps([state_to_dict(state), memory_plain(state.lang)], sort_keys=True)


def _play(
    rules: sw.Rules, seed: int, players: int, chance: str, untouched: bool = False,
    saves: bool = False,
) -> sw.Game:
    races = ["tollkeepers", "diceborn", "wardens", "giants"]
    powers = ["chroniclers", "scavengers", "omens", "nothing"]
    rng = random.Random(seed)
    rng.shuffle(races)
    rng.shuffle(powers)
    game = sw.Game.new(
        players=players, seed=seed, rules=rules, combos=list(zip(races, powers, strict=True)),
        chance=chance,
    )
    engine = game._engine
    while not game.is_over:
        previous, before = game._state, _snapshot(game) if untouched else ""
        if game.to_move is sw.CHANCE:
            outcomes = game.chance_outcomes()
            game.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
        engine.check_invariants(game._state)
        if saves and len(game.log) % 5 == 0:  # a save mid-game loads back the same
            text = game.to_json()
            assert sw.Game.from_json(text, rules=rules).to_json() == text
        if untouched:  # copy on write: the state before the action is left as it was
            now, game._state = game._state, previous
            assert _snapshot(game) == before
            game._state = now
        assert all(game.coins(p) >= 0 for p in range(players))  # coins never go below 0
        if game.log and isinstance(game.log[-1], TurnEnded | GameOver):
            # region_tokens max 3: after its redeployment no region holds more
            held = [game.region(r).tokens for r in range(len(game.map.regions))
                    if game.region(r).race == "diceborn"]
            assert all(t <= 3 for t in held), held
    return game


def test_the_folder_uses_every_construct_of_version_3() -> None:
    """The rule files of tests/rules_v3 use every event, every effect and every value of the
    moment of version 3 (so the random games below play them all)."""
    from smallworld_rules.dsl import ast, vocabulary
    from smallworld_rules.dsl.parser import parse_file

    trees = [parse_file(p) for p in sorted(V3.glob("*.swr"))]
    assert {t.id for t in trees} == set(V3_IDS)
    text = "\n".join(p.read_text() for p in sorted(V3.glob("*.swr")))
    events = {st.event for t in trees for st in t.statements if isinstance(st, ast.Trigger)}
    assert events >= set(vocabulary.EVENTS)
    # The effects of tests/rules_market (piles, marks) are played by test_lang_market.
    market = [parse_file(p) for p in sorted(V3.parent.joinpath("rules_market").glob("*.swr"))]
    verbs = {e.verb for t in trees + market for st in t.statements
             if isinstance(st, ast.Trigger) for e in st.effects}
    verbs |= {e.verb for t in trees + market for st in t.statements
              if isinstance(st, ast.Ability) for e in st.effects}
    assert verbs >= set(vocabulary.TRIGGER_EFFECTS)
    statements = {type(st).__name__ for t in trees for st in t.statements}
    assert statements >= {"Immune", "Reach", "RegionTokens", "CounterDecl", "SkipCoins",
                          "OwnTokens", "Link"}
    for words in ("round", "rounds_left", "die", "count(coins)", "count(declined races)",
                  "count(tokens lost)", "count(tokens in target)", "count(coins taken)",
                  "count(tokens in conquests)", "counter ", "min(", "max(", "price ",
                  "defender pays", "conqueror pays", "opponents pay", "give ", "remove ",
                  "region_tokens min", "region_tokens max", "in_decline", "lost_tribe",
                  "enemy_active", "non_empty"):
        assert words in text, words


def test_random_games_keep_every_invariant(v3_rules: sw.Rules) -> None:
    """Hundreds of random games with the v3 rule files: the game's invariants (tokens,
    pieces and coins add up, no negative coins) hold after every action."""
    start = time.monotonic()
    played = 0
    for seed in range(300):
        _play(v3_rules, seed, 2 + seed % 4, "explicit" if seed % 3 == 0 else "seeded")
        played += 1
        if time.monotonic() - start > 25:  # bounded time in CI
            break
    assert played >= 100


def test_v3_actions_leave_the_previous_state_unchanged(v3_rules: sw.Rules) -> None:
    """Copy on write holds for the state the v3 constructs keep (``State.lang``): applying
    an action never changes the state it was applied to."""
    for seed in range(6):
        _play(v3_rules, seed, 2 + seed % 3, "explicit" if seed % 2 else "seeded", untouched=True)


def test_v3_saves_mid_game_load_back(v3_rules: sw.Rules) -> None:
    """A save made at any point of a v3 game (facts of conquests, counters, rolls waiting
    for their chance node …) loads back to the same game."""
    for seed in range(4):
        _play(v3_rules, seed, 2 + seed % 2, "explicit" if seed % 2 else "seeded", saves=True)


def test_v3_games_are_deterministic_and_saves_round_trip(v3_rules: sw.Rules) -> None:
    """The same seed plays the same game; a save made mid-game loads back equal."""
    for seed in range(5):
        a = _play(v3_rules, seed, 3, "seeded")
        b = _play(v3_rules, seed, 3, "seeded")
        assert a.to_json() == b.to_json()
        assert sw.Game.from_json(a.to_json(), rules=v3_rules).to_json() == a.to_json()
