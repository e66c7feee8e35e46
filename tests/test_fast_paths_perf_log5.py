"""The log keeps the engine's busiest events as plain tuples ``(cls._code, *fields)`` and
makes each event when the log is first read (pass 9g): what every reader gets is the event
the code before made, ``cls(*fields)``.

Seeded games over the official rules, every ``tests/rules*`` folder and every box: at
random moments the log is read (``game.log``, a save, a record, a clone, a deep copy),
moves are undone or refused, and every event read is compared with one made by the
event's own constructor from the fields logged (type, fields, ``repr``, hash, JSON form).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import attrs
import pytest
from helpers import rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.events import (
    EVENT_CLASSES,
    EVENT_TYPES,
    Deployed,
    Event,
    TurnEnded,
    build_log,
)

RULE_SETS = rule_sets(each_box=True)


def _general(entry: Any) -> Event:
    """The event of a log entry made by its class's constructor (the way before 9g)."""
    if type(entry) is tuple:
        made: Event = EVENT_CLASSES[entry[0]](*entry[1:])
        return made
    assert isinstance(entry, Event)
    return entry


def _same_events(got: tuple[Event, ...] | list[Event], want: list[Event]) -> None:
    """Every event read is the one the general way gives, in every public respect."""
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert type(a) is type(b) and type(a) in EVENT_TYPES.values()
        assert attrs.astuple(a) == attrs.astuple(b)
        assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
        assert a.to_dict() == b.to_dict()


def _play(rules: sw.Rules, players: int, seed: int) -> int:
    """A seeded game with its log read, undone, refused and saved at random moments; gives
    how many tuples the engine logged."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    choose = random.Random(seed)
    raw: list[Any] = list(game._log)  # every entry as logged, kept in step with the log
    tuples = 0
    while not game.is_over:
        acts = list(game.legal_actions())
        before = len(game._log)
        game.apply(acts[choose.randrange(len(acts))])
        new = game._log[before:]
        tuples += sum(type(e) is tuple for e in new)
        raw[before:] = list(new)
        roll = choose.random()
        if roll < 0.15 and game._undo:
            length = len(game.log)
            game.undo()
            assert len(game._log) <= length  # the move undone took its events with it
            del raw[len(game._log):]
        elif roll < 0.2:
            length = len(game.log)
            with pytest.raises(sw.IllegalAction):
                game.apply(sw.Conquer(-1))
            assert len(game._log) == length  # a refusal logs nothing
        if roll > 0.9 or game.is_over:  # (one move in ten: each read is of the whole log)
            want = [_general(e) for e in raw]
            _same_events(game.log, want)
            _same_events(game.clone().log, want)
            _same_events(copy.deepcopy(game).log, want)
            saved = sw.Game.from_json(game.to_json(), rules=rules)
            _same_events(saved.log, want)
            assert saved.to_json() == game.to_json()
    want = [_general(e) for e in raw]
    _same_events(game.log, want)
    _same_events(sw.Game.from_record(game.to_record(), rules=rules).log, want)
    return tuples


@RULE_SETS
def test_events_read_are_those_the_event_classes_make(how: dict[str, Any]) -> None:
    """Every event of a game's log, read through ``log``, a save, a record, a clone or a
    deep copy, after undos and refused moves at random, is the event its class's own
    constructor makes from the fields logged."""
    rules, players = rules_and_players(how)
    tuples = sum(_play(rules, players[seed % len(players)], seed) for seed in range(3))
    assert tuples > 100


def test_a_log_cut_below_its_last_read_and_grown_again_is_rebuilt() -> None:
    """Undo cuts the log's end: entries logged after a cut below the length of the last
    read are made into events too, however long the log has grown again."""
    rules = sw.load_rules()
    game = sw.Game.new(players=2, seed=3, rules=rules)
    choose = random.Random(3)
    for _ in range(40):
        acts = list(game.legal_actions())
        game.apply(acts[choose.randrange(len(acts))])
    read = len(game.log)
    for _ in range(6):
        game.undo()
    assert len(game._log) < read
    while len(game._log) <= read + 3:
        acts = list(game.legal_actions())
        game.apply(acts[choose.randrange(len(acts))])
    assert any(type(e) is tuple for e in game._log[:read])  # logged since the cut, not built
    events = game.log
    assert all(isinstance(e, Event) for e in events)
    assert all(isinstance(e, Event) for e in game._log)


def test_build_log_makes_tuples_and_keeps_events() -> None:
    """``build_log`` turns each tuple into its event, from ``start`` on, in place."""
    ended = TurnEnded(player=0)
    log: list[Any] = [(TurnEnded._code, 1), ended, (Deployed._code, 0, "x", 3, 2)]
    assert build_log(log, 2) is log
    assert log[0] == (TurnEnded._code, 1) and log[1] is ended
    assert log[2] == Deployed(player=0, race="x", region=3, count=2)
    assert build_log(log)[0] == TurnEnded(player=1)
