"""The engine logs every event it makes during play as a plain tuple ``(cls._code, *fields)``
(pass 10c: the rarer events too, which were made as event objects), and each tuple becomes
its event when the log is read: what every reader gets is the event the code before made
with the class's own constructor, ``cls(*fields)``.

Seeded games over the official rules (seeded and explicit chance), every ``tests/rules*``
folder, each box and all boxes together: every entry the engine logs during a move is such
a tuple with every field given, and at random moments the log read through ``game.log``, a
clone (which then plays on alone), a deep copy, a save, a record and its replay, after
undos and refused moves, is compared with the events the constructors make.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from helpers import rule_sets, rules_and_players
from test_fast_paths_perf_log5 import _general, _same_events

import smallworld_rules as sw
from smallworld_rules.events import EVENT_CLASSES

RULE_SETS = rule_sets(each_box=True)

#: events only the rule language or the engine's rarer paths make (objects before 10c)
RARER = {
    "PieceMoved", "DieRolled", "TokensGained", "GameOver", "RaceRemoved", "RaceActs",
    "PowerSwapped", "PieceRevealed", "Exchanged", "TokenBought", "PowerChosen", "TokensToZone",
}


def _logged(game: sw.Game, before: int, seen: Counter[str]) -> list[Any]:
    """The entries a move just logged (not read yet, so still as the engine logged them):
    each a tuple of a known code with every field of its class given."""
    new = list(game._log[before:])
    for entry in new:
        assert type(entry) is tuple, entry  # no event object made during play
        cls = EVENT_CLASSES[entry[0]]
        assert len(entry) == 1 + len(cls._field_names), entry
        seen[cls.__name__] += 1
    return new


def _random_move(game: sw.Game, choose: random.Random) -> sw.Action:
    acts = list(game.legal_actions())
    return acts[choose.randrange(len(acts))]


def _play(rules: sw.Rules, players: int, seed: int, chance: str, seen: Counter[str]) -> None:
    """A seeded game, its log read, undone, refused, cloned and saved at random moments."""
    game = sw.Game.new(players=players, seed=seed, rules=rules, chance=chance)
    choose = random.Random(seed)
    raw: list[Any] = list(game._log)  # every entry as logged, kept in step with the log
    while not game.is_over:
        before = len(game._log)
        game.apply(_random_move(game, choose))
        raw[before:] = _logged(game, before, seen)
        roll = choose.random()
        if roll < 0.15 and game._undo:
            game.undo()
            del raw[len(game._log) :]
        elif roll < 0.2:
            with pytest.raises(sw.IllegalAction):
                game.apply(sw.Conquer(-1))
        if roll > 0.9 or game.is_over:
            want = [_general(e) for e in raw]
            _same_events(game.log, want)
            _same_events(copy.deepcopy(game).log, want)
            saved = sw.Game.from_json(game.to_json(), rules=rules)
            _same_events(saved.log, want)
            assert saved.to_json() == game.to_json()
            if not game.is_over:  # a clone plays on alone: both logs stay right
                twin = game.clone()
                twin_raw = list(raw)
                for _ in range(3):
                    if twin.is_over:
                        break
                    length = len(twin._log)
                    twin.apply(_random_move(twin, choose))
                    twin_raw[length:] = _logged(twin, length, seen)
                _same_events(twin.log, [_general(e) for e in twin_raw])
                _same_events(game.log, want)
    want = [_general(e) for e in raw]
    _same_events(game.log, want)
    if chance == "seeded":
        _same_events(sw.Game.from_record(game.to_record(), rules=rules).log, want)


@RULE_SETS
def test_every_event_logged_in_play_is_a_tuple_read_as_its_event(how: dict[str, Any]) -> None:
    """Every event the engine logs during a move is a tuple of its class's code and every
    field; read through ``log``, a clone, a deep copy, a save or a record's replay, after
    undos and refused moves at random, it is the event its class's constructor makes."""
    rules, players = rules_and_players(how)
    seen: Counter[str] = Counter()
    for seed in range(3):
        _play(rules, players[seed % len(players)], seed, "seeded", seen)
    assert sum(seen.values()) > 100
    if how == {}:  # the official rules: explicit chance too (dice and draws answered)
        for seed in range(3):
            _play(rules, players[seed % len(players)], seed, "explicit", seen)
        assert set(seen) >= {"PieceMoved", "DieRolled", "GameOver"}


def test_the_rarer_events_are_logged_as_tuples_read_as_their_events() -> None:
    """The events of the rarer paths (the rule language's pieces, dice, gains, swaps and
    reveals; a role's purchases, zones and exchanges; a race leaving the map; the game's
    end), played in every box: each logged as a tuple with every field, read as the event
    its class's constructor makes."""
    seen: Counter[str] = Counter()
    for box in sw.available_expansions():
        rules, players = rules_and_players({"expansions": [box]})
        for seed in range(12):
            game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
            choose = random.Random(seed)
            raw: list[Any] = list(game._log)
            while not game.is_over:
                before = len(game._log)
                game.apply(_random_move(game, choose))
                raw += _logged(game, before, seen)
            _same_events(game.log, [_general(e) for e in raw])
    assert set(seen) >= RARER, RARER - set(seen)
