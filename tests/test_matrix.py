"""The full race × power matrix (issues 3 and 4): each of the 14 × 20 = 280 race/power pairs
plays a seeded random full 2-player game through ``legal_actions``/``apply``.

Player 0 picks the pair from the top of the market (the rest of the market is the seeded random
shuffle); every later action is chosen uniformly among the legal ones with
``random.Random(seed)``. After every action: each held region has ≥ 1 token (rule 1.10), tokens are
conserved per race (box + hand + held + map == the race's box maximum, rule 1.1), and coins are
never negative (rule 1.11). Every ``CLONE_EVERY``-th step, each listed legal action is applied to a
clone and must not raise (``legal_actions`` lists only legal actions).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import smallworld_rules as sw
from smallworld_rules.events import ComboPicked

OFFICIAL = sw.load_rules()
RACES = sorted(OFFICIAL.races)
POWERS = sorted(OFFICIAL.powers)
PAIRS = [(race, power) for race in RACES for power in POWERS]
CLONE_EVERY = 5
MAX_ACTIONS = 5000  # a random 2-player game takes a few hundred actions


def test_the_matrix_is_complete() -> None:
    """Issues 3 and 4: 14 races × 20 powers = 280 pairs, each listed once."""
    assert (len(RACES), len(POWERS), len(set(PAIRS))) == (14, 20, 280)


def _check(game: sw.Game, step: int) -> None:
    state: dict[str, Any] = json.loads(game.to_json())["state"]
    on_map: dict[str, int] = {}
    for r, (race, tokens) in enumerate(
        zip(state["region_race"], state["region_tokens"], strict=True)
    ):
        if race is not None:
            assert tokens >= 1, f"step {step}: region {r} is held by {race} without a token"
            on_map[race] = on_map.get(race, 0) + tokens
    races = state["races"]
    for race, rule in OFFICIAL.races.items():
        in_play = races.get(race, {})
        total = (
            state["box"][race]
            + in_play.get("hand", 0)
            + in_play.get("held", 0)
            + on_map.get(race, 0)
        )
        assert total == rule.box, f"step {step}: {race} has {total} tokens, the box {rule.box}"
        assert state["box"][race] >= 0
    for p in range(game.players):
        assert game.coins(p) >= 0, f"step {step}: player {p} has negative coins"


def _every_listed_action_applies(game: sw.Game, step: int) -> None:
    for action in game.legal_actions():
        twin = game.clone()
        try:
            twin.apply(action)
        except sw.IllegalAction as exc:  # pragma: no cover - a failure message
            pytest.fail(f"step {step}: listed action {action!r} refused: {exc}")


@pytest.mark.parametrize(("race", "power"), PAIRS, ids=[f"{race}-{power}" for race, power in PAIRS])
def test_pair_plays_a_random_full_game(race: str, power: str) -> None:
    """Issues 3 and 4 (matrix): the pair plays a whole seeded random 2-player game; the
    invariants of rule 1.1, rule 1.10 and rule 1.11 hold after every action."""
    seed = PAIRS.index((race, power))
    game = sw.Game.new(players=2, seed=seed, rules=OFFICIAL, combos=[(race, power)])
    assert game.market[0][:2] == (race, power)
    rng = random.Random(seed)
    game.apply(sw.PickCombo(0))
    assert (game.active_race(0), game.active_power(0)) == (race, power)
    step = 1
    _check(game, step)
    while not game.is_over:
        assert step < MAX_ACTIONS, "the random game does not end"
        actions = list(game.legal_actions())
        assert actions, f"step {step}: no legal action in phase {game.phase}"
        if step % CLONE_EVERY == 0:
            _every_listed_action_applies(game, step)
        game.apply(rng.choice(actions))
        step += 1
        _check(game, step)
    picks = [e for e in game.log if isinstance(e, ComboPicked)]
    assert (picks[0].player, picks[0].race, picks[0].power) == (0, race, power)
    assert game.winners and game.to_move is None
