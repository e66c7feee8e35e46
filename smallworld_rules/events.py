"""The game log: ordered, typed, JSON-serialisable events (``game.log``).

>>> from smallworld_rules.events import TurnStarted, event_from_dict
>>> e = TurnStarted(round=1, player=0)
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeAlias, cast

import attrs

from smallworld_rules.errors import RulesError, excerpt
from smallworld_rules.frozen import quick_new
from smallworld_rules.jsontext import NUMBER_TEXT, STRING_TEXT, escape, remember
from smallworld_rules.jsontext import encode_json as encode_json  # where it was first


class Event:
    """Base class of log events."""

    __slots__ = ()
    #: the event's field names in order, set once per class below: a save writes ~100 events,
    #: and ``attrs.asdict`` looks the fields up and walks every value on each call
    _field_names: ClassVar[tuple[str, ...]] = ()
    #: ``cls(...)`` without going through ``type.__call__`` (set by ``quick_new`` below)
    _make: ClassVar[Callable[..., Event]]
    #: the class's place in ``EVENT_CLASSES``: the engine logs every event it makes in play as
    #: a plain tuple ``(cls._code, *fields)``, made into the event when the log is read
    #: (:func:`build_log`); its log sites name the code by its constant (``DEPLOYED`` …)
    _code: ClassVar[int]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"type": name, **fields}`` (fields hold only numbers, strings and
        tuples of them, so this is what ``attrs.asdict`` gives)."""
        out: dict[str, Any] = {"type": type(self).__name__}
        for name in self._field_names:
            out[name] = getattr(self, name)
        return out


@attrs.frozen(weakref_slot=False)  # see quick_new
class TurnStarted(Event):
    """A player's turn begins (``readied`` tokens were taken back into hand)."""

    round: int
    player: int
    readied: int = 0


@attrs.frozen(weakref_slot=False)  # see quick_new
class ComboPicked(Event):
    """A combo was taken from the market at ``position`` (0 = top)."""

    player: int
    race: str
    power: str
    position: int
    paid: int
    collected: int
    tokens: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class Abandoned(Event):
    """A region was emptied into the player's hand."""

    player: int
    race: str
    region: int
    tokens: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class Conquered(Event):
    """A region changed hands.

    ``defender``/``defender_race`` are ``None`` for an empty region (``defender_race`` is
    ``"#lost_tribe"`` for a Lost Tribe); ``lost`` tokens left the game, ``returned`` went back
    to the defender's hand.
    """

    player: int
    race: str
    region: int
    cost: int
    tokens: int
    defender: int | None
    defender_race: str | None
    lost: int
    returned: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class DieRolled(Event):
    """The reinforcement die for the final conquest attempt."""

    player: int
    region: int
    face: int
    cost: int
    hand: int
    success: bool


@attrs.frozen(weakref_slot=False)  # see quick_new
class Deployed(Event):
    """Tokens placed from hand (redeployment or withdrawal)."""

    player: int
    race: str
    region: int
    count: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class Declined(Event):
    """A race went into decline (``removed``: declined races that left the map for it)."""

    player: int
    race: str
    removed: tuple[str, ...] = ()


@attrs.frozen(weakref_slot=False)  # see quick_new
class RaceRemoved(Event):
    """A race's last token left the map; its banner went back under the race stack."""

    player: int
    race: str


@attrs.frozen(weakref_slot=False)  # see quick_new
class Scored(Event):
    """Coins scored at the end of a turn; ``details`` = ((race, coins, explanation), …)."""

    player: int
    coins: int
    details: tuple[tuple[str, int, str], ...] = ()


@attrs.frozen(weakref_slot=False)  # see quick_new
class TurnEnded(Event):
    """A player's turn is over."""

    player: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class GameOver(Event):
    """The last turn was played."""

    winners: tuple[int, ...]
    coins: tuple[int, ...]


@attrs.frozen(weakref_slot=False)  # see quick_new
class PositionEdited(Event):
    """A set-up call (``put``, ``clear``, ``set_coins``) changed the position."""

    what: str


