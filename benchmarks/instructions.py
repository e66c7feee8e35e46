"""Instructions per random game and per action, counted by callgrind: the measure that decides
what an optimisation keeps (wall clock on a shared machine is noisier than most changes).

``python -m benchmarks.instructions [--warm] [--necromancer] PLAYERS SEEDS`` plays one warm-up
game of another seed, then seeded random games ``0 .. SEEDS-1`` (``measure.play_random``) with
callgrind's instrumentation on around them only, and prints millions of instructions per game
and thousands per action. ``--warm`` plays the measured seeds once before, so that the
engine's tables are warm, as in every timed run of ``python -m benchmarks`` after its first.
Needs ``valgrind`` (it runs itself under ``valgrind --tool=callgrind``, ``PYTHONHASHSEED=0``;
repeat runs of the same tree give the same count to a few parts in 10,000).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

import smallworld_rules as sw
from benchmarks.measure import play_random

_INSIDE = "SMALLWORLD_CALLGRIND_OUT"


def _play(necromancer: bool, players: int, seeds: int, warm: bool, out: str) -> None:
    """The games, under callgrind: instrumentation on around the measured ones only."""
    rules = sw.load_rules(expansions=["necromancer_island"] if necromancer else [])
    play_random(rules, players, 1000)
    for seed in range(seeds if warm else 0):
        play_random(rules, players, seed)
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
    actions = sum(play_random(rules, players, seed)[1] for seed in range(seeds))
    subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
    with open(out + ".actions", "w", encoding="utf-8") as fh:
        fh.write(str(actions))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument("--warm", action="store_true", help="the seeds played once before")
    parser.add_argument("--necromancer", action="store_true", help="Necromancer Island")
    args = parser.parse_args(argv)
    inside = os.environ.get(_INSIDE)
    if inside:
        _play(args.necromancer, args.players, args.seeds, args.warm, inside)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        env = {**os.environ, _INSIDE: out, "PYTHONHASHSEED": "0"}
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        command += [f"--callgrind-out-file={out}", sys.executable, "-m", "benchmarks.instructions"]
        command += [str(args.players), str(args.seeds)]
        command += ["--warm"] * args.warm + ["--necromancer"] * args.necromancer
        subprocess.run(command, env=env, check=True, capture_output=True)
        with open(out, encoding="utf-8") as fh:
            total = int(re.search(r"^totals: (\d+)", fh.read(), re.M).group(1))  # type: ignore[union-attr]
        with open(out + ".actions", encoding="utf-8") as fh:
            actions = int(fh.read())
    what = "Necromancer Island" if args.necromancer else "official"
    print(
        f"{what}, {args.players} players, seeds 0-{args.seeds - 1}{', warm' if args.warm else ''}:"
        f" {total / args.seeds / 1e6:.4f} M instructions a game,"
        f" {total / actions / 1e3:.2f} k an action ({actions} actions)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
