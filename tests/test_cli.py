"""The ``smallworld`` console command, run through its real entry
point in a subprocess: ``play`` prints a whole random game and the final ranking, ``check``
validates rule files with ``path:line:col`` errors, and bad command lines fail cleanly.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import smallworld_rules as sw
from conftest import TEST_RULES

ROUND = re.compile(r"^== Round (\d+), player (\d+)$")
PICK = re.compile(
    r"^  picks .+ from position (\d+) \(paid (\d+)(?:, took (\d+))?\) with (\d+) tokens$"
)
CONQUER = re.compile(r"^  conquers region (\d+) for (\d+)")
SCORE = re.compile(r"^  scores (\d+) coins?\b")
RANK = re.compile(r"^  (\d+)\. player (\d+): (\d+) coins, (\d+) tokens? on the map(  winner)?$")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "smallworld_rules.cli", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


@pytest.fixture(scope="module")
def four_players() -> subprocess.CompletedProcess[str]:
    """``smallworld play --players 4 --seed 1``."""
    return run("play", "--players", "4", "--seed", "1")


def ranking(stdout: str) -> list[tuple[int, int, int, int, bool]]:
    """(rank, player, coins, tokens, winner) rows after 'Final ranking:'."""
    lines = stdout.splitlines()
    start = lines.index("Final ranking:")
    rows = []
    for line in lines[start + 1:]:
        if not line:
            break  # the ranking ends at a blank line (before e.g. "Record written to …")
        m = RANK.match(line)
        assert m, f"unexpected ranking line {line!r}"
        rank, player, coins, tokens = (int(g) for g in m.groups()[:4])
        rows.append((rank, player, coins, tokens, m.group(5) is not None))
    return rows


def test_entry_point_is_declared() -> None:
    """``pip install .`` gives a ``smallworld`` console command running ``cli.main``."""
    scripts = metadata.entry_points(group="console_scripts")
    (script,) = [e for e in scripts if e.name == "smallworld"]
    assert script.value == "smallworld_rules.cli:main"
    from smallworld_rules import cli

    assert script.load() is cli.main


def test_play_prints_the_game(four_players: subprocess.CompletedProcess[str]) -> None:
    """``play`` prints the map, the market, one header per turn (4 players × the 9 turns of
    the 4p map, in order), picks, conquests with their costs, one score per turn and the final
    ranking."""
    result = four_players
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "Small World on the 4p map, 4 players, seed 1"
    assert lines[1].startswith("Market: ")
    turns = [(int(m[1]), int(m[2])) for m in map(ROUND.match, lines) if m]
    assert turns == [(r, p) for r in range(1, 10) for p in range(4)]
    assert sum(bool(SCORE.match(line)) for line in lines) == len(turns)
    picks = [m for m in map(PICK.match, lines) if m]
    assert picks and all(m[1] == m[2] for m in picks)  # Rule 1.5: position k costs k coins
    conquests = [m for m in map(CONQUER.match, lines) if m]
    assert conquests
    for m in conquests:
        assert 0 <= int(m[1]) < 39 and int(m[2]) >= 1  # a region of the 4p map; cost ≥ 1
    assert "Final ranking:" in lines


def test_play_coins_add_up(four_players: subprocess.CompletedProcess[str]) -> None:
    """Rule 1.5 / rule 1.11 in the printout: each player's final coins are 5 + printed scores −
    coins paid for picks + coins taken with them; the ranking is by coins, then tokens (rule 1.14),
    and exactly the best are marked winners."""
    coins = dict.fromkeys(range(4), 5)
    player = None
    for line in four_players.stdout.splitlines():
        if m := ROUND.match(line):
            player = int(m[2])
        elif m := PICK.match(line):
            assert player is not None
            coins[player] += int(m[3] or 0) - int(m[2])
        elif m := SCORE.match(line):
            assert player is not None
            coins[player] += int(m[1])
    rows = ranking(four_players.stdout)
    assert [r[0] for r in rows] == [1, 2, 3, 4]
    assert sorted(r[1] for r in rows) == [0, 1, 2, 3]
    assert {r[1]: r[2] for r in rows} == coins
    keys = [(-r[2], -r[3]) for r in rows]
    assert keys == sorted(keys)
    best = keys[0]
    assert [r[4] for r in rows] == [k == best for k in keys]


def test_play_quiet_prints_only_the_ranking(
    four_players: subprocess.CompletedProcess[str],
) -> None:
    """``--quiet`` prints only the final ranking, the same as the full printout ends with."""
    quiet = run("play", "--players", "4", "--seed", "1", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""
    lines = [line for line in quiet.stdout.splitlines() if line]
    assert lines[0] == "Final ranking:" and len(lines) == 1 + 4
    assert ranking(quiet.stdout) == ranking(four_players.stdout)
    assert four_players.stdout.endswith(quiet.stdout.lstrip("\n"))


def test_play_is_reproducible(four_players: subprocess.CompletedProcess[str]) -> None:
    """Determinism at the command line: the same seed prints the same game; another seed
    plays another game."""
    again = run("play", "--players", "4", "--seed", "1")
    assert again.stdout == four_players.stdout
    other = run("play", "--players", "4", "--seed", "2")
    assert other.returncode == 0 and other.stdout != four_players.stdout
    assert other.stdout.splitlines()[0] == "Small World on the 4p map, 4 players, seed 2"


def test_play_with_extra_rules() -> None:
    """``--rules`` adds rule files: the market (rule 1.2) shows six combos (or every race, if
    fewer), each a loaded race, test-only ones included in the pool."""
    result = run("play", "--players", "2", "--seed", "3", "--rules", str(TEST_RULES))
    assert result.returncode == 0, result.stderr
    rules = sw.load_rules(paths=[TEST_RULES])
    market = result.stdout.splitlines()[1].removeprefix("Market: ").split(", ")
    assert len(market) == min(6, len(rules.races))
    names = {r.name for r in rules.races.values()}
    assert all(any(combo.endswith(" " + name) for name in names) for combo in market)
    assert {"Crowd", "Miners", "Raiders"} <= names
    turns = [m for m in map(ROUND.match, result.stdout.splitlines()) if m]
    assert len(turns) == 2 * 10


def test_check_good_file() -> None:
    """``check`` on good rule files exits 0 and says ok for each."""
    rules = sw.load_rules()
    paths = [rules.races["giants"].path, rules.powers["commando"].path]
    result = run("check", *paths)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"{p}: ok" for p in paths]
    assert result.stderr == ""


BROKEN = """race oops "Oops" {
    tokens 5
    box 10
    text "Broken on purpose."
    conquest_cost sub 1 when target adjacent_to own regions with terrain mountian
    score add count(own regions with feature mien)
}
"""


def test_check_broken_file_points_at_the_mistakes(tmp_path: Path) -> None:
    """``check`` exits non-zero and reports every mistake as ``path:line:col:`` with the
    offending line, a caret and a hint; a good file next to it is still reported ok."""
    path = tmp_path / "oops.swr"
    path.write_text(BROKEN, encoding="utf-8")
    good = sw.load_rules().races["giants"].path
    result = run("check", str(path), good)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert f"{good}: ok" in result.stdout.splitlines()
    source = BROKEN.splitlines()
    expected = [
        (5, source[4].index("mountian") + 1, "mountian"),
        (6, source[5].index("mien") + 1, "mien"),
    ]
    for line, column, word in expected:
        header = f"{path}:{line}:{column}:"
        assert header in result.stderr
        after = result.stderr.split(header, 1)[1]
        assert word in after.splitlines()[0]
        assert source[line - 1].strip() in after and "^" in after and "hint:" in after


def test_check_syntax_error(tmp_path: Path) -> None:
    """A misspelt statement is a syntax error at its line and column, with a hint."""
    path = tmp_path / "typo.swr"
    path.write_text('race typo "Typo" {\n    tokens 5\n    box 10\n    conquest_cots sub 1\n}\n',
                    encoding="utf-8")
    result = run("check", str(path))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert f"{path}:4:5:" in result.stderr and "conquest_cost" in result.stderr


def test_check_missing_file(tmp_path: Path) -> None:
    """``check`` on a file that does not exist fails with its path, not a traceback."""
    missing = tmp_path / "nowhere.swr"
    result = run("check", str(missing))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert str(missing) in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["frobnicate"],
        [],
        ["play", "--players", "abc"],
        ["play", "--players", "9"],
        ["play", "--players", "1"],
        ["check"],
    ],
    ids=["unknown-command", "no-command", "players-not-a-number", "players-9", "players-1",
         "check-no-file"],
)
def test_bad_command_lines_fail_cleanly(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad command line exits non-zero with a one-line error message that names the
    command, and never a traceback (in-process through ``cli.main``; the console script runs
    the same function, see the subprocess test below)."""
    code, out, err = main(capsys, *args)
    assert code != 0
    assert "Traceback" not in err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("smallworld")
    assert "error" in lines[0] or "player" in lines[0]


