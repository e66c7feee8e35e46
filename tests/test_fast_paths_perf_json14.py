"""``Game.from_json`` takes what follows a save's log by a pattern of its frame only
(``saved._quick_pattern``: the state's fields in order, the brackets and commas between
entries, the flags) and leaves every text inside to the reader, which looks each up whole
(``saved_text.state_from_text``). A state the reader does not take, and any refusal, is
loaded again the checked way (``Game._loaded(..., quick=False)``: the state's own patterns,
which test every character, then the general way where they do not take it). These tests
compare the quick way with the checked way and with the general one (the whole text parsed
by ``json.loads``, every field checked by ``state_from_dict``):

* sound saves of seeded games (official rules, Necromancer Island, every ``tests/rules*``
  folder, each box alone, all boxes): the same game, and the quick reader takes most
  official ones;
* saves whose state's text is changed — every field's text replaced by odd texts and by
  its own text with an entry cut, doubled, respelled or renamed, and single characters
  changed, put in or cut anywhere in the state —: the same game, or the same refusal
  (its class, message and context), by all three ways.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import finished_games, playing_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules import saved, saved_text
from smallworld_rules.events import LOG_TEXT
from smallworld_rules.state import State, state_json


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


def _outcome(load: Any) -> tuple[Any, ...]:
    """A load's game (its save and its state's fields) or its refusal (class, message, and
    the class of the exception it was raised in, if any)."""
    try:
        game = load()
    except sw.RulesError as exc:
        context = exc.__context__
        return ("refused", type(exc).__name__, str(exc), type(context).__name__)
    return ("loaded", game.to_json(), _fields(game._state))


def _quick(text: str, rules: sw.Rules) -> tuple[Any, ...]:
    return _outcome(lambda: sw.Game.from_json(text, rules=rules))


def _checked(text: str, rules: sw.Rules) -> tuple[Any, ...]:
    return _outcome(lambda: sw.Game._loaded(text, rules, quick=False))


def _general(text: str, rules: sw.Rules) -> tuple[Any, ...]:
    """The whole text parsed by json and checked field by field (the context of a refusal
    left out: the general way raises from other frames)."""
    def load() -> sw.Game:
        return sw.Game._from_saved(saved.load_json(text, "not a saved game"), None, rules)

    got = _outcome(load)
    return got[:3] if got[0] == "refused" else got


def _taken(text: str, engine: Any) -> bool:
    """Whether the quick pattern and the reader take this save's state."""
    try:
        _, _, state = saved.load_save_text(text, quick=True)
    except sw.RulesError:  # (not JSON)
        return False
    if state is None or state[4]:
        return False
    return saved_text.state_from_text(engine, state) is not None


def _saves(rules: sw.Rules, every: int) -> Iterator[sw.Game]:
    for i, game in enumerate(playing_positions(rules, 2)):
        if i % every == 3:
            yield game
    yield from finished_games(rules, 1)


@rule_sets(necromancer=True, each_box=True)
def test_a_save_loads_the_quick_way_as_the_checked_way(how: dict[str, Any]) -> None:
    """A sound save loads into the same game (save and state) the quick way and the
    checked way; where the state's own patterns take it, the quick pattern's groups are
    theirs."""
    rules, _ = rules_and_players(how)
    taken = tried = 0
    for game in _saves(rules, 9):
        text = game.to_json()
        quick = _quick(text, rules)
        assert quick[0] == "loaded" and quick[1] == text
        assert quick == _checked(text, rules)
        taken += _taken(text, game._engine)
        tried += 1
        _, _, checked = saved.load_save_text(text)
        _, _, fast = saved.load_save_text(text, quick=True)
        if checked is not None and fast is not None and not fast[4]:
            assert fast[:4] == checked[:4]
    if not how:  # the official rules: the quick way takes nearly every save
        assert taken >= tried - 2 and taken >= 10


#: texts put in place of a field's text, or of an entry's
_ODD_TEXTS = (
    "", "null", "true", "false", "0", "1", "2", "-1", "-0", "-4", "01", "1e2", "1.0", " 1",
    "1 ", "+1", "\uff11", "1_0", "\u0663", "99", "100", "999", "1000", "8388608",
    str(2**64 - 1), str(2**64), str(2**70), '"trolls"', '"ghouls"', '"zz"', '"#lost_tribe"',
    '"forest"', '"lair"', '"conquest"', '"pick"', '""', '"a,b"', '"a:b"', '"\\u0074rolls"',
    "[]", "{}", "[0]", "[1,1]", "[[6,3]]", '{"lair":1}', '{"lair":0}', ",", "[", "}",
)
#: characters put in or put in place of one
_ODD_CHARACTERS = (
    '"', ",", ":", "[", "]", "{", "}", "0", "1", "9", "-", " ", "\\", "a", "z", "\u00e9", "\x01",
    "+", ".", "e", "_", "\u0663", "#", "@",
)


