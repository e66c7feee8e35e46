"""A Deploy of the redeployment phase carried out on the game's own position, with a small
undo record instead of a fork (``smallworld_rules.in_place``), must give exactly what the
forking path gives: the same positions, events, refusals, undo, history, saves and records.

Each comparison plays seeded games twice, once as ``Game.apply`` plays them and once with
every move forced down the forking path, with the official rules, every folder of test rule
files, each expansion alone and every expansion together.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import budget, rule_sets, rules_and_players
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import smallworld_rules as sw
import smallworld_rules.game as game_module
from smallworld_rules.events import Deployed, build_log
from smallworld_rules.in_place import ALONE, refcount
from smallworld_rules.state import State, state_to_dict

#: official, every tests/rules* folder, each expansion alone and every expansion together
RULE_SETS = rule_sets(each_box=True)

#: Hypothesis examples per profile (tests/conftest.py)
BUDGETS = {"dev": {"examples": 20}, "ci": {"examples": 400}, "thorough": {"examples": 2000}}


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Every ``apply`` and ``undo`` inside takes the forking path (no count is ``ALONE``)."""
    kept = game_module.ALONE
    game_module.ALONE = -1
    try:
        yield
    finally:
        game_module.ALONE = kept


@contextlib.contextmanager
def counting_forks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """``State.fork`` counted while the block runs: one entry in the list per fork."""
    forks: list[int] = []
    fork = State.fork

    def counted(s: State) -> State:
        forks.append(1)
        return fork(s)

    with monkeypatch.context() as patch:
        patch.setattr(State, "fork", counted)
        yield forks


def position(game: sw.Game) -> dict[str, Any]:
    """The game's current position as data (read without keeping a reference to it)."""
    return state_to_dict(game._state)


def history(game: sw.Game) -> list[tuple[dict[str, Any], int, sw.Action | None]]:
    """The undo history as data: each move's position before, log length and action."""
    return [(state_to_dict(s), length, a) for s, length, a in game._history]


def made_in_place(game: sw.Game) -> bool:
    """Whether the game's last move was carried out in place (its entry is a record)."""
    return bool(game._undo) and type(game._undo[-3]) is tuple


