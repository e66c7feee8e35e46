"""The command line says what it does and does what it says: the player count its help
promises, ``--version``, a quiet ``replay --quiet``, the replay's header at the start of the
game, the rule options ``replay`` takes, a log in the rule files' words, and ``play`` with
chosen combos, options and JSON output for scripts."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from smallworld_rules import __version__
from smallworld_rules.cli import build_parser, main

REPO = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _help(*command: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices[command[0]].format_help() if command else parser.format_help()


def test_the_player_count_refused_is_the_one_the_help_gives(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Closes "--players 99 says 2 to 8 while the help says 2 to 5": the message and the help
    agree, and an expansion's own range is the one refused."""
    assert "2 to 5" in " ".join(_help("play").split())
    code, _, err = run(capsys, "play", "--players", "99")
    assert code == 2 and "from 2 to 5" in err and "8" not in err
    code, _, err = run(capsys, "play", "--players", "7", "--expansion", "necromancer_island")
    assert code == 2 and "from 3 to 6 with Necromancer Island" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """Closes "no --version"."""
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"smallworld {__version__}"


@pytest.fixture
def recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--players", "3", "--seed", "4", "--record", str(path))
    assert code == 0, err
    return path, out


def test_replay_quiet_prints_nothing_but_errors(
    recorded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Closes "replay --quiet still prints the ranking": on success nothing is printed and the
    exit status is the verdict; a diverging record still says why."""
    path, _ = recorded
    assert run(capsys, "replay", "--quiet", str(path)) == (0, "", "")
    record = json.loads(path.read_text())
    record["steps"][3][1] = "0000000000"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "replay", "--quiet", str(path))
    assert code == 1 and out == "" and "step 3" in err


def test_the_replay_header_shows_the_market_at_the_start(
    recorded: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Closes "the replay header shows the market at the end of the game, not at the start":
    it is the market ``play`` printed before the first turn."""
    path, played = recorded
    code, out, _ = run(capsys, "replay", str(path))
    market = [line for line in played.splitlines() if line.startswith("Market: ")]
    assert code == 0 and len(market) == 1
    assert market[0] in out.splitlines()


def test_replay_takes_the_rule_options_the_docs_promise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Closes "replay lacks the --expansion/--pack/--override options the docs promise": a
    game played with a file overriding an official one replays with the same options, and
    not without ``--override``."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(REPO / "races" / "ratmen.swr", folder / "ratmen.swr")
    with (folder / "ratmen.swr").open("a") as handle:
        handle.write("# my copy\n")
    path = tmp_path / "game.json"
    code, _, err = run(capsys, "play", "--seed", "2", "--rules", str(folder), "--override",
                       "--quiet", "--record", str(path))
    assert code == 0, err
    code, out, err = run(capsys, "replay", str(path), "--rules", str(folder), "--override")
    assert code == 0 and "every one as recorded" in out, err
    code, _, err = run(capsys, "replay", str(path), "--rules", str(folder))
    assert code == 2 and "ratmen" in err
    code, _, err = run(capsys, "replay", str(path), "--expansion", "necromancer_island")
    assert code == 1 and "at set-up" in err
    for option in ("--expansion", "--pack", "--override", "--rules"):
        assert option in _help("replay")


def test_the_log_names_abilities_as_their_rule_files_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Closes "the game log shows raw ability ids (uses choose_ally on player 1)": an ability
    is named in words with the race or power whose file declares it."""
    code, out, _ = run(capsys, "play", "--players", "5", "--seed", "1", "--bots", "greedy")
    uses = [line for line in out.splitlines() if line.startswith("  uses ")]
    assert code == 0 and uses
    assert all("_" not in line and re.search(r"\([A-Z][\w ]+\)", line) for line in uses)
    assert "  uses fortify (Fortified) on region" in out


def test_the_log_says_once_that_a_race_leaves_the_map(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Closes "the game log says twice that a race leaves the map": when a decline displaces
    the old declined race, one line says it leaves."""
    code, out, _ = run(capsys, "play", "--players", "4", "--seed", "5", "--bots", "greedy")
    lines = out.splitlines()
    declines = [i for i, line in enumerate(lines) if "into decline" in line]
    assert code == 0 and declines
    for i in declines:
        assert "leave the map" not in lines[i]
    displaced = [i for i in declines if lines[i - 1].endswith("leave the map")]
    assert displaced  # seed 5 has declines that displace an old race, said once before


def test_play_with_chosen_combos_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    """Closes "a user cannot bring a custom race into a CLI game": ``--combos`` fixes the
    market (a race of one's own rule files included) and ``--options`` sets game options."""
    rules = str(REPO / "tests" / "rules")
    code, out, err = run(capsys, "play", "--seed", "1", "--rules", rules,
                         "--combos", "crowd:forest, giants:commando",
                         "--options", "flying_enters_anywhere=false,abandon_mid_conquest=true")
    assert code == 0, err
    assert out.splitlines()[1].startswith("Market: Forest Crowd, Commando Giants")
    code, out, _ = run(capsys, "play", "--seed", "1", "--json",
                       "--options", "flying_enters_anywhere=false")
    assert json.loads(out)["options"]["flying_enters_anywhere"] is False
    for bad, message in [
        (["--combos", "ratmen"], "RACE:POWER"),
        (["--combos", "ratmen:nothing"], "unknown power 'nothing'"),
        (["--options", "flying_enters_anywhere=maybe"], "true, false or a whole number"),
        (["--options", "nope=1"], "unknown game option 'nope'"),
        (["--options", "flying_enters_anywhere=3"], "takes true or false"),
    ]:
        code, out, err = run(capsys, "play", *bad)
        assert code == 2 and message in err and out == "", (bad, err)


def test_play_json_prints_one_object_for_scripts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --json`` prints only one JSON object: set-up, coins, tokens, ranking, winners;
    the same game as the printed one."""
    code, out, _ = run(capsys, "play", "--players", "3", "--seed", "6", "--json",
                       "--record", str(tmp_path / "r.json"))
    assert code == 0 and out.count("\n") == 1
    summary = json.loads(out)
    assert summary["players"] == 3 and summary["seed"] == 6 and summary["map"] == "3p"
    assert summary["record"] == str(tmp_path / "r.json")
    code, text, _ = run(capsys, "play", "--players", "3", "--seed", "6")
    table = re.findall(r"\d\. player (\d): (\d+) coins, (\d+) tokens?", text)
    assert [int(p) for p, _, _ in table] == summary["ranking"]
    assert {int(p): int(c) for p, c, _ in table} == dict(enumerate(summary["coins"]))
    assert summary["ranking"][0] in summary["winners"]


def test_the_cli_page_mentions_every_command_and_option() -> None:
    """The docs' command-line page matches the commands: every subcommand and every option
    of the parser is named on it (``--help`` aside), with its command."""
    page = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    assert "--version" in page
    sub = next(a for a in parser._actions if a.dest == "command")
    missing = []
    for name, command in sub.choices.items():
        if f"smallworld {name}" not in page:
            missing.append(name)
        for action in command._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--help" and flag not in page:
                    missing.append(f"{name} {flag}")
    assert not missing, missing


def test_the_cli_pages_code_lines_fit() -> None:
    """The page's example lines stay within 88 characters."""
    page = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", page, re.S)
    assert blocks and all(len(line) <= 88 for b in blocks for line in b.splitlines())