def test_bad_command_line_through_the_console_entry() -> None:
    """The same through a real process: one line, exit status 2."""
    result = run("frobnicate")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("smallworld: error: ")
    assert len(result.stderr.strip().splitlines()) == 1 and "frobnicate" in result.stderr


def test_bad_player_count_is_one_line() -> None:
    """``play --players 9`` reports the library's RulesError in a single line (exit 2)."""
    result = run("play", "--players", "9")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert result.stderr.startswith("smallworld: ") and "9" in result.stderr


def test_play_with_broken_rules_file(tmp_path: Path) -> None:
    """``play --rules`` with a broken rule file fails with the ``path:line:col`` error, not a
    traceback."""
    path = tmp_path / "oops.swr"
    path.write_text(BROKEN, encoding="utf-8")
    result = run("play", "--rules", str(path))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert f"{path}:5:" in result.stderr


def test_check_files_together(tmp_path: Path) -> None:
    """`smallworld check` reads the files together: one may use a piece or option another
    declares; every broken file is reported in the same run."""
    (tmp_path / "keeps.swr").write_text(
        'power keeps "Keeps" { tokens 1 text "t" piece keep supply 2 { defence 1 }\n'
        '  option keeps_on default true "k" }\n'
    )
    (tmp_path / "users.swr").write_text(
        'race users "Users" { tokens 5 box 9 text "t"\n'
        "  score add count(own regions with piece keep) when option keeps_on }\n"
    )
    together = run("check", str(tmp_path / "keeps.swr"), str(tmp_path / "users.swr"))
    assert together.returncode == 0, together.stderr
    assert together.stdout.count(": ok") == 2
    (tmp_path / "bad1.swr").write_text('race bad1 "B" { tokens 5 box 9 text "t" flag flyy }\n')
    (tmp_path / "bad2.swr").write_text('power bad2 "B" { tokens 2 }\n')
    broken = run("check", str(tmp_path / "bad1.swr"), str(tmp_path / "bad2.swr"))
    assert broken.returncode != 0
    assert "bad1.swr:1:" in broken.stderr and "bad2.swr:1:" in broken.stderr


