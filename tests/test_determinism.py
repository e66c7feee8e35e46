"""Determinism: the same seed and the same actions give the same game, byte for byte.

What each property guards ("All randomness comes from the game's seeded generator:
same seed + same actions → same game", the invariants on saving):

* ``test_same_seed_same_actions_same_game``: a game played with random legal actions, replayed
  from ``Game.new`` with the same arguments, gives a byte-identical ``to_json`` and an identical
  log (each event's ``to_dict()`` and ``repr``) at every checkpoint and at the end — also when
  replayed from the saved initial position (``from_json``), on a ``clone()`` taken half-way,
  and while another game is played in between and Python's global ``random`` is reseeded
  (no hidden shared or global state). In seeded mode the reinforcement die comes from the
  game's own generator, so it replays too.
* ``test_same_game_in_other_processes``: the same games played in fresh interpreters with other
  ``PYTHONHASHSEED`` values (other set and dict orders of strings) give the same ``to_json``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from helpers import budget, player_range
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import smallworld_rules as sw
from smallworld_rules.maps import MAP_NAMES

TEST_RULES = Path(__file__).parent / "rules"
ROOT = Path(__file__).resolve().parent.parent
EXPANSION = "necromancer_island"

BUDGETS: dict[str, dict[str, int]] = {
    "dev": {"replays": 5},
    "ci": {"replays": 25},
    "thorough": {"replays": 500},
}




_SETS: dict[str, sw.Rules] = {}


def rule_sets() -> dict[str, sw.Rules]:
    """Official rules, with tests/rules, and with the expansion once it exists."""
    if not _SETS:
        _SETS["official"] = sw.load_rules()
        _SETS["with_test_rules"] = sw.load_rules(paths=[TEST_RULES])
        try:
            _SETS["expansion"] = sw.load_rules(expansions=[EXPANSION], paths=[TEST_RULES])
        except sw.RuleFileError:
            raise
        except sw.RulesError as exc:
            if "unknown expansion" not in str(exc):
                raise
    return _SETS


def random_action(game: sw.Game, rng: random.Random) -> sw.Action:
    if game.to_move == sw.CHANCE:
        outcomes = game.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(list(game.legal_actions()))


def fingerprint(game: sw.Game) -> tuple[str, list[dict[str, Any]], str]:
    """Everything that must be identical: the saved game and the log (as data and as text)."""
    return game.to_json(), [e.to_dict() for e in game.log], repr(game.log)


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    sets = rule_sets()
    name = draw(st.sampled_from(sorted(sets)))
    rules = sets[name]
    config: dict[str, Any] = {
        "rules": rules,
        "players": draw(st.integers(*player_range(rules))),
        "seed": draw(st.integers(-(2**70), 2**70)),
        "chance": draw(st.sampled_from(["seeded", "explicit"])),
    }
    if draw(st.booleans()):
        config["map"] = draw(st.sampled_from(MAP_NAMES))
    if draw(st.booleans()):
        races = draw(st.permutations(sorted(rules.races)))
        powers = draw(st.permutations(sorted(rules.powers)))
        size = draw(st.integers(0, min(len(races), len(powers))))
        config["combos"] = list(zip(races[:size], powers[:size], strict=True))
    return config


@settings(max_examples=budget(BUDGETS, "replays"), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), play_seed=st.integers(0, 2**32), limit=st.integers(0, 400))
def test_same_seed_same_actions_same_game(
    config: dict[str, Any], play_seed: int, limit: int
) -> None:
    """Same seed + same actions → byte-identical to_json and log, however replayed."""
    game = sw.Game.new(**config)
    initial = game.to_json()
    rng = random.Random(play_seed)
    actions: list[sw.Action] = []
    checkpoints: dict[int, tuple[str, list[dict[str, Any]], str]] = {0: fingerprint(game)}
    half: sw.Game | None = None
    while not game.is_over and len(actions) < limit:
        action = random_action(game, rng)
        game.apply(action)
        actions.append(action)
        if len(actions) % 20 == 0:
            checkpoints[len(actions)] = fingerprint(game)
        if len(actions) == limit // 2:
            half = game.clone()
    final = fingerprint(game)

    # 1. From Game.new again, with another game played in between and `random` reseeded.
    replay = sw.Game.new(**config)
    other = sw.Game.new(**{**config, "seed": config["seed"] + 1})
    other_rng = random.Random(play_seed + 1)
    for i, action in enumerate(actions):
        if i in checkpoints:
            assert fingerprint(replay) == checkpoints[i], f"replay differs after {i} actions"
        random.seed(i)
        if not other.is_over:
            other.apply(random_action(other, other_rng))
        replay.apply(action)
    assert fingerprint(replay) == final

    # 2. From the saved initial position.
    restored = sw.Game.from_json(initial, rules=config["rules"])
    for action in actions:
        restored.apply(action)
    assert fingerprint(restored) == final

    # 3. On a clone taken half-way.
    if half is not None:
        for action in actions[limit // 2 :]:
            half.apply(action)
        assert fingerprint(half) == final


SCRIPT = textwrap.dedent(
    """
    import hashlib, json, random, sys
    import smallworld_rules as sw
    rules = sw.load_rules(paths=[sys.argv[1]])
    out = []
    for players, seed, chance in json.loads(sys.argv[2]):
        game = sw.Game.new(players=players, seed=seed, rules=rules, chance=chance)
        rng = random.Random(seed)
        while not game.is_over:
            if game.to_move == sw.CHANCE:
                outcomes = game.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(list(game.legal_actions()))
            game.apply(action)
        out.append(hashlib.sha256(game.to_json().encode()).hexdigest())
    print(json.dumps(out))
    """
)
GAMES = [(2, 11, "seeded"), (3, 12, "explicit"), (4, 13, "seeded"), (5, 14, "seeded")]


def test_same_game_in_other_processes() -> None:
    """Nothing depends on the interpreter: other PYTHONHASHSEEDs give the same games.

    All three runs are fresh interpreters, so they read the same source and rule files even
    while those are being edited.
    """
    results = []
    for hash_seed in ("0", "12345", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(TEST_RULES), json.dumps(GAMES)],
            capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False,
        )
        assert done.returncode == 0, done.stderr
        results.append(json.loads(done.stdout))
    assert results[0] == results[1] == results[2]
    assert len(set(results[0])) == len(GAMES)  # different games, really played
