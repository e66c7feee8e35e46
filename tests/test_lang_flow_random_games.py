"""Random games with the rule files of tests/rules_flow/, which use every construct of the
turn's flow, decline and adjacency (docs/rule-language.md): every invariant of the game holds
after every action, every listed action applies, saves round-trip."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from helpers import check_invariants, every_listed_action_applies

import smallworld_rules as sw

FLOW = Path(__file__).parent / "rules_flow"
RACES = ("rovers", "cloisters", "idolaters", "ghouls", "ratmen", "amazons")
POWERS = ("lingering_flow", "fading", "herders", "phoenixes", "ravaging", "underworld")


@pytest.fixture(scope="module")
def flow_rules() -> sw.Rules:
    return sw.load_rules(paths=[FLOW])


def _play(rules: sw.Rules, seed: int, players: int) -> sw.Game:
    races, powers = list(RACES), list(POWERS)
    rng = random.Random(seed)
    rng.shuffle(races)
    rng.shuffle(powers)
    game = sw.Game.new(players=players, seed=seed, rules=rules,
                       combos=list(zip(races, powers, strict=True)))
    step = 0
    while not game.is_over:
        assert step < 5000, "the random game does not end"
        actions = list(game.legal_actions())
        assert actions, f"step {step}: no legal action in phase {game.phase}"
        if step % 7 == 0:
            every_listed_action_applies(game, step)
            text = game.to_json()
            assert sw.Game.from_json(text, rules=rules).to_json() == text
        game.apply(actions[rng.randrange(len(actions))])
        game._engine.check_invariants(game._state)
        check_invariants(game, rules, step)
        step += 1
    return game


def test_the_folder_uses_every_construct_of_the_flow() -> None:
    """The rule files of tests/rules_flow use every construct of this part of the language
    (so the random games below play them all)."""
    text = "\n".join(p.read_text() for p in sorted(FLOW.glob("*.swr")))
    for words in ("count(groups in", "conquest_adjacent_to", "no_redeployment",
                  "no_return_to_abandoned", "vanishes_in_decline", "redeploys_before_decline",
                  "during decline", "gather", "while declined", "hand_over",
                  "second_conquest_round"):
        assert words in text, words


def test_random_games_keep_every_invariant(flow_rules: sw.Rules) -> None:
    """Random games with the flow rule files, 2 to 5 players: the invariants (tokens,
    pieces and coins add up, no negative coins) hold after every action, every listed action
    applies, and a save loads back the same."""
    start = time.monotonic()
    played = 0
    for seed in range(200):
        game = _play(flow_rules, seed, 2 + seed % 4)
        assert game.winners
        played += 1
        if time.monotonic() - start > 20:  # bounded time in CI
            break
    assert played >= 20