@attrs.frozen(weakref_slot=False)  # see quick_new
class AbilityUsed(Event):
    """A player used an ability (``target``: a region, a player, or ``None``)."""

    player: int
    race: str
    ability: str
    target: int | None = None


@attrs.frozen(weakref_slot=False)  # see quick_new
class PieceMoved(Event):
    """A piece was placed (``source`` -1: from its supply) or lifted (``region`` -1)."""

    piece: str
    region: int
    source: int = -1


@attrs.frozen(weakref_slot=False)  # see quick_new
class TokensGained(Event):
    """A race took extra tokens from its box into hand."""

    player: int
    race: str
    tokens: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class RaceActs(Event):
    """Within a turn, a race of the player starts acting (readied tokens taken into hand)."""

    player: int
    race: str
    readied: int = 0


@attrs.frozen(weakref_slot=False)  # see quick_new
class PowerChosen(Event):
    """A role activated a drafted power at the start (``price`` 0) or bought one."""

    player: int
    power: str
    price: int = 0


@attrs.frozen(weakref_slot=False)  # see quick_new
class TokenBought(Event):
    """A role bought a token from its reserve into its hand zone."""

    player: int
    race: str
    price: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class TokensToZone(Event):
    """Tokens went into a zone: ``tokens`` are their kinds (race ids, ``#lost_tribe``, or
    ``#soul`` for the anonymous tokens of a harvest)."""

    zone: str
    tokens: tuple[str, ...]


@attrs.frozen(weakref_slot=False)  # see quick_new
class Exchanged(Event):
    """An exchange emptied ``taken`` from ``zone`` and gave ``gained`` tokens of ``race``."""

    zone: str
    taken: tuple[str, ...]
    race: str
    gained: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class PowerSwapped(Event):
    """Having just picked ``race``, ``player`` swapped its badge ``old`` for ``new``, the
    badge of another combo of the market (flag ``swaps_power_when_picked``); ``tokens``: the
    race's tokens in hand now."""

    player: int
    race: str
    old: str
    new: str
    tokens: int


@attrs.frozen(weakref_slot=False)  # see quick_new
class PieceRevealed(Event):
    """A conquest by ``player`` turned over the face-down piece ``piece`` of ``region``
    (it went back to its supply)."""

    piece: str
    region: int
    player: int


EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        TurnStarted, ComboPicked, Abandoned, Conquered, DieRolled, Deployed, Declined,
        RaceRemoved, Scored, TurnEnded, GameOver, PositionEdited, AbilityUsed, PieceMoved,
        TokensGained, RaceActs, PowerChosen, TokenBought, TokensToZone, Exchanged,
        PowerSwapped, PieceRevealed,
    )
}
for _cls in EVENT_TYPES.values():  # the engine makes ~150 events a game
    quick_new(_cls)
    _cls._field_names = tuple(f.name for f in attrs.fields(_cls))

#: the event classes by their ``_code``. A tuple of numbers, strings and ``None`` costs the
#: engine a tenth of making the event, and the collector stops walking it after its first
#: pass (an event is walked as long as the game lives): ~4.6 % of a random game.
EVENT_CLASSES: tuple[type[Any], ...] = tuple(EVENT_TYPES.values())
for _code, _cls in enumerate(EVENT_CLASSES):
    _cls._code = _code

# Each class's code as a module constant, for the engine's log sites: ``Deployed._code`` is a
# class attribute, which CPython 3.11 looks up in full at every load (its ``LOAD_ATTR`` is
# not specialised for classes); a module global is read from a cache.
TURN_STARTED: int = TurnStarted._code
COMBO_PICKED: int = ComboPicked._code
ABANDONED: int = Abandoned._code
CONQUERED: int = Conquered._code
DIE_ROLLED: int = DieRolled._code
DEPLOYED: int = Deployed._code
DECLINED: int = Declined._code
RACE_REMOVED: int = RaceRemoved._code
SCORED: int = Scored._code
TURN_ENDED: int = TurnEnded._code
GAME_OVER: int = GameOver._code
POSITION_EDITED: int = PositionEdited._code
ABILITY_USED: int = AbilityUsed._code
PIECE_MOVED: int = PieceMoved._code
TOKENS_GAINED: int = TokensGained._code
RACE_ACTS: int = RaceActs._code
POWER_CHOSEN: int = PowerChosen._code
TOKEN_BOUGHT: int = TokenBought._code
TOKENS_TO_ZONE: int = TokensToZone._code
EXCHANGED: int = Exchanged._code
POWER_SWAPPED: int = PowerSwapped._code
PIECE_REVEALED: int = PieceRevealed._code

