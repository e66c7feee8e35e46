"""Bad input from elsewhere — a saved game, a record, a rule folder, a path on the command
line — is refused with a short message that changes nothing, never a traceback, a hang, a
file of the loading machine opened, or a huge echo of the input."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import smallworld_rules as sw
from smallworld_rules.bots import GreedyBot, RandomBot, play_game
from smallworld_rules.cli import main
from smallworld_rules.errors import excerpt
from smallworld_rules.records import RecordMismatch, header_check, load_record, replay_record

REPO = Path(__file__).resolve().parent.parent
SECRET = "SECRET-VALUE-FROM-DISK"


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    game = sw.Game.new(players=2, seed=4)
    game.apply(sw.PickCombo(0))
    return dict(json.loads(game.to_json()))


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    game = play_game(sw.Game.new(players=2, seed=3), [RandomBot(1), RandomBot(2)])
    return game.to_record()


def _refused(call: Any, *args: Any) -> sw.RulesError:
    with pytest.raises(sw.RulesError) as info:
        call(*args)
    return info.value


# ---------------------------------------------------------------------- item 5: nesting


@pytest.mark.parametrize("text", ["[" * 5000, "{\"a\":" * 5000, "[" * 100_000 + "]" * 100_000])
def test_deeply_nested_json_is_a_rules_error_not_a_recursion_error(text: str) -> None:
    """Closes "deeply nested JSON in a saved game or record raises RecursionError, not
    RulesError": both loaders refuse it with a short message."""
    for load in (sw.Game.from_json, load_record, sw.Game.from_record):
        error = _refused(load, text)
        assert "nested" in str(error) or "invalid JSON" in str(error)
        assert len(str(error)) < 200


def test_a_log_event_nested_500_levels_deep_is_refused(saved: dict[str, Any]) -> None:
    """Closes "500 levels inside a log event raise RecursionError": the depth is bounded
    before anything walks the data."""
    doc = copy.deepcopy(saved)
    deep: Any = 1
    for _ in range(500):
        deep = [deep]
    doc["log"][0]["player"] = deep
    error = _refused(sw.Game.from_json, json.dumps(doc))
    assert "nested more than" in str(error)


def test_a_record_dict_nested_deeply_or_cyclic_is_refused(record: dict[str, Any]) -> None:
    """A record handed over as a dict is bounded too, even one that contains itself."""
    cyclic = copy.deepcopy(record)
    cyclic["options"]["loop"] = cyclic
    assert "nested more than" in str(_refused(sw.Game.from_record, cyclic))


def test_replay_of_a_deeply_nested_file_prints_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``smallworld replay`` of ``"[" * 5000`` says it in one line with status 2."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 5000)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "nested" in err


# ---------------------------------------------------------------------- item 6: the map field


def test_a_saves_map_field_is_never_read_as_a_path(
    saved: dict[str, Any], tmp_path: Path
) -> None:
    """Closes "a saved game's 'map' field is read as a path on the loading machine, and the
    error echoes what it read": a save names an official map or carries the board inline."""
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"players": SECRET, "turns": 1, "regions": []}))
    doc = copy.deepcopy(saved)
    doc["map"] = str(secret)
    error = _refused(sw.Game.from_json, json.dumps(doc))
    assert SECRET not in str(error) and "not an official map" in str(error)
    doc["map_data"] = {"players": 2, "turns": 1, "regions": "x"}
    doc["map"] = "2p"
    assert "official map" in str(_refused(sw.Game.from_json, json.dumps(doc)))


def test_a_board_carried_inline_still_round_trips(tmp_path: Path) -> None:
    """The other way a save names its board: a board that is not official travels with the
    save (``map_data``) and restores without reading any file."""
    board = json.loads((REPO / "smallworld_rules" / "maps" / "2p.json").read_text())
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(board))
    game = sw.Game.new(players=2, seed=1, map=str(path))
    text = game.to_json()
    path.unlink()  # the file is gone: the save alone is enough
    assert sw.Game.from_json(text).to_json() == text


def test_a_records_map_field_is_never_read_as_a_path(
    record: dict[str, Any], tmp_path: Path
) -> None:
    """A record's ``map`` is the name of an official board; a path is refused unread."""
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"players": SECRET, "turns": 1, "regions": []}))
    bad = {**record, "map": str(secret)}
    bad["header_check"] = header_check(bad)
    error = _refused(replay_record, bad)
    assert SECRET not in str(error) and "official map" in str(error)


# ---------------------------------------------------------------------- item 8: malformed records


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("combos", [1], "combo 0 must be [race, power]"),
        ("combos", [["ratmen"]], "combo 0 must be [race, power]"),
        ("rules", {"expansions": [], "packs": "abc"}, "'rules.packs' must be a list of names"),
        ("rules", {"expansions": [1]}, "'rules.expansions' must be a list of names"),
        ("market", [[1, 2, 3]], "market entry 0"),
        ("chance", "loaded", "'chance'"),
    ],
)
def test_malformed_records_are_refused_with_a_short_message(
    record: dict[str, Any], field: str, value: Any, message: str
) -> None:
    """Closes "'combos': [1] gives a TypeError and 'rules': {'packs': 'abc'} is read as the packs
    a, b, c": each field is checked for its shape before anything is loaded."""
    bad = {**record, field: value}
    bad["header_check"] = header_check(bad)
    for call in (load_record, sw.Game.from_record, replay_record):
        error = _refused(call, bad)
        assert message in str(error) and not isinstance(error, RecordMismatch)
        assert len(str(error)) < 200


