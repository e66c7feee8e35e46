"""An Abandon or a PickCombo carried out on the game's own position, with a small undo record
instead of a fork (``Game._abandon_in_place``, ``Game._pick_in_place``,
``smallworld_rules.in_place``), must give exactly what the forking path gives: the same
positions, events, refusals, undo, history, saves and records.

The games are seeded and played twice (``play_alongside``: once as ``Game.apply`` plays
them, once forced down the forking path) with the official rules, every folder of test
rule files, each expansion alone and every expansion together.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import rule_sets, rules_and_players
from test_fast_paths_perf_gc6 import _identity, refused_as_before
from test_fast_paths_perf_state4 import (
    counting_forks,
    forking,
    made_by_any,
    made_in_place,
    play_alongside,
    position,
)

import smallworld_rules as sw
from smallworld_rules.events import Abandoned, ComboPicked
from smallworld_rules.state import RaceState, state_to_dict

#: official, every tests/rules* folder, each expansion alone and every expansion together
RULE_SETS = rule_sets(each_box=True)


def abandon_in_place(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place (nothing else holding the
    position): an Abandon with a race acting, nothing in the rule language's memory, of a
    region on the board, in a game where no rule file has ``abandon`` triggers or keeps a
    race out of the regions it abandoned."""
    s = game._state
    engine = game._engine
    if type(action) is not sw.Abandon or s.lang or s.acting is None:
        return False
    return (
        0 <= action.region < len(s.region_tokens)
        and not engine.keeps_out
        and "abandon" not in engine.trigger_events
    )


