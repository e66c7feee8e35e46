"""Tournament throughput: games per second with 1, 2 and 4 workers, local and Ray backends.

    python -m benchmarks.tournament_scaling [--games 48] [--bots greedy,random] [--json]

Each row is one whole ``tournament.run`` (a fresh local process pool, which forks with the
rules already loaded; or a Ray of ``K`` CPUs started beforehand and warmed up by one game per
worker, its start-up time reported apart). The figures depend on the machine and on whatever
else runs on it; nothing here is a threshold. Ray rows are skipped when Ray is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from smallworld_rules import tournament

WORKERS = (1, 2, 4)


def _timed(bots: list[str], games: int, **kwargs: Any) -> tuple[float, tournament.Tournament]:
    start = time.perf_counter()
    result = tournament.run(bots, games=games, seed=1000, **kwargs)
    return time.perf_counter() - start, result


def measure(games: int, bots: list[str]) -> list[dict[str, Any]]:
    """One row per backend and worker count: seconds, games/s, and the Ray start-up."""
    rows: list[dict[str, Any]] = []
    reference = None
    for workers in WORKERS:
        seconds, result = _timed(bots, games, workers=workers)
        reference = reference or result.games
        assert result.games == reference  # the same games, whatever runs them
        rows.append({"backend": "local", "workers": workers, "seconds": seconds,
                     "games_per_second": games / seconds})
    try:
        import ray
    except ImportError:
        return rows
    for workers in WORKERS:
        start = time.perf_counter()
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        tournament.run(bots, games=workers, seed=0, backend="ray")  # starts the workers
        startup = time.perf_counter() - start
        try:
            seconds, result = _timed(bots, games, backend="ray")
        finally:
            ray.shutdown()
        assert result.games == reference
        rows.append({"backend": "ray", "workers": workers, "seconds": seconds,
                     "games_per_second": games / seconds, "startup_seconds": startup})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tournament_scaling")
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = measure(args.games, args.bots.split(","))
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{args.games} games of {args.bots} on {os.cpu_count()} CPUs")
    print(f"{'backend':<8} {'workers':>7} {'seconds':>8} {'games/s':>8}  start-up")
    for row in rows:
        startup = f"{row['startup_seconds']:.1f} s" if "startup_seconds" in row else ""
        print(f"{row['backend']:<8} {row['workers']:>7} {row['seconds']:>8.2f} "
              f"{row['games_per_second']:>8.1f}  {startup}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
