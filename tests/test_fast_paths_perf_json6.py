"""Saving writes its text with shortcuts, and loading parses the rest of a save with
``json.loads``'s own scanner: these tests compare each with the general way, on the positions
of seeded games with the official rules, Necromancer Island, every ``tests/rules*`` folder,
each expansion alone and all of them together, sound and with odd values planted.

* ``state.state_json`` writes a saved state's text from the texts ``jsontext`` keeps for
  numbers, names and keys; the general way is ``encode_json(state_to_dict(s))``. It must give
  the same text for any state (or raise what the general way raises), with the tables empty
  (the first save of a process) or filled.
* An event's writer looks its numbers' and names' texts up when its fields hold what their
  annotations say; the general way is ``encode_json(event.to_dict())``.
* The rest of a save (its log left as text) is parsed by the scanner: the same value as
  ``json.loads`` for a text with nothing around its value, and a text it refuses, or with
  spaces around, is loaded whole, which decides: the same game or the same refusal.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from helpers import playing_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules import jsontext, saved
from smallworld_rules.events import EVENT_TYPES, Event, encode_json, log_json
from smallworld_rules.maps import MAP_NAMES
from smallworld_rules.saved import FORMAT, VERSION
from smallworld_rules.state import (
    LOST_TRIBE,
    Phase,
    PlayerState,
    RaceState,
    State,
    state_json,
    state_to_dict,
)


@pytest.fixture
def cold_tables() -> Iterator[None]:
    """The tables of names emptied, as in a fresh process (their contents put back after)."""
    kept = dict(jsontext.STRING_TEXT), dict(jsontext.KEY_TEXT)
    jsontext.STRING_TEXT.clear()
    jsontext.STRING_TEXT[None] = "null"
    jsontext.KEY_TEXT.clear()
    yield
    jsontext.STRING_TEXT.clear()
    jsontext.STRING_TEXT.update(kept[0])
    jsontext.KEY_TEXT.clear()
    jsontext.KEY_TEXT.update(kept[1])


def _general_state(s: State) -> str:
    return encode_json(state_to_dict(s))


def _general_save(game: sw.Game) -> str:
    """A save as the encoder writes its whole document (what to_json wrote before)."""
    engine = game._engine
    doc = {
        "chance": "explicit" if engine.explicit_chance else "seeded",
        "expansions": list(engine.rules.expansion_ids),
        "format": FORMAT,
        "log": [event.to_dict() for event in game.log],
        "map": engine.map.name,
        "map_data": None if engine.map.name in MAP_NAMES else engine.map.to_dict(),
        "options": engine.options,
        "packs": list(engine.rules.packs),
        "players": engine.players,
        "seed": game.seed,
        "state": state_to_dict(game._state),
        "version": VERSION,
    }
    return encode_json(doc)


def _outcome(write: Callable[[], str]) -> tuple[str, str]:
    try:
        return "text", write()
    except Exception as exc:  # the general way's error, for a state it cannot write
        return "error", type(exc).__name__


@rule_sets(necromancer=True, each_box=True)
def test_a_save_is_the_encoders_text_of_its_document(
    how: dict[str, Any], cold_tables: None
) -> None:
    """Every few positions of seeded games, saved: the text is what encoding the whole
    document gives (byte for byte), the state's text what the encoder writes of it, the first
    save with the tables of names empty (the encoder's way, the names then kept) and the
    next ones with them filled; the save loads back into the same text."""
    rules, _ = rules_and_players(how)
    saves = 0
    for i, game in enumerate(playing_positions(rules, 3)):
        if i % 7:
            continue
        s = game._state
        assert state_json(s) == _general_state(s)
        assert state_json(s) == _general_state(s)  # with the names kept
        text = game.to_json()
        assert text == _general_save(game)
        if i % 21 == 0:
            assert sw.Game.from_json(text, rules=rules).to_json() == text
        saves += 1
    assert saves > 10


# ----------------------------------------------------------------------- odd values in a state

#: values a state's field may hold when something put them there by hand (a test, a user)
ODD_NUMBERS: list[Any] = [True, False, 1.0, -4, 1000, 10**20, None, "3"]
ODD_NAMES: list[Any] = [1, True, None, 'a"b', "\u00e9", "never-kept-name", ("x",)]


class Name(str):
    pass


def _plant(s: State, rng: random.Random) -> tuple[str, State]:
    """A copy of ``s`` with one odd value somewhere (named by what was changed)."""
    t = s.copy()
    t.races = {k: copy.copy(r) for k, r in s.races.items()}
    t.players = tuple(copy.copy(p) for p in s.players)
    number, name = rng.choice(ODD_NUMBERS), rng.choice(ODD_NAMES)
    races = sorted(t.races)
    region = rng.randrange(len(t.region_tokens))
    changes: list[tuple[str, Callable[[], None]]] = [
        ("region_tokens", lambda: t.region_tokens.__setitem__(region, number)),
        ("round", lambda: setattr(t, "round", number)),
        ("active", lambda: setattr(t, "active", number)),
        ("rng", lambda: setattr(t, "rng", number)),
        ("acted", lambda: setattr(t, "acted", rng.choice((0, 1, None)))),
        ("decline_at_end", lambda: setattr(t, "decline_at_end", rng.choice((0, 1)))),
        ("box", lambda: setattr(t, "box", {**t.box, races[0] if races else "x": number})),
        ("box key", lambda: setattr(t, "box", {**t.box, name: 1})),
        ("box name", lambda: setattr(t, "box", {Name(k): v for k, v in t.box.items()})),
        ("supply", lambda: setattr(t, "piece_supply", {**t.piece_supply, "lair": number})),
        ("regained", lambda: setattr(t, "regained", {rng.choice(("x", name)): number})),
        ("pieces", lambda: t.set_pieces(region, {"lair": number})),
        ("pieces key", lambda: setattr(t, "pieces", {**t.pieces, str(region): {"lair": 1}})),
        ("pieces name", lambda: t.set_pieces(region, {name: 1, "lair": 2})),
        ("region_race", lambda: t.set_occupants((*t.region_race[:-1], name))),
        ("region_race str", lambda: t.set_occupants(tuple(map(Name, map(str, t.region_race))))),
        ("race_stack", lambda: setattr(t, "race_stack", (*t.race_stack, name))),
        ("used", lambda: setattr(t, "used", (name, "x"))),
        ("market", lambda: setattr(t, "market", (*t.market, ("a", "b", number)))),
        ("market short", lambda: setattr(t, "market", (*t.market, ("a", "b")))),
        ("market long", lambda: setattr(t, "market", (("a", "b", 1, 2), *t.market))),
        ("readied", lambda: setattr(t, "readied", ((region, number),))),
        ("readied long", lambda: setattr(t, "readied", ((region, 1, 2),))),
        ("truces", lambda: setattr(t, "truces", ((0, number),))),
        ("winners", lambda: setattr(t, "winners", (0, number))),
        ("zones", lambda: setattr(t, "zones", {"b": (LOST_TRIBE, name), "a": ()})),
        ("zones key", lambda: setattr(t, "zones", {name: ("x",)})),
        ("player coins", lambda: setattr(t.players[0], "coins", number)),
        ("player active", lambda: setattr(t.players[-1], "active", name)),
        ("player declined", lambda: setattr(t.players[0], "declined", (name,))),
        ("phase", lambda: setattr(t, "phase", rng.choice(list(Phase)))),
        ("lang", lambda: setattr(t, "lang", {"banner": {"x": 1}, 3: [1, (2,)]})),
    ]
    if races:
        r = t.races[rng.choice(races)]
        changes += [
            ("race hand", lambda: setattr(r, "hand", number)),
            ("race owner", lambda: setattr(r, "owner", number)),
            ("race declined", lambda: setattr(r, "declined", rng.choice((0, 1, None)))),
            ("race power", lambda: setattr(r, "power", name)),
            ("race race", lambda: setattr(r, "race", name)),
            ("race uses", lambda: setattr(r, "uses", {"b": number, "a": 1})),
            ("race uses one", lambda: setattr(r, "uses", {name: 2})),
            ("race key", lambda: setattr(t, "races", {**t.races, name: r})),
        ]
    what, change = rng.choice(changes)
    change()
    return what, t


@rule_sets(necromancer=True)
def test_a_state_holding_odd_values_is_written_as_the_encoder_writes_it(
    how: dict[str, Any], cold_tables: None
) -> None:
    """States of seeded games, each with an odd value planted somewhere (a bool or a float
    where a number goes, numbers past the tables, names that are not strings, or strings of
    a subclass, or never kept, tables keyed by numbers, entries too short or too long, the
    rule language's memory): ``state_json`` gives the encoder's text, or fails as the
    encoder does; and once more with the names it met kept."""
    rules, _ = rules_and_players(how)
    rng = random.Random(6)
    planted: set[str] = set()
    for i, game in enumerate(playing_positions(rules, 2)):
        if i % 3:
            continue
        for _ in range(3):
            what, s = _plant(game._state, rng)
            general = _outcome(lambda s=s: _general_state(s))  # type: ignore[misc]
            assert _outcome(lambda s=s: state_json(s)) == general, what  # type: ignore[misc]
            assert _outcome(lambda s=s: state_json(s)) == general, what  # type: ignore[misc]
            planted.add(what)
    assert len(planted) > 25


def test_the_state_fields_written_are_the_saved_fields() -> None:
    """The text holds exactly the saved fields, keys in sorted order (a field added to the
    state and to ``state_to_dict`` but not to the writer would be missed)."""
    game = sw.Game.new(players=3, seed=2)
    text = state_json(game._state)
    assert list(json.loads(text)) == sorted(state_to_dict(game._state))
    assert tuple(sorted(RaceState.FIELDS)) == RaceState.FIELDS
    assert sorted(PlayerState(1, None, ()).to_dict()) == ["active", "coins", "declined"]


# ----------------------------------------------------------------------- events

#: values a loaded save may put in any field of an event (the fields are not checked), and
#: numbers and names past what the tables hold
ODD_VALUES: list[Any] = [
    True, False, None, 0, -3, -4, 999, 1000, 2**70, 1.5, "", "never-kept", 'a"b\\c\n\u00e9',
    Name("x"), (), (1, "x"), (1000, -4), ("a", None), (("r", 1, "why"),), (("r", True, "w"),),
    (("r", 1),), ((1, 1, "w"),), (("r", 1, "w", 4),), ((None, 1, "w"),), (["r", 1, "w"],),
    (("never-kept-too", 1, "w"), 5), (("r", 10**30, "w"), None),
    {"b": [1, (2,)], "a": None}, [1, [2, {"z": 0, "y": 1}]], ([1],),
]


def test_an_event_holding_odd_values_is_written_as_the_encoder_writes_it(
    cold_tables: None,
) -> None:
    """Every event type with each field holding each odd value, the tables of names empty
    and then filled: its text is the encoder's text of its dict."""
    written = 0
    for _ in range(2):
        for cls in EVENT_TYPES.values():
            fields = attrs.fields(cls)
            for i in range(len(fields)):
                for value in ODD_VALUES:
                    args = [value if j == i else j for j in range(len(fields))]
                    event: Event = cls(*args)
                    assert log_json([event]) == f"[{encode_json(event.to_dict())}]", event
                    written += 1
    assert written > 3000


@rule_sets(necromancer=True, each_box=True)
def test_a_log_is_the_encoders_text_of_its_events(how: dict[str, Any], cold_tables: None) -> None:
    """The logs of seeded games, written with the tables of names empty and then filled:
    the encoder's text of the events' dicts."""
    rules, _ = rules_and_players(how)
    kinds = set()
    for i, game in enumerate(playing_positions(rules, 3)):
        if i % 25 == 0 or game.is_over:
            log = list(game.log)
            expected = encode_json([event.to_dict() for event in log])
            assert log_json(log) == expected
            assert log_json(log) == expected
            kinds.update(type(event) for event in log)
    assert len(kinds) >= 6


def test_the_tables_hold_the_encoders_texts() -> None:
    """Each text the tables hold is the encoder's; a name is kept once met, a cycle ends
    the search, and past the limit nothing more is kept."""
    for key, text in jsontext.NUMBER_TEXT.items():
        assert text == encode_json(key)
    data: list[Any] = ["q\"", {"k\u00e9": ("v",)}]
    data.append(data)
    jsontext.remember(data)
    for name in ('q"', "k\u00e9", "v"):
        assert jsontext.STRING_TEXT[name] == encode_json(name)
        assert jsontext.KEY_TEXT[name] == encode_json(name) + ":"
    with pytest.raises(KeyError):
        jsontext.STRING_TEXT[1]
    with pytest.raises(KeyError):
        jsontext.NUMBER_TEXT[1000]
    jsontext.remember_text(encode_json({"pl ain": ["x:y", {"z": None}], "q": "r,s"}))
    for name in ("pl ain", "x:y", "z", "q", "r,s"):
        assert jsontext.STRING_TEXT[name] == encode_json(name)
        assert jsontext.KEY_TEXT[name] == encode_json(name) + ":"
    # after a string with an escape, the quotes pair up otherwise: what is kept is still
    # each thing's own text, and no string needing an escape is kept
    jsontext.remember_text(encode_json({"a\"b": ["c\\d", "\u00e9t\u00e9", "w"], "v": 1}))
    for name in ('a"b', "c\\d", "\u00e9t\u00e9"):
        assert name not in jsontext.STRING_TEXT
    assert all(encode_json(k) == t for k, t in jsontext.STRING_TEXT.items())
    assert all(encode_json(k) + ":" == t for k, t in jsontext.KEY_TEXT.items())
    size = len(jsontext.STRING_TEXT)
    old = jsontext._KEPT
    jsontext._KEPT = size
    try:
        jsontext.remember(["not kept at all"])
        assert "not kept at all" not in jsontext.STRING_TEXT
    finally:
        jsontext._KEPT = old


# ----------------------------------------------------------------------- loading


def _whole(text: str, rules: sw.Rules) -> tuple[str, Any]:
    """What loading the text through ``json.loads`` gives: the saved game or the refusal."""
    try:
        doc = saved.load_json(text, "not a saved game")
        game = sw.Game._from_saved(doc, None, rules)
    except sw.RulesError as exc:
        return "refused", str(exc)
    return "loaded", game.to_json()


def _loaded(text: str, rules: sw.Rules) -> tuple[str, Any]:
    try:
        game = sw.Game.from_json(text, rules=rules)
    except sw.RulesError as exc:
        return "refused", str(exc)
    return "loaded", game.to_json()


@rule_sets()
def test_the_rest_of_a_save_is_parsed_as_json_loads_parses_it(how: dict[str, Any]) -> None:
    """Saves of seeded games, and variants of their rest (what follows the log): spaces or
    text after it, cut, a value replaced by one nested deeply, a stray bracket or quote.
    ``_parsed`` gives ``json.loads``'s value for a text with nothing around its value and
    None otherwise; and the save loads into the same game, or is refused with the same
    message, as loading its whole text with ``json.loads`` does."""
    rules, _ = rules_and_players(how)
    compared = 0
    for i, game in enumerate(playing_positions(rules, 2)):
        if i % 40:
            continue
        text = game.to_json()
        assert saved._parsed(text) == json.loads(text)
        cut = text.index(',"map":')
        variants = [
            text, text + " ", " " + text, text + "\n", text + "x", text + "{}", text[:-1],
            text[:cut] + "," + text[cut:], text[:cut] + ',"map":[' + "[" * 30 + text[cut + 7 :],
            text.replace('"version":3', '"version":' + "[" * 30 + "3" + "]" * 30),
            text.replace('"seed":', '"seed":"', 1), text[:cut] + "]" + text[cut:],
        ]
        for variant in variants:
            parsed = saved._parsed(variant)
            try:
                expected = json.loads(variant)
            except (RecursionError, ValueError):
                assert parsed is None
            else:
                assert parsed is None if variant.strip() != variant else parsed == expected
            assert _loaded(variant, rules) == _whole(variant, rules), variant[-80:]
            compared += 1
    assert compared > 20


def test_a_saved_game_missing_a_key_or_with_odd_names_is_refused_as_before() -> None:
    """The keys of a saved game and its names of expansions and packs are tested at once;
    a save without one of them is refused naming the first missing in the order checked,
    names that are not a list of strings are refused (a subclass of str is a string)."""
    text = sw.Game.new(players=2, seed=4).to_json()
    order = ["map", "players", "seed", "chance", "options", "expansions", "packs", "state", "log"]
    for i, key in enumerate(order):
        doc = json.loads(text)
        for dropped in order[i:]:
            del doc[dropped]
        with pytest.raises(sw.RulesError, match=f"^saved game is missing '{key}'$"):
            sw.Game.from_json(json.dumps(doc))
    for key in ("expansions", "packs"):
        for names in ([1], "abc", [None], {"a": 1}, [["x"]]):
            doc = json.loads(text)
            doc[key] = names
            with pytest.raises(sw.RulesError, match=f"^saved game: '{key}' must be a list of"):
                sw.Game.from_json(json.dumps(doc))
        odd = {**json.loads(text), key: [Name("zz")]}  # the rules given: the names not read
        assert sw.Game._from_saved(odd, None, sw.load_rules()).to_json() == text
