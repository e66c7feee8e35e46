"""Reading a saved state back, refusing anything corrupt with a message that says what is wrong.

A saved game is never half-loaded: every field is checked for type and range, the ids against
the rules, and the whole position against the invariants of the game, before a
:class:`~smallworld_rules.state.State` is handed out.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from smallworld_rules.engine.basics import DIE_FACES
from smallworld_rules.errors import RulesError, excerpt
from smallworld_rules.events import LOG_TEXT, PLAIN_TEXT
from smallworld_rules.language import hidden_pieces, memory
from smallworld_rules.maps import MAP_NAMES, GameMap, build_map, load_map
from smallworld_rules.state import (
    ABILITY_ROLL,
    EFFECT_ROLL,
    LOST_TRIBE,
    SOUL,
    Phase,
    PlayerState,
    RaceState,
    State,
    new_generation,
)

if TYPE_CHECKING:
    from smallworld_rules.engine import Engine

FORMAT = "smallworld_rules/game"
VERSION = 3
#: Fields a version-2 save lacks (zones and roles came with version 3), with their value then.
_ADDED_IN_3: dict[str, Any] = {"zones": {}, "role_powers": [], "role_reserve": [], "purchases": 0}
T = TypeVar("T")
#: The deepest nesting of lists and objects a saved game or record may hold (they need 6).
MAX_JSON_DEPTH = 24
#: the exact types of what JSON holds besides lists and objects (a subclass is searched)
_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))


def load_json(text: Any, what: str) -> Any:
    """Parse the JSON text of a saved game or record, refusing what is not JSON or is nested
    deeper than :data:`MAX_JSON_DEPTH` (``"[" * 5000`` is a short message, not a crash).

    Raises:
        RulesError: ``"<what>: invalid JSON (…)"`` or ``"<what>: nested too deeply …"``.
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise _too_deep(what) from None
    except (TypeError, ValueError) as exc:
        raise RulesError(f"{what}: invalid JSON ({excerpt(str(exc))[1:-1]})") from None
    check_depth(data, what)
    return data


