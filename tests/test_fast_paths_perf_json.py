"""Loading a save takes shortcuts for what a save as the engine writes it holds: these tests
compare each with the general way on the saves of seeded games, sound and corrupt.

* ``state_from_dict`` tests a sound entry (a race, a player, a combo, a region's pieces, the
  region occupants) at once, and checks anything else entry by entry, for the refusal's
  message: the per-entry way is taken here by giving the same data as subclasses of
  ``dict`` and ``list`` (the quick tests ask for the exact types, the checks accept any).
* A save whose log is left as text has the depth of its state checked only when the load
  is refused: the refusal must then be the depth message, whatever else is wrong.
* The log's pattern matches exactly the texts the pattern of the earlier spelling matched.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import smallworld_rules as sw
from smallworld_rules.events import LOG_TEXT
from smallworld_rules.saved import load_json, state_from_dict
from smallworld_rules.state import State, state_to_dict

TESTS = Path(__file__).parent


class _Dict(dict):  # type: ignore[type-arg]
    """A dict the quick tests do not take (named as a dict, so that messages quote it so)."""


class _List(list):  # type: ignore[type-arg]
    """A list the quick tests do not take."""


_Dict.__name__ = _Dict.__qualname__ = "dict"
_List.__name__ = _List.__qualname__ = "list"

_HOSTILE: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 99, 10**40, 1.5, "", "x", "trolls", "Trolls",
    "#lost_tribe", "#soul", "conquest", "lair", "@marked", [], {}, [1], [None], ["x", 1],
    [3, 1], {"a": 1}, {"lair": 1}, {"lair": 0}, 2**64,
]


def _general(value: Any) -> Any:
    """``value`` with every dict and list a subclass: loaded the general way."""
    if isinstance(value, dict):
        return _Dict({k: _general(v) for k, v in value.items()})
    if isinstance(value, list):
        return _List(_general(v) for v in value)
    return value


def _rep(value: Any) -> str:
    """Every field of a loaded state, with the types of its containers and values."""
    if isinstance(value, State):
        slots = [n for n in State.__slots__ if n not in ("gen", "reach_costs")]
        return "State(" + ",".join(f"{n}={_rep(getattr(value, n))}" for n in slots) + ")"
    if hasattr(value, "__slots__") and not isinstance(value, (str, tuple)):
        slots = [n for n in value.__slots__ if n != "gen"]
        return f"{type(value).__name__}(" + ",".join(_rep(getattr(value, n)) for n in slots) + ")"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__qualname__}[" + ",".join(map(_rep, value)) + "]"
    if isinstance(value, dict):
        items = ",".join(f"{_rep(k)}:{_rep(v)}" for k, v in value.items())
        return f"{type(value).__qualname__}{{{items}}}"
    return f"{type(value).__name__}:{value!r}"


def _load(engine: Any, data: Any) -> tuple[str, str]:
    try:
        return "loaded", _rep(state_from_dict(engine, data))
    except sw.RulesError as exc:
        return "refused", str(exc)


def _paths(value: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [where]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*where, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*where, i))
    return out


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _corrupt(data: Any, rng: random.Random) -> Any:
    """``data`` with one value replaced, one entry dropped or one added."""
    bad = json.loads(json.dumps(data))
    path = rng.choice(_paths(bad)[1:])
    parent, key = _at(bad, path[:-1]), path[-1]
    roll = rng.random()
    if roll < 0.75:
        parent[key] = json.loads(json.dumps(rng.choice(_HOSTILE)))
    elif roll < 0.85:
        del parent[key]
    elif isinstance(parent, dict):
        parent[rng.choice(["zz", "lang", "race", "7", "07"])] = rng.choice(_HOSTILE)
    else:
        parent.append(rng.choice([*_HOSTILE, parent[key]]))
    return bad


def _rules(how: str) -> sw.Rules:
    if how == "official":
        return sw.load_rules()
    if how.startswith("tests/"):
        return sw.load_rules(paths=[TESTS / how.removeprefix("tests/")])
    return sw.load_rules(expansions=[how])


def _saved_positions(rules: sw.Rules, games: int, players: tuple[int, ...]) -> list[sw.Game]:
    """Every fifth position of seeded random games (chance nodes drawn too)."""
    out = []
    for seed in range(games):
        chance = "explicit" if seed % 3 == 2 else "seeded"
        game = sw.Game.new(
            players=players[seed % len(players)], seed=seed, rules=rules, chance=chance
        )
        rng = random.Random(seed)
        step = 0
        while not game.is_over and step < 400:
            if step % 5 == 0:
                out.append(game.clone())
            if game.to_move is sw.CHANCE:
                outcomes = game.chance_outcomes()
                game.apply(outcomes[rng.randrange(len(outcomes))][0])
            else:
                options = list(game.legal_actions())
                game.apply(options[rng.randrange(len(options))])
            step += 1
        out.append(game)
    return out


_RULE_SETS = [
    "official", *sw.available_expansions(), "tests/rules", "tests/rules_v3", "tests/rules_flow",
]


@pytest.mark.parametrize("how", _RULE_SETS)
def test_a_saved_state_loads_as_checking_each_entry_loads_it(how: str) -> None:
    """A saved state, sound or with one value replaced, one entry dropped or one added, loads
    the quick way into the same state (every field, its type and its entries' types) as
    the general way, or is refused with the same message."""
    rules = _rules(how)
    necro = how == "necromancer_island"
    rng = random.Random(len(how))
    loaded = refused = 0
    for game in _saved_positions(rules, 6, (3, 4, 5) if necro else (2, 3, 4)):
        engine = game._engine
        data = json.loads(json.dumps(state_to_dict(game._state)))  # as a save holds it
        quick = _load(engine, data)
        assert quick == _load(engine, _general(data))
        assert quick[0] == "loaded"
        assert state_to_dict(state_from_dict(engine, data)) == state_to_dict(game._state)
        for _ in range(12):
            bad = _corrupt(data, rng)
            outcome = _load(engine, bad)
            assert outcome == _load(engine, _general(bad)), bad
            loaded += outcome[0] == "loaded"
            refused += outcome[0] == "refused"
    assert refused > 100 and loaded > 5


def _deepen(doc: Any, rng: random.Random, depth: int) -> None:
    """Put a value ``depth`` levels deep somewhere in the saved state."""
    deep: Any = 1
    for _ in range(depth):
        deep = [deep]
    path = rng.choice(_paths(doc["state"])[1:])
    _at(doc["state"], path[:-1])[path[-1]] = deep


_SECOND_FAULTS: list[tuple[str, Any]] = [
    ("players", 99), ("version", 7), ("format", "x"), ("seed", "x"), ("chance", "dice"),
    ("expansions", [1]), ("packs", ["nowhere"]), ("options", {"zz": 1}), ("map", "nowhere"),
    ("map_data", {"regions": 3}), ("log", 5), ("state.zz", 1), ("state.round", -1),
]


def test_a_state_nested_too_deeply_is_refused_first() -> None:
    """A saved state nested deeper than the limit is refused with the depth message, what
    else may be wrong with the save (the state's own checks prove it flat only when they
    accept it: the depth is then asked before any refusal), as the whole text's check
    refuses it; within the limit, the save's other faults are refused as before (the
    engine's compact text, which leaves the log as text, and a spaced one, loaded whole)."""
    rules = sw.load_rules(expansions=sw.available_expansions())
    rng = random.Random(5)
    too_deep = within = 0

    def outcome(text: str) -> tuple[str, str]:
        try:
            return "loaded", sw.Game.from_json(text, rules=rules).to_json()
        except sw.RulesError as exc:
            return "refused", str(exc)

    for game in _saved_positions(rules, 4, (3, 4, 5))[::4]:
        text = game.to_json()
        for depth in (18, 26):
            for key, value in [("", None), *_SECOND_FAULTS]:
                doc = json.loads(text)
                _deepen(doc, rng, depth)
                if key.startswith("state."):
                    doc["state"][key.removeprefix("state.")] = value
                elif key:
                    doc[key] = value
                compact = json.dumps(doc, sort_keys=True, separators=(",", ":"))
                spaced = json.dumps(doc)  # not the engine's form: loaded whole
                try:
                    load_json(compact, "not a saved game")
                except sw.RulesError as exc:
                    assert "nested more than 24 levels deep" in str(exc)
                    assert outcome(compact) == ("refused", str(exc)) == outcome(spaced)
                    too_deep += 1
                else:
                    assert outcome(compact) == outcome(spaced)
                    within += 1
    assert too_deep > 50 and within > 50


def _old_log_pattern() -> str:
    """The log's pattern as spelled before its numbers had one branch per first character
    and its runs were possessive (the same tree of keys)."""
    new_number = r"(?:0|[1-9][0-9]{0,29}+|-[1-9][0-9]{0,29}+)"
    assert new_number in LOG_TEXT
    return LOG_TEXT.replace(new_number, r"(?:0|-?[1-9][0-9]{0,29})").replace('*+"', '*"')


def test_the_log_pattern_matches_what_its_earlier_spelling_matched() -> None:
    """The log's pattern and its earlier spelling match the same texts, to the same end: the
    logs of seeded games with every expansion, and variants with each number and string
    spelled otherwise (leading zeros, -0, 30 and 31 digits, escapes, quotes, braces, text
    beyond ASCII)."""
    old, new = re.compile(_old_log_pattern()), re.compile(LOG_TEXT)
    assert old.pattern != new.pattern
    numbers = ["0", "-0", "00", "01", "-1", "7", "-07", "1" + "0" * 29, "1" + "0" * 30,
               "-" + "9" * 30, "-" + "9" * 29, "1.5", "1e3", "true", "null"]
    strings = ['""', '"a"', '"a b"', '"{}"', '"[,]"', '"a\\"b"', '"\\u0041"', '"\u00e9"',
               '"a', '"~"', "null", "1"]
    rules = sw.load_rules(expansions=sw.available_expansions())
    rng = random.Random(3)
    same = matched = 0
    for game in _saved_positions(rules, 3, (3, 4, 5))[::3]:
        log = game.to_json().split(',"log":', 1)[1].rsplit(',"map":', 1)[0]
        texts = [log]
        spots = [m.span() for m in re.finditer(r'(?<=:)-?[0-9]+|(?<=[:\[,])"[^"]*"', log)]
        for start, end in rng.sample(spots, min(60, len(spots))):
            spelling = strings if log[start] == '"' else numbers
            texts.append(log[:start] + rng.choice(spelling) + log[end:])
        for text in texts:
            a, b = old.match(text), new.match(text)
            assert (a is None) == (b is None), text
            assert a is None or b is None or a.span() == b.span()
            same += 1
            matched += b is not None and b.end() == len(text)
    assert same > 100 and matched > 10
