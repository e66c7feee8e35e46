"""An EndTurn carried out on the game's own position, with an undo record instead of a fork
(``Game._end_turn_in_place``, ``smallworld_rules.in_place``), must give exactly what the
forking path gives: the same positions, events, refusals, undo, history, saves and records.

Each comparison plays seeded games twice, once as ``Game.apply`` plays them and once with
every move forced down the forking path, with the official rules, every folder of test rule
files, each expansion alone and every expansion together.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from helpers import budget, rule_sets, rules_and_players
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_fast_paths_perf_state4 import (
    counting_forks,
    forking,
    history,
    in_place_move,
    made_by_any,
    made_in_place,
    play_alongside,
    position,
)

import smallworld_rules as sw
from smallworld_rules.events import Conquered, GameOver, TurnEnded, TurnStarted, build_log
from smallworld_rules.state import LOST_TRIBE, RaceState, state_to_dict

#: official, every tests/rules* folder, each expansion alone and every expansion together
RULE_SETS = rule_sets(each_box=True)

#: Hypothesis examples per profile (tests/conftest.py)
BUDGETS = {"dev": {"examples": 10}, "ci": {"examples": 60}, "thorough": {"examples": 1000}}


def turn_end_in_place(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place (nothing else holding the
    position): an EndTurn of the redeployment phase by the player's active race, nothing
    in the rule language's memory, no withdrawal to come and no decline at the end, in a
    game without ``turn_end`` or ``turn_start`` triggers, caps on a region's tokens or
    anything else a turn's start does beyond readying (a race's hand, the tokens it holds
    back and a role's turn end are in the record since pass 12b)."""
    s = game._state
    engine = game._engine
    if type(action) is not sw.EndTurn or s.lang or s.phase is not sw.Phase.REDEPLOY:
        return False
    if s.acting is None:
        return False
    return (
        not s.withdrawals
        and not s.decline_at_end
        and engine._plain_turns
        and not engine._capping
        and "turn_end" not in engine.trigger_events
        and s.players[s.active].active == s.acting
    )