def _respelled(text: str, rng: random.Random) -> Iterator[str]:
    """A field's text with an entry cut, doubled, respelled or renamed (entries as its
    commas part them)."""
    parts = text.split(",")
    if len(parts) > 1:
        i = rng.randrange(len(parts))
        yield ",".join(parts[:i] + parts[i + 1 :])
        yield ",".join(parts[: i + 1] + parts[i:])
        yield ", ".join(parts)
        yield ",".join([*parts[:i], parts[i] + " ", *parts[i + 1 :]])
        j = rng.randrange(len(parts))
        swapped = parts[:]
        swapped[i], swapped[j] = swapped[j], swapped[i]
        yield ",".join(swapped)
    for old, new in (
        ('"trolls"', '"ghouls"'), ('"ghouls"', '"trolls"'), ('"trolls"', '"zz"'),
        ("null", '"#lost_tribe"'), ('"#lost_tribe"', "null"), ("false", "true"),
        ("true", "false"), ('"uses":{}', '"uses":{"halflings:1:2":1}'),
        ('"uses":{}', '"uses":{"@marked":3}'), ('"uses":{}', '"uses":{"@marked":4}'),
        ('"uses":{}', '"uses":{"x":0}'), ('"uses":{}', '"uses":{"a":1,"a":2}'),
        ('"declined":[]', '"declined":["trolls"]'), ('"declined":[', '"declined" :['),
        ('{"lair":1}', '{"lair":1,"hero":1}'), ('{"lair":1}', '{"hero":1,"lair":1}'),
        ('{"lair":1}', '{"lair":1,"hero":0}'), ('{"lair":1}', '{"lair":2}'),
        ('{"lair":1}', '{"lair":10}'), ('{"lair":1}', "{}"), ('{"lair":1}', '{"lair":0}'),
    ):
        if old in text:
            yield text.replace(old, new, 1)
    for old, new in (
        ('"uses":{}', '"usez":{}'), ('"uses":{}', '"uses":{"a\\u0062":1}'),
        ('"uses":{}', '"uses":{"a\\"b":1}'), ('"uses":{}', '"uses":{"a}":1}'),
        ('"uses":{}', '"uses":{"a,b":1}'), ('"uses":{}', '"uses":{"a:b:1":1}'),
        ('"uses":{}', '"uses":{"":1}'), ('"uses":{}', '"uses":{"a":1,}'),
    ):
        if old in text:
            yield text.replace(old, new, 1)
    keys = [m.start() + 1 for m in re.finditer('"[a-z_]+":', text)]
    for i in rng.sample(keys, min(2, len(keys))):  # a key of an entry renamed
        yield text[:i] + "z" + text[i + 1 :]
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if digits:
        i = rng.choice(digits)
        yield text[:i] + str((int(text[i]) + rng.randrange(1, 10)) % 10) + text[i + 1 :]
        yield text[:i] + text[i] + "0" + text[i + 1 :]
        yield text[:i] + rng.choice(("a", "\x05", "\u0663", " ", "-", "\u00b2")) + text[i + 1 :]


def _variants(text: str, rng: random.Random, characters: int) -> Iterator[str]:
    """A save with one of its fields' texts (the quick pattern's groups: the middle's and
    the state's) given another, and with characters of its state changed."""
    start_pattern, log_pattern = saved._save_patterns()
    head = start_pattern.match(text)
    assert head is not None
    log = log_pattern.match(text, head.end())
    assert log is not None
    rest = saved._quick_pattern().fullmatch(text, log.end())
    if rest is None:  # (truces, regained pieces, a rule file's memory: the checked way)
        return
    for group in range(1, len(rest.groups()) + 1):
        a, b = rest.span(group)
        if a < 0:
            continue
        own = text[a:b]
        for new in [*rng.sample(_ODD_TEXTS, 8), *_respelled(own, rng)]:
            yield text[:a] + new + text[b:]
    at = rest.start(6) - 9
    for _ in range(characters):
        i = rng.randrange(at, len(text))
        c = rng.choice(_ODD_CHARACTERS)
        yield from rng.sample(
            [
                text[:i] + c + text[i + 1 :],
                text[:i] + c + text[i:],
                text[:i] + text[i + 1 :],
                text[:i] + text[i : i + 6] + text[i:],
            ],
            2,
        )


