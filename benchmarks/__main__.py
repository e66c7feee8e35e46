"""Random playouts per second, the cost of the hot calls, and what rule files cost.

Usage: ``python -m benchmarks [--games N] [--runs R] [--smoke] [--json PATH]``.

Prints one table: the machine, then every timing as the median of ``--runs`` runs with the
spread (min–max). ``--json PATH`` also writes every sample, for before/after comparisons.
Nothing about speed is asserted (speed is measured here, never in a timed test); the run only
fails if the hand-written Python rules stop playing the same games as the rule files, since
their speed ratio would then mean nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

import smallworld_rules as sw
from benchmarks import measure
from benchmarks.measure import Sizes, Stat
from benchmarks.overhead import Equivalence, overhead

#: The goal for the rule-file overhead (printed next to the ratio, never enforced).
TARGET_RATIO = 1.10
#: The speed goals in python-chess units (the fastest other engine's figures, measured beside
#: python-chess): printed next to ours, never enforced.
TARGET_CHESS_UNITS = {2: 15.5, 4: 8.4}


@dataclasses.dataclass
class Report:
    machine: dict[str, Any]
    sizes: Sizes
    stats: dict[str, Stat]
    equivalence: Equivalence
    rule_files: str
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        check = self.equivalence
        return {
            "machine": self.machine,
            "sizes": dataclasses.asdict(self.sizes),
            "rule_files": self.rule_files,
            "results": {name: stat.to_dict() for name, stat in self.stats.items()},
            "equivalence": {
                "equivalent": check.equivalent,
                "games": check.games,
                "mismatches": check.mismatches,
                "picked": check.picked,
            },
            "seconds": self.seconds,
        }


def _progress(text: str) -> None:
    print(f"… {text}", file=sys.stderr, flush=True)


def collect(sizes: Sizes) -> Report:
    """Run every measurement at the given sizes."""
    start = time.perf_counter()
    stats: dict[str, Stat] = {}
    _progress("load_rules, cold and warm")
    stats.update(measure.load_times(sizes.runs))
    rules = sw.load_rules()
    for players in (2, 4):
        _progress(f"random games, {players} players")
        for name, stat in measure.games_per_second(rules, players, sizes).items():
            stats[f"{name}_{players}p"] = stat
    _progress("random python-chess games (the yardstick)")
    stats.update(measure.chess_games_per_second(sizes))
    if "chess_games_per_s" in stats:
        for players in (2, 4):
            stats[f"chess_units_{players}p"] = measure.in_chess_units(
                stats[f"games_per_s_{players}p"], stats["chess_games_per_s"]
            )
    _progress("legal_actions / apply / undo over whole games")
    stats.update(measure.profile_calls(rules, sizes))
    _progress("calls at a mid-game position")
    stats.update(measure.position_calls(rules, sizes))
    _progress("memory")
    stats.update(measure.memory(rules, sizes.memory_games))
    _progress("rule files versus Python hooks")
    found = overhead(rules, sizes)
    check = found.pop("equivalence")
    stats.update(found)
    return Report(
        machine=measure.machine(),
        sizes=sizes,
        stats=stats,
        equivalence=check,
        rule_files=f"{len(rules.races)} races, {len(rules.powers)} powers",
        seconds=time.perf_counter() - start,
    )


# --------------------------------------------------------------------------- the table


def _number(value: float) -> str:
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


#: (stat name, row label); ``None`` starts a section titled by the label.
ROWS: list[tuple[str | None, str]] = [
    (None, "random games (uniform over legal_actions, random markets, all rule files)"),
    ("games_per_s_2p", "2 players"),
    ("actions_per_game_2p", "  actions per game"),
    ("legal_set_size_2p", "  mean legal-set size"),
    ("games_per_s_4p", "4 players"),
    ("actions_per_game_4p", "  actions per game"),
    ("legal_set_size_4p", "  mean legal-set size"),
    (None, "the yardstick: random python-chess games in the same run (the bench extra)"),
    ("chess_games_per_s", "python-chess games"),
    ("chess_units_2p", f"2 players, in python-chess units (target ≥ {TARGET_CHESS_UNITS[2]})"),
    ("chess_units_4p", f"4 players, in python-chess units (target ≥ {TARGET_CHESS_UNITS[4]})"),
    (None, "per call, averaged over whole random games (2 and 4 players)"),
    ("legal_actions_us", "legal_actions (listed)"),
    ("apply_us", "apply"),
    ("undo_us", "undo"),
    (None, "per call, at a mid-game position (2 players, round 5)"),
    ("clone_us", "clone"),
    ("undo_mid_us", "undo"),
    ("to_json_us", "to_json (saved again: the log written since)"),
    ("to_json_first_us", "to_json, a game's first save (with a clone)"),
    ("from_json_us", "from_json"),
    (None, "loading"),
    ("load_cold_ms", "load_rules, cold (fresh interpreter)"),
    ("load_warm_ms", "load_rules, warm (repeat call)"),
    ("import_ms", "import smallworld_rules (fresh interpreter)"),
    (None, "memory"),
    ("tracemalloc_peak_mib", "tracemalloc peak, 4-player games"),
    ("maxrss_mib", "max RSS of the whole run"),
    (None, "rule files vs Python hooks: Giants, Commando, Forest (2 players, fixed markets)"),
    ("compiled_games_per_s", "compiled rule files"),
    ("python_games_per_s", "hand-written Python hooks"),
    ("game_time_ratio", f"compiled / Python, per game (target ≤ {TARGET_RATIO:.2f})"),
    ("compiled_modifier_us", "one modifier, compiled (minimal context)"),
    ("python_modifier_us", "one modifier, Python (minimal context)"),
    ("modifier_call_ratio", "compiled / Python, modifier calls alone"),
    ("modifier_calls_per_game", "modifier calls per game (condition/where + value)"),
    ("estimated_overhead_pct", "closure overhead per game (calls × difference)"),
]


def render(report: Report) -> str:
    m, s, check = report.machine, report.sizes, report.equivalence
    width = 50
    lines = [
        f"{'machine':{width}} {m['cpu']}",
        f"{'':{width}} {m['cores']} cores ({m['usable_cores']} usable), {m['python']}",
        f"{'':{width}} {m['platform']}",
        f"{'rule files':{width}} {report.rule_files}",
        f"{'sizes':{width}} {s.games} games × {s.runs} runs (median, min–max)",
        "",
        f"{'':{width}} {'median':>9} {'min–max':>19}  unit",
    ]
    for key, label in ROWS:
        if key is None:
            lines += ["", label, "-" * (width + 38)]
            continue
        stat = report.stats.get(key)
        if stat is None:  # e.g. no getrusage on Windows, or no timing without equivalence
            continue
        spread = ""
        if len(stat.samples) > 1:
            spread = f"{_number(stat.low)}–{_number(stat.high)}"
        lines.append(f"{label:{width}} {_number(stat.median):>9} {spread:>19}  {stat.unit}")
    picked = ", ".join(f"{rule} {n}" for rule, n in check.picked.items())
    verdict = "yes" if check.equivalent else f"NO, differing games: {check.mismatches}"
    lines += [
        "",
        f"equivalent: {verdict} ({check.games} seeded games, identical to_json(); "
        f"games where taken: {picked})",
        f"total time: {report.seconds:.1f} s",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=Sizes.games, help="games per measurement")
    parser.add_argument("--runs", type=int, default=Sizes.runs, help="runs; the median is shown")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    if args.smoke:
        sizes = Sizes.smoke()
    else:
        # --games scales the other game counts with it, so a quick run stays quick.
        scale = args.games / Sizes.games
        sizes = Sizes(
            games=args.games,
            runs=args.runs,
            profiled_games=max(1, round(Sizes.profiled_games * scale)),
            equivalence_games=max(4, round(Sizes.equivalence_games * min(scale, 1))),
            overhead_games=max(2, round(Sizes.overhead_games * scale)),
        )
    report = collect(sizes)
    print(render(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report.to_dict(), handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    return 0 if report.equivalence.equivalent else 1


if __name__ == "__main__":
    sys.exit(main())
