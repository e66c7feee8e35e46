"""The board on the command line: ``show map``, ``play --svg-dir``, ``replay --html`` and
playing against the bots at the keyboard (``play --bots keyboard,greedy``)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules import cli
from smallworld_rules.htmlview import replay_html
from smallworld_rules.terminal import describe_action, play_in_terminal
from tests.test_svg import HOSTILE, check_picture


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_show_map_prints_the_region_key_and_writes_the_picture(
    players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``show map --players N --svg FILE``: a line per region (terrain, symbols, edge,
    borders) and a picture of the board."""
    target = tmp_path / "map.svg"
    code, out, err = run(capsys, "show", "map", "--players", str(players), "--svg", str(target))
    assert (code, err) == (0, "")
    game_map = sw.load_map(f"{players}p")
    lines = out.splitlines()
    assert lines[0] == f"The {players}p map: {len(game_map)} regions, {game_map.turns} turns"
    for r in game_map.regions:
        line = lines[1 + r.id]
        assert line.split()[0] == str(r.id) and r.terrain in line
        assert line.endswith("borders " + ", ".join(map(str, r.adjacent)))
        assert ("edge" in line) == r.edge
    check_picture(target.read_text(encoding="utf-8"), game_map)


def test_show_map_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown board is one line on stderr, exit status 2."""
    code, out, err = run(capsys, "show", "map", "--players", "9")
    assert code == 2 and out == "" and "2 to 5 players, not 9" in err


def test_play_writes_a_picture_after_every_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --svg-dir DIR``: one picture at the start, one after every turn, one at the end,
    each a valid board picture."""
    folder = tmp_path / "pictures"
    code, _, err = run(capsys, "play", "--seed", "4", "--quiet", "--svg-dir", str(folder))
    assert (code, err) == (0, "")
    names = sorted(p.name for p in folder.iterdir())
    turns = [n for n in names if n.startswith("turn-")]
    assert names == [*turns, "end.svg"] or names == ["end.svg", *turns]
    assert turns[0] == "turn-000.svg"
    assert [int(n[5:8]) for n in turns] == list(range(len(turns)))
    assert len(turns) == 2 * 10  # two players, ten turns each: every turn started is drawn
    for name in (turns[0], turns[-1], "end.svg"):
        check_picture((folder / name).read_text(encoding="utf-8"), sw.load_map("2p"))


def record_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    record = tmp_path / "game.json"
    code, _, _ = run(capsys, "play", "--players", "3", "--seed", "6", "--quiet",
                     "--bots", "greedy", "--record", str(record))
    assert code == 0
    return record