#: the official rules, and every box but those with zones of pieces (Necromancer Island's
#: well, Royal Bonus's pile), which the quick pattern leaves to the checked way
_BOXES = [e for e in sw.available_expansions() if e not in ("necromancer_island", "royal_bonus")]


@pytest.mark.parametrize("how", [{}, {"expansions": _BOXES}], ids=["official", "boxes"])
def test_a_state_text_changed_anywhere_is_loaded_or_refused_as_before(
    how: dict[str, Any],
) -> None:
    """A save whose state's text is changed loads into the same game, or is refused with
    the same message (and context), the quick way, the checked way and the general way;
    where the quick reader takes a changed state, it is the general way's."""
    rules, _ = rules_and_players(how)
    rng = random.Random(14)
    # (positions the quick way takes as they are: not those keeping a rule file's memory)
    taken = [
        g.clone() for i, g in enumerate(playing_positions(rules, 2))
        if i % 7 == 3 and _taken(g.to_json(), g._engine)
    ]
    games = [taken[len(taken) // 4], taken[len(taken) * 3 // 4], finished_games(rules, 1)[0]]
    seen: dict[str, int] = {"loaded": 0, "refused": 0, "taken": 0}
    for game in games:
        engine = game._engine
        for variant in dict.fromkeys(_variants(game.to_json(), rng, 60)):
            quick = _quick(variant, rules)
            assert quick == _checked(variant, rules), variant
            assert quick[:3] == _general(variant, rules)[:3], variant
            seen[quick[0]] += 1
            seen["taken"] += _taken(variant, engine)
    # Sound and corrupt changes both, and some changed states the quick reader still takes
    # (another name, count or flag in its place): the changes reach the reader.
    assert seen["loaded"] > 50 and seen["refused"] > 500 and seen["taken"] > 30, seen


def _positions_with_uses(rules: sw.Rules) -> Iterator[sw.Game]:
    """Positions of two seeded 2-player games (the distinct saves' measure: seeds 111 and
    123, the Halflings' holes placed) where a race keeps uses of its abilities."""
    for seed in (111, 123):
        game = sw.Game.new(players=2, seed=seed, rules=rules)
        rng = random.Random(seed)
        while game.round < 6 and not game.is_over:
            if any(rs.uses for rs in game._state.races.values()):
                yield game
            acts = list(game.legal_actions())
            game.apply(acts[rng.randrange(len(acts))])


def test_a_save_with_uses_of_abilities_is_read_the_quick_way() -> None:
    """A state with uses of abilities (``RaceState.uses``, which the state's own patterns
    do not take) is read by the quick reader, into the general way's state."""
    rules = sw.load_rules()
    found = 0
    for game in _positions_with_uses(rules):
        text = game.to_json()
        assert saved.load_save_text(text)[2] is None  # (not the state's own patterns)
        assert _taken(text, game._engine)
        doc = json.loads(text)
        general = saved.state_from_dict(game._engine, doc["state"])
        _, _, state = saved.load_save_text(text, quick=True)
        assert state is not None
        quick = saved_text.state_from_text(game._engine, state)
        assert quick is not None and _fields(quick) == _fields(general)
        found += 1
        if found == 10:
            break
    assert found == 10


def _canonical(text: str) -> str:
    return json.dumps(json.loads(text), sort_keys=True)


@pytest.mark.parametrize("how", [{}, {"expansions": _BOXES}], ids=["official", "boxes"])
def test_the_reader_takes_a_state_only_as_json_reads_it(how: dict[str, Any]) -> None:
    """Whatever the reader makes of a changed state's text (before the cross-field checks,
    which would hide a misread behind a refusal) is what json reads in that text: every
    value, with its type."""
    rules, _ = rules_and_players(how)
    rng = random.Random(41)
    read = 0
    for game in _saves(rules, 25):
        engine = game._engine
        tables = saved_text._tables(engine)
        for variant in dict.fromkeys(_variants(game.to_json(), rng, 40)):
            try:
                _, _, state = saved.load_save_text(variant, quick=True)
            except sw.RulesError:
                continue
            if state is None or state[4]:
                continue
            try:
                s = saved_text._read(engine, tables, state[3])
            except Exception:  # (the reader's refusals: a KeyError, a ValueError …)
                continue
            if s is not None:
                text, at, end, _, _ = state
                assert _canonical(state_json(s)) == _canonical(text[at:end]), text[at:end]
                read += 1
    assert read > (100 if not how else 40)  # (box games keep rule files' memory: fewer)


def _board_changes(state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A saved state with its board's counts changed where the totals still agree or where
    they cannot: more Lost Tribe tokens than the box holds, a race's tokens moved between
    its hand and the board (an occupied region left with none, an empty one given some),
    a piece moved between the supply and a region."""
    occupants, tokens = state["region_race"], state["region_tokens"]
    tribe = [r for r, o in enumerate(occupants) if o == "#lost_tribe"]
    yield {**state, "region_tokens": [9 if r in tribe else t for r, t in enumerate(tokens)]}
    for r, occupant in enumerate(occupants):
        if occupant in state["races"]:
            hand = state["races"][occupant]["hand"]
            for change in (-tokens[r], 1, -1):
                races = {**state["races"], occupant: {
                    **state["races"][occupant], "hand": max(0, hand - change)}}
                board = [t + change if i == r else t for i, t in enumerate(tokens)]
                yield {**state, "races": races, "region_tokens": board}
            break
    empty = occupants.index(None)
    yield {**state, "region_tokens": [1 if i == empty else t for i, t in enumerate(tokens)]}
    supply = state["piece_supply"]
    for name in supply:
        yield {**state, "piece_supply": {**supply, name: supply[name] + 1}}
        yield {**state, "pieces": {**state["pieces"], str(empty): {name: 1}}}


def test_a_board_whose_counts_disagree_is_refused_as_before() -> None:
    """A save whose board's counts are changed (the totals the quick reader adds up in
    place of ``check_invariants``) loads or is refused as the checked and general ways
    have it."""
    rules = sw.load_rules()
    outcomes: dict[str, int] = {"loaded": 0, "refused": 0}
    for game in _saves(rules, 30):
        doc = json.loads(game.to_json())
        for state in _board_changes(doc["state"]):
            variant = json.dumps({**doc, "state": state}, separators=(",", ":"), sort_keys=True)
            quick = _quick(variant, rules)
            assert quick == _checked(variant, rules)
            assert quick[:3] == _general(variant, rules)[:3]
            outcomes[quick[0]] += 1
    assert outcomes["refused"] > 50, outcomes


def _earlier_log_pattern() -> str:
    """The log's pattern as it was spelled before this pass: each event followed by a
    look ahead at a comma and an event, or at the list's end; a list's entries not
    possessive."""
    prefix, suffix = r"\[(?:(?:", r")?\]"
    text = LOG_TEXT
    assert text.startswith(prefix) and text.endswith(suffix)
    twice = text[len(prefix) : -len(suffix)]
    event, sep = twice[: len(twice) // 2 - 2], twice[len(twice) // 2 - 2 : len(twice) // 2 + 2]
    assert sep == ",)*+" and twice == event + sep + event
    event = event.replace(r")*+)?\]", r")*)?\]")
    return r"\[(?:" + event + r"(?:,(?=\{)|(?=\])))*+\]"


@rule_sets(necromancer=True)
def test_the_log_matches_as_it_did(how: dict[str, Any]) -> None:
    """The log's pattern takes the same texts, to the same end, as its earlier spelling:
    logs of seeded games, and each cut, doubled, joined without a comma or with one more,
    an event cut short, brackets around events."""
    rules, _ = rules_and_players(how)
    new, old = re.compile(LOG_TEXT), re.compile(_earlier_log_pattern())
    rng = random.Random(5)
    matched = 0
    for game in finished_games(rules, 2):
        text = game.to_json()
        start = text.index(',"log":') + 7
        end = saved._save_patterns()[1].match(text, start)
        assert end is not None
        log = text[start : end.end()]
        events = re.split(r"(?<=\}),(?=\{)", log[1:-1])
        assert len(events) > 10
        variants = [log, "[]", "[" + events[0] + "]", "[,]", "[" + events[0] + ",]"]
        for _ in range(60):
            i = rng.randrange(len(events))
            cut = events[:i] + events[i + 1 :]
            variants += [
                "[" + ",".join(cut) + "]",
                "[" + ",".join(events[: i + 1] + events[i:]) + "]",
                "[" + ",".join(events[:i]) + "".join(events[i : i + 2]) + "]",
                "[" + ",".join([*events[:i], "", *events[i:]]) + "]",
                "[" + ",".join([*events[:i], events[i][:-1], *events[i + 1 :]]) + "]",
                "[" + ",".join([*events[:i], "[" + events[i] + "]", *events[i + 1 :]]) + "]",
                "[" + ",".join(events[:i]) + "],",
                log[: rng.randrange(len(log))],
            ]
        for variant in variants:
            a, b = new.match(variant), old.match(variant)
            assert (a and a.span()) == (b and b.span()), variant
            matched += a is not None
    assert matched > 100
