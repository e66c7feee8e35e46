"""A saved state as the engine writes it is read from its text (``saved.load_save_text``
leaves it out of the JSON parse, ``saved_text.state_from_text`` reads it); these tests
compare that way with the general one — the text parsed, ``state_from_dict`` checking every
field — on the positions of seeded games with the official rules, Necromancer Island, every
``tests/rules*`` folder, each expansion alone and all of them together, sound and with odd
values planted in every field of the state.

* Where the text way gives a state, the general way gives the same one: every field, with
  its container and value types. Where it gives none, the general way decides.
* A save is loaded by ``Game.from_json`` into the same game, or refused with the same
  message, as by loading its whole text with ``json.loads`` and the general checks.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

from helpers import finished_games, playing_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules import saved, saved_text
from smallworld_rules.state import LOST_TRIBE, State


def _fields(s: State) -> dict[str, Any]:
    """Every field of a state (its bookkeeping ``gen`` left out) as comparable data, with
    the types of containers and values."""

    def plain(v: Any) -> Any:
        if hasattr(v, "__slots__") and not isinstance(v, tuple | list | dict | str):
            return (type(v).__name__, {k: plain(getattr(v, k)) for k in v.__slots__})
        if isinstance(v, dict):
            return ("dict", [(plain(k), plain(x)) for k, x in v.items()])
        if isinstance(v, tuple | list):
            return (type(v).__name__, [plain(x) for x in v])
        return (type(v).__name__, v)

    return {k: plain(getattr(s, k)) for k in State.__slots__ if k != "gen"}


def _general(text: str, rules: sw.Rules) -> tuple[str, str]:
    """What loading the whole text with ``json.loads`` and the general checks gives."""
    try:
        doc = saved.load_json(text, "not a saved game")
        return "loaded", sw.Game._from_saved(doc, None, rules).to_json()
    except sw.RulesError as exc:
        return "refused", str(exc)


def _loaded(text: str, rules: sw.Rules) -> tuple[str, str]:
    try:
        return "loaded", sw.Game.from_json(text, rules=rules).to_json()
    except sw.RulesError as exc:
        return "refused", str(exc)


def _both_ways(engine: Any, text: str) -> tuple[State | None, State | None]:
    """The text way's state (or None) and the general way's (None: refused)."""
    _, _, state = saved.load_save_text(text)
    if state is None:
        return None, None
    fast = saved_text.state_from_text(engine, state)
    try:
        general = saved.state_from_dict(engine, saved.parsed_state(state))
    except sw.RulesError:
        general = None
    return fast, general


def _compact(doc: Any) -> str:
    return json.dumps(doc, separators=(",", ":"), sort_keys=True)


@rule_sets(necromancer=True, each_box=True)
def test_a_state_read_from_its_text_is_the_state_the_general_way_makes(
    how: dict[str, Any],
) -> None:
    """A position saved and loaded again is the same position, whichever way its state is
    read."""
    rules, _ = rules_and_players(how)
    read = 0
    for i, game in enumerate(playing_positions(rules, 3)):
        if i % 9:
            continue
        text = game.to_json()
        fast, general = _both_ways(game._engine, text)
        if fast is not None:
            read += 1
            assert general is not None
            assert _fields(fast) == _fields(general)
        assert sw.Game.from_json(text, rules=rules).to_json() == text
    if not how:  # the official rules: most saves take the text way
        assert read >= 10


#: odd values planted in a field or an entry of a saved state
_ODD: tuple[Any, ...] = (
    None, True, False, 0, 1, 2, -1, -2, -3, 3, 5, 6, 22, 23, 99, 100, 999, 1000, 2**64,
    2**64 - 1, 1.0, "", "trolls", "ghouls", "zz", "forest", "lair", LOST_TRIBE, "#soul",
    "conquest", "pick", [], [0], [2], [5], [1, 1], [22], [23], [None], ["trolls"],
    [[6, 3]], [[6, 0]], [[99, 1]], {},
    {"lair": 1}, {"lair": 0}, {"3": {"lair": 1}}, [["trolls", "forest", 0]],
)


def _plant(state: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, Any]]:
    """Copies of a saved state with one odd value planted: in each field, and in each field
    or place of an entry of each list or object."""

    def odd() -> list[Any]:
        return rng.sample(_ODD, 3)

    for key in sorted(state):
        for value in rng.sample(_ODD, 4):
            yield key, {**state, key: value}
        value = state[key]
        if isinstance(value, list) and value:
            i = rng.randrange(len(value))
            before, entry, after = value[:i], value[i], value[i + 1 :]
            if isinstance(entry, list):
                for j in range(len(entry)):
                    for planted in odd():
                        yield key, {**state, key: [*before, [*entry[:j], planted,
                                                             *entry[j + 1 :]], *after]}
            elif isinstance(entry, dict):
                for field in sorted(entry):
                    for planted in odd():
                        yield key, {**state, key: [*before, {**entry, field: planted}, *after]}
            for planted in odd():
                yield key, {**state, key: [*before, planted, *after]}
            yield key, {**state, key: value[:-1]}
            yield key, {**state, key: [*value, value[-1]]}
        elif isinstance(value, dict) and value:
            field = rng.choice(sorted(value))
            entry = value[field]
            if isinstance(entry, dict):
                for inner in sorted(entry):
                    for planted in odd():
                        yield key, {**state, key: {**value, field: {**entry, inner: planted}}}
            for planted in odd():
                yield key, {**state, key: {**value, field: planted}}
            yield key, {**state, key: {k: v for k, v in value.items() if k != field}}
            yield key, {**state, key: {**value, "zz": 1}}


def _more_pieces(state: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Copies of a saved state with a piece of another kind from the supply put on a region
    holding pieces (a table of two kinds), and on a region holding none; and a table of
    none of a kind (a count of 0) on a region holding none."""
    supply, pieces = state["piece_supply"], state["pieces"]
    bare = next(str(r) for r in range(len(state["region_race"])) if str(r) not in pieces)
    for name in sorted(supply):
        yield "pieces", {**state, "pieces": {**pieces, bare: {name: 0}}}
    for name in sorted(k for k, v in supply.items() if v):
        for key in [*sorted(pieces)[:1], bare]:
            table = {**pieces.get(key, {}), name: pieces.get(key, {}).get(name, 0) + 1}
            yield "pieces", {
                **state,
                "pieces": {**pieces, key: dict(sorted(table.items()))},
                "piece_supply": {**supply, name: supply[name] - 1},
            }