def page_data(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="frames">(.*?)</script>', page, re.S)
    assert match is not None
    data: dict[str, object] = json.loads(match.group(1))
    return data


def test_replay_writes_one_self_contained_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay RECORD --html FILE``: one page, nothing loaded from elsewhere, a frame per
    step (the start and each action), each with its log lines and scores."""
    record = record_file(tmp_path, capsys)
    page_file = tmp_path / "replay.html"
    code, out, err = run(capsys, "replay", str(record), "--html", str(page_file))
    assert (code, err) == (0, "") and f"replay page written to {page_file}" in out
    page = page_file.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "default-src 'none'" in page
    steps = json.loads(record.read_text(encoding="utf-8"))["steps"]
    data = page_data(page)
    frames = data["frames"]
    assert isinstance(frames, list)
    assert data["steps"] == len(frames) == len(steps) + 1
    assert frames[0]["action"] == "start"
    assert any("conquers region" in line for f in frames for line in f["log"])
    assert all(len(f["players"]) == 3 for f in frames)
    final = sw.Game.from_record(record.read_text(encoding="utf-8"))
    assert [p[1] for p in frames[-1]["players"]] == [final.coins(p) for p in range(3)]


def hostile_game(tmp_path: Path) -> sw.Game:
    rule = tmp_path / "hostile.swr"
    name = HOSTILE.replace('"', "'")
    rule.write_text(f'race hostile "{name}" {{\n    tokens 6\n    box 12\n    text "x"\n}}\n')
    rules = sw.load_rules(paths=[rule])
    game = sw.Game.new(players=2, seed=2, rules=rules, combos=[("hostile", "flying")])
    bots = [sw.GreedyBot(0, rules), sw.GreedyBot(1, rules)]
    for _ in range(30):
        mover = game.to_move
        assert mover is not None and mover >= 0
        game.apply(bots[mover].choose(game.observation(mover), list(game.legal_actions())))
    assert any(game.region(r).race == "hostile" for r in range(len(game.map)))
    return game


def test_replay_page_escapes_hostile_names(tmp_path: Path) -> None:
    """A race named with markup cannot inject it into the viewer: the only script elements
    are the page's own, and the name is in the data as text."""
    page = replay_html(hostile_game(tmp_path))
    assert page.count("<script") == 3  # the error catcher, the data, the viewer
    before = re.findall(r"(.{0,16})alert\(", page)
    assert before and all(b.endswith(("&lt;script&gt;", "\\u003cscript>")) for b in before)
    parts = page_data(page)["parts"]
    assert isinstance(parts, list)
    assert any("&lt;script&gt;alert(" in part for part in parts)


# ---------------------------------------------------------------------- at the keyboard


def test_the_keyboard_player_sees_choices_with_costs_and_illegal_entries_are_explained(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player at the keyboard gets the text board and numbered choices with costs; a
    number out of range, a word that is no action and an illegal action are each explained,
    and nothing is played; ``q`` stops."""
    monkeypatch.setattr("sys.stdin", io.StringIO("0\nfoo\n99\nconquer 22\nq\n"))
    code, out, err = run(capsys, "play", "--bots", "keyboard,greedy", "--seed", "2")
    assert (code, err) == (0, "")
    assert "Player 0, your choices:" in out and "Regions:" in out
    assert re.search(r"\n +0\. pick .* \(coins \+0, \d+ tokens\)", out)
    assert re.search(r"\n +\d+\. conquer region \d+ \(.*\) for \d+", out)
    assert "not understood: 'foo'" in out
    assert "there is no choice 99: enter 0 to" in out
    assert "not legal now: Conquer(region=22): region 22 is water" in out
    assert "Final ranking" not in out


def test_keyboard_undo_takes_back_their_last_action() -> None:
    """``u`` undoes the keyboard player's last action and the bots' moves since: the position is the
    one they decided in, exactly."""
    game = sw.Game.new(players=2, seed=3)
    start = game.to_json()
    entries = iter(["0", "u", "q"])
    lines: list[str] = []
    boards: list[str] = []

    def read(prompt: str) -> str:
        boards.append(game.to_json())
        return next(entries)

    finished = play_in_terminal(game, [None, sw.GreedyBot(1)], read=read, write=lines.append)
    assert finished is False
    assert "undone: your last action, and the moves made after it" in lines
    assert boards[0] == start and boards[-1] == start != boards[1]
    assert game.to_json() == start and game.action_stack == ()


def test_undo_before_acting_is_refused() -> None:
    """With nothing of the keyboard player's to undo, ``u`` is explained and asked again."""
    game = sw.Game.new(players=2, seed=3)
    entries = iter(["u", "q"])
    lines: list[str] = []
    play_in_terminal(game, [None, None], read=lambda p: next(entries), write=lines.append)
    assert "nothing to undo: you have not acted yet" in lines


def test_a_whole_game_at_the_keyboard() -> None:
    """Always answering the first choice plays a game to its end against a bot; the input
    ending early stops cleanly."""
    game = sw.Game.new(players=2, seed=8)
    finished = play_in_terminal(game, [None, sw.GreedyBot(1)], read=lambda p: "0",
                                write=lambda s: None)
    assert finished and game.is_over
    short = sw.Game.new(players=2, seed=8)

    def ends(prompt: str) -> str:
        raise EOFError

    lines: list[str] = []
    assert play_in_terminal(short, [None, None], read=ends, write=lines.append) is False
    assert "(input ended: stopping)" in lines


def test_described_actions_name_costs() -> None:
    """A conquest is described with its cost now, a pick with the coins it changes."""
    game = sw.Game.new(players=2, seed=1)
    assert "(coins -2, " in describe_action(game, sw.PickCombo(2))
    game.apply(sw.PickCombo(0))
    conquest = next(a for a in game.legal_actions() if isinstance(a, sw.Conquer))
    text = describe_action(game, conquest)
    assert text.endswith(f" for {game.conquest_cost(conquest.region)}")


def test_quiet_replay_still_writes_the_page_and_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay --quiet --html FILE``: the page is written; nothing but errors is printed."""
    record = record_file(tmp_path, capsys)
    page_file = tmp_path / "quiet.html"
    code, out, err = run(capsys, "replay", str(record), "--quiet", "--html", str(page_file))
    assert (code, out, err) == (0, "", "")
    assert "default-src 'none'" in page_file.read_text(encoding="utf-8")
