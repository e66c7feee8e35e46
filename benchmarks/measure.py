"""The measurements behind ``python -m benchmarks``: each returns numbers, none prints.

Every timing is taken ``runs`` times and kept as a :class:`Stat` (all samples), so the table can
show the median with the spread and ``--json`` can keep the raw samples for before/after diffs.
Nothing here asserts anything about speed.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import smallworld_rules as sw

Combos = Sequence[tuple[str, str]] | None


@dataclass(frozen=True)
class Stat:
    """One measured quantity: every run's value, summarised by the median and the range."""

    unit: str
    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def low(self) -> float:
        return min(self.samples)

    @property
    def high(self) -> float:
        return max(self.samples)

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "median": self.median,
            "min": self.low,
            "max": self.high,
            "samples": list(self.samples),
        }


@dataclass(frozen=True)
class Sizes:
    """How much work each measurement does (``--smoke`` shrinks all of it)."""

    games: int = 200  # games per games/s run, per player count
    runs: int = 3  # repeats of every timing; the median is reported
    profiled_games: int = 40  # games per run for the per-call (legal_actions, apply, undo) timing
    repeat: int = 2000  # calls per run for the mid-game per-call timings
    slow_repeat: int = 200  # the same, for calls of a millisecond or so (to_json, from_json)
    memory_games: int = 3  # games played under tracemalloc
    equivalence_games: int = 24  # seeded games compared between compiled and Python hooks
    overhead_games: int = 100  # games per run and per rule set for the overhead ratio
    hook_positions: int = 200  # positions whose modifiers are called directly (micro ratio)

    @classmethod
    def smoke(cls) -> Sizes:
        return cls(
            games=2,
            runs=2,
            profiled_games=1,
            repeat=20,
            slow_repeat=3,
            memory_games=1,
            equivalence_games=4,
            overhead_games=2,
            hook_positions=20,
        )


# --------------------------------------------------------------------------- the machine


