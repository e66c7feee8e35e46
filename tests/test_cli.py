"""The ``smallworld`` console command (DESIGN.md §7 Ecosystem), run through its real entry
point in a subprocess: ``play`` prints a whole random game and the final ranking, ``check``
validates rule files with ``path:line:col`` errors (§5), and bad command lines fail cleanly.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from conftest import TEST_RULES

import smallworld_rules as sw

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
        m = RANK.match(line)
        assert m, f"unexpected ranking line {line!r}"
        rank, player, coins, tokens = (int(g) for g in m.groups()[:4])
        rows.append((rank, player, coins, tokens, m.group(5) is not None))
    return rows


def test_entry_point_is_declared() -> None:
    """§7: ``pip install .`` gives a ``smallworld`` console command running ``cli.main``."""
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
    assert picks and all(m[1] == m[2] for m in picks)  # §1.5: position k costs k coins
    conquests = [m for m in map(CONQUER.match, lines) if m]
    assert conquests
    for m in conquests:
        assert 0 <= int(m[1]) < 39 and int(m[2]) >= 1  # a region of the 4p map; cost ≥ 1
    assert "Final ranking:" in lines


def test_play_coins_add_up(four_players: subprocess.CompletedProcess[str]) -> None:
    """§1.5 / §1.11 in the printout: each player's final coins are 5 + printed scores − coins
    paid for picks + coins taken with them; the ranking is by coins, then tokens (§1.14), and
    exactly the best are marked winners."""
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
    """§6 determinism at the command line: the same seed prints the same game; another seed
    plays another game."""
    again = run("play", "--players", "4", "--seed", "1")
    assert again.stdout == four_players.stdout
    other = run("play", "--players", "4", "--seed", "2")
    assert other.returncode == 0 and other.stdout != four_players.stdout
    assert other.stdout.splitlines()[0] == "Small World on the 4p map, 4 players, seed 2"


def test_play_with_extra_rules() -> None:
    """``--rules`` adds rule files: the market (§1.2) shows six combos (or every race, if
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
    """§5: ``check`` exits non-zero and reports every mistake as ``path:line:col:`` with the
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
    """§5: a misspelt statement is a syntax error at its line and column, with a hint."""
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
def test_bad_command_lines_fail_cleanly(args: list[str]) -> None:
    """A bad command line exits non-zero with an error message ending in one line that names
    the command, and never a traceback."""
    result = run(*args)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("smallworld")
    assert "error" in last or "player" in last


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
