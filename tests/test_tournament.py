"""Tournaments (``smallworld_rules.tournament``, ``smallworld tournament``) on the local
backend: results independent of the workers, records that replay, resuming an interrupted
tournament, a lost worker retried, the statistics and the Elo-style rating. The Ray backend's
tests are in test_tournament_ray.py."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import attrs
import pytest

import smallworld_rules as sw
from smallworld_rules import cli, tournament
from smallworld_rules.bots import make_bot, play_game
from smallworld_rules.cli_args import parse_combos, parse_options
from smallworld_rules.tournament import GameResult, TournamentInterrupted, elo_ratings, ranks

BOTS = ["greedy", "random"]


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def games_in(path: Path) -> list[int]:
    """The game indices of a records file, in the order they were written."""
    return [row["game"] for row in lines(path)[1:]]  # type: ignore[misc]


def cli_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[tournament.Tournament, Path]:
    """An uninterrupted 6-game tournament with its records, in this process."""
    path = tmp_path_factory.mktemp("reference") / "games.jsonl"
    return tournament.run(BOTS, games=6, seed=3, workers=1, records=path), path


def test_game_i_is_the_game_of_seed_s_plus_i(
    reference: tuple[tournament.Tournament, Path],
) -> None:
    """Game i is played with seed ``seed + i``, seats rotated, the bot of seat p seeded
    ``(seed + i) * 100 + p``: exactly the game ``play_game`` plays with those bots."""
    result, _ = reference
    assert [g.index for g in result.games] == list(range(6))
    rules = sw.load_rules()
    for game in result.games:
        assert game.seed == 3 + game.index
        assert game.seats == tuple(BOTS[(s + game.index) % 2] for s in range(2))
        played = sw.Game.new(players=2, seed=game.seed, rules=rules)
        bots = [make_bot(n, game.seed * 100 + p, rules) for p, n in enumerate(game.seats)]
        play_game(played, bots, chance_seed=game.seed)
        assert game.coins == (played.coins(0), played.coins(1))
        assert game.winners == tuple(played.winners)
        assert game.record == played.to_record()


def test_workers_change_nothing(reference: tuple[tournament.Tournament, Path]) -> None:
    """Two worker processes give the same results, game by game, as one."""
    result, _ = reference
    parallel = tournament.run(BOTS, games=6, seed=3, workers=2)
    assert parallel.games == result.games
    assert parallel.table() == result.table()


def test_every_game_is_recorded_once_and_replays(
    reference: tuple[tournament.Tournament, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The records file has a header and one line per game holding the game's record; each
    replays step by step (``smallworld replay FILE`` verifies them all)."""
    result, path = reference
    rows = lines(path)
    assert rows[0]["format"] == "smallworld_rules/tournament" and rows[0]["games"] == 6
    assert sorted(games_in(path)) == list(range(6))
    for row, game in zip(sorted(rows[1:], key=lambda r: r["game"]), result.games, strict=True):
        record = row["record"]
        assert isinstance(record, dict) and record["format"] == "smallworld_rules/record"
        replayed = sw.Game.from_record(record)
        assert tuple(replayed.coins(p) for p in range(2)) == game.coins
    code, out, err = cli_main(capsys, "replay", str(path))
    assert code == 0, err
    assert out.strip() == f"{path}: 6 games replayed, every step as recorded"