def cpu_model() -> str:
    """The CPU's marketing name: /proc/cpuinfo on Linux, else what ``platform`` knows."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        # "model name" on x86, "Hardware"/"Model" on some ARM kernels.
        if key.strip() in ("model name", "Hardware", "Model") and value.strip():
            return value.strip()
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    try:
        usable = len(os.sched_getaffinity(0))  # what this process may run on (containers)
    except (AttributeError, OSError):
        usable = os.cpu_count() or 0
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 0,
        "usable_cores": usable,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "smallworld_rules": sw.__version__,
    }


# --------------------------------------------------------------------------- random games


def play_random(
    rules: sw.Rules, players: int, seed: int, combos: Combos = None
) -> tuple[sw.Game, int, int]:
    """One seeded game, every move uniform over ``list(game.legal_actions())``.

    Returns the finished game, its number of actions and the summed legal-set sizes. The
    move choice depends only on the seed and the legal lists, so two rule sets that play
    the same game also make the same choices (what the equivalence check relies on).
    """
    game = sw.Game.new(players=players, seed=seed, rules=rules, combos=combos)
    rng = random.Random(seed)
    actions = legal = 0
    while not game.is_over:
        options = list(game.legal_actions())
        legal += len(options)
        game.apply(options[rng.randrange(len(options))])
        actions += 1
    return game, actions, legal


def time_games(
    rules: sw.Rules,
    players: int,
    seeds: Iterable[int],
    combos_for: Callable[[int], Combos] = lambda seed: None,
) -> tuple[float, int, int, int]:
    """Play one game per seed; returns (seconds, games, actions, summed legal-set sizes)."""
    games = actions = legal = 0
    start = time.perf_counter()
    for seed in seeds:
        _, a, size = play_random(rules, players, seed, combos_for(seed))
        games += 1
        actions += a
        legal += size
    return time.perf_counter() - start, games, actions, legal


def games_per_second(rules: sw.Rules, players: int, sizes: Sizes) -> dict[str, Stat]:
    """Random full games per second (the same seeds every run), actions/game, legal-set size."""
    rates: list[float] = []
    actions = legal = games = 0
    for _ in range(sizes.runs):
        seconds, games, actions, legal = time_games(rules, players, range(sizes.games))
        rates.append(games / seconds)
    # Same seeds every run: the counts are identical, only the time varies.
    return {
        "games_per_s": Stat("games/s", tuple(rates)),
        "actions_per_game": Stat("actions", (actions / games,)),
        "legal_set_size": Stat("actions", (legal / max(actions, 1),)),
    }


def chess_games_per_second(sizes: Sizes) -> dict[str, Stat]:
    """Random python-chess games per second, the yardstick the speed targets are stated in.

    A machine's speed moves from hour to hour on a shared host; the ratio of our games/s to
    python-chess's, measured in the same run, moves much less. Each game plays uniformly
    random legal moves (seeded) until ``is_game_over()`` (mate, stalemate, insufficient
    material, the 75-move rule or fivefold repetition). Empty when python-chess is not
    installed (the ``bench`` extra carries it).
    """
    try:
        import chess
    except ImportError:
        return {}
    games = max(1, sizes.games // 4)
    rates: list[float] = []
    for _ in range(sizes.runs):
        start = time.perf_counter()
        for seed in range(games):
            rng = random.Random(seed)
            board = chess.Board()
            while not board.is_game_over():
                moves = list(board.legal_moves)
                board.push(moves[rng.randrange(len(moves))])
        rates.append(games / (time.perf_counter() - start))
    return {"chess_games_per_s": Stat("games/s", tuple(rates))}


def in_chess_units(ours: Stat, chess_rate: Stat) -> Stat:
    """Our games/s in python-chess units, run by run (both measured in the same process)."""
    pairs = zip(ours.samples, chess_rate.samples, strict=False)
    return Stat("chess units", tuple(a / b for a, b in pairs))


def profile_calls(rules: sw.Rules, sizes: Sizes) -> dict[str, Stat]:
    """µs per ``legal_actions``, ``apply`` and ``undo``, averaged over whole random games.

    A single position would flatter or punish whichever phase it is in; averaging every call
    of complete games (2 and 4 players, the same moves as the games/s runs) weighs each phase
    as often as a game visits it. ``legal_actions`` is listed, since it is lazy. The undo time
    is taken by undoing the finished game back to its start in one timed loop: a call takes
    well under a microsecond, too little to time one by one.
    """
    clock = time.perf_counter
    samples: dict[str, list[float]] = {"legal_actions_us": [], "apply_us": [], "undo_us": []}
    for _ in range(sizes.runs):
        legal_s = apply_s = undo_s = 0.0
        calls = 0
        for players in (2, 4):
            for seed in range(sizes.profiled_games):
                game = sw.Game.new(players=players, seed=seed, rules=rules)
                rng = random.Random(seed)
                moves = 0
                while not game.is_over:
                    t0 = clock()
                    options = list(game.legal_actions())
                    t1 = clock()
                    game.apply(options[rng.randrange(len(options))])
                    t2 = clock()
                    legal_s += t1 - t0
                    apply_s += t2 - t1
                    moves += 1
                t0 = clock()
                for _ in range(moves):
                    game.undo()
                undo_s += clock() - t0
                calls += moves
        samples["legal_actions_us"].append(legal_s / calls * 1e6)
        samples["apply_us"].append(apply_s / calls * 1e6)
        samples["undo_us"].append(undo_s / calls * 1e6)
    return {name: Stat("µs", tuple(values)) for name, values in samples.items()}


# --------------------------------------------------------------------------- one position


@dataclass
class MidGame:
    game: sw.Game
    moves: list[sw.Action] = field(default_factory=list)


def mid_game(rules: sw.Rules) -> MidGame:
    """A 2-player random game stopped at round 5: a busy board, a long undo history."""
    game = sw.Game.new(players=2, seed=5, rules=rules)
    rng = random.Random(5)
    moves: list[sw.Action] = []
    while game.round < 5 and not game.is_over:
        options = list(game.legal_actions())
        move = options[rng.randrange(len(options))]
        game.apply(move)
        moves.append(move)
    return MidGame(game, moves)


def per_call_us(fn: Callable[[], object], repeat: int, runs: int) -> Stat:
    """Mean µs per call over ``repeat`` calls, once per run."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        samples.append((time.perf_counter() - start) / repeat * 1e6)
    return Stat("µs", tuple(samples))


