"""The rest of a save — what lies between its log and its state — is read by a pattern
when the state is left as text (``saved._save_around``) instead of being parsed by json;
these tests compare that way with json's on the saves of seeded games with the official
rules, Necromancer Island, every ``tests/rules*`` folder and each expansion, and on saves
whose rest is spelled otherwise or holds odd values.

* Where the pattern takes the rest, the document is the one json makes of the text with
  the log as ``[]`` and the state as ``{}``: the same keys in the same order, the same
  values of the same types.
* A save is loaded by ``Game.from_json`` into the same game, or refused with the same
  message, as by loading its whole text with ``json.loads`` and the general checks.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from helpers import playing_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules import saved, saved_text


def _typed(v: Any) -> Any:
    """A value as comparable data, with the types of containers and values (and the order
    of a dict's keys)."""
    if isinstance(v, dict):
        return ("dict", [(k, _typed(x)) for k, x in v.items()])
    if isinstance(v, list):
        return ("list", [_typed(x) for x in v])
    return (type(v).__name__, v)


def _json_doc(text: str) -> Any:
    """What json makes of a save with its log and state left out."""
    doc = json.loads(text)
    doc["log"], doc["state"] = [], {}
    return doc


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


def _around(text: str) -> Any:
    """The rest of the save as the pattern reads it (None: not taken)."""
    start_pattern, log_pattern = saved._save_patterns()
    head = start_pattern.match(text)
    if head is None:
        return None
    log = log_pattern.match(text, head.end())
    if log is None:
        return None
    state = saved._state_match(text, log.end())
    if state is None:
        return None
    return saved._save_around(head, text, log.end(), state[1])


@rule_sets(necromancer=True, each_box=True)
def test_the_rest_of_a_save_read_by_its_pattern_is_what_json_makes(how: dict[str, Any]) -> None:
    """A save's rest read by its pattern is the document json makes of it, and the save
    loads back into the same text."""
    rules, _ = rules_and_players(how)
    taken = 0
    for i, game in enumerate(playing_positions(rules, 2)):
        if i % 9:
            continue
        text = game.to_json()
        doc = _around(text)
        if doc is not None:
            taken += 1
            assert _typed(doc) == _typed(_json_doc(text))
            loaded, _, _ = saved.load_save_text(text)
            assert _typed(loaded) == _typed(doc)
            loaded["options"]["planted"] = True  # (each load its own options: kept ones untouched)
            again, _, _ = saved.load_save_text(text)
            assert _typed(again) == _typed(doc)
        assert sw.Game.from_json(text, rules=rules).to_json() == text
    if not how:  # the official rules: the rest of every save is taken
        assert taken >= 5


#: how the text between a save's log and its state is spelled otherwise (or holds odd
#: values): a key and the text that replaces its value
_VARIANTS: tuple[tuple[str, str], ...] = (
    *(("players", v) for v in ("3", "-2", "02", "2.0", "2e0", " 2", "true", '"2"', "9", "-0",
                               "1", "8", "5", "-" + "9" * 30)),
    *(("seed", v) for v in ("-5", "-0", "0", "05", "5.5", "null", "9" * 30, "9" * 31,
                            "-" + "9" * 30, "1e3", "2 ")),
    *(("map", v) for v in ('"3p"', '"zz"', '""', '"2\\u0070"', "null", '"2p,x"', '"2p"',
                           '"5p"')),
    *(("map_data", v) for v in ("{}", "[]", "false", "0")),
    *(("packs", v) for v in ('["x"]', "[1]", "null", '[""]', '["a","b"]', "[[]]", "{}")),
    *(("expansions", v) for v in ('["x"]', '["a,b"]', "[1]", '["a","b"]', "{}")),
    *(("chance", v) for v in ('"explicit"', '"seeded"', '"zz"', "null")),
    *(("options", v) for v in (
        '{"zz":true}', '{"":true}', '{"abandon_mid_conquest":true}',
        '{"abandon_mid_conquest":1}', '{"abandon_mid_conquest":null}',
        '{"abandon_mid_conquest":"true"}', '{"abandon_mid_conquest":1.5}',
        '{"abandon_mid_conquest":[]}', '{"abandon_mid_conquest":-0}', '{"a,b":true}',
        '{"a:b":true}', '{"abandon_mid_conquest" :true}', '{"\\u0061":true}', "[]", "null",
        '{"abandon_mid_conquest":true,"abandon_mid_conquest":false}',
    )),
)
#: a value in the text between a save's log and its state (or in its head)
_VALUE = r'(\[[^\]]*\]|\{[^}]*\}|"[^"]*"|[^,}]*)'


def _middle_variants(text: str) -> list[str]:
    """The save with one value of its head or of the text between its log and its state
    replaced (each of :data:`_VARIANTS`)."""
    at = text.rindex(',"state":{"acted":')
    mid = text.rindex(',"map":', 0, at)
    texts = []
    for key, value in _VARIANTS:
        where = (0, mid) if key in ("chance", "expansions") else (mid, at)
        found = re.compile(f'"{key}":{_VALUE}').search(text, *where)
        assert found is not None, key
        texts.append(text[:found.start(1)] + value + text[found.end(1):])
    return texts


def _options_variants(text: str) -> list[str]:
    """The save with its options' object replaced: empty, each entry's value flipped,
    entries doubled, and whole numbers where flags are expected."""
    doc = json.loads(text)
    spelled = json.dumps(doc["options"], separators=(",", ":"))
    found = f'"options":{spelled}'
    assert found in text
    texts = [text.replace(found, '"options":{}')]
    for name, value in doc["options"].items():
        for other in (not value, 7, -7, 10**6, 0):
            changed = json.dumps({**doc["options"], name: other}, separators=(",", ":"))
            texts.append(text.replace(found, f'"options":{changed}'))
        doubled = f'{spelled[:-1]},"{name}":{json.dumps(value)}}}'
        texts.append(text.replace(found, f'"options":{doubled}'))
    return texts


def test_a_save_spelled_otherwise_between_its_log_and_state_loads_as_the_general_way() -> None:
    """A save whose rest is not as the engine writes it, or holds values the checks refuse,
    is loaded into the same game or refused with the same message as by json and the
    general checks; where the pattern takes it, the document is json's."""
    rules = sw.load_rules()
    positions = [g for i, g in enumerate(playing_positions(rules, 1)) if i % 17 == 5][:3]
    assert positions
    tried = taken = 0
    for game in positions:
        text = game.to_json()
        texts = _middle_variants(text) + _options_variants(text)
        for variant in texts:
            tried += 1
            doc = _around(variant)
            if doc is not None:
                taken += 1
                assert _typed(doc) == _typed(_json_doc(variant))
            assert _loaded(variant, rules) == _general(variant, rules), variant[-2200:]
    assert tried > 100 and taken > 30


def test_a_list_of_names_is_read_as_one_name_at_a_time() -> None:
    """A list of names in a state's text (its stacks, discards, withdrawals) is read into the
    same ids, in the same order, as one look-up per name; an unknown name is a KeyError
    either way (the general way then decides)."""
    rules = sw.load_rules()
    engine = sw.Game.new(rules=rules, seed=1)._engine
    table = saved_text._tables(engine).races
    quoted = sorted(table)
    rng = random.Random(7)
    for size in (0, 1, 1, 2, 3, 5, 14, 14):
        for _ in range(4):
            names = rng.sample(quoted, size) if size <= len(quoted) else quoted
            text = ",".join(names)
            expected = tuple(map(table.__getitem__, text.split(","))) if text else ()
            assert saved_text._names(text, table) == expected
            assert type(saved_text._names(text, table)) is tuple
            if names:
                for bad in (text + ',"zz"', '"zz",' + text, text.replace('"', "", 1)):
                    with pytest.raises(KeyError):
                        saved_text._names(bad, table)


def test_a_table_of_counts_is_read_as_one_entry_at_a_time() -> None:
    """A table of counts in a state's text (the box, the supply of pieces) is read into the
    same dict, keys in the same order, as one look-up per entry (an entry twice: its last
    count at its first place); an unknown entry is a KeyError either way."""
    rules = sw.load_rules()
    engine = sw.Game.new(rules=rules, seed=1)._engine
    rng = random.Random(11)
    for entries in (saved_text._tables(engine).box, saved_text._tables(engine).supply):
        texts = sorted(entries)
        for size in (0, 1, 1, 2, 3, 6, 14, 20):
            for _ in range(4):
                chosen = [rng.choice(texts) for _ in range(size)]
                text = ",".join(chosen)
                expected = dict(map(entries.__getitem__, text.split(","))) if text else {}
                got = saved_text._table(text, entries)
                assert list(got.items()) == list(expected.items())
                if chosen:
                    for bad in (text + ',"zz":1', text + ":", text.replace(":", ":0", 1)):
                        with pytest.raises(KeyError):
                            saved_text._table(bad, entries)