def pick_in_place(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place (nothing else holding the
    position): a PickCombo of a combo in the market in the pick phase, nothing in the rule
    language's memory, in a game where no rule file puts tokens on skipped banners, brings
    a power's own tokens, swaps or borrows a badge or has ``pick`` triggers, by a player none
    of whose races in decline (nor their badges) may act in decline."""
    s = game._state
    engine = game._engine
    if type(action) is not sw.PickCombo or s.lang or s.phase is not sw.Phase.PICK:
        return False
    if not 0 <= action.index < len(s.market) or s.market[action.index][0] in s.races:
        return False
    acts = engine._raising.get("acts_in_decline", frozenset())
    return (
        not engine._banner_tokens
        and not engine._own_tokens
        and not engine._swapping
        and not engine._borrowers
        and "pick" not in engine.trigger_events
        and not any(
            race in acts or s.races[race].power in acts for race in s.players[s.active].declined
        )
    )


def made_by_pick7(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place by this pass's paths."""
    return abandon_in_place(game, action) or pick_in_place(game, action)


def _with_pieces(game: sw.Game) -> tuple[Any, ...]:
    """The position's objects (``_identity``) and those an Abandon replaces rather than
    changes (by id)."""
    s = game._state
    return _identity(game), id(s.region_race), id(s.race_masks), id(s.pieces), id(s.piece_supply)


def _with_market(game: sw.Game) -> tuple[Any, ...]:
    """The position's objects (``_identity``) and the market's and stacks' that a pick
    changes."""
    s = game._state
    return _identity(game), id(s.market), s.market, s.race_stack, s.power_stack, id(s.box)


@RULE_SETS
def test_abandons_made_in_place_are_those_made_on_a_fork(how: dict[str, object]) -> None:
    """Rule 1.6 (before its conquests a race may abandon regions: their tokens go back to
    its hand and the region is left empty) is carried out alike in place and on a fork
    (``play_alongside``): every Abandon that may be made in place (see
    ``abandon_in_place``) was, and each is taken back and played again."""

    taken = play_alongside(how, made_by_any, abandon_in_place)
    assert all(len(record) == 9 for _, record, _ in taken)
    owned = sum(type(record[1]) is int for _, record, _ in taken)
    if how == {}:  # the official rules: a few Abandons a game, most by a banner of its own
        assert len(taken) >= 5 and owned >= 1


@RULE_SETS
def test_picks_made_in_place_are_those_made_on_a_fork(how: dict[str, object]) -> None:
    """Rule 1.5 (a player picks a combo: one coin on each combo above it, the coins on it
    taken, its race's tokens and its badge's from the tray, the market slides up and a new
    combo is revealed) is carried out alike in place and on a fork (``play_alongside``):
    every PickCombo that may be made in place (see ``pick_in_place``) was, and each is
    taken back and played again."""

    taken = play_alongside(how, made_by_any, pick_in_place)
    assert all(len(record) == 15 for _, record, _ in taken)
    after_decline = sum(
        bool(record[0][0].declined or record[0][1].declined) for _, record, _ in taken
    )
    if how == {}:  # the official rules: every first pick, and picks after a decline
        assert len(taken) >= 6 and after_decline >= 1


@RULE_SETS
def test_a_refused_pick_leaves_the_position_as_it_was(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PickCombo that is not legal (a position the market does not have, a combo the
    player cannot pay for: rule 1.5) is refused as on a fork and leaves the game exactly
    as it was, also when it is tried in place: the same position object, banners, races
    table, players, market, generation, save, log and history. So does a legal one whose
    log refuses its event after every change the pick made."""
    rules, players = rules_and_players(how)
    tried = stopped = 0
    for seed in range(3):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            legal = set(options)
            probes: list[sw.Action] = []
            if game.phase is sw.Phase.PICK:
                size = len(game._state.market)
                probes = [sw.PickCombo(i) for i in range(-1, size + 2)]
                probes = [p for p in probes if not game.is_legal(p)]
            quiet = [a for a in options if pick_in_place(game, a)][:1]
            for probe in probes + quiet:
                refuse = probe in legal
                kind = ComboPicked if refuse else None
                in_place = pick_in_place(game, probe)
                refused_as_before(
                    game, probe, kind, monkeypatch, identity=_with_market, in_place=in_place
                )
                tried += 1
                stopped += refuse
            game.apply(options[choose.randrange(len(options))])
    if how == {}:
        assert tried > 15 and stopped >= 3


@RULE_SETS
def test_a_refused_abandon_leaves_the_position_as_it_was(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Abandon that is not legal (a region off the board, one the acting race does not
    hold, or after the first conquest: rule 1.6) is refused as on a fork and leaves the game
    exactly as it was, also when it is tried in place: the same position object, banners,
    tokens, occupants, piece tables, generation, save, log and history. So does a legal one
    whose log refuses its event after every change the move made."""
    rules, players = rules_and_players(how)
    tried = stopped = 0
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            n = len(game.map.regions)
            legal = set(options)
            probes = [sw.Abandon(-1), sw.Abandon(n + 3)]
            probes += [sw.Abandon(r) for r in range(n) if sw.Abandon(r) not in legal][:3]
            if not any(abandon_in_place(game, p) for p in probes):
                probes = []
            quiet = [a for a in options if abandon_in_place(game, a)][:1]
            for probe in probes + quiet:
                refuse = probe in legal
                kind = Abandoned if refuse else None
                in_place = abandon_in_place(game, probe)
                refused_as_before(
                    game, probe, kind, monkeypatch, identity=_with_pieces, in_place=in_place
                )
                tried += 1
                stopped += refuse
            game.apply(options[choose.randrange(len(options))])
    if how == {}:
        assert tried > 40 and stopped >= 5


def _abandoning(rules: sw.Rules, seed: int, players: int) -> tuple[sw.Game, sw.Abandon]:
    """A seeded game played until an Abandon may be made in place, and that Abandon."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    choose = random.Random(seed)
    while not game.is_over:
        options = list(game.legal_actions())
        for action in options:
            if isinstance(action, sw.Abandon) and abandon_in_place(game, action):
                return game, action
        game.apply(options[choose.randrange(len(options))])
    raise AssertionError("no Abandon in place")  # pragma: no cover


def test_an_abandon_from_a_held_position_is_played_on_a_fork(
    official: sw.Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone sharing the position sends the Abandon to a fork (the clone keeps its
    position); without one it is made in place, and an undo while a clone shares the
    position is made on a fork too: each game then goes back or plays on alone."""
    for seed in range(4):
        game, abandon = _abandoning(official, seed, 2 + seed % 4)
        before = position(game)
        with forking():
            reference = game.clone()
            reference.apply(abandon)
        expected = position(reference)
        del reference
        twin = game.clone()
        with counting_forks(monkeypatch) as forks:
            game.apply(abandon)
        assert forks and not made_in_place(game) and position(game) == expected
        assert position(twin) == before
        game.undo()
        del twin
        with counting_forks(monkeypatch) as forks:
            game.apply(abandon)
        assert not forks and made_in_place(game) and position(game) == expected
        twin = game.clone()
        with counting_forks(monkeypatch) as forks:
            game.undo()  # the record undone on a fork: the twin keeps the Abandon
        assert forks and position(game) == before and position(twin) == expected
        twin.undo()
        assert position(twin) == before
        game.apply(abandon)
        twin.apply(abandon)
        assert position(game) == position(twin) == expected
        assert game.to_json() == twin.to_json()


def test_a_banner_held_elsewhere_is_copied_before_it_is_abandoned_from(
    official: sw.Rules,
) -> None:
    """An Abandon made in place changes the acting banner itself where it is the position's
    own and nothing else holds it (the record then keeps its hand, a number); a banner a
    fork of the position kept aside holds too is copied first (the record keeps it), and
    what holds it is left as it was. Either way the position is the forking path's, and
    the undo brings back the position before."""
    owned = copied = 0
    for seed in range(8):
        game, abandon = _abandoning(official, seed, 2 + seed % 4)
        s = game._state
        race = s.acting
        assert race is not None
        banner = s.races[race]
        mine = banner.gen == s.gen
        del s
        with forking():
            reference = game.clone()
            reference.apply(abandon)
        expected, before = position(reference), position(game)
        del reference
        aside = game._state.fork() if seed % 2 else None  # holds the banner too
        kept = state_to_dict(aside) if aside is not None else None
        hand = banner.hand
        del banner
        game.apply(abandon)
        assert made_in_place(game) and position(game) == expected
        record: Any = game._undo[-3]
        if mine and aside is None:
            assert type(record[1]) is int and record[1] == hand
            owned += 1
        else:
            assert type(record[1]) is RaceState and record[1].hand == hand
            copied += 1
        if aside is not None:
            assert state_to_dict(aside) == kept
        game.undo()
        assert position(game) == before
        if aside is not None:
            assert state_to_dict(aside) == kept
    assert owned >= 1 and copied >= 4