def undo_us(mid: MidGame, repeat: int, runs: int) -> Stat:
    """µs per ``undo`` at the mid-game position: undo its last moves in one timed loop, then
    replay them untimed (undo is too quick to time call by call)."""
    depth = min(20, len(mid.moves))
    tail = mid.moves[len(mid.moves) - depth :]
    game = mid.game.clone()  # leave the shared position alone
    samples = []
    for _ in range(runs):
        elapsed = 0.0
        for _ in range(max(1, repeat // depth)):
            start = time.perf_counter()
            for _ in range(depth):
                game.undo()
            elapsed += time.perf_counter() - start
            for move in tail:
                game.apply(move)
        samples.append(elapsed / (max(1, repeat // depth) * depth) * 1e6)
    return Stat("µs", tuple(samples))


def position_calls(rules: sw.Rules, sizes: Sizes) -> dict[str, Stat]:
    mid = mid_game(rules)
    game = mid.game
    text = game.to_json()
    return {
        "clone_us": per_call_us(game.clone, sizes.repeat, sizes.runs),
        "undo_mid_us": undo_us(mid, sizes.repeat, sizes.runs),
        # A game keeps its log's text from its last save and writes only what came since:
        # the position saved again, and the same position's first save (a clone's, whose
        # log was never written: the whole log, as any first save of a game).
        "to_json_us": per_call_us(game.to_json, sizes.slow_repeat, sizes.runs),
        "to_json_first_us": per_call_us(
            lambda: game.clone().to_json(), sizes.slow_repeat, sizes.runs
        ),
        "from_json_us": per_call_us(
            lambda: sw.Game.from_json(text, rules=rules), sizes.slow_repeat, sizes.runs
        ),
    }


# --------------------------------------------------------------------------- loading

_COLD_LOAD = """\
import time
t0 = time.perf_counter()
import smallworld_rules as sw
t1 = time.perf_counter()
sw.load_rules()
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def load_times(runs: int) -> dict[str, Stat]:
    """``load_rules()`` cold (a fresh interpreter per run, so no parse cache) and warm.

    The cold child also reports the package's import time, which a program pays once as well.
    Warm is a repeat call in this process: files are parsed once per process, so it is the
    compile-only cost.
    """
    imports, colds = [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _COLD_LOAD], capture_output=True, text=True, check=True
        ).stdout.split()
        imports.append(float(out[0]) * 1e3)
        colds.append(float(out[1]) * 1e3)
    sw.load_rules()  # this process's first call may be the cold one; time only repeats
    warms = []
    for _ in range(runs):
        start = time.perf_counter()
        sw.load_rules()
        warms.append((time.perf_counter() - start) * 1e3)
    return {
        "import_ms": Stat("ms", tuple(imports)),
        "load_cold_ms": Stat("ms", tuple(colds)),
        "load_warm_ms": Stat("ms", tuple(warms)),
    }


# --------------------------------------------------------------------------- memory


def memory(rules: sw.Rules, games: int) -> dict[str, Stat]:
    """Peak Python allocations while playing 4-player games (tracemalloc), and the process's
    peak resident size so far (getrusage; it includes the interpreter and everything the run
    did before, so it is an upper bound, not the games' own cost)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        for seed in range(games):
            play_random(rules, 4, seed)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    out = {"tracemalloc_peak_mib": Stat("MiB", (peak / 2**20,))}
    try:
        import resource
    except ImportError:  # not on Windows
        return out
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is in kilobytes on Linux, bytes on macOS.
    rss_bytes = rss if sys.platform == "darwin" else rss * 1024
    out["maxrss_mib"] = Stat("MiB", (rss_bytes / 2**20,))
    return out