# --------------------------------------------------------------------------- issue 8: bots,
# records, show and tournament. Most run in-process through ``cli.main`` (the argparse entry
# point, the same function the console script calls) to keep the suite fast; the record
# round trip goes through a real subprocess.


def main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``smallworld ARGS`` in-process: (exit status, stdout, stderr)."""
    from smallworld_rules import cli

    try:
        code = cli.main(list(args))
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, out: str, err: str, *words: str) -> None:
    """A clean failure: non-zero exit, nothing on stdout, one line on stderr naming the
    command, with the given words, and no traceback."""
    assert code != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("smallworld") and "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


def game_lines(stdout: str) -> list[str]:
    """The turn-by-turn part of a printed game and its final ranking."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if ROUND.match(line))
    end = lines.index("Final ranking:") + 1
    while end < len(lines) and RANK.match(lines[end]):
        end += 1
    return lines[start:end]


def test_play_record_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``play --bots ... --record FILE`` names the bots and writes a record; ``replay FILE``
    verifies it and prints the very same game and ranking (both through the console entry)."""
    path = tmp_path / "game.json"
    played = run("play", "--players", "2", "--seed", "5", "--bots", "random,greedy",
                 "--record", str(path))
    assert played.returncode == 0, played.stderr
    assert "Bots: player 0 random, player 1 greedy" in played.stdout
    assert played.stdout.rstrip().endswith(f"Record written to {path}")
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["format"] == "smallworld_rules/record" and record["seed"] == 5
    replayed = run("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stderr == ""
    assert game_lines(replayed.stdout) == game_lines(played.stdout)
    steps = len(record["steps"])
    assert f"{path}: {steps} steps replayed, every one as recorded" in replayed.stdout
    code, out, err = main(capsys, "replay", str(path), "--quiet")
    assert code == 0 and err == "" and out == ""  # --quiet: nothing but errors


def test_replay_reports_a_hand_edited_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record edited by hand fails ``replay`` with exit status 1 and one line naming the
    first step that no longer matches."""
    path = tmp_path / "game.json"
    code, _, err = main(capsys, "play", "--seed", "8", "--quiet", "--record", str(path))
    assert code == 0, err
    record = json.loads(path.read_text(encoding="utf-8"))
    k = next(i for i, s in enumerate(record["steps"]) if s[0]["type"] == "Conquer")
    record["steps"][k][0]["region"] = 999
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = main(capsys, "replay", str(path))
    assert code == 1
    one_line_error(code, out, err, str(path), f"step {k}", "not legal")