# ---------------------------------------------------------------------- item 9: the header


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("options", {"abandon_mid_conquest": True}),
        ("engine", "smallworld_rules 9.9"),
        ("seed", 4),
        ("players", 3),
        ("combos", [["ratmen", "forest"]]),
    ],
)
def test_tampering_with_any_header_field_is_detected(
    record: dict[str, Any], field: str, value: Any
) -> None:
    """Closes "replay verification ignores the record's header: changing options, engine or
    map_data still reports every step as recorded"."""
    bad = copy.deepcopy(record)
    bad[field] = value if field != "options" else {**record["options"], **value}
    with pytest.raises(RecordMismatch) as info:
        replay_record(bad)
    assert info.value.step is None and "header" in str(info.value)


def test_map_data_in_a_record_is_refused(record: dict[str, Any]) -> None:
    """``map_data`` is always null in a record (only official boards are recorded): a board
    slipped in is refused."""
    bad = {**record, "map_data": {"players": 2, "turns": 10, "regions": []}}
    assert "map_data" in str(_refused(replay_record, bad))


def test_an_untouched_record_still_replays(record: dict[str, Any]) -> None:
    """The check holds for what the library writes (through JSON text too)."""
    game, changed = replay_record(json.dumps(record))
    assert changed == [] and game.is_over


# ---------------------------------------------------------------------- item 10: short echoes


def test_a_50_mb_string_in_a_save_gives_a_short_message(saved: dict[str, Any]) -> None:
    """Closes "a 50 MB string in a save gives a 52 MB message": messages quote a short,
    escaped excerpt."""
    huge = "A" * 50_000_000
    for path in (("state", "phase"), ("state", "round"), ("state", "acting"), ("players",)):
        doc = copy.deepcopy(saved)
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = huge
        error = _refused(sw.Game.from_json, json.dumps(doc))
        assert len(str(error)) < 300, (path, len(str(error)))
        assert path == ("players",) or "50000000 characters" in str(error)


def test_long_keys_and_control_characters_are_cut_and_escaped(saved: dict[str, Any]) -> None:
    """A huge key (a region id of a million digits) is refused without converting it, and
    control characters come out escaped."""
    doc = copy.deepcopy(saved)
    doc["state"]["pieces"] = {"9" * 1_000_000: {}}
    assert len(str(_refused(sw.Game.from_json, json.dumps(doc)))) < 300
    doc = copy.deepcopy(saved)
    doc["state"]["phase"] = "\x1b[2J\x00"
    error = str(_refused(sw.Game.from_json, json.dumps(doc)))
    assert "\x1b" not in error and "\\x1b" in error


def test_excerpt_is_short_whatever_it_is_given() -> None:
    """The one helper messages quote input with."""
    assert excerpt("ratmen") == "'ratmen'"
    assert len(excerpt("x" * 10**7)) < 100 and len(excerpt(list(range(10**6)))) < 100
    assert excerpt(10**5000) == "<int>"


@pytest.mark.skipif(os.name == "nt", reason="symbolic links")
def test_a_rule_folder_link_to_a_secret_is_refused_unread(tmp_path: Path) -> None:
    """Closes "a rule-folder symlink to a secrets file echoes its first line"."""
    secret = tmp_path / "secrets.txt"
    secret.write_text(f"{SECRET}\n")
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "evil.swr").symlink_to(secret)
    error = _refused(sw.load_rules, (), [folder])
    assert SECRET not in str(error) and "outside" in str(error)
    (folder / "src").mkdir()  # a link inside the folder is fine
    inner = folder / "src" / "linked.swr"
    inner.write_text('race linked "Linked" {\n    tokens 5\n    box 10\n    text "x"\n}\n')
    (folder / "evil.swr").unlink()
    (folder / "linked.swr").symlink_to(inner)
    assert "linked" in sw.load_rules(paths=[folder]).races


# ---------------------------------------------------------------------- item 11: paths, bots


def test_check_and_fmt_accept_folders(capsys: pytest.CaptureFixture[str]) -> None:
    """Closes "smallworld check DIR and fmt --check DIR fail on folders although the docs show
    it"."""
    assert main(["check", str(REPO / "races")]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok") == len(list((REPO / "races").glob("*.swr")))
    assert main(["fmt", "--check", str(REPO / "powers")]) == 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["fmt"]])
def test_check_and_fmt_refuse_a_fifo_at_once(tmp_path: Path, command: list[str]) -> None:
    """Closes "on a FIFO they hang": a path that is not a regular file is refused unread."""
    fifo = tmp_path / "pipe.swr"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "smallworld_rules.cli", *command, str(fifo)],
        capture_output=True, text=True, timeout=60, cwd=REPO,
    )
    assert done.returncode == 2 and "regular file" in done.stderr
    assert "Traceback" not in done.stderr
    with pytest.raises(sw.RuleFileError, match="not a regular file"):
        sw.dsl.parse_file(fifo)


def test_greedy_bot_on_custom_rules_says_what_is_missing() -> None:
    """Closes "GreedyBot on custom rules without rules= says 'corrupt saved game: …' where no
    save is involved": it names the race the official rules lack and how to pass the rules."""
    rules = sw.load_rules(paths=[REPO / "tests" / "rules"])
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("burrowers", "forest")])
    with pytest.raises(sw.RulesError) as info:
        GreedyBot(1).choose(game.observation(0), list(game.legal_actions()))
    message = str(info.value)
    assert "'burrowers'" in message and "rules=game.rules" in message
    assert "corrupt saved game" not in message
    assert GreedyBot(1, rules).choose(game.observation(0), list(game.legal_actions()))