@rule_sets(necromancer=True, each_box=True)
def test_a_state_with_odd_values_is_read_or_refused_as_the_general_way(
    how: dict[str, Any],
) -> None:
    """A corrupt saved state is refused with the message the general checks give, and a
    sound one loads into the same game."""
    rules, _ = rules_and_players(how)
    rng = random.Random(8)
    tried = taken = 0
    # (one position in 80: json14 changes saves of every rule set field by field too)
    chosen = [g.to_json() for i, g in enumerate(playing_positions(rules, 2)) if i % 80 == 7]
    finished = finished_games(rules, 1)[0]  # (the fields of a game over: winners)
    for text in [*chosen, finished.to_json()]:
        game = sw.Game.from_json(text, rules=rules)
        doc = json.loads(text)
        for _, state in [*_plant(doc["state"], rng), *_more_pieces(doc["state"])]:
            variant = _compact({**doc, "state": state})
            fast, general = _both_ways(game._engine, variant)
            if fast is not None:
                taken += 1
                assert general is not None
                assert _fields(fast) == _fields(general)
            assert _loaded(variant, rules) == _general(variant, rules)
            tried += 1
    assert tried > 0
    if not how:
        assert taken > 0


@rule_sets()
def test_a_state_spelled_otherwise_is_read_or_refused_as_the_general_way(
    how: dict[str, Any],
) -> None:
    """A saved state's text cut, doubled or spelled otherwise (a key twice, spaces, leading
    zeros, escapes, a float) is loaded or refused as loading the whole text refuses it."""
    rules, _ = rules_and_players(how)
    for i, game in enumerate(playing_positions(rules, 2)):
        if i % 50 != 11:
            continue
        text = game.to_json()
        at = text.index(',"state":{') + 9
        head, state = text[:at], text[at:-len(',"version":3}')]
        piece = sorted(rules.pieces)[0]
        variants = [
            re.sub(r'("pieces":\{"[0-9]+":\{)', rf'\1"{piece}":0,', state, count=1),
            re.sub(r'("pieces":\{"[0-9]+":\{)', rf'\1"{piece}":-1,', state, count=1),
            re.sub(r'("pieces":\{"[0-9]+":\{)', r'\1"zz":1,', state, count=1),
            state.replace('"pieces":{', '"pieces":{"3":{"lair":1},', 1),
            state.replace('"pieces":{', '"pieces":{"3":{"lair":1},"3":{"lair":2},', 1),
            state.replace('"box":{', '"box":{"trolls":2,', 1),
            state.replace('"races":{', '"races":{"ghouls":{},', 1),
            state.replace('"region_tokens":[0', '"region_tokens":[00', 1),
            state.replace('"region_tokens":[', '"region_tokens":[ ', 1),
            state.replace('"round":', '"round":1.0e0,"x":', 1),
            state.replace('"phase":"', '"phase":"\\u0063', 1),
            state.replace('"used":[]', '"used":["a,b"]', 1),
            state.replace('"used":[]', '"used":["a"]', 1),
            state.replace('"used":[]', '"used":[""]', 1),
            state.replace('"acted":', '"acted":true,"acted":', 1),
            state.replace(',"zones":{}', ',"zones":{},"zones":{}', 1),
            state.replace('"truces":[]', '"truces":[[0,1]]', 1),
            state.replace('"regained":{}', '"regained":{"lair":1}', 1),
            state[:-1],
            state + "}",
            state.replace("[", "[[", 1),
            state.replace('"rng":', '"rng":-', 1),
            state.replace('"die_bonus":-1', '"die_bonus":-2', 1),
            state.replace('"die_target":-1', '"die_target":-3', 1),
            state.replace('"die_target":-1', '"die_target":-4', 1),
        ]
        for variant in variants:
            for tail in (',"version":3}', ',"version":2}', ',"version":3} '):
                text_variant = head + variant + tail
                assert _loaded(text_variant, rules) == _general(text_variant, rules), variant


def test_a_state_left_as_text_is_sound_json_of_the_state() -> None:
    """The state a save leaves as text parses, alone, as the state of the whole text."""
    rules = sw.load_rules()
    for i, game in enumerate(playing_positions(rules, 2)):
        if i % 25:
            continue
        text = game.to_json()
        doc, _, state = saved.load_save_text(text)
        assert state is not None and doc["state"] == {}
        whole = json.loads(text)
        assert saved.parsed_state(state) == whole["state"]
        assert saved.load_save_json(text)[0] == {**whole, "log": []}