def test_replay_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file, a file that is not JSON and a saved game (not a record) are one-line
    errors with exit status 2."""
    one_line_error(*main(capsys, "replay", str(tmp_path / "nowhere.json")), "nowhere.json")
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    one_line_error(*main(capsys, "replay", str(junk)), "junk.json", "invalid JSON")
    save = tmp_path / "save.json"
    save.write_text(sw.Game.new(players=2, seed=1).to_json(), encoding="utf-8")
    code, out, err = main(capsys, "replay", str(save))
    assert code == 2
    one_line_error(code, out, err, "not a game record")


@pytest.mark.parametrize("name", ["giants", "Giants", "GIANTS"])
def test_show_a_race(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """``show ID`` prints the name, the numbers, the rules text and the source file."""
    giants = sw.load_rules().races["giants"]
    code, out, err = main(capsys, "show", name)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{giants.name} (race giants)"
    assert lines[1] == f"tokens {giants.tokens}, box {giants.box}"
    assert f"source: {giants.path}" in lines
    assert giants.text in out
    assert Path(giants.path).read_text(encoding="utf-8").rstrip("\n") in out


def test_show_a_power(capsys: pytest.CaptureFixture[str]) -> None:
    commando = sw.load_rules().powers["commando"]
    code, out, _ = main(capsys, "show", "commando")
    assert code == 0
    assert out.splitlines()[:2] == [f"{commando.name} (power commando)",
                                    f"tokens {commando.tokens}"]
    assert commando.text in out


def test_show_with_extra_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """``--rules`` makes a user's race showable; without it the id is unknown."""
    code, out, _ = main(capsys, "show", "crowd", "--rules", str(TEST_RULES))
    assert code == 0 and out.startswith("Crowd (race crowd)\ntokens 8, box 9\n")
    one_line_error(*main(capsys, "show", "crowd"), "'crowd'")