def test_replay_names_the_tampered_game(
    reference: tuple[tournament.Tournament, Path], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A game edited in the records file fails ``replay`` with exit status 1, naming it."""
    _, path = reference
    rows = lines(path)
    record = rows[3]["record"]
    assert isinstance(record, dict)
    record["result"]["coins"][0] += 1
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = cli_main(capsys, "replay", str(tampered))
    assert code == 1 and out == ""
    assert f"game {rows[3]['game']}" in err and "Traceback" not in err


def test_an_interrupted_tournament_resumes_without_losing_or_repeating_a_game(
    reference: tuple[tournament.Tournament, Path], tmp_path: Path,
) -> None:
    """Ctrl-C after 3 games leaves 3 games recorded; resuming plays only the other 3 and the
    results and records equal an uninterrupted run's."""
    result, whole = reference
    path = tmp_path / "games.jsonl"
    seen: list[int] = []

    def stop_after_three(game: GameResult) -> None:
        seen.append(game.index)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(TournamentInterrupted) as stop:
        tournament.run(BOTS, games=6, seed=3, workers=2, records=path, on_game=stop_after_three)
    assert (stop.value.recorded, stop.value.total, stop.value.records) == (3, 6, path)
    assert games_in(path) == seen
    played: list[int] = []
    resumed = tournament.run(
        BOTS, games=6, seed=3, workers=2, records=path, resume=True,
        on_game=lambda g: played.append(g.index),
    )
    assert sorted(played) == sorted(set(range(6)) - set(seen))
    assert resumed.games == result.games
    assert sorted(games_in(path)) == list(range(6))
    by_game = {row["game"]: row for row in lines(path)[1:]}
    assert by_game == {row["game"]: row for row in lines(whole)[1:]}


def test_a_line_cut_short_is_played_again(
    reference: tuple[tournament.Tournament, Path], tmp_path: Path,
) -> None:
    """A last line cut short (the process killed while writing) is dropped on resume and its
    game played again: every game once, whole."""
    result, whole = reference
    text = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(text[:3]) + text[3][: len(text[3]) // 2], encoding="utf-8")
    resumed = tournament.run(BOTS, games=6, seed=3, workers=1, records=path, resume=True)
    assert resumed.games == result.games
    assert sorted(games_in(path)) == list(range(6))


def test_a_lost_worker_is_replaced_and_its_game_played_again(
    reference: tuple[tournament.Tournament, Path], tmp_path: Path,
) -> None:
    """A worker process that dies while playing game 2 (its first attempt calls ``os._exit``)
    breaks the pool; the tournament starts new workers and still records every game once."""
    result, _ = reference
    marker = tmp_path / "died"
    path = tmp_path / "games.jsonl"
    survived = tournament.run(
        BOTS, games=6, seed=3, workers=2, records=path, _exit_once={2: marker}
    )
    assert marker.exists()  # the worker did die
    assert survived.games == result.games
    assert sorted(games_in(path)) == list(range(6))


def test_records_of_another_tournament_are_refused(
    reference: tuple[tournament.Tournament, Path], tmp_path: Path,
) -> None:
    """Resuming with different arguments, writing over records without ``resume``, or
    resuming without a file are errors that change nothing."""
    _, whole = reference
    path = tmp_path / "games.jsonl"
    path.write_bytes(whole.read_bytes())
    with pytest.raises(sw.RulesError, match=r"another tournament's records \(seed differ"):
        tournament.run(BOTS, games=6, seed=4, records=path, resume=True)
    with pytest.raises(sw.RulesError, match="already holds records"):
        tournament.run(BOTS, games=6, seed=3, records=path)
    with pytest.raises(sw.RulesError, match="resume needs"):
        tournament.run(BOTS, games=6, seed=3, resume=True)
    assert path.read_bytes() == whole.read_bytes()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "something else"}\n', encoding="utf-8")
    with pytest.raises(sw.RulesError, match="not a tournament's records"):
        tournament.run(BOTS, games=6, seed=3, records=bad, resume=True)


def test_ranks_follow_the_games_order() -> None:
    """Places: the winners first, then most coins, then most race tokens on the map (the
    game's tie-break); equal players share a place."""
    assert ranks([10, 12, 10], [5, 3, 7], [1]) == (3, 1, 2)
    assert ranks([10, 10, 4], [5, 5, 9], [0, 1]) == (1, 1, 3)
    assert ranks([3, 9, 9, 9], [1, 2, 2, 1], [1, 2]) == (4, 1, 1, 3)


def test_statistics_per_bot_and_per_seat(reference: tuple[tournament.Tournament, Path]) -> None:
    """Each bot's and each seat's games, wins, coins and places add up to the games'."""
    result, _ = reference
    bots, seats = result.bot_stats(), result.seat_stats()
    assert {name: s.games for name, s in bots.items()} == {"greedy": 6, "random": 6}
    assert {seat: s.games for seat, s in seats.items()} == {0: 6, 1: 6}
    for name, stats in bots.items():
        held = [(g, s) for g in result.games for s, n in enumerate(g.seats) if n == name]
        assert stats.wins == sum(s in g.winners for g, s in held)
        assert stats.coins == pytest.approx(sum(g.coins[s] for g, s in held) / len(held))
        assert stats.rank == pytest.approx(sum(g.ranks[s] for g, s in held) / len(held))
        assert stats.win_low <= stats.win_rate <= stats.win_high
        assert stats.rank_low <= stats.rank <= stats.rank_high
    assert sum(s.wins for s in seats.values()) == sum(s.wins for s in bots.values())


def test_elo_is_deterministic_and_ignores_the_order_of_games() -> None:
    """The rating is a fit of all pairwise results: the same games in any order give the same
    ratings; the mean is 1500; a bot that wins more is rated higher; equal records, equal
    ratings."""
    rng = random.Random(5)
    games = []
    for i in range(40):
        seats = ("a", "b", "c")[i % 3:] + ("a", "b", "c")[: i % 3]
        strength = {"a": 3, "b": 2, "c": 1}
        coins = tuple(strength[n] * 5 + rng.randrange(10) for n in seats)
        best = max(coins)
        games.append(GameResult(i, i, seats, coins, (0, 0, 0),
                                tuple(p for p in range(3) if coins[p] == best), 0))
    ratings = elo_ratings(games, ["a", "b", "c"])
    shuffled = games[:]
    rng.shuffle(shuffled)
    assert elo_ratings(shuffled, ["a", "b", "c"]) == pytest.approx(ratings, abs=1e-6)
    assert sum(ratings.values()) / 3 == pytest.approx(1500)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    draw = GameResult(0, 0, ("x", "y"), (5, 5), (1, 1), (0, 1), 0)
    even = elo_ratings([draw, attrs.evolve(draw, index=1)], ["x", "y"])
    assert even["x"] == pytest.approx(even["y"]) == pytest.approx(1500)


def test_cli_table_has_rank_and_elo(
    reference: tuple[tournament.Tournament, Path], capsys: pytest.CaptureFixture[str],
) -> None:
    """The printed table ends each bot's row with its mean rank and Elo rating, then has a
    row per seat."""
    result, _ = reference
    code, out, err = cli_main(capsys, "tournament", "--games", "6", "--seed", "3",
                              "--workers", "1")
    assert code == 0, err
    assert err == ""  # no progress bar: stderr is not a terminal and none was asked for
    assert out.strip() == result.table()
    elo = result.elo()
    row = next(line for line in out.splitlines() if line.startswith("greedy "))
    assert row.split()[-2:] == [f"{result.bot_stats()['greedy'].rank:.2f}",
                                str(round(elo["greedy"]))]
    assert [line.split()[:2] for line in out.splitlines() if line.startswith("seat ")] == [
        ["seat", "games"], ["seat", "0"], ["seat", "1"]
    ]


def test_cli_json_combos_and_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json`` prints the summary as JSON; ``--combos`` fixes the top of every game's
    market and ``--options`` sets game options, both kept in the records."""
    path = tmp_path / "games.jsonl"
    code, out, err = cli_main(
        capsys, "tournament", "--games", "2", "--workers", "1", "--bots", "random", "--json",
        "--combos", "ratmen:forest,giants:commando",
        "--options", "flying_enters_anywhere=false", "--records", str(path),
    )
    assert code == 0, err
    summary = json.loads(out)
    assert summary["games"] == 2 and set(summary["bots"]) == {"random"}
    assert summary["bots"]["random"]["games"] == 4
    assert [r["game"] for r in summary["results"]] == [0, 1]
    for row in lines(path)[1:]:
        record = row["record"]
        assert isinstance(record, dict)
        assert record["market"][:2] == [["ratmen", "forest", 0], ["giants", "commando", 0]]
        assert record["options"]["flying_enters_anywhere"] is False


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--combos", "ratmen"], ["--combos", "RACE:POWER"]),
        (["--combos", "ratmen:nothing"], ["nothing"]),
        (["--options", "flying_enters_anywhere"], ["--options", "name=value"]),
        (["--options", "no_such_option=1"], ["no_such_option"]),
        (["--options", "flying_enters_anywhere=maybe"], ["true, false or a whole number"]),
        (["--address", "10.0.0.1:6379"], ["--backend ray"]),
        (["--resume"], ["--records"]),
        (["--backend", "cloud"], ["--backend"]),
    ],
)
def test_cli_bad_tournament_options_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], words: list[str]
) -> None:
    """Bad ``--combos``, ``--options``, ``--address`` or ``--resume``: one line on stderr, a
    non-zero exit, no traceback."""
    code, out, err = cli_main(capsys, "tournament", "--games", "1", *args)
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for word in words:
        assert word in err


def test_parse_combos_and_options() -> None:
    assert parse_combos("a:b") == [("a", "b")]
    assert parse_options("x=TRUE, y=-3") == {"x": True, "y": -3}
    with pytest.raises(sw.RulesError, match="twice"):
        parse_options("x=1,x=2")
    with pytest.raises(sw.RulesError) as long:
        parse_combos("x" * 10_000)
    assert len(str(long.value)) < 200  # a short excerpt, never the whole input


RAY_LOG_LINE = re.compile(r"\[\d{4}-\d\d-\d\d [\d:,]+ [A-Z] \d+ \d+\] \w+\.cc:\d+: ")


def interrupt(path: Path, *args: str) -> tuple[int, str, int]:
    """Run ``smallworld tournament ARGS --records PATH`` for 2000 random games, send Ctrl-C
    (SIGINT to the whole process group, as a terminal does) once 3 games are recorded:
    (exit status, stderr without Ray's log lines, games recorded)."""
    command = [sys.executable, "-m", "smallworld_rules.cli", "tournament", "--games", "2000",
               "--bots", "random", "--records", str(path), *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while (not path.exists() or path.read_text().count("\n") < 4) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert out == ""
    # Ray's own log lines ("[2026-12-01 10:17:06,657 E 16834 17068] task_manager.cc:…", or
    # " WARNING ") are Ray's, written by its C++ core while it shuts down; the rest is ours.
    mine = "\n".join(
        line for line in err.splitlines()
        if " WARNING " not in line and not RAY_LOG_LINE.match(line)
    )
    return process.returncode, mine.strip(), len(games_in(path))


def check_interrupted(path: Path, code: int, err: str, recorded: int) -> None:
    """No traceback, exit status 130, one line saying how many games are recorded; the file
    holds exactly those games, each once and whole."""
    assert code == 130, err
    assert "Traceback" not in err
    assert 3 <= recorded < 2000
    assert err == (
        f"smallworld: interrupted: {recorded} games of 2000 recorded in {path}; run the same "
        f"command with --resume to play the other {2000 - recorded}"
    )
    assert len(set(games_in(path))) == recorded
    header, _, complete = tournament.read_records(path)
    assert header is not None and complete == path.stat().st_size


def test_ctrl_c_stops_cleanly_and_says_how_many_games_are_recorded(tmp_path: Path) -> None:
    """Ctrl-C stops a tournament of worker processes with no traceback, exit status 130, and a
    line saying how many games are recorded; the file holds exactly those games."""
    path = tmp_path / "games.jsonl"
    check_interrupted(path, *interrupt(path, "--workers", "2"))


def test_a_game_is_written_and_counted_before_ctrl_c_is_raised() -> None:
    """A Ctrl-C that comes while a game is written waits until the game is also counted, so
    the interruption's count is the number of games in the file; the handler of Ctrl-C is
    put back after."""
    handler = signal.getsignal(signal.SIGINT)
    steps = []
    with pytest.raises(KeyboardInterrupt), tournament._ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)
        steps.append("written")
        time.sleep(0.01)  # (time for the signal to arrive, were it not held)
        steps.append("counted")
    assert steps == ["written", "counted"]
    assert signal.getsignal(signal.SIGINT) is handler


def test_ctrl_c_is_held_in_a_process_with_other_threads() -> None:
    """The kernel hands a process's SIGINT to any of its threads: with another thread
    running (as under Ray or a test runner), a Ctrl-C still waits for the block's end."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    steps = []
    try:
        with pytest.raises(KeyboardInterrupt), tournament._ctrl_c_held():
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("written")
            time.sleep(0.01)
            steps.append("counted")
    finally:
        stop.set()
        other.join()
    assert steps == ["written", "counted"]


def test_no_ctrl_c_in_the_block_raises_nothing() -> None:
    """Without a Ctrl-C the block runs through and the handler is put back."""
    handler = signal.getsignal(signal.SIGINT)
    with tournament._ctrl_c_held():
        pass
    assert signal.getsignal(signal.SIGINT) is handler


# ---------------------------------------------------------------------- the backends' retries


def fails_first(marker: str) -> str:
    """A job that fails on its first attempt only (the marker file remembers it)."""
    try:
        with open(marker, "x"):
            pass
    except FileExistsError:
        return f"done {Path(marker).name}"
    raise OSError("a transient failure")


def always_fails(_: str) -> str:
    raise OSError("a bug that fails every time")


def refuses(calls: str) -> str:
    with open(calls, "a") as fh:
        fh.write("called\n")
    raise sw.RulesError("a bad argument")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failed_job_is_retried(tmp_path: Path, workers: int) -> None:
    """A job that raises is submitted again; one that fails every time stops the run after
    ``retries`` more attempts, saying so; a ``RulesError`` (bad input) is not retried."""
    from smallworld_rules.backends import JobFailed, execute

    jobs = {i: str(tmp_path / f"job{i}") for i in range(4)}
    results = dict(execute(fails_first, jobs, workers=workers))
    assert results == {i: f"done job{i}" for i in range(4)}
    with pytest.raises(JobFailed, match=r"job 0 failed 3 times.*fails every time"):
        list(execute(always_fails, {0: "x"}, workers=workers, retries=2))
    calls = tmp_path / "calls"
    with pytest.raises(sw.RulesError, match="a bad argument"):
        list(execute(refuses, {0: str(calls)}, workers=workers))
    assert calls.read_text() == "called\n"


def test_the_ray_backend_without_ray_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without Ray installed, ``--backend ray`` says how to install it, in one line."""
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    code, out, err = cli_main(capsys, "tournament", "--games", "1", "--backend", "ray")
    assert code == 2 and out == ""
    assert err.strip() == (
        "smallworld: the ray backend needs Ray: pip install 'smallworld-rules[ray]'"
    )


def test_a_game_failing_every_time_stops_the_tournament_keeping_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that fails on every attempt stops the tournament with an error naming it and
    where the games already played are; those stay recorded, for resuming."""
    real = tournament.play_match

    def broken_game_4(match: tournament.Match) -> GameResult:
        if match.index == 4:
            raise OSError("disk on fire")
        return real(match)

    monkeypatch.setattr(tournament, "play_match", broken_game_4)
    path = tmp_path / "games.jsonl"
    with pytest.raises(sw.RulesError) as failed:
        tournament.run(BOTS, games=6, seed=3, workers=1, records=path, retries=1)
    assert str(failed.value) == (
        f"game 4 failed 2 times: OSError('disk on fire'); the 4 games played are in {path}"
    )
    assert games_in(path) == [0, 1, 2, 3]
