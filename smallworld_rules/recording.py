"""Game records, below the :class:`~smallworld_rules.Game` façade: writing a game's record and
replaying one (the format is described in :mod:`smallworld_rules.records`).

``Game.to_record`` and ``Game.from_record`` work through this module, so it never imports the
façade: a replay makes its game with the class it is given (``replay``), and
:func:`~smallworld_rules.records.replay_record` gives it :class:`~smallworld_rules.Game`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from smallworld_rules import events as ev
from smallworld_rules.actions import (
    Action,
    action_from_dict,
)
from smallworld_rules.errors import IllegalAction, RulesError, excerpt
from smallworld_rules.maps import MAP_NAMES
from smallworld_rules.rules import Rules, load_rules
from smallworld_rules.saved import check_depth, load_json
from smallworld_rules.state import State, state_to_dict
from smallworld_rules.version import __version__

if TYPE_CHECKING:
    from smallworld_rules.game import Game

FORMAT: Final = "smallworld_rules/record"
VERSION: Final = 2
#: The header: what ``header_check`` covers (the steps and result are checked by replaying).
_HEADER: Final = (
    "format", "version", "engine", "rules", "players", "map", "map_data", "seed", "chance",
    "options", "combos", "market",
)
_KEYS: Final = (*_HEADER, "steps", "result", "header_check")


class RecordMismatch(RulesError):
    """A record that no longer replays as it was recorded.

    Attributes:
        step: index in ``record["steps"]`` of the first step that does not match; ``None``
            when the game cannot even be set up as recorded; ``len(record["steps"])`` when
            every step matches but the final result does not.
        reason: what differs, in one sentence.
        rules_changed: ``"kind:id"`` of every rule file that changed, appeared or disappeared
            since the record was made (empty if the rules are the same).
    """

    def __init__(self, step: int | None, reason: str, rules_changed: Iterable[str] = ()) -> None:
        self.step = step
        self.reason = reason
        self.rules_changed = tuple(rules_changed)
        where = "at set-up" if step is None else f"at step {step}"
        text = f"the record diverges {where}: {reason}"
        if self.rules_changed:
            text += f" (rule files changed since it was recorded: {', '.join(self.rules_changed)})"
        super().__init__(text)


# ---------------------------------------------------------------------- fingerprints

_FILE_HASHES: dict[tuple[str, int, int], str] = {}


def _file_hash(path: str) -> str:
    try:
        stat = Path(path).stat()
        key = (path, stat.st_mtime_ns, stat.st_size)
        if key not in _FILE_HASHES:
            _FILE_HASHES[key] = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
        return _FILE_HASHES[key]
    except OSError:
        return "unreadable"


def rules_fingerprint(rules: Rules) -> dict[str, Any]:
    """The ``rules`` entry of a record: expansion ids, per-file hashes and one overall hash."""
    files = {
        f"{rule.kind}:{rule_id}": _file_hash(rule.path)
        for table in (rules.races, rules.powers, rules.expansions)
        for rule_id, rule in sorted(table.items())
    }
    files = dict(sorted(files.items()))
    overall = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()
    return {
        "expansions": list(rules.expansion_ids),
        "packs": list(getattr(rules, "packs", ())),
        "hash": overall,
        "files": files,
    }


def rules_for_record(record: Mapping[str, Any], paths: Iterable[str | Path] = ()) -> Rules:
    """Load the rules a record names: the official ones, its expansions and rule packs, and
    ``paths`` (a user's own rule files, which a record cannot carry).

    Raises:
        RulesError: an expansion or pack that is not available, or a broken rule file.
    """
    return _rules_named(load_record(record)["rules"], paths)


def _rules_named(named: Mapping[str, Any], paths: Iterable[str | Path]) -> Rules:
    """The rules of a checked record's ``rules`` field (and ``paths``)."""
    kwargs: dict[str, Any] = {"expansions": named.get("expansions", []), "paths": list(paths)}
    if named.get("packs"):
        kwargs["packs"] = named["packs"]
    return load_rules(**kwargs)


def changed_rule_files(recorded: Mapping[str, Any], rules: Rules) -> list[str]:
    """``"kind:id"`` of the rule files that differ between a record's ``rules`` and ``rules``."""
    now = rules_fingerprint(rules)["files"]
    then = recorded.get("files", {})
    if not isinstance(then, dict):
        return sorted(now)
    return sorted(k for k in set(now) | set(then) if now.get(k) != then.get(k))


def header_check(record: Mapping[str, Any]) -> str:
    """16 hex digits over a record's header (every field but ``steps``, ``result`` and itself)."""
    header = {key: record.get(key) for key in _HEADER}
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def position_check(game: Game) -> str:
    """10 hex digits summarising the position (what a record's ``check`` holds)."""
    players = range(game.players)
    regions = []
    for r in range(len(game.map.regions)):
        view = game.region(r)
        occupant = "lost_tribe" if view.lost_tribe else view.race
        regions.append([occupant, view.tokens, sorted(view.pieces.items())])
    summary = [
        game.round,
        game.active_player,
        [game.coins(p) for p in players],
        [game.hand(p) for p in players],
        [game.active_race(p) for p in players],
        [game.active_power(p) for p in players],
        [game.declined_races(p) for p in players],
        regions,
        game.market,
    ]
    text = json.dumps(summary, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def _result(game: Game) -> dict[str, Any]:
    players = range(game.players)
    return {
        "over": game.is_over,
        "round": game.round,
        "coins": [game.coins(p) for p in players],
        "tokens": [game.tokens_on_map(p) for p in players],
        "winners": game.winners,
    }


def _faces(events: Iterable[ev.Event]) -> list[int]:
    return [e.face for e in events if isinstance(e, ev.DieRolled)]


# ---------------------------------------------------------------------- writing


def _same(a: State, b: State) -> bool:
    return state_to_dict(a) == state_to_dict(b)


def recorded_actions(game: Game) -> list[Action]:
    """Every action applied to ``game`` since it was created (its ``action_stack``).

    Raises:
        RulesError: the game has no history back to its start (it was restored with
            :meth:`Game.from_json`, or positions were set up with ``put``/``clear``/
            ``set_coins``), so it cannot be recorded.
    """
    log = game.log
    if any(isinstance(e, ev.PositionEdited) for e in log):
        raise RulesError("a game with positions set up by put/clear/set_coins cannot be recorded")
    first_length = game._history[0][1] if game._history else len(log)
    # A new game's log holds its first TurnStarted, or nothing while a role drafts (rule 4.1).
    first_state = game._history[0][0] if game._history else game._state
    drafting = first_length == 0 and first_state.active == game._engine.role_seat
    if not drafting and (first_length != 1 or not isinstance(log[0], ev.TurnStarted)):
        raise RulesError(
            "the game's history does not reach back to its start (a game restored with "
            "from_json keeps none), so it cannot be recorded"
        )
    return list(game.action_stack)


def _fixed_combos(game: Game, initial: State) -> list[list[str]] | None:
    """``None`` if the seed alone deals the starting market, else every combo in order."""
    plain = type(game).new(
        players=game.players, seed=game.seed, rules=game.rules, map=_map_arg(game),
        options=game.options,
    )
    if _same(plain._state, initial):
        return None
    races = [m[0] for m in initial.market] + list(initial.race_stack)
    powers = [m[1] for m in initial.market] + list(initial.power_stack)
    return [[r, p] for r, p in zip(races, powers, strict=False)]


def _map_arg(game: Game) -> str | None:
    return game.map_name if game.map_name in MAP_NAMES else None


def make_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` from its start to now (the body of ``game.to_record()``).

    Raises:
        RulesError: the game cannot be recorded (see :func:`recorded_actions`), or it is on a
            board that is not an official one.
    """
    if _map_arg(game) is None:
        raise RulesError("only games on the official maps can be recorded")
    actions = recorded_actions(game)
    history = game._history
    initial = history[0][0] if history else game._state
    combos = _fixed_combos(game, initial)
    # Replay once more to compute each step's check and dice (and to prove the record works).
    replay = type(game).new(
        players=game.players, seed=game.seed, rules=game.rules, map=game.map_name,
        chance="explicit" if game._engine.explicit_chance else "seeded",
        options=game.options, combos=[(c[0], c[1]) for c in combos] if combos else None,
    )
    if not _same(replay._state, initial):
        raise RulesError("the game's starting position cannot be rebuilt from its seed")
    market = [list(m) for m in replay.market]
    steps: list[list[Any]] = []
    for action in actions:
        before = len(replay.log)
        replay.apply(action)
        step: list[Any] = [action.to_dict(), position_check(replay)]
        faces = _faces(replay.log[before:])
        if faces:
            step.append(faces)
        steps.append(step)
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "engine": f"smallworld_rules {__version__}",
        "rules": rules_fingerprint(game.rules),
        "players": game.players,
        "map": game.map_name,
        "map_data": None,
        "seed": game.seed,
        "chance": "explicit" if game._engine.explicit_chance else "seeded",
        "options": game.options,
        "combos": combos,
        "market": market,
        "steps": steps,
        "result": _result(game),
    }
    record["header_check"] = header_check(record)
    return record


# ---------------------------------------------------------------------- replaying


def load_record(source: Mapping[str, Any] | str) -> dict[str, Any]:
    """Parse and check the shape of a record (a dict or its JSON text).

    Every field is checked for type and range before anything is loaded or replayed; messages
    quote at most a short excerpt of what they were given.

    Raises:
        RulesError: not a record of a known format, or a field of the wrong type.
    """
    if isinstance(source, str):
        data = load_json(source, "not a game record")
    else:
        data = source
        check_depth(data, "not a game record")
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise RulesError(f"not a game record: 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise RulesError(
            f"game record version {excerpt(data.get('version'))}, expected {VERSION}"
        )
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise RulesError(f"game record is missing {', '.join(map(repr, missing))}")
    record = dict(data)
    checks: list[tuple[str, type | tuple[type, ...]]] = [
        ("engine", str), ("rules", dict), ("players", int), ("map", str), ("seed", int),
        ("chance", str), ("options", dict), ("combos", (list, type(None))), ("market", list),
        ("steps", list), ("result", dict), ("header_check", str),
    ]
    for key, kind in checks:
        if not isinstance(record[key], kind) or isinstance(record[key], bool):
            raise RulesError(f"game record: {key!r} has the wrong type")
    _check_header(record)
    for i, step in enumerate(record["steps"]):
        if (
            not isinstance(step, list)
            or len(step) not in (2, 3)
            or not isinstance(step[1], str)
            or (len(step) == 3 and not isinstance(step[2], list))
        ):
            raise RulesError(
                f"game record: step {i} must be [action, check] or [action, check, dice]"
            )
    return record


def _names(value: Any, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise RulesError(f"game record: {where!r} must be a list of names")


def _check_header(record: dict[str, Any]) -> None:
    """The header's fields, each against its shape: ids are strings, the map an official one."""
    named = record["rules"]
    _names(named.get("expansions"), "rules.expansions")
    _names(named.get("packs", []), "rules.packs")
    files = named.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise RulesError("game record: 'rules.files' must map rule files to their hashes")
    if record["map"] not in MAP_NAMES or record["map_data"] is not None:
        raise RulesError(
            f"game record: 'map' must name an official map ({', '.join(MAP_NAMES)}) with "
            f"'map_data' null, not {excerpt(record['map'])}"
        )
    if record["chance"] not in ("seeded", "explicit"):
        raise RulesError("game record: 'chance' must be 'seeded' or 'explicit'")
    combos = record["combos"]
    for i, combo in enumerate(combos or ()):
        if not (
            isinstance(combo, list) and len(combo) == 2 and all(isinstance(c, str) for c in combo)
        ):
            raise RulesError(
                f"game record: combo {i} must be [race, power], not {excerpt(combo)}"
            )
    for i, combo in enumerate(record["market"]):
        if not (
            isinstance(combo, list)
            and len(combo) == 3
            and all(isinstance(c, str) for c in combo[:2])
            and isinstance(combo[2], int)
            and not isinstance(combo[2], bool)
        ):
            raise RulesError(
                f"game record: market entry {i} must be [race, power, coins], "
                f"not {excerpt(combo)}"
            )


def replay(
    game_type: type[Game], source: Mapping[str, Any] | str, rules: Rules | None = None
) -> tuple[Game, list[str]]:
    """:func:`~smallworld_rules.records.replay_record` (its arguments, result and errors),
    the game made as a ``game_type`` (:class:`~smallworld_rules.Game`, which calls this for
    ``from_record``)."""
    record = load_record(source)
    if rules is None:
        rules = _rules_named(record["rules"], ())  # checked once, just above
    changed = changed_rule_files(record["rules"], rules)
    if header_check(record) != record["header_check"]:
        raise RecordMismatch(
            None,
            "its header (set-up, options, rules, engine or market) was changed after it was "
            "recorded: 'header_check' does not match",
            changed,
        )
    combos = record["combos"]
    try:
        game = game_type.new(
            players=record["players"], seed=record["seed"], rules=rules, map=record["map"],
            chance=record["chance"], options=record["options"],
            combos=[(c[0], c[1]) for c in combos] if combos is not None else None,
        )
    except RulesError as exc:
        raise RecordMismatch(None, f"the game cannot be set up: {exc}", changed) from None
    market = [list(m) for m in game.market]
    if market != record["market"]:
        raise RecordMismatch(
            None,
            f"the starting market is {excerpt(market)}, the record says "
            f"{excerpt(record['market'])}",
            changed,
        )
    for i, step in enumerate(record["steps"]):
        try:
            action = action_from_dict(step[0])
        except RulesError as exc:
            raise RecordMismatch(i, str(exc), changed) from None
        before = len(game.log)
        try:
            game.apply(action)
        except IllegalAction as exc:
            reason = f"{excerpt(action)} is not legal: {exc.reason}"
            raise RecordMismatch(i, reason, changed) from None
        faces = _faces(game.log[before:])
        recorded = step[2] if len(step) == 3 else []
        if faces != recorded:
            raise RecordMismatch(
                i, f"{excerpt(action)} rolled the die {faces}, the record says {excerpt(recorded)}",
                changed,
            )
        if position_check(game) != step[1]:
            raise RecordMismatch(
                i, f"the position after {excerpt(action)} differs from the record", changed
            )
    result = _result(game)
    if result != record["result"]:
        raise RecordMismatch(
            len(record["steps"]),
            f"the result is {result}, the record says {excerpt(record['result'])}",
            changed,
        )
    return game, changed