def test_show_unknown_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = main(capsys, "show", "gaints")
    assert code == 2
    one_line_error(code, out, err, "'gaints'", "did you mean 'giants'")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "--bots", "clever"], ["unknown bot 'clever'", "greedy", "random"]),
        (["play", "--bots", "random,random,random"], ["3 bots for 2 players"]),
        (["play", "--expansion", "no_such_expansion"], ["no_such_expansion"]),
        (["show", "giants", "--expansion", "no_such_expansion"], ["no_such_expansion"]),
        (["play", "--rules", "/no/such/folder"], ["/no/such/folder"]),
        (["play", "--record", "/no/such/folder/game.json", "--quiet"], ["/no/such/folder"]),
        (["tournament", "--games", "0"], ["--games"]),
        (["tournament", "--bots", "greedy,clever"], ["unknown bot 'clever'"]),
        (["tournament", "--workers", "0"], ["--workers"]),
        (["tournament", "--players", "9", "--games", "1"], ["9"]),
        (["tournament", "--expansion", "no_such_expansion"], ["no_such_expansion"]),
        (["replay"], ["FILE"]),
        (["show"], ["ID"]),
        (["play", "--seed", "x"], ["--seed"]),
    ],
)
def test_new_subcommand_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], words: list[str]
) -> None:
    """Unknown bots, expansions, paths, bad options and missing arguments: one line on stderr,
    a non-zero exit, no traceback."""
    one_line_error(*main(capsys, *args), *words)


def test_expansion_names_are_passed_to_load_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--expansion`` takes the names ``sw.load_rules(expansions=[...])`` accepts, passing
    them through in order."""
    from smallworld_rules import cli

    seen: list[tuple[str, ...]] = []
    official = sw.load_rules()

    def fake_load_rules(expansions: Any = (), paths: Any = (), **_: Any) -> sw.Rules:
        seen.append(tuple(expansions))
        return official

    monkeypatch.setattr(cli, "load_rules", fake_load_rules)
    code, _, err = main(capsys, "play", "--expansion", "isle", "--expansion", "more", "--quiet")
    assert code == 0, err
    code, _, err = main(capsys, "show", "giants", "--expansion", "isle")
    assert code == 0, err
    assert seen == [("isle", "more"), ("isle",)]


TABLE = re.compile(
    r"^(\w+)\s+(\d+)\s+(\d+)\s+([\d.]+)% \(([\d.]+)% to ([\d.]+)%\)\s+"
    r"([\d.]+) \(([\d.]+) to ([\d.]+)\)\s+[\d.]+\s+\d+$"
)


def table(stdout: str) -> dict[str, tuple[float, ...]]:
    """The bots' rows: seats, wins, win rate and interval, mean coins and interval (the
    mean rank and Elo columns that end each row are checked in test_tournament.py)."""
    rows = {}
    for line in stdout.splitlines():
        if m := TABLE.match(line):
            rows[m[1]] = tuple(float(x) for x in m.groups()[1:])
    return rows


def test_tournament_reports_win_rates_and_coins(capsys: pytest.CaptureFixture[str]) -> None:
    """``tournament`` plays the games in worker processes with a progress bar on stderr (asked
    for: stderr is not a terminal here), then a row per bot: seats, wins, win rate with its 95%
    interval, mean coins with its interval."""
    code, out, err = main(capsys, "tournament", "--games", "4", "--players", "2",
                          "--bots", "greedy,random", "--workers", "2", "--progress")
    assert code == 0, err
    assert err.rstrip().endswith("] 4/4 games") and "Traceback" not in err
    assert out.splitlines()[0] == (
        "Tournament: 4 games of 2 players (seeds 0 to 3), bots greedy, random"
    )
    rows = table(out)
    assert set(rows) == {"greedy", "random"}
    total_wins = 0.0
    for seats, wins, rate, low, high, mean, mlow, mhigh in rows.values():
        assert seats == 4 and 0 <= wins <= seats
        assert rate == pytest.approx(100 * wins / seats, abs=0.05)
        assert low <= rate <= high and mlow <= mean <= mhigh
        total_wins += wins
    assert total_wins >= 4  # every game has a winner (shared wins count for each)
    assert rows["greedy"][1] > rows["random"][1]


def test_tournament_matches_play_and_is_the_same_in_parallel(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Game i of a tournament is ``play --seed S+i`` with the same bots: the mean coins and
    wins agree with those games; one worker or three give the same table."""
    code, serial, _ = main(capsys, "tournament", "--games", "5", "--seed", "10",
                           "--bots", "random", "--workers", "1")
    assert code == 0
    code, parallel, _ = main(capsys, "tournament", "--games", "5", "--seed", "10",
                             "--bots", "random", "--workers", "3")
    assert code == 0 and parallel == serial
    coins: list[int] = []
    winners = 0
    for seed in range(10, 15):
        code, out, _ = main(capsys, "play", "--seed", str(seed), "--quiet")
        assert code == 0
        rows = ranking(out)
        coins += [r[2] for r in rows]
        winners += sum(r[4] for r in rows)
    seats, wins, *_, mean, _, _ = table(serial)["random"]
    assert seats == 10 and wins == winners
    assert mean == pytest.approx(sum(coins) / len(coins), abs=0.05)


