"""The benchmark's code runs, reports what it promises, and compares equivalent rules.

Speed itself is never asserted here (it depends on the machine): only the structure of the
report, and that the hand-written Python hooks the overhead is measured against play exactly
the same games as the compiled rule files.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import attrs
import pytest

import smallworld_rules as sw

try:
    import benchmarks  # noqa: F401  (the editable install puts the repository on sys.path)
except ImportError:  # a plain install: benchmarks/ is not packaged, take it from the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import measure, overhead
from benchmarks.__main__ import ROWS, Report, collect, main, render

SMOKE = measure.Sizes.smoke()


@pytest.fixture(scope="module")
def report() -> Report:
    return collect(SMOKE)


def test_report_has_every_row_with_its_runs(report: Report) -> None:
    stats = report.stats
    expected = {key for key, _ in ROWS if key is not None}
    if sys.platform == "win32":
        expected.discard("maxrss_mib")
    if importlib.util.find_spec("chess") is None:  # the yardstick needs the bench extra
        expected -= {"chess_games_per_s", "chess_units_2p", "chess_units_4p"}
    assert expected <= set(stats)
    for key in expected:
        stat = stats[key]
        assert stat.samples and stat.low <= stat.median <= stat.high, key
        # A difference of two timings may come out negative in a noisy run; nothing else may.
        if key != "estimated_overhead_pct":
            assert stat.low > 0, key
    # Timings are repeated (a spread is shown); counts and memory are single values.
    assert len(stats["games_per_s_2p"].samples) == SMOKE.runs
    assert len(stats["load_cold_ms"].samples) == SMOKE.runs
    assert len(stats["game_time_ratio"].samples) == SMOKE.runs


def test_table_and_json(report: Report) -> None:
    table = render(report)
    assert "equivalent: yes" in table
    for key, label in ROWS:
        if key is not None:
            assert label in table
    data = report.to_dict()
    assert {"cpu", "cores", "python", "platform"} <= set(data["machine"])
    assert data["equivalence"]["equivalent"] is True
    ratio = data["results"]["game_time_ratio"]
    assert set(ratio) == {"unit", "median", "min", "max", "samples"}
    json.dumps(data)  # serialisable as is


def test_main_writes_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The command line end to end, at sizes even smaller than --smoke to keep the test quick.
    tiny = measure.Sizes(
        games=1,
        runs=1,
        profiled_games=1,
        repeat=2,
        slow_repeat=1,
        memory_games=1,
        equivalence_games=2,
        overhead_games=1,
        hook_positions=2,
    )
    monkeypatch.setattr(measure.Sizes, "smoke", classmethod(lambda cls: tiny))
    # The report fixture already starts fresh interpreters; one more second is not needed here.
    cold = {"load_cold_ms": measure.Stat("ms", (1.0,))}
    monkeypatch.setattr(measure, "load_times", lambda runs: cold)
    path = tmp_path / "bench.json"
    assert main(["--smoke", "--json", str(path)]) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["sizes"]["games"] == 1
    assert data["equivalence"]["equivalent"] is True


def test_python_hooks_replace_only_the_functions(official: sw.Rules) -> None:
    python = overhead.python_rules(official)
    for rule_id, (hook, *_rest) in overhead.PYTHON_HOOKS.items():
        before, after = official.get(rule_id), python.get(rule_id)
        (compiled,), (hand,) = before.modifiers[hook], after.modifiers[hook]
        assert hand.value is not compiled.value and hand.condition is not compiled.condition
        assert (hand.where is None and compiled.where is None) or hand.where is not compiled.where
        keep = ("hook", "op", "status", "label", "path", "line")
        assert [getattr(hand, f) for f in keep] == [getattr(compiled, f) for f in keep]
    # Everything else is shared, and the loaded rules are left alone.
    assert python.races["ratmen"] is official.races["ratmen"]
    assert official.get("giants").modifiers["conquest_cost"][0].condition is not (
        overhead.giants_condition
    )


def test_python_hooks_play_identical_games(official: sw.Rules) -> None:
    check = overhead.equivalence(official, overhead.python_rules(official), games=8)
    assert check.equivalent, check.mismatches
    # The games did use the rules compared: each was taken by some player.
    assert all(check.picked.values()), check.picked


def test_equivalence_check_notices_a_different_rule(official: sw.Rules) -> None:
    # Guards against a vacuous check: Commando discounting 2 instead of 1 must change a game.
    hooks = dict(overhead.PYTHON_HOOKS)
    hook, op, status, _, condition, where = hooks["commando"]
    hooks["commando"] = (hook, op, status, lambda c: 2, condition, where)
    check = overhead.equivalence(official, overhead.python_rules(official, hooks), games=8)
    assert not check.equivalent
    # Conquest costs read a condition on the target through ``where``: Giants' discount
    # nowhere must change a game too.
    hooks = dict(overhead.PYTHON_HOOKS)
    hook, op, status, value, _, _ = hooks["giants"]
    hooks["giants"] = (hook, op, status, value, lambda c: False, lambda c: 0)
    check = overhead.equivalence(official, overhead.python_rules(official, hooks), games=8)
    assert not check.equivalent


def test_python_hooks_refuse_a_changed_rule_file(official: sw.Rules) -> None:
    giants = official.races["giants"]
    (modifier,) = giants.modifiers["conquest_cost"]
    changed = attrs.evolve(
        giants,
        modifiers={**giants.modifiers, "conquest_cost": (attrs.evolve(modifier, op="add"),)},
    )
    rules = attrs.evolve(official, races={**official.races, "giants": changed})
    with pytest.raises(RuntimeError, match="giants"):
        overhead.python_rules(rules)


def test_market_fixes_the_visible_combos(official: sw.Rules) -> None:
    for seed in range(4):
        combos = overhead.market(seed)
        game = sw.Game.new(players=2, seed=seed, rules=official, combos=combos)
        assert [(race, power) for race, power, _ in game.market] == combos
        assert ("giants", "commando") in combos or ("giants", "forest") in combos


def test_chess_units_are_our_rate_over_the_chess_rate_run_by_run() -> None:
    """The speed targets are in python-chess units: ours ÷ python-chess's, per run."""
    ours = measure.Stat("games/s", (300.0, 400.0))
    chess_rate = measure.Stat("games/s", (75.0, 80.0))
    units = measure.in_chess_units(ours, chess_rate)
    assert units.samples == (4.0, 5.0)
    assert units.unit == "chess units"
