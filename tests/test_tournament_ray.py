"""The Ray backend of tournaments and self-play, on a local Ray started once for the module
(``ray.init(num_cpus=2)``): the same games as the local backend, game by game, and a worker
lost mid-run replaced by Ray with every game still recorded once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from smallworld_rules import cli, tournament

ray = pytest.importorskip("ray")
np = pytest.importorskip("numpy")

BOTS = ["greedy", "random"]


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> tuple[tournament.Tournament, Path]:
    """The tournament on the local backend, with its records."""
    path = tmp_path_factory.mktemp("local") / "games.jsonl"
    return tournament.run(BOTS, games=6, seed=11, workers=1, records=path), path


def by_game(path: Path) -> dict[int, dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    found = {row["game"]: row for row in rows}
    assert len(found) == len(rows), "a game recorded twice"
    return found


def test_ray_plays_the_same_games_as_local(
    local: tuple[tournament.Tournament, Path], tmp_path: Path
) -> None:
    """Same seeds and bots: the Ray backend's results and records equal the local
    backend's, game by game."""
    result, local_path = local
    path = tmp_path / "games.jsonl"
    on_ray = tournament.run(BOTS, games=6, seed=11, backend="ray", records=path)
    assert on_ray.games == result.games
    assert [g.record for g in on_ray.games] == [g.record for g in result.games]
    assert by_game(path) == by_game(local_path)
    assert on_ray.table() == result.table()


def test_a_ray_worker_killed_mid_run_is_retried(
    local: tuple[tournament.Tournament, Path], tmp_path: Path
) -> None:
    """A Ray worker that dies while playing game 3 (``os._exit`` on its first attempt): Ray
    retries the task and the tournament completes with every game recorded once."""
    result, local_path = local
    marker = tmp_path / "died"
    path = tmp_path / "games.jsonl"
    survived = tournament.run(
        BOTS, games=6, seed=11, backend="ray", records=path, _exit_once={3: marker}
    )
    assert marker.exists()
    assert survived.games == result.games
    assert by_game(path) == by_game(local_path)


def test_cli_backend_ray(
    local: tuple[tournament.Tournament, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """``smallworld tournament --backend ray`` prints the same table as the local backend
    (on the Ray already running)."""
    result, _ = local
    code = cli.main(["tournament", "--games", "6", "--seed", "11", "--backend", "ray"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.strip() == result.table()


def test_selfplay_on_ray_matches_local(tmp_path: Path) -> None:
    """Self-play data is the same, array by array, on both backends."""
    from smallworld_rules import selfplay

    here = selfplay.generate(tmp_path / "local", games=2, bots=BOTS, seed=5, workers=1)
    there = selfplay.generate(tmp_path / "ray", games=2, bots=BOTS, seed=5, backend="ray")
    for a, b in zip(here, there, strict=True):
        left, right = np.load(a), np.load(b)
        assert sorted(left.files) == sorted(right.files)
        for key in left.files:
            assert np.array_equal(left[key], right[key]), key


def test_cli_starts_its_own_ray_when_none_is_running(
    local: tuple[tournament.Tournament, Path],
) -> None:
    """Without ``--address`` and no Ray in the process, ``--backend ray`` starts a local Ray
    for the run and stops it after: a fresh process prints the local backend's results."""
    import subprocess
    import sys

    result, _ = local
    done = subprocess.run(
        [sys.executable, "-m", "smallworld_rules.cli", "tournament", "--games", "6", "--seed",
         "11", "--backend", "ray", "--workers", "1", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(result.to_dict()))


def test_ctrl_c_stops_a_ray_tournament_cleanly(tmp_path: Path) -> None:
    """Ctrl-C to a tournament on the Ray it started (Ray's own processes are in the same
    process group) stops it with no traceback and says how many games are recorded."""
    from test_tournament import check_interrupted, interrupt

    path = tmp_path / "games.jsonl"
    check_interrupted(path, *interrupt(path, "--backend", "ray", "--workers", "1"))


def test_a_failed_ray_task_is_retried(tmp_path: Path) -> None:
    """On Ray too, a job that raises is retried, one that always fails stops the run after
    its retries, and a ``RulesError`` (bad input) is not retried."""
    import sys

    import test_tournament

    from smallworld_rules.backends import JobFailed, execute
    from smallworld_rules.errors import RulesError

    # The workers cannot import the tests: send these functions by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules["test_tournament"])
    jobs = {i: str(tmp_path / f"job{i}") for i in range(3)}
    results = dict(execute(test_tournament.fails_first, jobs, backend="ray"))
    assert results == {i: f"done job{i}" for i in range(3)}
    with pytest.raises(JobFailed, match="job 0 failed 2 times"):
        list(execute(test_tournament.always_fails, {0: "x"}, backend="ray", retries=1))
    calls = tmp_path / "calls"
    with pytest.raises(RulesError, match="a bad argument"):
        list(execute(test_tournament.refuses, {0: str(calls)}, backend="ray"))
    assert calls.read_text() == "called\n"  # not retried


def test_an_unreachable_cluster_is_one_line() -> None:
    """``--address`` naming a port nobody answers at is refused at once, in one line (Ray
    alone would keep trying for minutes)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "smallworld_rules.cli", "tournament", "--games", "1",
         "--backend", "ray", "--address", "127.0.0.1:1"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        "smallworld: cannot reach a Ray cluster at '127.0.0.1:1': Connection refused"
    )