def quiet_conquest(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place (nothing else holding the
    position): a Conquer in the conquest phase, nothing in the rule language's memory, a
    race acting, of a region on the board that no race defends (or a Lost Tribe whose
    tokens go to the box) and no piece holds, where the engine records no facts and keeps
    no discounts, by a race without triggers and not a role's."""
    s = game._state
    engine = game._engine
    if type(action) is not sw.Conquer or s.lang or s.acting is None:
        return False
    if s.phase is not sw.Phase.CONQUEST or not 0 <= action.region < len(s.region_tokens):
        return False
    occupant = s.region_race[action.region]
    triggering = engine._triggering
    return (
        (occupant is None or (occupant == LOST_TRIBE and engine._lost_to_box))
        and engine._quick_seize
        and not s.pieces.get(action.region)
        and s.acting not in triggering
        and s.races[s.acting].power not in triggering
        and not (s.acting == engine.role_race and not triggering.isdisjoint(s.role_powers))
    )


def made_here(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place by this pass's paths: an
    EndTurn (``turn_end_in_place``) or a Conquer (``quiet_conquest``)."""
    return turn_end_in_place(game, action) or quiet_conquest(game, action)


def _identity(game: sw.Game) -> tuple[Any, ...]:
    """The objects of the game's position (by id), its generation and its data."""
    s = game._state
    return (
        id(s),
        s.gen,
        id(s.races),
        {race: id(rs) for race, rs in s.races.items()},
        id(s.region_tokens),
        id(s.players),
        [id(p) for p in s.players],
        s.reach_costs,
        state_to_dict(s),
    )


@RULE_SETS
def test_turn_ends_and_conquests_made_in_place_are_those_made_on_a_fork(
    how: dict[str, object],
) -> None:
    """Rule 1.11 (the active player scores a coin per region its races hold, plus their
    bonuses) and the next player's turn (rule 1.6: troops readied, every token but one per
    region back into hand), or the game's end after the last round (rule 1.14), and rule
    1.8 (a conquered region takes the tokens it cost from hand) are carried out alike in
    place and on a fork (``play_alongside``): every EndTurn and Conquer that may be made
    in place (see ``made_here``) was, and each is taken back and played again."""

    taken = play_alongside(how, made_by_any, made_here)
    ended = sum(over for _, _, over in taken)
    conquests = sum(type(action) is sw.Conquer for action, _, _ in taken)
    if how == {}:  # the official rules: most turns end this way, the last one too, and
        assert len(taken) - conquests > 40 and ended >= 1  # most conquests are of regions
        assert conquests > 20  # nobody defends


def _refusing(kind: Any) -> Any:
    """A log that refuses events of ``kind`` (a class or a tuple of them), after the move
    made the changes before it."""

    def log(entry: object) -> None:
        if isinstance(build_log([entry])[0], kind):  # the engine may log it as a tuple
            raise sw.IllegalAction("stopped")

    return log


def refused_as_before(
    game: sw.Game,
    probe: sw.Action,
    kind: Any,
    monkeypatch: pytest.MonkeyPatch,
    *,
    identity: Any = None,
    in_place: bool = True,
) -> None:
    """``probe`` refused on the game's own position changes nothing. With ``kind`` None it
    is a move the rules refuse, with the message the forking path gives; otherwise the log
    refuses events of ``kind`` (see ``_refusing``), after the changes the move made before
    them. Checked: the message, ``identity(game)`` (the objects of the position; by default
    ``_identity``), the save, the log and the undo history, and no fork made when the move
    is one that ``apply`` tries ``in_place``."""
    identity = identity or _identity
    before = identity(game)
    saved, log, undo = game.to_json(), game.log, list(game._undo)
    if kind is None:
        with forking(), pytest.raises(sw.IllegalAction) as forked:
            game.apply(probe)
        message = str(forked.value)
        del forked  # (its traceback's frames hold the position)
    else:
        message = "stopped"
        game._append = _refusing(kind)
    try:
        with counting_forks(monkeypatch) as forks:
            with pytest.raises(sw.IllegalAction) as refused:
                game.apply(probe)
            assert not forks or not in_place
    finally:
        game._append = game._log.append
    assert str(refused.value) == message
    del refused
    assert identity(game) == before
    assert (game.to_json(), game.log, game._undo) == (saved, log, undo)


@RULE_SETS
def test_a_refused_turn_end_leaves_the_position_as_it_was(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An EndTurn refused part way (here the log refuses the TurnEnded event, after the
    score and the banner's turn, or the TurnStarted or GameOver event, after the next turn
    was set up or the game ended)
    changes nothing, also when it is tried on the game's own position in place: the same
    position object with the same banners, races table, token list, players, generation
    and conquest costs, the same save, log and history, and no fork made."""
    rules, players = rules_and_players(how)
    tried = 0
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            if sw.EndTurn() in options and turn_end_in_place(game, sw.EndTurn()):
                for kind in (TurnEnded, (TurnStarted, GameOver)):
                    refused_as_before(game, sw.EndTurn(), kind, monkeypatch)
                    tried += 1
            game.apply(options[choose.randrange(len(options))])
    if how == {}:
        assert tried > 20


@RULE_SETS
def test_a_refused_conquest_leaves_the_position_as_it_was(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Conquer that is not legal (a region off the board, one the race may not reach or
    cannot pay for) is refused as on a fork and leaves the game exactly as it was, also
    when it is tried in place: the same position object, banners, tokens, occupants,
    generation, save, log and history. So does a legal one whose log refuses its event
    after every change the move made."""
    rules, players = rules_and_players(how)
    tried = stopped = 0
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            n = len(game.map.regions)
            legal = set(options)
            probes = [sw.Conquer(-1), sw.Conquer(n + 3)]
            probes += [sw.Conquer(r) for r in range(n) if sw.Conquer(r) not in legal][:4]
            if not any(quiet_conquest(game, p) for p in probes):
                probes = []
            quiet = [a for a in options if quiet_conquest(game, a)][:1]
            for probe in probes + quiet:
                refuse = probe in legal
                kind = Conquered if refuse else None
                in_place = quiet_conquest(game, probe)
                refused_as_before(game, probe, kind, monkeypatch, in_place=in_place)
                tried += 1
                stopped += refuse
            game.apply(options[choose.randrange(len(options))])
    if how == {}:
        assert tried > 40 and stopped > 10


def _ending(rules: sw.Rules, seed: int, players: int = 2) -> sw.Game:
    """A seeded game played until an EndTurn may be made in place."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    choose = random.Random(seed)
    while not game.is_over:
        if turn_end_in_place(game, sw.EndTurn()) and sw.EndTurn() in game.legal_actions():
            return game
        options = list(game.legal_actions())
        game.apply(options[choose.randrange(len(options))])
    raise AssertionError("no turn end in place")  # pragma: no cover


def test_a_held_position_ends_its_turn_on_a_fork(official: sw.Rules) -> None:
    """A clone shares its game's position, a view or a caller may hold it: an EndTurn from
    it is then played on a fork, and what holds it is left as it was. An undo of a turn end
    made in place while a clone shares the position is made on a fork too, and each game
    then goes back or plays on alone without changing the other's history: the races
    table the record kept is never the one a game changes in place."""
    for seed in range(4):
        game = _ending(official, seed, players=2 + seed % 3)
        mine, past = position(game), history(game)
        twin = game.clone()
        for first, second in ((game, twin), (twin, game)):
            first.apply(sw.EndTurn())
            assert not made_in_place(first)
            assert position(second) == mine and history(second) == past
            first.undo()
        del twin, first, second  # (the loop names hold the twin too)
        view = game.legal_actions()
        game.apply(sw.EndTurn())
        assert not made_in_place(game) and sw.EndTurn() in view
        game.undo()
        del view
        kept = game._state
        game.apply(sw.EndTurn())
        assert not made_in_place(game) and state_to_dict(kept) == mine
        game.undo()
        assert game._state is kept
        del kept
        game.apply(sw.EndTurn())
        assert made_in_place(game)
        after, done = position(game), history(game)
        twin = game.clone()
        game.undo()  # the twin shares the position: on a fork
        assert position(game) == mine and position(twin) == after
        for _ in range(3):  # and further back: moves made in place taken back in place
            game.undo()
        for g in (game, twin):  # each plays on alone: in place where it may
            for _ in range(6):
                if g.is_over:
                    break
                g.apply(next(iter(g.legal_actions())))
        assert history(twin)[: len(done)] == done
        while len(twin._undo) > len(done) * 3:
            twin.undo()
        assert position(twin) == after
        twin.undo()
        assert position(twin) == mine
        deep = copy.deepcopy(game)
        assert history(deep) == history(game) and position(deep) == position(game)
        loaded = sw.Game.from_json(sw.Game.from_json(twin.to_json()).to_json(), rules=official)
        saved = loaded.to_json()
        loaded.apply(sw.EndTurn())
        assert made_in_place(loaded)
        loaded.undo()
        assert loaded.to_json() == saved


def _owning(rules: sw.Rules, seed: int, players: int, phase: sw.Phase) -> sw.Game:
    """A seeded game played until the acting race may deploy a token in ``phase`` in place
    (in the redeployment phase with 2 tokens or more in hand, to deploy one twice), its
    banner the position's own (made for it: the generation is the position's)."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    choose = random.Random(seed)
    while not game.is_over:
        s = game._state
        if (
            s.phase is phase
            and not s.lang
            and s.acting is not None
            and s.races[s.acting].hand >= (2 if phase is sw.Phase.REDEPLOY else 0)
            and s.races[s.acting].gen == s.gen
            and any(
                isinstance(a, sw.Deploy) and a.count == 1 and in_place_move(game, a)
                for a in game.legal_actions()
            )
        ):
            return game
        del s
        options = list(game.legal_actions())
        game.apply(options[choose.randrange(len(options))])
    raise AssertionError("no redeployment with a banner of its own")  # pragma: no cover


@pytest.mark.parametrize("phase", [sw.Phase.REDEPLOY, sw.Phase.CONQUEST])
def test_a_banner_held_elsewhere_is_copied_before_it_changes(
    official: sw.Rules, phase: sw.Phase
) -> None:
    """A Deploy made in place (of the redeployment phase, or the first of a turn, which
    ends the conquests) changes the acting banner itself
    when it is the position's own and nothing else holds it (the undo record then keeps its
    hand, a number), and taking it back puts the hand back on the same banner. A banner
    something else holds too (here a fork of the position kept aside, as the positions an
    undo or the history rebuild are) is copied first, by the move or by its undo: what
    holds it is left as it was, and the position is the forking path's."""
    for seed in range(6):
        game = _owning(official, seed, 2 + seed % 4, phase)
        s = game._state
        race = s.acting
        assert race is not None
        deploy = next(a for a in game.legal_actions() if isinstance(a, sw.Deploy) and a.count == 1)
        banner = id(s.races[race])
        del s
        with forking():
            reference = game.clone()
            reference.apply(deploy)
        expected, before = position(reference), position(game)
        del reference
        game.apply(deploy)  # nothing else holds the banner: changed in place
        assert made_in_place(game) and type(game._undo[-3][1]) is int
        assert id(game._state.races[race]) == banner and position(game) == expected
        game.undo()
        assert id(game._state.races[race]) == banner and position(game) == before
        aside = game._state.fork()  # holds the banner too
        kept = state_to_dict(aside)
        game.apply(deploy)  # in place, the banner copied first
        assert made_in_place(game) and type(game._undo[-3][1]) is RaceState
        assert id(game._state.races[race]) != banner and position(game) == expected
        assert state_to_dict(aside) == kept
        game.undo()
        del aside
        game.apply(deploy)  # (the banner of before, no longer of the position's generation)
        assert type(game._undo[-3][1]) is RaceState and position(game) == expected
        middle = position(game)
        game.apply(deploy)  # the copy the first made: changed in place
        assert type(game._undo[-3][1]) is int
        changed = id(game._state.races[race])
        aside = game._state.fork()
        kept = state_to_dict(aside)
        game.undo()  # the hand put back on a copy: the fork keeps the banner as it was
        assert id(game._state.races[race]) != changed and position(game) == middle
        assert state_to_dict(aside) == kept


# ---------------------------------------------------------------------- random interleavings

#: the games the interleavings start from, with each one's positions as data (its history,
#: then its current position): kept for the whole module, and checked to stay as they were
_BASES: list[tuple[sw.Game, list[dict[str, Any]]]] = []


def _bases(rules: sw.Rules) -> list[tuple[sw.Game, list[dict[str, Any]]]]:
    if not _BASES:
        for seed in range(4):
            game = _ending(rules, seed + 10, players=2 + seed % 4)
            _BASES.append((game, [h[0] for h in history(game)] + [position(game)]))
    return _BASES


OPS = st.lists(st.tuples(st.integers(0, 10), st.integers(0, 1 << 16)), min_size=5, max_size=40)


@settings(
    max_examples=budget(BUDGETS, "examples"),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(base=st.integers(0, 3), ops=OPS)
def test_interleaved_turn_ends_undos_clones_and_views(
    official: sw.Rules, base: int, ops: list[tuple[int, int]]
) -> None:
    """Random interleavings of moves (an EndTurn whenever one is legal, for the most
    part), undos, clones and kept ``legal_actions`` views, from clones of games whose
    histories hold turn ends made in place: every game's position is the one the forking
    path gives after each step, and at the end every game's current position and every
    position of its history are as they were when reached, every kept view lists as when
    it was asked, and the games cloned from are unchanged."""
    bases = _bases(official)
    start, start_positions = bases[base]
    games: list[sw.Game] = [start.clone()]
    models: list[list[dict[str, Any]]] = [list(start_positions)]
    views: list[tuple[sw.LegalActions, list[sw.Action]]] = []
    at = made = undone = 0
    for op, value in ops:
        game, model = games[at], models[at]
        if op <= 4 and not game.is_over:  # a legal move: an EndTurn if one is legal
            options = list(game.legal_actions())
            ends = [a for a in options if isinstance(a, sw.EndTurn)]
            pool = ends if ends and op <= 3 else options
            action = pool[value % len(pool)]
            reference = game._state.fork()  # the forking path, on the side
            game._engine.apply(reference, action, lambda e: None)
            expected = state_to_dict(reference)
            del reference
            game.apply(action)
            assert position(game) == expected
            model.append(expected)
            made += made_in_place(game) and isinstance(action, sw.EndTurn)
        elif op in (5, 6) and game._undo:
            undone += made_in_place(game)
            game.undo()
            model.pop()
            assert position(game) == model[-1]
        elif op == 7 and len(games) < 6:
            games.append(game.clone())
            models.append(list(model))
        elif op == 8 and len(views) < 4:  # a view kept, listed or not yet
            view = game.legal_actions()
            listed = list(game.legal_actions())
            if value % 2:
                list(view)
            views.append((view, listed))
        elif op == 9 and views:
            del views[value % len(views)]
        elif op == 10:
            at = value % len(games)
    event(f"turn ends made in place: {min(made, 5)}+, undone: {min(undone, 5)}+")
    for game, model in zip(games, models, strict=True):
        assert [h[0] for h in history(game)] + [position(game)] == model
    for view, listed in views:
        assert list(view) == listed
    for original, positions in bases:
        assert [h[0] for h in history(original)] + [position(original)] == positions
