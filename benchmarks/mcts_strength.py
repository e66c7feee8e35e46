"""How strong the search bot is: its win rate against ``greedy`` and ``random``.

Plays seeded two-player games on the official 2-player map, the search bot against each
opponent in turn, seats alternating (the search bot moves first in even games), and prints
each win rate with its 95% Wilson interval (a shared first place counts as a win), the mean
coins of both sides and the time taken. Not a test: nothing is asserted.

    python -m benchmarks.mcts_strength --games 200 --simulations 100
    python -m benchmarks.mcts_strength --games 4 --simulations 8   # a smoke run
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import smallworld_rules as sw
from smallworld_rules.bots import Bot, make_bot, play_game
from smallworld_rules.cli import wilson_interval
from smallworld_rules.mcts import SIMULATIONS, MCTSBot


def match(opponent: str, games: int, simulations: int, first_seed: int = 0) -> dict[str, float]:
    """Play ``games`` seeded games of the search bot against ``opponent``; the figures."""
    wins = 0
    mine: list[int] = []
    theirs: list[int] = []
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        search = MCTSBot(seed=seed, simulations=simulations)
        other = make_bot(opponent, seed=seed + 1_000_000)
        seat = seed % 2
        bots: Sequence[Bot] = [search, other] if seat == 0 else [other, search]
        game = play_game(sw.Game.new(players=2, seed=seed), bots, chance_seed=seed)
        wins += seat in game.winners
        mine.append(game.coins(seat))
        theirs.append(game.coins(1 - seat))
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "rate": wins / games,
        "low": low,
        "high": high,
        "coins": statistics.fmean(mine),
        "opponent_coins": statistics.fmean(theirs),
        "seconds": time.perf_counter() - start,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mcts_strength")
    parser.add_argument("--games", type=int, default=200, help="games per opponent")
    parser.add_argument("--simulations", type=int, default=SIMULATIONS,
                        help="simulations per decision")
    parser.add_argument("--opponents", default="greedy,random", help="comma-separated bots")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args(argv)
    print(f"mcts ({args.simulations} simulations per decision) on the 2p map, "
          f"{args.games} games per opponent, seeds {args.seed} to {args.seed + args.games - 1}")
    print(f"{'opponent':<9} {'wins':>9}  {'win rate (95% Wilson CI)':<26} "
          f"{'coins':>6} {'theirs':>6} {'seconds':>8}")
    for opponent in args.opponents.split(","):
        row = match(opponent, args.games, args.simulations, args.seed)
        print(
            f"{opponent:<9} {row['wins']:>4.0f}/{row['games']:<4.0f} "
            f"{row['rate']:>6.1%} ({row['low']:.1%} to {row['high']:.1%})     "
            f"{row['coins']:>6.1f} {row['opponent_coins']:>6.1f} {row['seconds']:>8.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
