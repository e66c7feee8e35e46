"""Random playouts per second and the cost of the hot calls.

Usage: ``python -m benchmarks [--games N] [--smoke]``. Prints a table; asserts nothing (speed
is measured here, never in a timed test).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

import smallworld_rules as sw


def play_random(rules: sw.Rules, players: int, seed: int) -> tuple[int, int]:
    """One seeded random game; returns (actions, total legal-set size)."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    actions = legal = 0
    while not game.is_over:
        options = list(game.legal_actions())
        legal += len(options)
        game.apply(options[rng.randrange(len(options))])
        actions += 1
    return actions, legal


def games_per_second(rules: sw.Rules, players: int, games: int) -> tuple[float, float, float]:
    start = time.perf_counter()
    actions = legal = 0
    for seed in range(games):
        a, size = play_random(rules, players, seed)
        actions += a
        legal += size
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games, legal / max(actions, 1)


def per_call_us(fn: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def mid_game(rules: sw.Rules) -> sw.Game:
    game = sw.Game.new(players=2, seed=5, rules=rules)
    rng = random.Random(5)
    while game.round < 5 and not game.is_over:
        options = list(game.legal_actions())
        game.apply(options[rng.randrange(len(options))])
    return game


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median is printed")
    parser.add_argument("--smoke", action="store_true", help="a few games, for CI")
    args = parser.parse_args()
    games, runs = (5, 1) if args.smoke else (args.games, args.runs)

    start = time.perf_counter()
    rules = sw.load_rules()
    load_ms = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    sw.load_rules()
    warm_ms = (time.perf_counter() - start) * 1e3

    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, Python {platform.python_version()}")
    print(f"rule files: {len(rules.races)} races, {len(rules.powers)} powers")
    print(f"load_rules: {load_ms:.1f} ms first call, {warm_ms:.1f} ms warm")
    for players in (2, 4):
        results = [games_per_second(rules, players, games) for _ in range(runs)]
        gps = statistics.median(r[0] for r in results)
        _, per_game, legal = results[0]
        print(
            f"{players} players: {gps:8.1f} games/s  {per_game:6.1f} actions/game  "
            f"{legal:5.1f} legal actions on average"
        )
    game = mid_game(rules)
    action = next(iter(game.legal_actions()))
    text = game.to_json()
    repeat = 50 if args.smoke else 2000
    rows = {
        "legal_actions (listed)": lambda: list(game.legal_actions()),
        "apply + undo": lambda: (game.apply(action), game.undo()),
        "clone": game.clone,
        "to_json": game.to_json,
        "from_json": lambda: sw.Game.from_json(text, rules=rules),
    }
    for name, fn in rows.items():
        print(f"{name:24s} {per_call_us(fn, repeat):9.1f} µs")


if __name__ == "__main__":
    main()