def test_confidence_intervals() -> None:
    """Wilson intervals and normal-approximation intervals of a mean (95%)."""
    from smallworld_rules.cli import mean_interval, wilson_interval

    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-3) and high == pytest.approx(0.7634, abs=1e-3)
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-3)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert high - mean == pytest.approx(1.959964 * 1.2909944 / 2, abs=1e-4)
    assert mean - low == pytest.approx(high - mean)


def test_replay_needs_the_users_rule_files_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game played with ``--rules`` replays with the same ``--rules``; without them the
    record diverges at set-up, naming the rule files that are missing."""
    path = tmp_path / "game.json"
    code, _, err = main(capsys, "play", "--seed", "3", "--rules", str(TEST_RULES), "--quiet",
                        "--record", str(path))
    assert code == 0, err
    code, out, err = main(capsys, "replay", str(path), "--rules", str(TEST_RULES))
    assert code == 0 and err == "" and "every one as recorded" in out
    code, out, err = main(capsys, "replay", str(path))
    assert code == 1
    one_line_error(code, out, err, "at set-up", "race:crowd")


# ---------------------------------------------------------------------- fmt


def test_fmt_normalises_a_file_and_keeps_its_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 10 part 5: `smallworld fmt FILE` rewrites a file in the canonical layout;
    `--check` reports files that are not formatted and exits 1, changing nothing."""
    path = tmp_path / "scouts.swr"
    path.write_text('# mine\nrace scouts "Scouts" {\n tokens 5 box 10  # few\n text "Far." }\n')
    code, out, _ = main(capsys, "fmt", "--check", str(path))
    assert code == 1 and "not formatted" in out
    assert path.read_text().startswith("# mine\nrace scouts")  # unchanged by --check
    code, out, _ = main(capsys, "fmt", str(path))
    assert code == 0 and "formatted" in out
    assert path.read_text() == (
        '# mine\nrace scouts "Scouts" {\n    tokens 5  # few\n    box 10\n    text "Far."\n}\n'
    )
    assert main(capsys, "fmt", "--check", str(path))[0] == 0


def test_fmt_refuses_a_broken_file_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.swr", tmp_path / "bad.swr"
    good.write_text('race good "Good" { tokens 1 box 1 text "x" }')
    bad.write_text('race bad "Bad" { tokens }')
    code, _, err = main(capsys, "fmt", str(good), str(bad))
    assert code == 2 and "bad.swr:1:" in err
    assert good.read_text() == 'race good "Good" { tokens 1 box 1 text "x" }'


# ---------------------------------------------------------------------- packs and overrides


def test_check_reports_a_file_that_would_replace_an_official_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 10: `smallworld check` reports an id taken by an official file (duplicate-id),
    beside the file's other errors, unless --override is given."""
    path = tmp_path / "ratmen.swr"
    path.write_text('race ratmen "Rats" {\n    tokens 9\n    box 13\n    text "More."\n}\n')
    code, _, err = main(capsys, "check", str(path))
    assert code == 1 and f"{path}:1:6: the id 'ratmen' is already used by" in err
    assert "override" in err
    code, out, _ = main(capsys, "check", "--override", str(path))
    assert code == 0 and out.strip() == f"{path}: ok"


