"""Game records: a compact JSON account of a whole game that can be replayed and verified.

A record holds what is needed to play the game again from its start — the rules it was played
with (expansion ids and a content hash of every rule file), the options, the seed, the players,
the map, the chance mode and the fixed combos if any — then every action in order, each with a
short check of the position it led to and the die faces rolled during it. Replaying a record
(:meth:`Game.from_record <smallworld_rules.Game.from_record>`) applies each action and compares
each check; when the rules have changed in a way that alters the game, the replay stops at the
first step that no longer matches with a :class:`RecordMismatch` naming that step and the rule
files that changed since the record was made.

>>> import smallworld_rules as sw
>>> from smallworld_rules.bots import RandomBot, play_game
>>> game = play_game(sw.Game.new(players=2, seed=3), [RandomBot(1), RandomBot(2)])
>>> record = game.to_record()
>>> record["format"], record["version"], len(record["steps"]) > 0
('smallworld_rules/record', 1, True)
>>> sw.Game.from_record(record).to_json() == game.to_json()
True

The format (version 1), a JSON object:

``format``, ``version``
    ``"smallworld_rules/record"`` and ``1``.
``engine``
    the library version that wrote it (informative only).
``rules``
    ``expansions`` and ``packs`` (names), ``files`` (``"kind:id"`` -> the first 16 hex
    digits of the SHA-256 of the rule file's text, for every race, power and expansion
    loaded) and ``hash`` (one SHA-256 over all of them): a changed rule file is detected and
    named. A user's own rule files are hashed too, but must be given again to replay.
``players``, ``map``, ``map_data``, ``seed``, ``chance``, ``options``
    as given to :meth:`Game.new <smallworld_rules.Game.new>` (``map_data``: the board itself
    when it is not an official one, else ``null``; ``options``: every option in force).
``combos``
    ``null``, or the ``[race, power]`` pairs the market was fixed to.
``market``
    the visible combos at the start, ``[race, power, coins]`` top to bottom.
``steps``
    one entry per action: ``[action, check]`` or ``[action, check, dice]`` where ``action``
    is the action's JSON form (``{"type": "Conquer", "region": 5}``), ``check`` is 10 hex
    digits of a digest of the position after it (round, active player, coins, hands, races,
    every region's occupant, tokens and pieces, the market), and ``dice`` lists the faces of
    the reinforcement die rolled during that step.
``result``
    ``over``, ``round``, ``coins`` and ``tokens`` of each player, and ``winners``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from smallworld_rules.game import Game
from smallworld_rules.recording import (
    FORMAT,
    VERSION,
    RecordMismatch,
    changed_rule_files,
    load_record,
    make_record,
    position_check,
    recorded_actions,
    replay,
    rules_fingerprint,
    rules_for_record,
)
from smallworld_rules.rules import Rules

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordMismatch",
    "changed_rule_files",
    "dump_record",
    "load_record",
    "make_record",
    "position_check",
    "recorded_actions",
    "replay_record",
    "rules_fingerprint",
    "rules_for_record",
]


def dump_record(record: Mapping[str, Any]) -> str:
    """JSON text of a record with one step per line (easy to read, diff and edit)."""
    lines = []
    for key, value in record.items():
        if key == "steps" and value:
            inner = ",\n".join("  " + json.dumps(s, separators=(",", ":")) for s in value)
            text = "[\n" + inner + "\n ]"
        else:
            text = json.dumps(value, sort_keys=True, separators=(",", ":"))
        lines.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def replay_record(
    source: Mapping[str, Any] | str, rules: Rules | None = None
) -> tuple[Game, list[str]]:
    """Replay a record step by step, verifying each one.

    Args:
        source: the record (a dict or its JSON text).
        rules: the rules to replay with (default: the official rules plus the record's
            expansions).

    Returns:
        The replayed game and the rule files that changed since the record was made (the game
        still replays identically if this function returns).

    Raises:
        RulesError: the record is malformed.
        RecordMismatch: the replay diverges; it names the first step that does not match.
    """
    return replay(Game, source, rules)