def in_place_move(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place (nothing else holding the
    position): a Deploy with a race acting and nothing in the rule language's memory, of
    the redeployment phase, or the first of a turn (the conquests end) by a race whose rule
    files have no triggers and that is not a role's."""
    s = game._state
    if type(action) is not sw.Deploy or s.lang or s.acting is None:
        return False
    if s.phase is sw.Phase.REDEPLOY:
        return True
    engine = game._engine
    triggering = engine._triggering
    return (
        s.phase is sw.Phase.CONQUEST
        and s.acting not in triggering
        and s.races[s.acting].power not in triggering
        and not (s.acting == engine.role_race and not triggering.isdisjoint(s.role_powers))
    )


Predicate = Callable[[sw.Game, sw.Action], bool]


def made_by_any(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place by any of its paths, each
    pass's predicate in its own test module: Deploys (``in_place_move``), EndTurns and
    Conquers of undefended regions (gc6), Conquers of defended ones (conquer7), quiet
    abilities (roles7), Abandons and PickCombos (pick7)."""
    from test_fast_paths_perf_conquer7 import defended_conquest  # (they import this module)
    from test_fast_paths_perf_gc6 import made_here
    from test_fast_paths_perf_pick7 import made_by_pick7
    from test_fast_paths_perf_roles7 import ability_in_place

    return (
        in_place_move(game, action)
        or made_here(game, action)
        or defended_conquest(game, action)
        or ability_in_place(game, action)
        or made_by_pick7(game, action)
    )


def play_alongside(
    how: dict[str, object], made: Predicate, taken_back: Predicate
) -> list[tuple[sw.Action, Any, bool]]:
    """Three seeded games of the rule set ``how``, each played twice: as ``apply`` plays
    them, and forced down the forking path. After every move both positions and logs are
    equal, and the move was made in place in the first game exactly when ``made`` says it
    may be, never in the second. Each move ``taken_back`` picks is taken back (the position
    and log before, exactly, on the same position object: nothing else holds it) and played
    again. At the end both games have the same history, action stack, save and record, and
    taking every move back brings both through the same positions and logs to the start.
    Returns each move taken back, with its undo record and whether the game was then over."""
    rules, players = rules_and_players(how)
    taken: list[tuple[sw.Action, Any, bool]] = []
    for seed in range(3):
        count = players[seed % len(players)]
        fast = sw.Game.new(players=count, seed=seed, rules=rules)
        slow = sw.Game.new(players=count, seed=seed, rules=rules)
        choose = random.Random(seed)
        while not fast.is_over:
            options = list(fast.legal_actions())
            action = options[choose.randrange(len(options))]
            expected, again = made(fast, action), taken_back(fast, action)
            before, log = position(fast), fast.log
            fast.apply(action)
            with forking():
                slow.apply(action)
            after = position(fast)
            assert after == position(slow) and fast.log == slow.log
            assert made_in_place(fast) is expected and not made_in_place(slow)
            if again:
                taken.append((action, fast._undo[-3], fast.is_over))
                same = id(fast._state)
                fast.undo()
                assert id(fast._state) == same  # taken back in place: nothing else holds it
                assert position(fast) == before and fast.log == log
                fast.apply(action)
                assert made_in_place(fast) and position(fast) == after and fast.log == slow.log
        assert history(fast) == history(slow)
        assert fast.action_stack == slow.action_stack and fast.to_json() == slow.to_json()
        if fast.map_name in ("2p", "3p", "4p", "5p"):
            record = fast.to_record()
            with forking():
                assert record == slow.to_record()
            replayed = sw.Game.from_record(record, rules=rules)
            assert replayed.to_json() == fast.to_json()
        while fast._undo:
            fast.undo()
            with forking():
                slow.undo()
            assert position(fast) == position(slow) and fast.log == slow.log
    return taken


@RULE_SETS
def test_deploys_made_in_place_are_those_made_on_a_fork(how: dict[str, object]) -> None:
    """Rule 1.10 (the conquests end: every token beyond one per region goes back to hand,
    and the active race redeploys the tokens in hand onto its regions) is carried out alike
    in place and on a fork (``play_alongside``): every Deploy that may be made in place
    (see ``in_place_move``) was, and each is taken back and played again."""
    taken = play_alongside(how, made_by_any, in_place_move)
    lifted = sum(len(record) == 6 for _, record, _ in taken)  # the first Deploy of a turn
    if how == {}:  # the official rules: redeployment is most of a game
        assert len(taken) > 60 and lifted > 20


@RULE_SETS
def test_a_refused_deploy_leaves_the_position_as_it_was(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Deploy that is not legal (a region the race does not hold, no token or too many,
    a region off the board) is refused with the reason and changes nothing, also when it is
    tried on the game's own position in place (in the redeployment phase or as the first of
    a turn), after the acting banner was taken to change: the same position object with the
    same banners, token list, piece tables, phase and generation, the same save, log and
    history, and the same refusal as on a fork. So does a Deploy refused after it made every
    change (the log refusing its event)."""
    rules, players = rules_and_players(how)
    tried = interrupted = 0
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            s = game._state
            probe = next((a for a in options if isinstance(a, sw.Deploy)), None)
            if probe is not None and in_place_move(game, probe):
                rs = s.races[s.acting]
                own = [r for r, race in enumerate(s.region_race) if race == s.acting]
                other = next(r for r, race in enumerate(s.region_race) if race != s.acting)
                wrong = [
                    sw.Deploy(other, 1),
                    sw.Deploy(-1, 1),
                    sw.Deploy(len(s.region_tokens) + 3, 1),
                    *(sw.Deploy(r, n) for r in own[:2] for n in (0, rs.hand + 40)),
                ]
                phase = s.phase
                del s, rs
                for action in wrong:
                    with forking(), pytest.raises(sw.IllegalAction) as refused:
                        game.apply(action)
                    reason = str(refused.value)
                    del refused  # its traceback holds the position
                    identity = _identity(game)
                    saved, log, undo = game.to_json(), game.log, list(game._undo)
                    with counting_forks(monkeypatch) as forks:
                        with pytest.raises(sw.IllegalAction) as refused:
                            game.apply(action)
                        # tried in place, unless the region is off the board (redeploying)
                        assert not forks or (
                            phase is sw.Phase.REDEPLOY
                            and not 0 <= action.region < len(game.map.regions)
                        )
                    assert str(refused.value) == reason
                    del refused
                    assert _identity(game) == identity
                    assert (game.to_json(), game.log, game._undo) == (saved, log, undo)
                    tried += 1
                # A refusal after every change (here the log refuses the Deployed event)
                identity = _identity(game)
                saved, log, undo = game.to_json(), game.log, list(game._undo)
                game._append = _refusing
                try:
                    with pytest.raises(sw.IllegalAction, match="stopped"):
                        game.apply(probe)
                finally:
                    game._append = game._log.append
                assert _identity(game) == identity
                assert (game.to_json(), game.log, game._undo) == (saved, log, undo)
                interrupted += 1
            else:
                del s
            game.apply(options[choose.randrange(len(options))])
    if how == {}:
        assert tried > 50 and interrupted > 20


def _refusing(event: object) -> None:
    """A log that refuses the Deployed event, after the Deploy made its changes."""
    if isinstance(build_log([event])[0], Deployed):  # the engine may log it as a tuple
        raise sw.IllegalAction("stopped")


def _identity(game: sw.Game) -> tuple[Any, ...]:
    """The objects of the game's position (by id) and its generation."""
    s = game._state
    return (
        id(s),
        s.gen,
        id(s.races),
        {race: id(rs) for race, rs in s.races.items()},
        id(s.region_tokens),
        list(s.region_tokens),
        id(s.players),
        id(s.pieces),
        id(s.piece_supply),
        s.die_bonus,
        s.phase,
        s.reach_costs,
    )


def test_the_count_of_a_position_alone_is_measured() -> None:
    """``ALONE`` is what the interpreter counts for an object held by one attribute and one
    local variable (as ``apply`` holds its position), and one more holder counts one more:
    a clone, a view or a caller's variable is seen."""
    game = sw.Game.new(players=2, seed=1)
    s = game._state
    assert refcount(s) == ALONE  # the game's attribute and s, as in apply
    twin = game.clone()
    assert refcount(s) == ALONE + 1
    del twin
    view = game.legal_actions()
    assert refcount(s) == ALONE + 1
    del view
    assert refcount(s) == ALONE


def _redeploying(rules: sw.Rules, seed: int, players: int = 2, hand: int = 2) -> sw.Game:
    """A seeded game played until the active race redeploys with ``hand`` tokens or more in
    hand and two regions or more, and nothing in the rule language's memory."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    choose = random.Random(seed)
    while not game.is_over:
        s = game._state
        if (
            s.phase is sw.Phase.REDEPLOY
            and not s.lang
            and s.acting is not None
            and s.races[s.acting].hand >= hand
            and s.race_masks.get(s.acting, 0).bit_count() >= 2
            and sum(isinstance(a, sw.Deploy) for a in game.legal_actions()) >= 4
        ):
            return game
        del s
        options = list(game.legal_actions())
        game.apply(options[choose.randrange(len(options))])
    raise AssertionError("no redeployment with tokens in hand")  # pragma: no cover


def test_a_view_keeps_its_position(official: sw.Rules) -> None:
    """A ``legal_actions`` view belongs to the position it was asked of: a view kept while
    a Deploy is played (listed or not yet listed) lists that position's actions and answers
    ``in`` for it afterwards, Deploy counts it does not list included; the move is then
    played on a fork. Once no view is kept, the next Deploy is made in place."""
    for seed in range(6):
        game = _redeploying(official, seed)
        listed = list(game.legal_actions())
        deploys = [a for a in listed if isinstance(a, sw.Deploy)]
        probes = [sw.Deploy(a.region, n) for a in deploys for n in range(0, a.count + 2)]
        answers = [game.is_legal(p) for p in probes]
        assert any(answers) and not all(answers)
        for compute in (True, False):
            view = game.legal_actions()
            if compute:
                assert list(view) == listed
            game.apply(deploys[0])
            assert not made_in_place(game)  # the view holds the position
            assert list(view) == listed
            assert [p in view for p in probes] == answers
            game.undo()
            del view
        game.apply(deploys[0])
        assert made_in_place(game)


def test_a_shared_position_is_played_on_a_fork(official: sw.Rules) -> None:
    """A clone shares its game's position: a Deploy from it, in either game, is played on a
    fork, and the other game's position and history are left as they were; so is a
    position a caller keeps. A game restored from a save, or whose clone is gone, plays in
    place again; a deep copy of a game whose history holds moves made in place is taken
    back through the same positions."""
    for seed in range(6):
        game = _redeploying(official, seed)
        deploy = next(a for a in game.legal_actions() if isinstance(a, sw.Deploy))
        game.apply(deploy)
        assert made_in_place(game)
        game.undo()
        mine, past = position(game), history(game)
        twin = game.clone()
        for first, second in ((game, twin), (twin, game)):
            first.apply(deploy)
            assert not made_in_place(first)
            assert position(second) == mine and history(second) == past
            first.undo()
        del twin, first, second  # (the loop names hold the twin too)
        kept = game._state
        game.apply(deploy)
        assert not made_in_place(game) and state_to_dict(kept) == mine
        game.undo()
        assert game._state is kept
        del kept
        game.apply(deploy)
        assert made_in_place(game)
        deep = copy.deepcopy(game)
        assert history(deep) == history(game) and position(deep) == position(game)
        while deep._undo:
            deep.undo()
        assert position(deep) == history(game)[0][0]
        loaded = sw.Game.from_json(game.to_json(), rules=official)
        more = next(a for a in loaded.legal_actions() if isinstance(a, sw.Deploy))
        saved = loaded.to_json()
        loaded.apply(more)
        assert made_in_place(loaded)
        loaded.undo()
        assert loaded.to_json() == saved


# ---------------------------------------------------------------------- random interleavings

#: the games the interleavings start from, with each one's positions as data (its history,
#: then its current position): kept for the whole module, and checked to stay as they were
_BASES: list[tuple[sw.Game, list[dict[str, Any]]]] = []


def _bases(rules: sw.Rules) -> list[tuple[sw.Game, list[dict[str, Any]]]]:
    if not _BASES:
        for seed in range(4):
            game = _redeploying(rules, seed, players=2 + seed % 3, hand=4)
            _BASES.append((game, [h[0] for h in history(game)] + [position(game)]))
    return _BASES


OPS = st.lists(st.tuples(st.integers(0, 11), st.integers(0, 1 << 16)), min_size=5, max_size=40)


@settings(
    max_examples=budget(BUDGETS, "examples"),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(base=st.integers(0, 3), ops=OPS)
def test_interleaved_moves_undos_clones_and_views(
    official: sw.Rules, base: int, ops: list[tuple[int, int]]
) -> None:
    """Random interleavings of moves (mostly Deploys of the redeployment phase), refused
    moves, undos, clones and kept ``legal_actions`` views, from clones of games whose
    histories hold moves made in place: every game's position is the one the forking path
    gives after each step, a refused move changes nothing, and at the end every game's
    current position and every position of its history are as they were when reached,
    every kept view lists and answers as when it was asked, and the games cloned from are
    unchanged."""
    bases = _bases(official)
    start, start_positions = bases[base]
    games: list[sw.Game] = [start.clone()]
    models: list[list[dict[str, Any]]] = [list(start_positions)]
    views: list[tuple[sw.LegalActions, list[sw.Action], list[sw.Action], list[bool]]] = []
    at = made = undone = 0
    for op, value in ops:
        game, model = games[at], models[at]
        if op <= 4 and not game.is_over:  # a legal move: mostly a Deploy of one token
            options = list(game.legal_actions())
            deploys = [a for a in options if isinstance(a, sw.Deploy)]
            ones = [a for a in deploys if a.count == 1]
            pool = (ones if op <= 2 else deploys if op == 3 else options) or options
            action = pool[value % len(pool)]
            reference = game._state.fork()  # the forking path, on the side
            game._engine.apply(reference, action, lambda e: None)
            expected = state_to_dict(reference)
            del reference
            game.apply(action)
            assert position(game) == expected
            model.append(expected)
            made += made_in_place(game)
        elif op == 5:  # a refused move
            wrong = sw.Deploy(value % len(game.map.regions), 1000)
            saved, undo = game.to_json(), list(game._undo)
            with pytest.raises(sw.IllegalAction):
                game.apply(wrong)
            assert (game.to_json(), game._undo) == (saved, undo)
        elif op in (6, 7) and game._undo:
            undone += made_in_place(game)
            game.undo()
            model.pop()
            assert position(game) == model[-1]
        elif op == 8 and len(games) < 6:
            games.append(game.clone())
            models.append(list(model))
        elif op == 9 and len(views) < 4:  # a view kept, listed or not yet
            view = game.legal_actions()
            listed = list(game.legal_actions())
            probes = [sw.Deploy(value % len(game.map.regions), n) for n in range(4)]
            answers = [game.is_legal(p) for p in probes]
            if value % 2:
                list(view)
            views.append((view, listed, probes, answers))
        elif op == 10 and views:
            del views[value % len(views)]
        elif op == 11:
            at = value % len(games)
    event(f"moves made in place: {min(made, 5)}+, undone: {min(undone, 5)}+")
    for game, model in zip(games, models, strict=True):
        assert [h[0] for h in history(game)] + [position(game)] == model
    for view, listed, probes, answers in views:
        assert list(view) == listed and [p in view for p in probes] == answers
    for original, positions in bases:
        assert [h[0] for h in history(original)] + [position(original)] == positions