@functools.cache
def _save_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The start of a save as ``Game.to_json`` writes it, up to its log (the keys before
    ``"log"`` in sorted order, names as in :data:`~smallworld_rules.events.LOG_TEXT`), and
    the log (compiled when a save is first loaded: a few milliseconds)."""
    name = PLAIN_TEXT
    start = rf'\{{"chance":"(seeded|explicit)","expansions":\[((?:{name}(?:,{name})*)?)\],'
    return re.compile(start + rf'"format":"{FORMAT}","log":'), re.compile(LOG_TEXT)


@functools.cache
def _middle_pattern() -> re.Pattern[str]:
    """What a save holds between its log and its state as ``Game.to_json`` writes it for a
    board by name (``map_data`` null) and options of flags and whole numbers, one group per
    value (names as in the start's pattern; an option's name as a state's, without commas
    or colons, so that the options split at them unambiguously)."""
    name, number = PLAIN_TEXT, r"-?(?:0|[1-9][0-9]{0,29}+)"
    option = rf"{_NAME}:(?:true|false|{number})"
    return re.compile(
        rf',"map":({name}),"map_data":null,"options":\{{((?:{option}(?:,{option})*+)?)\}},'
        rf'"packs":\[((?:{name}(?:,{name})*+)?)\],"players":({number}),"seed":({number}),'
        '"state":'
    )


#: an option's value as the middle's pattern takes it, but a number
_FLAGS = {"true": True, "false": False}
#: saves' options by their text between the braces (what json makes of it), as first met:
#: a game's options never change, and most games play the defaults
_OPTIONS_TEXT: dict[str, dict[str, Any]] = {}
_OPTIONS_KEPT = 256


def _options(text: str) -> dict[str, Any]:
    """The options of a save from their text between the braces (the middle's pattern took
    it): what json makes of it (a key twice: its last value at its first place), a new
    dict each time."""
    known = _OPTIONS_TEXT.get(text)
    if known is not None:
        return dict(known)
    options = {}
    for entry in text.split(","):
        key, _, value = entry.partition(":")
        options[key[1:-1]] = _FLAGS[value] if value in _FLAGS else int(value)
    if len(_OPTIONS_TEXT) < _OPTIONS_KEPT:
        _OPTIONS_TEXT[text] = dict(options)
    return options


def _plain_names(text: str) -> list[str]:
    """A list of names of plain characters (no quote, no backslash) from its text between
    the brackets: what json makes of it."""
    return text[1:-1].split('","') if text else []


def _save_around(head: re.Match[str], text: str, end: int, at: int) -> dict[str, Any] | None:
    """The document a save parses into without its log and its state (``[]`` and ``{}``),
    read from the text between them (its log ending at ``end``, its state starting at ``at``),
    or None if the middle's pattern does not take it. The rest is known: the start's pattern
    took the head, and :func:`_state_match` the state up to ``,"version":3}``."""
    middle = _middle_pattern().fullmatch(text, end, at)
    return None if middle is None else _document(head, middle.groups())


def _document(head: re.Match[str], middle: tuple[Any, ...]) -> dict[str, Any]:
    """The document of a save whose head and middle the patterns took (the middle's groups),
    as json makes it with the log as ``[]`` and the state as ``{}``."""
    map_name, options_text, packs, players, seed = middle
    options = _options(options_text) if options_text else {}
    chance, expansions = head.groups()
    return {
        "chance": chance, "expansions": _plain_names(expansions), "format": FORMAT, "log": [],
        "map": map_name[1:-1], "map_data": None, "options": options,
        "packs": _plain_names(packs), "players": int(players), "seed": int(seed), "state": {},
        "version": VERSION,
    }


def load_save_json(text: Any) -> tuple[Any, str | None]:
    """:func:`load_json` for a saved game, and the text of its log when the log is left out
    (:func:`load_save_text`, with the state parsed).

    Raises:
        RulesError: as :func:`load_json`.
    """
    doc, log, state = load_save_text(text)
    if state is not None:
        doc["state"] = parsed_state(state)
    return doc, log


#: a state :func:`load_save_text` left as text: the save's text, where the state starts and
#: ends in it, the groups of its fields, and whether its own patterns took it
#: (:func:`_state_patterns`; else only the quick one, :func:`_quick_pattern`)
StateText: TypeAlias = "tuple[str, int, int, tuple[Any, ...], bool]"


class Unchecked(Exception):
    """A state the quick pattern took, to be parsed: only the way with its own patterns can
    say what the save holds (``Game.from_json`` then loads it that way)."""


def parsed_state(state: StateText) -> Any:
    """The value of a state :func:`load_save_text` left as text (sound JSON: its patterns
    take only such text).

    Raises:
        Unchecked: the state was taken by the quick pattern only (:func:`_quick_pattern`).
    """
    text, at, end, _, checked = state
    if not checked:
        raise Unchecked
    return _parsed(text[at:end])


def load_save_text(text: Any, quick: bool = False) -> tuple[Any, str | None, StateText | None]:
    """:func:`load_json` for a saved game, with the text of its log and the match of its
    state left out when they are as the engine writes them.

    A log as the engine writes it (:data:`~smallworld_rules.events.LOG_TEXT`) is sure to be
    a list of events, within :data:`MAX_JSON_DEPTH`: the rest of the save is then parsed and
    checked without it (the log as ``[]``), and the log's text given back to be parsed when
    the log is read; it is two thirds of a save. Any other text, or one whose rest is not
    sound JSON within the depth, or might hold a second ``"log"`` key (``"log"`` or a
    backslash after the log), is loaded whole by :func:`load_json`: same outcome, same
    message. When the log is left as text, so is the depth of the state: a caller asks
    :func:`check_state_depth` before any refusal.

    A state as a version-3 save writes it, last but ``"version"`` (:func:`_state_patterns`:
    its fields in sorted order, every value of the shape the engine writes, names of plain
    characters), is sure to be sound JSON three levels deep: it is left out of the parse too
    (the document's ``"state"`` is ``{}``), and its text given back, for
    :func:`~smallworld_rules.saved_text.state_from_text` to read or to parse. The rest of
    such a save is then read by a pattern too where it is as the engine writes it
    (:func:`_save_around`): the document json would make of it, without a parse.

    ``quick``: the text after the log is first tried with :func:`_quick_pattern`, which
    leaves the state's fields to be checked by their reader: a state it takes is unchecked
    (the last of :data:`StateText` False), and whatever goes wrong with it — a field the
    reader does not take (:func:`parsed_state` raises :class:`Unchecked`), any refusal —
    says only that the save must be loaded again without ``quick``, which decides.

    Raises:
        RulesError: as :func:`load_json`.
    """
    start_pattern, log_pattern = _save_patterns()
    head = start_pattern.match(text) if type(text) is str else None
    log = None if head is None else log_pattern.match(text, head.end())
    if log is not None and head is not None and text.startswith(',"', log.end()):
        start, end = log.span()
        if quick and text.endswith(_STATE_ZONES):  # (a role's zones: the quick way cannot)
            rest = _quick_pattern().fullmatch(text, end)
            if rest is not None:
                fields = rest.groups()
                # (the state from its "{", before its first field's value: '{"acted":')
                taken: StateText = (
                    text, rest.start(6) - 9, len(text) - len(_STATE_END), fields[5:], False
                )
                return _document(head, fields[:5]), text[start:end], taken
        state = _state_match(text, end)
        if state is not None:  # (the save's middle read by a pattern too, where it takes it)
            doc = _save_around(head, text, end, state[1])
            if doc is not None:
                return doc, text[start:end], state
        rest = text[end:]
        if '"log"' not in rest and "\\" not in rest:
            if state is None:
                doc = _parsed(text[:start] + "[]" + rest)
            else:  # (as the log: a value in its place is read as the same value alone)
                _, at, to, _, _ = state
                doc = _parsed(text[:start] + "[]" + text[end:at] + "{}" + text[to:])
                if type(doc) is dict and doc.get("state") != {}:
                    state, doc = None, _parsed(text[:start] + "[]" + rest)
            if type(doc) is dict:
                try:  # the state's depth is left to its checks (see check_state_depth)
                    if not _flat_but_state(doc):
                        check_depth([v for k, v in doc.items() if k != "state"], "not a saved game")
                except RulesError:
                    pass
                else:
                    return doc, text[start:end], state
    return load_json(text, "not a saved game"), None, None


#: how a version-3 save ends, after its state
_STATE_END = ',"version":3}'
#: and how it ends when the state keeps no zones
_STATE_ZONES = '"zones":{}}' + _STATE_END
#: a name of plain characters: printable ASCII but quotes, backslashes, commas, colons,
#: brackets and braces (so that a state's text splits at them unambiguously)
_NAME = r'"[ !#-+\--9;-Z^-z|~]*+"'


@functools.cache
def _state_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A saved state's text as :func:`~smallworld_rules.state.state_json` writes it (no
    ``lang``, no ``uses``, ``regained``, ``truces`` or ``zones``), one group per field of
    another shape: every other text takes the general way. In two halves (power_discard
    the last field of the first): sre copies the marks of the groups set so far at every
    repetition of a list's entry, and the second half's long lists then find fewer."""
    name, number = _NAME, r"(?:0|[1-9][0-9]{0,29}+)"

    def listed(item: str) -> str:
        return rf"(?:{item}(?:,{item})*+)?"

    names, flag, some = rf"\[({listed(name)})\]", "(true|false)", f"(?:null|{name})"
    table = listed(f"{name}:{number}")  # a table of counts, by name
    counts = rf"\{{({table})\}}"
    race = (
        rf'{name}:\{{"declined":(?:true|false),"hand":{number},"held":{number},'
        rf'"owner":{number},"power":{some},"race":{name},"turns":{number},"uses":\{{\}}\}}'
    )
    player = rf'\{{"active":{some},"coins":{number},"declined":\[{listed(name)}\]\}}'
    combo, pair = rf"\[{name},{name},{number}\]", rf"\[{number},{number}\]"
    region = rf"{name}:\{{{table}\}}"
    fields = (
        ("acted", flag), ("acting", f"({some})"), ("active", f"({number})"),
        ("attacked", f"({number})"), ("box", counts),
        ("conquered", rf"\[({listed(number)})\]"), ("conquered_nonempty", f"({number})"),
        ("decline_at_end", flag), ("die_bonus", f"(-?{number})"),
        ("die_target", f"(-?{number})"),
        ("market", rf"\[({listed(combo)})\]"),
        ("phase", f"({name})"), ("picked", flag), ("piece_supply", counts),
        ("pieces", rf"\{{({listed(region)})\}}"),
        ("players", rf"\[({listed(player)})\]"), ("power_discard", names),
        ("power_stack", names), ("purchases", f"({number})"), ("race_stack", names),
        ("races", rf"\{{({listed(race)})\}}"),
        ("readied", rf"\[({listed(pair)})\]"),
        ("regained", r"\{\}"), ("region_race", rf"\[({listed(some)})\]"),
        ("region_tokens", rf"\[({listed(number)})\]"), ("rng", f"({number})"),
        ("role_powers", names), ("role_reserve", names), ("round", f"({number})"),
        ("truces", r"\[\]"), ("used", names), ("winners", rf"\[({listed(number)})\]"),
        ("withdrawals", names), ("zones", r"\{\}"),
    )
    texts = [f'"{key}":{value}' for key, value in fields]
    return re.compile(r"\{" + ",".join(texts[:17])), re.compile("," + ",".join(texts[17:]) + r"\}")


def _state_match(text: str, after: int) -> StateText | None:
    """A save's state left as text, if it is its last value but ``"version":3`` and the
    patterns take it whole (the first ``"state":{"acted":`` after the log: a value of the
    patterns holds no quote but around a name, nor any colon in one)."""
    if not text.endswith(_STATE_ZONES):  # (a role's zones: the state's last field, tested first)
        return None
    at = text.find(',"state":{"acted":', after)
    if at < 0:
        return None
    first_half, second_half = _state_patterns()
    end = len(text) - len(_STATE_END)
    first = first_half.match(text, at + 9, end)
    if first is None:
        return None
    second = second_half.fullmatch(text, first.end(), end)
    if second is None:
        return None
    return text, at + 9, end, first.groups() + second.groups(), True


@functools.cache
def _quick_pattern() -> re.Pattern[str]:
    """What follows a save's log as ``Game.to_json`` writes it: the middle's pattern
    (:func:`_middle_pattern`, its five groups) and the state, to the save's end, with one
    group per field as :func:`_state_patterns` has them, the same texts where those take
    the state. Only the state's frame is spelled out here — its fields in order, the
    brackets and commas between the entries of a list or table, the flags —; the texts
    inside (a name, a number, a table's entry) are left to the reader, which looks each up
    whole (``saved_text.state_from_text``): a third of the work of the state's own
    patterns, which test every character."""
    simple = r"([^,]*+)"  # a name, a number, null: a single value

    def joined(entry: str) -> str:  # entries of one frame between commas, as one group
        return rf"((?:{entry}(?:,{entry})*+)?+)"  # (possessive: a text it refuses, at once)

    names, counts, flag = r"\[([^\]]*+)\]", r"\{([^}]*+)\}", "(true|false)"
    pair = r"\[[^\]]*+\]"  # a combo of the market, a readied region
    region = r'"[^"]*+":\{[^}]*+\}'
    player = r"\{[^\]]*+\]\}"
    race = r'"[^"]*+":\{[^{]*+\{[^}]*+\}\}'  # (its "uses" last)
    fields = (
        ("acted", flag), ("acting", simple), ("active", simple), ("attacked", simple),
        ("box", counts), ("conquered", names), ("conquered_nonempty", simple),
        ("decline_at_end", flag), ("die_bonus", simple), ("die_target", simple),
        ("market", rf"\[{joined(pair)}\]"), ("phase", simple), ("picked", flag),
        ("piece_supply", counts), ("pieces", rf"\{{{joined(region)}\}}"),
        ("players", rf"\[{joined(player)}\]"), ("power_discard", names),
        ("power_stack", names), ("purchases", simple), ("race_stack", names),
        ("races", rf"\{{{joined(race)}\}}"), ("readied", rf"\[{joined(pair)}\]"),
        ("regained", r"\{\}"), ("region_race", names), ("region_tokens", names),
        ("rng", simple), ("role_powers", names), ("role_reserve", names),
        ("round", simple), ("truces", r"\[\]"), ("used", names), ("winners", names),
        ("withdrawals", names), ("zones", r"\{\}"),
    )
    state = ",".join(f'"{key}":{value}' for key, value in fields)
    return re.compile(_middle_pattern().pattern + r"\{" + state + r"\}" + re.escape(_STATE_END))


#: json.loads's own scanner (the C one), without its wrapping
_scan_once: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _parsed(text: str) -> Any:
    """``json.loads(text)`` for a text with nothing before or after its value (what
    ``load_save_json`` parses), else None: a text it refuses, or one with spaces around
    (loaded whole then, which decides)."""
    try:
        data, end = _scan_once(text, 0)
    except (RecursionError, StopIteration, ValueError):
        return None
    return data if end == len(text) else None


#: the keys of a saved game, and those of them holding a single value as the engine writes it
_SAVE_KEYS = frozenset((
    "chance", "expansions", "format", "log", "map", "map_data", "options", "packs", "players",
    "seed", "state", "version",
))
_SINGLE_VALUES = itemgetter("chance", "format", "map", "map_data", "players", "seed", "version")


def _flat_but_state(doc: dict[str, Any]) -> bool:
    """Whether a saved game's values but its state are what the engine writes (single values,
    lists of them, options of them): three levels deep at most, within the depth limit.
    Tested in C; False says only "search them" (a board carried in ``map_data`` is)."""
    if doc.keys() != _SAVE_KEYS:
        return False
    expansions, packs, log, options = doc["expansions"], doc["packs"], doc["log"], doc["options"]
    return (
        type(expansions) is list and type(packs) is list and type(log) is list
        and type(options) is dict
        and _SCALAR_TYPES.issuperset(
            map(type, chain(_SINGLE_VALUES(doc), expansions, packs, log, options.values()))
        )
    )


def check_state_depth(doc: Any) -> None:
    """The depth check :func:`load_save_json` leaves out when it leaves the log as text: that
    of the saved state, which the checks of :func:`state_from_dict` prove flat when they
    accept it (every field and entry of a given type: five levels deep at most). Whatever
    loading such a save refuses, this is asked first, so that a state nested too deeply is
    refused as :func:`load_json` refuses it, not by a later check.

    Raises:
        RulesError: ``"not a saved game: lists and objects nested more than … deep"``.
    """
    if type(doc) is dict:
        check_depth([doc.get("state")], "not a saved game")  # the state two levels down


def check_depth(data: Any, what: str) -> None:
    """Refuse lists and objects nested deeper than :data:`MAX_JSON_DEPTH` (also a cycle), without
    recursing: later steps that walk the data recursively are then safe."""
    # Level by level, keeping only the containers: a save is ~1,000 numbers and strings in
    # ~200 lists and objects, most holding no container at all, which the types of their
    # items show at once (a set test in C); only the others are searched item by item.
    containers = (dict, list, tuple)  # a tuple of types tests faster than ``dict | list``
    scalars = _SCALAR_TYPES
    level = [data] if isinstance(data, containers) else []
    depth = 1
    while level:
        if depth > MAX_JSON_DEPTH:
            raise _too_deep(what)
        inner: list[Any] = []
        for value in level:
            items = value.values() if isinstance(value, dict) else value
            if not scalars.issuperset(map(type, items)):
                inner += [item for item in items if isinstance(item, containers)]
        level = inner
        depth += 1


def saved_map(name: Any, map_data: Any, what: str) -> GameMap:
    """The board a saved game names: an official one by name, or one it carries (``map_data``)
    under a short name. Never a file: a save comes from elsewhere, and reading a path of the
    loading machine would open (and echo) whatever is there.

    Raises:
        RulesError: ``name`` is not a short name, names no official board without
            ``map_data``, or ``map_data`` is not a valid board.
    """
    if not isinstance(name, str) or not 0 < len(name) <= 100 or not name.isprintable():
        raise RulesError(f"{what}: 'map' must be a short map name, not {excerpt(name)}")
    if map_data is None:
        if name not in MAP_NAMES:
            raise RulesError(
                f"{what}: 'map' is {excerpt(name)}, not an official map ({', '.join(MAP_NAMES)}), "
                "and no 'map_data' carries the board"
            )
        return load_map(name)
    if name in MAP_NAMES:
        raise RulesError(f"{what}: 'map_data' is given for the official map {name!r}")
    return build_map(map_data, name)


def _too_deep(what: str) -> RulesError:
    return RulesError(f"{what}: lists and objects nested more than {MAX_JSON_DEPTH} levels deep")


#: where a value sits in a save: a field's name, or (where its list or object sits, the
#: entry's index or key), made into text only for a message (a save has a few hundred
#: entries, all checked)
Where: TypeAlias = "str | tuple[Where, int | str]"


def _place(where: Where) -> str:
    if isinstance(where, str):
        return where
    return f"{_place(where[0])}[{where[1]}]"


def _bad(where: Where, what: str) -> RulesError:
    return RulesError(f"corrupt saved game: {_place(where)} {what}")


def _int(value: Any, where: Where, low: int = 0, high: int | None = None) -> int:
    if type(value) is int and low <= value and (high is None or value <= high):
        return value  # the common case, decided at once (a bool is not of type int)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(where, f"must be an integer, not {excerpt(value)}")
    if value < low or (high is not None and value > high):
        top = "" if high is None else f" to {high}"
        raise _bad(where, f"must be from {low}{top}, not {value}")
    return value


def _list(
    value: Any, where: Where, item: Callable[[Any, Where], T], length: int | None = None
) -> list[T]:
    if not isinstance(value, list):
        raise _bad(where, "must be a list")
    if length is not None and len(value) != length:
        raise _bad(where, f"must have {length} entries, not {len(value)}")
    if not value:
        return []  # most saved lists of the turn are empty: no comprehension to run
    return [item(v, (where, i)) for i, v in enumerate(value)]


_INT_ONLY = frozenset((int,))
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
#: the phases by their saved names (``Phase(name)`` without the enum's call)
_PHASES = {phase.value: phase for phase in Phase}
#: the phases the checks name (an enum member looked up on its class costs ~30 times more)
_PICK, _CONQUEST, _REDEPLOY = Phase.PICK, Phase.CONQUEST, Phase.REDEPLOY
_DIE_ROLL, _WITHDRAWAL, _OVER = Phase.DIE_ROLL, Phase.WITHDRAWAL, Phase.OVER
#: the phases in which the active player's race is acting (a tuple: members found by identity)
_ACTING_PHASES = (_CONQUEST, _REDEPLOY, _DIE_ROLL)
#: the turn's single values of a saved state, in the order they are checked
_TURN_VALUES = itemgetter(
    "round", "active", "phase", "conquered_nonempty", "acted", "picked", "die_target", "rng",
    "acting", "attacked", "die_bonus", "decline_at_end", "purchases",
)


def _ints(
    value: Any, where: Where, low: int = 0, high: int | None = None, length: int | None = None
) -> list[int]:
    """:func:`_list` of :func:`_int` entries, the entries of a sound list tested at once in C
    (their types as a set, their least and greatest); any other value is checked entry by
    entry, for the same refusal and message."""
    if (
        type(value) is list
        and (length is None or len(value) == length)
        and _INT_ONLY.issuperset(map(type, value))
        and (not value or (min(value) >= low and (high is None or max(value) <= high)))
    ):
        return value[:]
    return _list(value, where, lambda v, w: _int(v, w, low, high), length)


def _ids(
    value: Any,
    where: Where,
    item: Callable[[Any, Where], T],
    known: Any,
    length: int | None = None,
) -> list[T]:
    """:func:`_list` of ``item`` entries, where ``item`` accepts exactly the strings (or
    ``None``) ``known`` holds and gives them back as they are: a sound list is tested at once
    in C; any other value is checked entry by entry, for the same refusal and message."""
    if type(value) is list and (length is None or len(value) == length):
        try:
            sound = all(map(known.__contains__, value))
        except TypeError:  # an unhashable entry: refused below
            sound = False
        if sound:  # ``known`` holds only strings and None: so do the entries
            return value[:]
    return _list(value, where, item, length)


def _sound_counts(values: Any) -> bool:
    """Whether ``values`` are all integers of type int, none below 0 (tested in C): what
    :func:`_int` with its defaults accepts."""
    values = list(values)
    return _INT_ONLY.issuperset(map(type, values)) and (not values or min(values) >= 0)


def _bool(value: Any, where: Where) -> bool:
    if not isinstance(value, bool):
        raise _bad(where, f"must be true or false, not {excerpt(value)}")
    return value


def _str(value: Any, where: Where) -> str:
    if not isinstance(value, str) or not value:
        raise _bad(where, f"must be a non-empty string, not {excerpt(value)}")
    return value


def _dict(value: Any, where: Where) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(where, "must be an object")
    return value


#: the fields of a saved state (``lang`` besides, when the rule language keeps anything)
_STATE_FIELDS = frozenset((
    "region_race", "region_tokens", "pieces", "box", "piece_supply", "races", "players",
    "market", "race_stack", "power_stack", "power_discard", "round", "active", "phase",
    "conquered", "conquered_nonempty", "acted", "picked", "readied", "die_target",
    "withdrawals", "rng", "winners", "acting", "used", "attacked", "truces", "die_bonus",
    "decline_at_end", "regained", *_ADDED_IN_3,
))
_STATE_FIELDS_LANG = _STATE_FIELDS | {"lang"}
_RACE_FIELDS = frozenset(RaceState.FIELDS)
_PLAYER_FIELDS = frozenset(("coins", "active", "declined"))
#: ``_TRIBE.get(v, v)``: the Lost Tribe's id as the constant itself, anything else as it is
_TRIBE: dict[str | None, str | None] = {LOST_TRIBE: LOST_TRIBE}
#: the occupants of a region that are not races
_NO_RACE = frozenset((None, LOST_TRIBE))


@functools.cache
def _region_keys(regions: int) -> dict[str, int]:
    """The keys of ``pieces`` a save writes for a board of ``regions`` regions."""
    return {str(r): r for r in range(regions)}


def state_from_dict(engine: Engine, data: Any, version: int = VERSION) -> State:
    """Rebuild and validate a state saved by :func:`~smallworld_rules.state.state_to_dict`
    (``version``: the saved game's format version, 2 or 3).

    Raises:
        RulesError: naming the first field that is wrong.
    """
    rules = engine.rules
    n = engine.n
    players = engine.players
    d = _dict(data, "state")
    if version == 2 and not set(_ADDED_IN_3) & set(d):
        d = {**d, **_ADDED_IN_3}
    keys = d.keys()
    if keys != _STATE_FIELDS and keys != _STATE_FIELDS_LANG:
        missing, extra = _STATE_FIELDS - set(d), set(d) - _STATE_FIELDS_LANG
        if missing:
            raise _bad("state", f"is missing {sorted(missing)}")
        if extra:
            raise _bad("state", f"has unknown fields {sorted(extra)}")

    def race_id(value: Any, where: Where) -> str:
        if not isinstance(value, str) or value not in engine.race_defs:
            raise _bad(where, f"names an unknown race {excerpt(value)}")
        return str(value)

    def power_id(value: Any, where: Where) -> str:
        if not isinstance(value, str) or value not in rules.powers:
            raise _bad(where, f"names an unknown power {excerpt(value)}")
        return str(value)

    def occupant(value: Any, where: Where) -> str | None:
        if value is None or value == LOST_TRIBE:
            return None if value is None else LOST_TRIBE
        return race_id(value, where)

    s = State.__new__(State)
    s.gen = new_generation()
    races = engine.race_defs
    occupants = d["region_race"]
    try:  # as a save writes it: race ids, None and the Lost Tribe's (tested in C)
        sound = type(occupants) is list and len(occupants) == n and (
            races.keys() >= set(occupants).difference(_NO_RACE)
        )
    except TypeError:  # an unhashable entry: refused below
        sound = False
    if not sound:
        occupants = _list(occupants, "region_race", occupant, n)
    # Lost Tribe entries as the constant itself, not an equal string (entries: str or None)
    s.set_occupants(tuple(map(_TRIBE.get, occupants, occupants)))
    s.reach_costs = None
    s.region_tokens = _ints(d["region_tokens"], "region_tokens", length=n)
    s.pieces = {}
    known_pieces = rules.pieces
    region_keys = _region_keys(n)
    for key, pieces in _dict(d["pieces"], "pieces").items():
        r = region_keys.get(key)
        if r is not None and type(pieces) is dict:  # as a save writes it: tested here
            for name, count in pieces.items():
                if not (name in known_pieces and type(count) is int and count >= 1):
                    break
            else:
                s.pieces[r] = dict(pieces)
                continue
        if not (key.isdigit() and len(key) <= 3 and int(key) < n):
            raise _bad("pieces", f"names a region {excerpt(key)} that does not exist")
        at: Where = ("pieces", key)
        counts = _dict(pieces, at)
        for name, count in counts.items():
            if name not in rules.pieces:
                raise _bad(at, f"names an unknown piece {excerpt(name)}")
            _int(count, (at, name), 1)
        s.pieces[int(key)] = dict(counts)
    box = d["box"]
    if type(box) is dict and box.keys() == races.keys() and _sound_counts(box.values()):
        s.box = dict(box)
    else:
        s.box = {race_id(k, "box"): _int(v, ("box", k)) for k, v in _dict(box, "box").items()}
        if set(s.box) != set(engine.race_defs):
            raise _bad("box", "must list every race exactly once")
    supply = _dict(d["piece_supply"], "piece_supply")
    if supply.keys() != known_pieces.keys():
        raise _bad("piece_supply", "must list every piece exactly once")
    if _sound_counts(supply.values()):
        s.piece_supply = dict(supply)
    else:
        s.piece_supply = {k: _int(v, ("piece_supply", k)) for k, v in supply.items()}
    s.races = {}
    powers = rules.powers
    top = players - 1
    for key, rd in _dict(d["races"], "races").items():
        # A sound entry (what a save writes) is tested here at once; any other goes through
        # the checks one field at a time below, for the first refusal and its message.
        if type(rd) is dict and rd.keys() == _RACE_FIELDS and key in races:
            power, owner, hand = rd["power"], rd["owner"], rd["hand"]
            turns, held, uses, declined = rd["turns"], rd["held"], rd["uses"], rd["declined"]
            if (
                rd["race"] == key
                and (power is None or (type(power) is str and power in powers))
                and type(owner) is int and 0 <= owner <= top
                and type(declined) is bool
                and type(hand) is int and hand >= 0
                and type(turns) is int and turns >= 0
                and type(held) is int and held >= 0
                and type(uses) is dict and not uses
            ):
                s.races[key] = RaceState(key, power, owner, declined, hand, turns, held, {})
                continue
        _race_entry(s, key, rd, race_id, power_id, players)

    # The players as a save writes them, tested here; if one is not: all checked by _list.
    saved_players = d["players"]
    sound = type(saved_players) is list and len(saved_players) == players
    seats: list[PlayerState] = []
    try:
        for entry in saved_players if sound else ():
            if type(entry) is dict and entry.keys() == _PLAYER_FIELDS:
                coins, active, declined = entry["coins"], entry["active"], entry["declined"]
                if (
                    type(coins) is int and coins >= 0
                    and (active is None or (type(active) is str and active in races))
                    and type(declined) is list
                    and (not declined or races.keys() >= set(declined))
                ):
                    seats.append(PlayerState(coins, active, tuple(declined)))
                    continue
            sound = False
            break
    except TypeError:  # an unhashable entry: refused below
        sound = False
    if not sound:
        seats = _list(
            saved_players, "players", lambda v, w: _player_entry(v, w, race_id, races), players
        )
    s.players = tuple(seats)

    def combo(value: Any, where: Where) -> tuple[str, str, int]:
        if not isinstance(value, list) or len(value) != 3:
            raise _bad(where, "must be [race, power, coins]")
        return (race_id(value[0], where), power_id(value[1], where), _int(value[2], where))

    market = d["market"]
    combos: list[tuple[str, str, int]] = []
    sound = type(market) is list
    for entry in market if sound else ():
        # as a save writes it, tested here; the first other entry: every one checked below
        if type(entry) is list and len(entry) == 3:
            race, power, coins = entry
            if (
                type(race) is str and race in races and type(power) is str and power in powers
                and type(coins) is int and coins >= 0
            ):
                combos.append((race, power, coins))
                continue
        sound = False
        break
    s.market = tuple(combos if sound else _list(market, "market", combo))
    s.race_stack = tuple(_ids(d["race_stack"], "race_stack", race_id, races))
    s.power_stack = tuple(_ids(d["power_stack"], "power_stack", power_id, powers))
    power_discard = d["power_discard"]  # an empty list: () without a call (most of them)
    s.power_discard = () if power_discard == [] else tuple(
        _ids(power_discard, "power_discard", power_id, powers)
    )
    (
        round_, active, phase_name, nonempty, acted, picked, die_target, rng, acting,
        attacked, die_bonus, decline_at_end, purchases,
    ) = _TURN_VALUES(d)
    # The turn's single values as a save writes them, tested at once; if one is not, each
    # is checked below in turn, for the first refusal and its message.
    turns = engine.map.turns
    quick = (
        type(round_) is int and 1 <= round_ <= turns + 1
        and type(active) is int and 0 <= active < players
        and type(phase_name) is str and phase_name in _PHASES
        and type(nonempty) is int and 0 <= nonempty < 1 << n
        and type(acted) is bool and type(picked) is bool
        and type(die_target) is int and EFFECT_ROLL <= die_target < n
        and type(rng) is int and 0 <= rng < 1 << 64
        and (acting is None or (type(acting) is str and acting in races))
        and type(attacked) is int and 0 <= attacked < 1 << players
        and type(die_bonus) is int and -1 <= die_bonus <= 99
        and type(decline_at_end) is bool
        and type(purchases) is int and purchases >= 0
    )
    s.round = round_ if quick else _int(round_, "round", 1, turns + 1)
    s.active = active if quick else _int(active, "active", 0, players - 1)
    phase = _PHASES.get(phase_name) if type(phase_name) is str else None
    if phase is None:
        try:
            phase = Phase(phase_name)
        except ValueError:
            raise _bad("phase", f"{excerpt(phase_name)} is not a phase") from None
    s.phase = phase
    conquered = d["conquered"]
    s.conquered = () if conquered == [] else tuple(_ints(conquered, "conquered", 0, n - 1))
    s.conquered_nonempty = (
        nonempty if quick else _int(nonempty, "conquered_nonempty", 0, (1 << n) - 1)
    )
    s.acted = acted if quick else _bool(acted, "acted")
    s.picked = picked if quick else _bool(picked, "picked")

    def readied(value: Any, where: Where) -> tuple[int, int]:
        if type(value) is list and len(value) == 2:
            region, taken = value
            if type(region) is int and 0 <= region < n and type(taken) is int and taken >= 1:
                return (region, taken)  # as a save writes it
        if not isinstance(value, list) or len(value) != 2:
            raise _bad(where, "must be [region, tokens]")
        return (_int(value[0], where, 0, n - 1), _int(value[1], where, 1))

    s.readied = tuple(_list(d["readied"], "readied", readied))
    s.die_target = die_target if quick else _int(die_target, "die_target", EFFECT_ROLL, n - 1)
    withdrawals = d["withdrawals"]
    s.withdrawals = () if withdrawals == [] else tuple(
        _ids(withdrawals, "withdrawals", race_id, races)
    )
    s.rng = rng if quick else _int(rng, "rng", 0, (1 << 64) - 1)
    winners = d["winners"]
    s.winners = () if winners == [] else tuple(_ints(winners, "winners", 0, players - 1))
    s.acting = acting if quick or acting is None else race_id(acting, "acting")
    used = d["used"]
    s.used = () if used == [] else tuple(_list(used, "used", _str))
    s.attacked = attacked if quick else _int(attacked, "attacked", 0, (1 << players) - 1)

    def truce(value: Any, where: Where) -> tuple[int, int]:
        pair = _list(value, where, lambda v, w: _int(v, w, 0, players - 1), 2)
        if pair[0] == pair[1]:
            raise _bad(where, "pairs a player with itself")
        return (pair[0], pair[1])

    truces = d["truces"]
    s.truces = () if truces == [] else tuple(_list(truces, "truces", truce))
    s.die_bonus = die_bonus if quick else _int(die_bonus, "die_bonus", -1, 99)
    s.decline_at_end = decline_at_end if quick else _bool(decline_at_end, "decline_at_end")
    regained: dict[str, int] = {}
    for name, count in _dict(d["regained"], "regained").items():
        if name not in rules.pieces:
            raise _bad("regained", f"names an unknown piece {excerpt(name)}")
        regained[name] = _int(count, f"regained[{name}]", 0, rules.pieces[name].supply)
    s.regained = regained

    def kind(value: Any, where: Where) -> str:
        if value in (LOST_TRIBE, SOUL):
            return str(value)
        return race_id(value, where)

    zones = _dict(d["zones"], "zones")
    if zones or engine.pile_zones:  # none in a game without a role's zones
        if set(zones) != set(engine.pile_zones):
            raise _bad("zones", f"must list the zones {engine.pile_zones}")
        kinds = {*races, LOST_TRIBE, SOUL}
        s.zones = {z: tuple(_ids(pile, f"zones[{z}]", kind, kinds)) for z, pile in zones.items()}
    else:
        s.zones = {}
    role_powers, role_reserve = d["role_powers"], d["role_reserve"]
    s.role_powers = () if role_powers == [] else tuple(
        _ids(role_powers, "role_powers", power_id, powers)
    )
    s.role_reserve = () if role_reserve == [] else tuple(
        _ids(role_reserve, "role_reserve", power_id, powers)
    )
    s.purchases = purchases if quick else _int(purchases, "purchases")
    s.lang = memory.from_saved(d.get("lang", {}), n, players)
    if s.lang:
        _check_lang(engine, s)
    _check_consistency(engine, s)
    return s


def _check_lang(engine: Engine, s: State) -> None:
    """What the rule language keeps, against the rest of the state."""
    on_market = {combo[0]: combo for combo in s.market}
    for race, tokens in memory.get(s, "banner", {}).items():
        if race not in on_market or tokens > s.box[race]:
            raise _bad("lang.banner", "must name races of the market, within their box")
    swap = memory.get(s, "swap")
    if swap is not None:  # a badge to choose for the race just picked (see language.swaps)
        rs = s.races.get(swap[0])
        if rs is None or rs.power is None or s.players[s.active].active != swap[0] or not (
            s.picked and s.phase is _PICK
        ):
            raise _bad("lang.swap", "must name the active player's race just picked")
    for race, power in memory.get(s, "borrowed", {}).items():  # see language.borrowing
        if race not in s.races or power not in engine.rules.powers:
            raise _bad("lang.borrowed", "must name races in play and known badges")


def _race_entry(
    s: State,
    key: str,
    raw: Any,
    race_id: Callable[[Any, Where], str],
    power_id: Callable[[Any, Where], str],
    players: int,
) -> None:
    """``s.races[key]`` from its saved entry, checked field by field (the first wrong one is
    refused, named by its place)."""
    race_id(key, "races")
    rd = _dict(raw, f"races[{key}]")
    if set(rd) != set(RaceState.FIELDS) or rd["race"] != key:
        raise _bad(f"races[{key}]", f"must have the fields {sorted(RaceState.FIELDS)}")
    power = None if rd["power"] is None else power_id(rd["power"], f"races[{key}].power")
    s.races[key] = RaceState(
        key,
        power,
        _int(rd["owner"], f"races[{key}].owner", 0, players - 1),
        _bool(rd["declined"], f"races[{key}].declined"),
        _int(rd["hand"], f"races[{key}].hand"),
        _int(rd["turns"], f"races[{key}].turns"),
        _int(rd["held"], f"races[{key}].held"),
        {
            _str(name, f"races[{key}].uses"): _int(
                count, f"races[{key}].uses[{excerpt(name)}]", 1,
                (1 << players) - 1 if name == memory.MARKS else None,
            )
            for name, count in _dict(rd["uses"], f"races[{key}].uses").items()
        },
    )


def _player_entry(
    value: Any, where: Where, race_id: Callable[[Any, Where], str], races: Any
) -> PlayerState:
    """A saved player, checked field by field (the first wrong one is refused)."""
    pd = _dict(value, where)
    if set(pd) != {"coins", "active", "declined"}:
        raise _bad(where, "must have the fields active, coins, declined")
    at = _place(where)
    active = None if pd["active"] is None else race_id(pd["active"], f"{at}.active")
    return PlayerState(
        _int(pd["coins"], f"{at}.coins"),
        active,
        tuple(_ids(pd["declined"], f"{at}.declined", race_id, races)),
    )


def _check_consistency(
    engine: Engine, s: State, invariants: bool = True, badges: list[str] | None = None
) -> None:
    """The cross-field rules: every banner and badge in exactly one place, owners agree
    (``invariants`` False: but ``check_invariants``, which the caller has proven; ``badges``:
    the rules' badges sorted, if the caller keeps them)."""
    rules = engine.rules
    # Every banner (badge) exactly once: as many as the rules' ids, which are unique, and
    # the same ones (the market's, the stack's and those in play, counted and joined in C).
    if engine.role_race is None:  # (every race in play a banner: one set made)
        playing = len(s.races)
        banners = {*s.races, *map(_FIRST, s.market), *s.race_stack}
    else:
        in_play = s.races.keys() - {engine.role_race}
        playing = len(in_play)
        banners = in_play.union(map(_FIRST, s.market), s.race_stack)
    if len(s.market) + len(s.race_stack) + playing != len(rules.races) or (
        rules.races.keys() != banners
    ):
        raise _bad("state", "must hold every race banner exactly once (market, stack or play)")
    held = [rs.power for rs in s.races.values() if rs.power is not None]
    if badges is not None:  # (the same test: the rules' badges, each once; no set to build)
        placed = [
            *map(_SECOND, s.market), *s.power_stack, *s.power_discard, *held, *s.role_powers,
            *s.role_reserve,
        ]
        if sorted(placed) != badges:
            raise _bad("state", "must hold every power badge exactly once")
    else:
        places = (s.power_stack, s.power_discard, held, s.role_powers, s.role_reserve)
        if len(s.market) + sum(map(len, places)) != len(rules.powers) or (
            rules.powers.keys() != set(map(_SECOND, s.market)).union(*places)
        ):
            raise _bad("state", "must hold every power badge exactly once")
    for p, ps in enumerate(s.players):
        if ps.active is not None and (
            s.races[ps.active].owner != p if ps.active in s.races else True
        ):
            raise _bad(f"players[{p}].active", "is not a race this player holds")
        for race in ps.declined:
            rs = s.races.get(race)
            if rs is None or rs.owner != p or not rs.declined:
                raise _bad(
                    f"players[{p}].declined", f"lists {race!r}, not a race it holds in decline"
                )
    for race, rs in s.races.items():
        ps = s.players[rs.owner]
        if (ps.active == race) == rs.declined or (race in ps.declined) != rs.declined:
            raise _bad(f"races[{race}]", "disagrees with its owner's active/declined races")
    role = engine.role_race
    if role is not None:
        rs = s.races.get(role)
        if rs is None or rs.owner != engine.role_seat or rs.declined or rs.power is not None:
            raise _bad("races", f"must hold the role's {role!r} tokens, active, for its seat")
    elif s.role_powers or s.role_reserve or s.purchases:
        raise _bad("role_powers", "are set but no role is played")
    for race in s.withdrawals:
        if race not in s.races:
            raise _bad("withdrawals", f"lists {race!r}, which is not in play")
    if s.phase is _WITHDRAWAL and not s.withdrawals:
        raise _bad("phase", "is withdrawal but nobody withdraws")
    if s.phase is _DIE_ROLL and s.die_target == -1:
        raise _bad("phase", "is die_roll without a target region")
    acting = None if s.acting is None else s.races.get(s.acting)
    # A rule file's `roll` may wait for its chance node in any phase (see language.events).
    effect_roll = s.phase is _DIE_ROLL and s.die_target == EFFECT_ROLL
    if s.phase in _ACTING_PHASES and not effect_roll and (
        acting is None or acting.owner != s.active
    ):
        raise _bad(
            "phase", f"is {s.phase.value} but no active race of the active player is acting"
        )
    if s.phase is _OVER and not s.winners:
        raise _bad("winners", "must be set once the game is over")
    _check_turn(engine, s)
    if not invariants:
        return
    try:
        engine.check_invariants(s, fresh_masks=True)  # masks from set_occupants
    except RulesError as exc:
        raise _bad("position", f"breaks a rule: {exc}") from None


# ---------------------------------------------------------------------- the turn's own fields


def _check_turn(engine: Engine, s: State) -> None:
    """The fields of the turn in progress, against what play can make of them: each is what
    some sequence of legal actions leaves, so that every action legal on the loaded position
    keeps the game sound (a ``readied`` entry a decline turn would put back on a region the
    acting race does not hold gives tokens no owner). Once the game is over no action is
    legal, and the last turn's fields stay as they were."""
    phase, acting = s.phase, s.acting
    if s.winners and (phase is not _OVER or len(set(s.winners)) != len(s.winners)):
        raise _bad("winners", "are set before the game is over, or twice")
    if phase is _OVER:
        return
    if phase is _PICK and (
        acting is not None or s.acted or s.conquered
        or (s.picked and not memory.get(s, "swap"))  # a pick may wait for a badge swapped
    ):
        raise _bad("phase", "is pick, but the turn already has an acting race or actions")
    acting_race = None if acting is None else s.races.get(acting)
    if acting is not None and (acting_race is None or acting_race.owner != s.active):
        raise _bad("acting", f"names {acting!r}, not a race of the active player")
    regions = list(map(_FIRST, s.readied))
    if regions and len(set(regions)) != len(regions):
        raise _bad("readied", "names a region twice")
    if s.readied and phase is _CONQUEST and not s.acted:
        # Before anything is done a decline turn puts them back: they must fit.
        assert acting is not None  # _check_consistency: the conquest phase has an acting race
        for r in regions:
            if s.region_race[r] != acting:
                raise _bad("readied", f"names region {r}, which {acting!r} does not hold")
        if sum(map(_SECOND, s.readied)) > s.races[acting].hand:
            raise _bad("readied", f"takes more tokens than {acting!r} has in hand")
    conquered = 0
    for r in s.conquered:
        conquered |= 1 << r
    if s.conquered_nonempty and s.conquered_nonempty & ~conquered:
        raise _bad("conquered_nonempty", "names a region that was not conquered")
    if s.conquered and not s.acted:
        raise _bad("conquered", "lists conquests, but nothing was done this turn")
    if (s.attacked >> s.active) & 1:
        raise _bad("attacked", "names the active player, who attacks")
    if s.die_bonus != -1 and (s.die_bonus not in DIE_FACES or phase is not _CONQUEST):
        raise _bad("die_bonus", f"is {s.die_bonus}: a face of the die kept for a conquest, or -1")
    if phase is _DIE_ROLL:
        if not engine.explicit_chance:
            raise _bad("phase", "is die_roll, but the game rolls its die itself (chance seeded)")
        target = s.die_target
        if target == EFFECT_ROLL:
            if not s.lang.get("queue") or "resume" not in s.lang:
                raise _bad("die_target", "is a rule file's roll, but nothing waits for it")
            if "drawing" in s.lang and (
                s.lang.get("roller") not in s.races or not hidden_pieces.outcomes(engine, s)
            ):
                raise _bad("drawing", "waits for a piece of no race in play, or an empty bag")
        elif target != ABILITY_ROLL and acting is not None and (
            engine.target_problem(s, acting, target) is not None
        ):
            raise _bad("die_target", f"is region {target}, which {acting!r} cannot attack")
    elif s.die_target != -1:
        raise _bad("die_target", "is set, but no die roll is pending")
    if s.lang and "drawing" in s.lang and not hidden_pieces.pending(s):
        raise _bad("drawing", "is set, but no chance node of a draw is pending")
    if s.withdrawals and phase is _PICK:
        raise _bad("withdrawals", "are pending in the pick phase")
    if s.withdrawals and len(set(s.withdrawals)) != len(s.withdrawals):
        raise _bad("withdrawals", "list a race twice")
    if s.decline_at_end and phase is not _WITHDRAWAL:
        raise _bad("decline_at_end", f"is set in the {phase.value} phase")
    if s.truces and len(set(map(_FIRST, s.truces))) != len(s.truces):
        raise _bad("truces", "protect a player twice")
    for name in s.regained:
        if not engine.rules.pieces[name].kept_when_lost:
            raise _bad("regained", f"names {name!r}, a piece nobody places again when lost")
    limit = engine.role_purchases
    if s.purchases and (s.active != engine.role_seat or 0 < limit < s.purchases):
        raise _bad("purchases", f"are {s.purchases}: only the role buys, in its turn")
