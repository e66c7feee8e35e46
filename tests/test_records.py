"""Game records (issue 8): a compact JSON record of a whole game — rules and their content
hashes, options, seed, players, every action and die roll — that ``Game.from_record`` replays,
verifying each step; a record that no longer matches (a changed rule, a hand-edited step) is
reported with the first step that diverges.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import new_game

import smallworld_rules as sw
from smallworld_rules import events as ev
from smallworld_rules.actions import action_from_dict
from smallworld_rules.bots import GreedyBot, RandomBot, play_game
from smallworld_rules.records import (
    RecordMismatch,
    dump_record,
    load_record,
    replay_record,
    rules_fingerprint,
)


def played(rules: sw.Rules, seed: int = 3, players: int = 2, **kwargs: Any) -> sw.Game:
    game = sw.Game.new(players=players, seed=seed, rules=rules, **kwargs)
    return play_game(game, [RandomBot(seed * 10 + p) for p in range(players)],
                     chance_seed=seed)


APPLIED: list[sw.Action] = []


@pytest.fixture(scope="module")
def game(official: sw.Rules) -> sw.Game:
    """A finished 3-player game between a greedy and two random bots (its actions are kept
    in APPLIED)."""
    g = sw.Game.new(players=3, seed=12, rules=official)
    APPLIED.clear()
    return play_game(g, [GreedyBot(1, official), RandomBot(2), RandomBot(3)],
                     on_action=lambda _, action: APPLIED.append(action))


@pytest.fixture(scope="module")
def record(game: sw.Game) -> dict[str, Any]:
    return game.to_record()


def test_record_holds_the_setup_and_every_step(game: sw.Game, record: dict[str, Any]) -> None:
    """The record names its format and version, the rules (with a hash per file), the set-up
    and one step per action; the dice of the steps are the die faces of the log in order."""
    assert record["format"] == "smallworld_rules/record" and record["version"] == 2
    assert (record["players"], record["map"], record["seed"]) == (3, "3p", 12)
    assert record["chance"] == "seeded" and record["options"] == game.options
    assert record["combos"] is None
    files = record["rules"]["files"]
    assert {f"race:{r}" for r in game.rules.races} <= set(files)
    assert {f"power:{p}" for p in game.rules.powers} <= set(files)
    assert all(re.fullmatch(r"[0-9a-f]{16}", h) for h in files.values())
    dice = [face for step in record["steps"] for face in (step[2] if len(step) == 3 else [])]
    assert dice == [e.face for e in game.log if isinstance(e, ev.DieRolled)]
    assert record["result"]["coins"] == [game.coins(p) for p in range(3)]
    assert record["result"]["winners"] == game.winners and record["result"]["over"]
    assert [s[0] for s in record["steps"]] == [a.to_dict() for a in APPLIED]
    assert json.loads(json.dumps(record)) == record


def test_record_replays_to_the_same_game(game: sw.Game, record: dict[str, Any]) -> None:
    """Replaying the record (as a dict or as its JSON text) gives exactly the same game."""
    assert sw.Game.from_record(record).to_json() == game.to_json()
    text = dump_record(record)
    assert json.loads(text) == record
    assert text.count("\n") >= len(record["steps"])  # one step per line
    replayed, changed = replay_record(text)
    assert replayed.to_json() == game.to_json() and changed == []
    assert replayed.to_record() == record


def test_record_of_a_game_in_progress_and_with_fixed_combos(rules: sw.Rules) -> None:
    """A record can be made at any point; a fixed market is recorded and replayed too."""
    game = new_game(rules, [("crowd", "plain"), ("miners", "plain2")], seed=9)
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(30):
        mover = game.to_move
        assert mover is not None and mover != sw.CHANCE
        game.apply(bots[mover].choose(game))
    record = game.to_record()
    assert record["combos"][:2] == [["crowd", "plain"], ["miners", "plain2"]]
    assert not record["result"]["over"] and len(record["steps"]) == 30
    assert sw.Game.from_record(record, rules=rules).to_json() == game.to_json()


def test_explicit_chance_records_the_rolls(rules: sw.Rules) -> None:
    """With chance="explicit" the die rolls are RollDie steps, replayed as recorded."""
    for seed in range(20):
        game = played(rules, seed=seed, players=3, chance="explicit")
        if any(isinstance(e, ev.DieRolled) for e in game.log):
            break
    record = game.to_record()
    rolls = [s for s in record["steps"] if s[0]["type"] == "RollDie"]
    assert rolls and all(s[2] == [s[0]["face"]] for s in rolls)
    assert record["chance"] == "explicit"
    assert sw.Game.from_record(record, rules=rules).to_json() == game.to_json()


def test_undone_actions_are_not_recorded(rules: sw.Rules) -> None:
    game = sw.Game.new(players=2, seed=1, rules=rules)
    game.apply(sw.PickCombo(1))
    game.undo()
    game.apply(sw.PickCombo(0))
    steps = game.to_record()["steps"]
    assert [s[0] for s in steps] == [{"type": "PickCombo", "index": 0}]


def test_games_without_a_full_history_cannot_be_recorded(rules: sw.Rules) -> None:
    """A game restored from JSON (no history) or set up with put cannot be recorded."""
    game = sw.Game.new(players=2, seed=1, rules=rules)
    game.apply(sw.PickCombo(0))
    restored = sw.Game.from_json(game.to_json(), rules=rules)
    with pytest.raises(sw.RulesError, match="history"):
        restored.to_record()
    edited = sw.Game.new(players=2, seed=1, rules=rules)
    edited.set_coins(0, 9)
    with pytest.raises(sw.RulesError, match="put/clear/set_coins"):
        edited.to_record()


def diverges(record: dict[str, Any], rules: sw.Rules | None = None) -> RecordMismatch:
    with pytest.raises(RecordMismatch) as info:
        sw.Game.from_record(record, rules=rules)
    assert isinstance(info.value, sw.RulesError)
    return info.value


def other_legal_action(game: sw.Game, record: dict[str, Any], step: int) -> dict[str, Any]:
    """A legal action at ``step`` other than the recorded one."""
    replay = sw.Game.new(players=record["players"], seed=record["seed"], rules=game.rules,
                         options=record["options"])
    for s in record["steps"][:step]:
        replay.apply(action_from_dict(s[0]))
    recorded = record["steps"][step][0]
    for action in replay.legal_actions():
        if action.to_dict() != recorded:
            return action.to_dict()
    raise AssertionError("only one legal action at that step")


def test_hand_edited_action_is_caught_at_its_step(game: sw.Game, record: dict[str, Any]) -> None:
    """Another (legal) action at step k: the position after it no longer matches, at step k.
    An impossible action at step k: refused at step k."""
    conquests = [i for i, s in enumerate(record["steps"]) if s[0]["type"] == "Conquer"]
    k = conquests[len(conquests) // 2]
    edited = copy.deepcopy(record)
    edited["steps"][k][0] = other_legal_action(game, record, k)
    mismatch = diverges(edited)
    assert mismatch.step == k and mismatch.rules_changed == ()
    assert f"step {k}" in str(mismatch)
    impossible = copy.deepcopy(record)
    impossible["steps"][k][0] = {"type": "Conquer", "region": 999}
    assert diverges(impossible).step == k
    garbage = copy.deepcopy(record)
    garbage["steps"][k][0] = {"type": "Teleport"}
    assert diverges(garbage).step == k


def test_hand_edited_checks_dice_and_result_are_caught(record: dict[str, Any]) -> None:
    k = len(record["steps"]) // 3
    edited = copy.deepcopy(record)
    edited["steps"][k][1] = "0000000000"
    assert diverges(edited).step == k
    rolled = [i for i, s in enumerate(record["steps"]) if len(s) == 3]
    assert rolled, "the recorded game has die rolls"
    dice = copy.deepcopy(record)
    i = rolled[0]
    dice["steps"][i][2] = [(dice["steps"][i][2][0] + 1) % 4]
    mismatch = diverges(dice)
    assert mismatch.step == i and "die" in mismatch.reason
    result = copy.deepcopy(record)
    result["result"]["coins"][0] += 1
    assert diverges(result).step == len(record["steps"])
    market = copy.deepcopy(record)
    market["market"] = market["market"][::-1]
    assert diverges(market).step is None
    dropped = copy.deepcopy(record)
    del dropped["steps"][k]
    assert diverges(dropped).step is not None


def _rules_with(official: sw.Rules, tmp_path: Path, rule_id: str, change: Any) -> sw.Rules:
    """The official rules with one rule file replaced by an edited copy."""
    rule = official.get(rule_id)
    copied = tmp_path / Path(rule.path).name
    shutil.copy(rule.path, copied)
    copied.write_text(change(copied.read_text(encoding="utf-8")), encoding="utf-8")
    try:
        return sw.load_rules(paths=[copied], override=True)
    except TypeError:  # a loader without override= lets a later file replace an earlier one
        return sw.load_rules(paths=[copied])


def test_a_rule_change_that_alters_the_game_is_reported_at_its_first_step(
    official: sw.Rules, game: sw.Game, record: dict[str, Any], tmp_path: Path
) -> None:
    """Give the first race picked two more tokens: the replay diverges at the step where it is
    picked (its hand differs), and the changed rule file is named."""
    first = next(e for e in game.log if isinstance(e, ev.ComboPicked))
    pick = next(i for i, s in enumerate(record["steps"]) if s[0]["type"] == "PickCombo")

    def more_tokens(text: str) -> str:
        return re.sub(r"\btokens (\d+)", lambda m: f"tokens {int(m[1]) + 2}", text, count=1)

    changed = _rules_with(official, tmp_path, first.race, more_tokens)
    assert changed.races[first.race].tokens == official.races[first.race].tokens + 2
    mismatch = diverges(record, changed)
    assert mismatch.step == pick
    assert mismatch.rules_changed == (f"race:{first.race}",)
    assert f"race:{first.race}" in str(mismatch)
    assert rules_fingerprint(changed)["hash"] != record["rules"]["hash"]


def test_a_rule_change_that_does_not_alter_the_game_is_only_noted(
    official: sw.Rules, game: sw.Game, record: dict[str, Any], tmp_path: Path
) -> None:
    """A comment added to a rule file changes its hash, but the game replays identically."""
    first = next(e for e in game.log if isinstance(e, ev.ComboPicked))
    changed = _rules_with(official, tmp_path, first.race, lambda t: "# a comment\n" + t)
    replayed, files = replay_record(record, changed)
    assert files == [f"race:{first.race}"]
    assert replayed.to_json() == game.to_json()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "invalid JSON"),
        ('{"format": "smallworld_rules/game"}', "format"),
        ('{"format": "smallworld_rules/record", "version": 99}', "version"),
        ('{"format": "smallworld_rules/record", "version": 2}', "missing"),
    ],
)
def test_malformed_records_are_rules_errors(text: str, message: str) -> None:
    with pytest.raises(sw.RulesError, match=message) as info:
        load_record(text)
    assert not isinstance(info.value, RecordMismatch)


def test_wrongly_shaped_steps_are_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["steps"][0] = "PickCombo 0"
    with pytest.raises(sw.RulesError, match="step 0"):
        load_record(bad)