_INT_ONLY = frozenset((int,))


def _value_json(value: Any) -> str:
    """``encode_json(value)``, quicker for ``None`` and tuples of numbers and strings."""
    kind = type(value)
    if kind is str:
        return escape(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if kind is tuple:
        return "[" + ",".join([_value_json(item) for item in value]) + "]"
    return encode_json(value)


def _numbers_text(value: Any) -> str | None:
    """``encode_json(value)`` for a tuple of ints, else None."""
    if type(value) is tuple and _INT_ONLY.issuperset(map(type, value)):
        try:
            return "[" + ",".join(map(NUMBER_TEXT.__getitem__, value)) + "]"
        except KeyError:  # a large number
            pass
    return None


def _strings_text(value: Any) -> str | None:
    """``encode_json(value)`` for a tuple of strings (and None) kept in STRING_TEXT, else
    None (and they are kept for the next time)."""
    if type(value) is tuple:
        try:
            return "[" + ",".join(map(STRING_TEXT.__getitem__, value)) + "]"
        except (KeyError, TypeError):  # not kept yet, or not a string (unhashable: TypeError)
            remember(value)
    return None


def _details_text(value: Any) -> str | None:
    """``encode_json(value)`` for a tuple of (str, int, str) tuples (``Scored.details``), else
    None. The explanations are not kept in STRING_TEXT: they hold numbers, names and places."""
    if type(value) is not tuple:
        return None
    parts = []
    try:
        for item in value:
            if type(item) is not tuple or len(item) != 3:
                return None
            race, coins, why = item
            if type(race) is not str or type(coins) is not int or type(why) is not str:
                return None
            parts.append(f"[{STRING_TEXT[race]},{NUMBER_TEXT[coins]},{escape(why)}]")
    except KeyError:
        remember(race)  # the name not kept yet (or a large number: then nothing new)
        return None
    return "[" + ",".join(parts) + "]"


#: how a writer's quick way writes a field of each annotation: a test that the value is what
#: the annotation says (``V`` the field's variable) and its text then (``encode_json``'s)
_QUICK_TEXT = {
    "int": ("type(V) is int", "_N[V]"),
    "int | None": ("(type(V) is int or V is None)", "_N[V]"),
    "str": ("type(V) is str", "_S[V]"),
    "str | None": ("(type(V) is str or V is None)", "_S[V]"),
    "bool": ("(V is True or V is False)", '("true" if V else "false")'),
    "tuple[int, ...]": ("(V := _numbers(V)) is not None", "V"),
    "tuple[str, ...]": ("(V := _strings(V)) is not None", "V"),
    "tuple[tuple[str, int, str], ...]": ("(V := _details(V)) is not None", "V"),
}
#: how the general way turns a field of each annotation into its text, quickly when the
#: value is what the annotation says, else through ``_value_json``
_FIELD_TEXT = {
    "int": "if type(V) is not int: V = _value(V)",
    "str": "V = _escape(V) if type(V) is str else _value(V)",
    "bool": "V = 'true' if V is True else 'false' if V is False else _value(V)",
}
_FIELD_TEXT["int | None"] = _FIELD_TEXT["int"]
_FIELD_TEXT["str | None"] = _FIELD_TEXT["str"]


def _writer(cls: type[Any]) -> Callable[[Event], str]:
    """A function giving ``encode_json(event.to_dict())`` for an event of exactly ``cls``.

    A save holds ~100 events, and building each one's dict for the encoder to sort its keys
    was most of the time of ``to_json``. The writer puts the keys, in their sorted order, in
    one f-string. When every field holds what its annotation says (what the engine logs),
    the numbers' and names' texts are looked up (:mod:`~smallworld_rules.jsontext`), not
    made; otherwise each field's text is the encoder's for whatever value it holds, including
    whatever a loaded save put there (the events' fields are not checked on loading). Built
    from the class's own field names, like :func:`~smallworld_rules.frozen.quick_init`.
    """
    fields = attrs.fields(cls)
    names = [field.name for field in fields]
    if "type" in names:
        raise TypeError(f"{cls.__name__}: a field named 'type' would clash with the event type")
    keys = sorted([*names, "type"])
    # the tables and builtins as defaults: local variables, quicker to read than globals
    lines = ["def write(e, _N=_N, _S=_S, type=type, int=int, str=str):"]
    lines += [f"    v{i} = e.{name}" for i, name in enumerate(names)]
    if all(str(field.type) in _QUICK_TEXT for field in fields):
        quick = [_QUICK_TEXT[str(field.type)] for field in fields]
        tests = [test.replace("V", f"v{i}") for i, (test, _) in enumerate(quick)]
        texts = {name: quick[i][1].replace("V", f"v{i}") for i, name in enumerate(names)}
        quick_parts = [
            f'"type":{escape(cls.__name__)}' if key == "type" else f'"{key}":{{{texts[key]}}}'
            for key in keys
        ]
        strings = [f"v{i}, " for i, field in enumerate(fields) if str(field.type).startswith("str")]
        lines.append(f"    if {' and '.join(tests) or 'True'}:")
        quick_text = "f'{{" + ",".join(quick_parts) + "}}'"
        if "_N[" in quick_text or "_S[" in quick_text:
            lines.append("        try:")
            lines.append(f"            return {quick_text}")
            lines.append("        except KeyError:  # a name not kept yet, or a large number")
            learn = f"_remember(({''.join(strings)}))" if strings else "pass"
            lines.append(f"            {learn}")
        else:
            lines.append(f"        return {quick_text}")
        lines += [f"    v{i} = e.{name}" for i, name in enumerate(names)]  # as they were
    for i, field in enumerate(fields):
        text = _FIELD_TEXT.get(str(field.type), "V = _value(V)")
        lines.append("    " + text.replace("V", f"v{i}"))
    parts = [
        f'"type":{escape(cls.__name__)}' if key == "type" else f'"{key}":{{v{names.index(key)}}}'
        for key in keys
    ]
    lines.append("    return f'{{" + ",".join(parts) + "}}'")
    namespace: dict[str, Any] = {
        "_value": _value_json, "_escape": escape, "_N": NUMBER_TEXT, "_S": STRING_TEXT,
        "_numbers": _numbers_text, "_strings": _strings_text, "_details": _details_text,
        "_remember": remember,
    }
    exec(compile("\n".join(lines), f"<event writer {cls.__qualname__}>", "exec"), namespace)
    write: Callable[[Event], str] = namespace["write"]
    return write


_WRITERS: dict[type[Any], Callable[[Any], str]] = {
    cls: _writer(cls) for cls in EVENT_TYPES.values()
}


#: a log entry: an event, a tuple ``(cls._code, *fields)`` the engine logged, or the checked
#: dict of a loaded save's event (saved_log), the last two not built yet (build_log)
LogEntry: TypeAlias = "Event | tuple[Any, ...] | dict[str, Any]"
#: such a dict holds exactly its event's keys, its lists where the event has tuples: the
#: encoder writes it as the event's writer writes the event
_WRITERS[dict] = encode_json


def log_json(events: Iterable[LogEntry]) -> str:
    """The JSON text of a log: ``encode_json([e.to_dict() for e in events])``, written faster
    (an entry :func:`saved_log` kept as a dict is written as its event would be).

    >>> log_json([TurnStarted(round=1, player=0)])
    '[{"player":0,"readied":0,"round":1,"type":"TurnStarted"}]'
    """
    writers = _WRITERS
    parts = []
    for event in events:
        write = writers.get(type(event))
        if write is None:  # an event of a class of no writer (made outside this module)
            parts.append(encode_json(cast(Event, event).to_dict()))
        else:
            parts.append(write(event))
    return "[" + ",".join(parts) + "]"


def _tupled(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    return tuple([_tupled(v) if isinstance(v, list) else v for v in value])


def _reader(cls: type[Any]) -> Callable[[dict[str, Any]], Event | None]:
    """A function rebuilding an event of ``cls`` from a dict holding ``"type"`` and exactly
    its fields, or giving ``None`` for any other dict (:func:`event_from_dict` then takes the
    general way, which explains what is wrong). The same event as ``cls(**fields)``, lists as
    tuples, without a keyword dict and an ``__init__`` call per event: a save holds ~100."""
    fields = attrs.fields(cls)
    lines = ["def read(data):", f"    if len(data) != {len(fields) + 1}:", "        return None"]
    lines.append("    try:")
    lines += [f"        v{i} = data[{field.name!r}]" for i, field in enumerate(fields)]
    lines += ["    except KeyError:", "        return None"]
    for i in range(len(fields)):
        lines.append(f"    if isinstance(v{i}, list):")
        lines.append(f"        v{i} = _tupled(v{i})")
    lines.append("    e = _new(_cls)")
    lines += [f"    _set{i}(e, v{i})" for i in range(len(fields))]
    lines.append("    return e")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_tupled": _tupled}
    for i, field in enumerate(fields):
        namespace[f"_set{i}"] = cls.__dict__[field.name].__set__  # the slot's descriptor
    exec(compile("\n".join(lines), f"<event reader {cls.__qualname__}>", "exec"), namespace)
    read: Callable[[dict[str, Any]], Event | None] = namespace["read"]
    return read


_READERS: dict[type[Any], Callable[[dict[str, Any]], Event | None]] = {
    cls: _reader(cls) for cls in EVENT_TYPES.values()
}


def event_from_dict(data: Any) -> Event:
    """Rebuild an event from its JSON form.

    Raises:
        RulesError: unknown type or wrong fields.
    """
    kind = data.get("type") if isinstance(data, dict) else None
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RulesError(f"not a log event: {excerpt(data)}")
    read = _READERS.get(cls) if type(data) is dict else None
    quick = None if read is None else read(data)
    if quick is not None:
        return quick
    try:
        event: Event = cls(
            **{k: _tupled(v) if isinstance(v, list) else v for k, v in data.items() if k != "type"}
        )
    except TypeError as exc:
        raise RulesError(f"bad log event {excerpt(data)}: {excerpt(str(exc))[1:-1]}") from None
    return event


def events_from_dicts(items: Iterable[Any]) -> list[Event]:
    """``[event_from_dict(data) for data in items]``, the quick way first for each (a save's
    log).

    Raises:
        RulesError: as :func:`event_from_dict`, for the first item that is not an event.
    """
    types, readers = EVENT_TYPES, _READERS
    out = []
    for data in items:
        event = None
        if type(data) is dict:
            kind = data.get("type")
            cls = types.get(kind) if type(kind) is str else None
            read = None if cls is None else readers.get(cls)
            if read is not None:
                event = read(data)
        out.append(event_from_dict(data) if event is None else event)
    return out


#: the keys of each event type's JSON form (``"type"`` and its fields), by the type's name
_KEYS: dict[str, frozenset[str]] = {
    name: frozenset(("type", *cls._field_names)) for name, cls in EVENT_TYPES.items()
}


def saved_log(items: Iterable[Any]) -> list[LogEntry]:
    """A save's log, every item checked as :func:`events_from_dicts` checks it, most events
    built only when the log is read (:func:`build_log`).

    An item holding ``"type"`` and exactly its event's fields (every item a save writes) is
    kept as it is: its event is then sure to build, the same as :func:`event_from_dict`
    builds it. Any other item is built now, or refused. A save holds ~100 events, and
    building them was a quarter of the time of loading one, often for a log nobody reads.

    Raises:
        RulesError: as :func:`event_from_dict`, for the first item that is not an event.
    """
    keys = _KEYS
    out: list[LogEntry] = []
    for data in items:
        if type(data) is dict:
            kind = data.get("type")
            if type(kind) is str and data.keys() == keys.get(kind):
                out.append(data)
                continue
        out.append(event_from_dict(data))
    return out


def build_log(log: list[LogEntry], start: int = 0) -> list[Event]:
    """Turn the tuples the engine logged and the dicts :func:`saved_log` kept in ``log``
    (from ``start`` on) into their events, in place; gives ``log``, now all events.

    >>> build_log([(TurnEnded._code, 1), TurnEnded(player=0)])
    [TurnEnded(player=1), TurnEnded(player=0)]
    """
    types, readers, classes = EVENT_TYPES, _READERS, EVENT_CLASSES
    for i in range(start, len(log)):
        entry = log[i]
        kind = type(entry)
        if kind is tuple:
            log[i] = classes[entry[0]]._make(*entry[1:])  # type: ignore[index]
        elif kind is dict:
            data = cast("dict[str, Any]", entry)
            event = readers[types[data["type"]]](data)
            assert event is not None  # saved_log kept only dicts with exactly their keys
            log[i] = event
    return cast("list[Event]", log)


#: a JSON string of printable ASCII without quotes or backslashes, as the encoder writes it
#: (possessive: the closing quote is never among the characters, so nothing to go back to)
PLAIN_TEXT = r'"[ !#-\[\]-~]*+"'


def _log_text_pattern() -> str:
    """A regular expression matching the JSON text of a log as :func:`log_json` writes it
    when every field holds what its annotation says (integers of up to 30 digits, strings
    of printable ASCII without quotes or backslashes): what every save the engine writes
    holds. Such a text parses to a list of dicts each holding ``"type"`` and exactly its
    event's fields, which :func:`log_json` writes back as they were (no other spelling of a
    value matches), two levels deep at most."""
    # a leading digit or sign for each branch, the digits possessive (what follows is never
    # a digit): sre tries fewer ways, ~15 % of the matcher's work on a save's log
    number = r"(?:0|[1-9][0-9]{0,29}+|-[1-9][0-9]{0,29}+)"
    text = PLAIN_TEXT
    values = {
        "int": number,
        "str": text,
        "bool": "(?:true|false)",
        "int | None": f"(?:{number}|null)",
        "str | None": f"(?:{text}|null)",
        "tuple[int, ...]": rf"\[(?:{number}(?:,{number})*+)?\]",
        "tuple[str, ...]": rf"\[(?:{text}(?:,{text})*+)?\]",
        "tuple[tuple[str, int, str], ...]": (
            rf"\[(?:\[{text},{number},{text}\](?:,\[{text},{number},{text}\])*+)?\]"
        ),
    }
    types = {
        (cls, field.name): values[str(field.type)]
        for cls in EVENT_TYPES.values()
        for field in attrs.fields(cls)
    }
    # One branch per key in a tree of the event types' sorted keys: the types share their
    # first keys ("player", "race", …), and the matcher reads each value once.
    tree: dict[str, Any] = {}
    for name, cls in EVENT_TYPES.items():
        node = tree
        for key in sorted([*cls._field_names, "type"]):
            token = f'"type":"{name}"' if key == "type" else f'"{key}":' + types[cls, key]
            node = node.setdefault(token, {})
        node["}"] = {}

    def branches(node: dict[str, Any]) -> str:
        # after the type's name and the keys after it comes the end: "}" is then alone
        out = [
            token
            + (r"\}" if "}" in child else "," + branches(child))
            for token, child in node.items()
        ]
        return out[0] if len(out) == 1 else "(?:" + "|".join(out) + ")"

    # the events but the last each followed by a comma, then the last (an event is written
    # twice: one test of a comma after each event, where a test of what follows it, a comma
    # and an event or the list's end, cost a branch and a look ahead each: -5 % of the
    # match); the events matched are never given back (``*+``: nothing to go back to, and a
    # long log would otherwise keep a way back into each event), nor a list's entries (a
    # comma starts each, and the list's end is not one)
    event = r"\{" + branches(tree)
    return rf"\[(?:(?:{event},)*+{event})?\]"


#: see :func:`_log_text_pattern`
LOG_TEXT = _log_text_pattern()