def test_packs_lists_installed_packs_or_says_there_is_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = main(capsys, "packs")
    installed = sw.available_packs()
    assert code == 0
    if installed:
        assert all(pack.name in out for pack in installed)
    else:
        assert "no rule pack is installed" in out and "smallworld_rules.packs" in out


def test_play_with_an_unknown_pack_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = main(capsys, "play", "--pack", "no_such_pack", "--quiet")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no_such_pack" in err


def test_printed_lines_for_abilities_rolls_gains_and_acting_races() -> None:
    """`smallworld play` prints every kind of event a rule file can cause: an ability (a
    player target named as a player), an ability's die roll, tokens gained, a declined race
    acting."""
    from smallworld_rules import cli
    from smallworld_rules import events as ev

    game = sw.Game.new(players=3, seed=1)
    lines = [
        cli._describe(game, ev.AbilityUsed(0, "ratmen", "choose_ally", 2)),
        cli._describe(game, ev.AbilityUsed(0, "ratmen", "fortify", 7)),
        cli._describe(game, ev.DieRolled(0, -1, 2, 3, 4, True)),
        cli._describe(game, ev.DieRolled(0, -1, 0, 3, 1, False)),
        cli._describe(game, ev.TokensGained(0, "skeletons", 1)),
        cli._describe(game, ev.RaceActs(0, "ghouls", 3)),
    ]
    assert lines == [
        "  uses choose ally (Diplomat) on player 2",
        "  uses fortify (Fortified) on region 7",
        "  rolls 2 off the next conquest",
        "  rolls 0 off the next conquest: nothing is affordable, the conquests end",
        "  the Skeletons gain 1 token from the box",
        "  the Ghouls act, 3 tokens readied",
    ]


ZONES = re.compile(r"^\s*\[Well of Souls: (\d+)(?: \((.*)\))? \| Necromancer Island: (\d+)\]$")


def test_play_necromancer_island_prints_the_well_and_island(tmp_path: Path) -> None:
    """Issue 5 / rule 4: ``play --players 4 --expansion necromancer_island --seed 3``
    plays a full game on the 3-player map with player 3 as the Necromancer, and prints the
    Well of Souls and the Island each time they change; the last printout is the final
    position's (read back from the game's record)."""
    record = tmp_path / "ni.json"
    result = run(
        "play", "--players", "4", "--expansion", "necromancer_island", "--seed", "3",
        "--record", str(record),
    )
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "Small World on the 3p map, 4 players, seed 3"
    assert "Player 3 plays the Necromancer (Ghost tokens)" in lines
    zones = [m for m in map(ZONES.match, lines) if m]
    assert zones[0].groups() == ("0", None, "1")  # Rule 4.1.2: 1 Ghost on the Island, none lost
    snapshots = [(int(m[1]), m[2], int(m[3])) for m in zones]
    assert all(a != b for a, b in itertools.pairwise(snapshots))  # only changes
    for well, detail, _ in snapshots:  # the detail adds up to the Well's total
        counts = [int(part.rsplit(" ", 1)[1]) for part in (detail or "").split(", ") if part]
        assert sum(counts) == well
    assert any("the Well of Souls gives 1 Ghost for" in line for line in lines)  # Rule 4.2.5
    assert any(re.match(r"^== Round \d+, player 3 \(Necromancer\)$", line) for line in lines)
    rows = [line for line in lines[lines.index("Final ranking:") + 1:] if line.strip()]
    assert sum("player 3 (Necromancer)" in row for row in rows[:4]) == 1
    rules = sw.load_rules(expansions=["necromancer_island"])
    game = sw.Game.from_record(json.loads(record.read_text()), rules=rules)
    assert game.is_over
    final = (sum(game.zone("well").values()), game.zone("island")["ghost"])
    assert (snapshots[-1][0], snapshots[-1][2]) == final
