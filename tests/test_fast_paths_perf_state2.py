"""The fixed cost of every game and every action, cut by fast paths that must give exactly
what the plain code gives: the game options a new game is played with, the opening position,
the copy a move is applied to and the undo history.

Each test compares the fast path with the general one (or the old result) on seeded games
with the official rules, every folder of test rule files and every expansion.
"""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

import attrs
import pytest
from helpers import random_positions, rule_sets, rules_and_players
from test_fast_paths_perf_state import GOLDEN, MASK, _drawn_one_by_one, _state_rejecting_draw

import smallworld_rules as sw
from smallworld_rules import rng
from smallworld_rules.engine.basics import STARTING_COINS
from smallworld_rules.engine.new_game import start_tables
from smallworld_rules.events import EVENT_TYPES, build_log
from smallworld_rules.frozen import quick_new
from smallworld_rules.options import resolve_options
from smallworld_rules.state import PlayerState, State, new_generation, state_to_dict

#: every folder of test rule files (tests/rules, tests/rules_v3, tests/rules_market …)
RULE_SETS = rule_sets()


def _option_choices(rules: sw.Rules) -> list[dict[str, Any]]:
    """Options a game may be asked for: none, each option set to another value, all at
    once, in declaration order and reversed."""
    changed = {
        name: (not o.default) if isinstance(o.default, bool) else o.default + 1
        for name, o in rules.options.items()
    }
    return [
        {},
        *({name: value} for name, value in changed.items()),
        changed,
        dict(reversed(changed.items())),
    ]


@RULE_SETS
def test_options_resolved_from_the_kept_defaults_are_those_of_the_declarations(
    how: dict[str, object],
) -> None:
    """A game's options are the declared defaults overridden by those it is asked for. The
    defaults the rules keep (worked out once per load) are the declarations' defaults by name
    in sorted order, and the options resolved from them are those resolved from the
    declarations, in the same order, for any options asked; each resolution is a fresh dict
    (the kept defaults stay as they were), and a bad option is refused with the same
    message either way."""
    rules, _ = rules_and_players(how)
    declared = rules.options
    assert list(rules.option_defaults.items()) == sorted(
        (name, o.default) for name, o in declared.items()
    )
    kept = dict(rules.option_defaults)
    for given in [None, *_option_choices(rules)]:
        plain = resolve_options(declared, given)
        fast = resolve_options(declared, given, rules.option_defaults)
        assert list(fast.items()) == list(plain.items())
        assert fast is not rules.option_defaults
        fast[next(iter(fast))] = 7  # the caller's to change
        assert dict(rules.option_defaults) == kept
    for bad, message in (
        ({"no_such_option": True}, "unknown game option 'no_such_option'"),
        ({next(iter(sorted(declared))): "yes"}, "takes"),
    ):
        for defaults in (None, rules.option_defaults):
            with pytest.raises(sw.RulesError, match=message):
                resolve_options(declared, bad, defaults)


@RULE_SETS
def test_engines_are_shared_by_the_options_in_force(how: dict[str, object]) -> None:
    """Games asked for the same options (however ordered) share one engine, with those
    options in force, and save alike; games asked for other options get another engine."""
    rules, players = rules_and_players(how)
    count = players[0]
    engines = {}
    for given in _option_choices(rules):
        game = sw.Game.new(players=count, seed=3, rules=rules, options=given)
        expected = resolve_options(rules.options, given)
        assert game.options == expected
        backwards = dict(reversed(given.items()))
        again = sw.Game.new(players=count, seed=3, rules=rules, options=backwards)
        assert again._engine is game._engine and again.to_json() == game.to_json()
        engines[tuple(sorted(expected.items()))] = game._engine
    assert len({id(e) for e in engines.values()}) == len(engines)
    new = sw.Game.new(players=count, seed=3, rules=rules)
    assert sw.Game.from_json(new.to_json(), rules)._engine is new._engine  # a save's options


def test_shuffling_several_lists_is_shuffling_each_in_turn() -> None:
    """The seeded shuffle of several lists at once (a new game's races, then its powers)
    leaves each list and the generator exactly as shuffling them one after the other does,
    which is drawing each position with ``randbelow``: for one to three lists of every
    length up to past the packed range (empty and single lists too)."""
    source = random.Random(11)
    packed = 0
    for _ in range(1500):
        state = source.getrandbits(64)
        sizes = [source.choice((0, 1, 5, 6, 14, 20, 127, 128, 130)) for _ in range(3)]
        sizes = sizes[: source.randrange(1, 4)]
        lists = [[f"{k}.{i}" for i in range(n)] for k, n in enumerate(sizes)]
        expected, after = [], state
        for n in sizes:
            after, drawn = _drawn_one_by_one(after, n)
            expected.append([lists[len(expected)][i] for i in drawn])
        assert (rng.shuffle(state, *lists), lists) == (after, expected)
        packed += min(sizes) >= rng._PACKED_FROM and max(sizes) < 128
    assert packed > 200


@pytest.mark.parametrize("sizes", [(14, 20), (6, 6), (20, 14, 7)])
def test_shuffling_several_lists_draws_again_after_a_rejected_draw(sizes: tuple[int, ...]) -> None:
    """A draw at or above randbelow's limit is drawn again, in whichever list it falls: the
    shuffle of several lists, which assumes none is, then draws them one by one and gives
    what shuffling each in turn gives (the first draw, the first of the second list, the
    last draw)."""
    bounds = [n for size in sizes for n in range(size, 1, -1)]
    rejecting = [k for k, n in enumerate(bounds, 1) if n & (n - 1)]  # 2**j never rejects
    for k in sorted({rejecting[0], sizes[0], rejecting[-1]}):
        state = _state_rejecting_draw(k)
        lists = [list(range(n)) for n in sizes]
        expected, after = [], state
        for n in sizes:
            after, drawn = _drawn_one_by_one(after, n)
            expected.append(drawn)
        assert (rng.shuffle(state, *lists), lists) == (after, expected)
        assert after == (state + (len(bounds) + 1) * GOLDEN) & MASK  # one draw again


def _opening_as_drawn(engine: Any, seed: int, combos: list[tuple[str, str]]) -> State:
    """The position before the first turn as it was made step by step: each stack shuffled
    on its own, the combos asked for put first, the market revealed by ``_refill_market``."""
    s = State.__new__(State)
    s.gen = new_generation()
    occupants, masks, tokens, box, supply, zones, race_ids, power_ids = start_tables(engine)
    races, powers = list(race_ids), list(power_ids)
    state = rng.shuffle(rng.shuffle(rng.seed_state(seed), races), powers)
    fixed_races = [r for r, _ in combos]
    fixed_powers = [p for _, p in combos]
    s.race_stack = (*fixed_races, *(r for r in races if r not in fixed_races))
    s.power_stack = (*fixed_powers, *(p for p in powers if p not in fixed_powers))
    s.region_race, s.race_masks, s.reach_costs = occupants, masks, None
    s.region_tokens, s.pieces, s.box, s.piece_supply = list(tokens), {}, box, supply
    s.races, s.market, s.power_discard = {}, (), ()
    s.players = tuple(PlayerState(STARTING_COINS, None, (), s.gen) for _ in range(engine.players))
    s.round, s.active, s.phase, s.rng, s.winners, s.truces = 1, 0, sw.Phase.PICK, state, (), ()
    s.zones, s.role_powers, s.role_reserve, s.lang = zones, (), (), {}
    engine._reset_turn(s)
    engine._refill_market(s)
    if engine.role is not None:
        engine._set_up_role(s, engine.role)
    return s


@RULE_SETS
def test_the_opening_position_is_the_one_made_step_by_step(how: dict[str, object]) -> None:
    """Rules 1.2 and 1.5: the banners and badges are shuffled into their stacks (the combos
    asked for first) and the first combos revealed. The opening position of a new game is
    the one made step by step, field by field, for 10 seeds at each player count, with no
    combos asked for, two, and more than the market shows; its players are its own."""
    rules, players = rules_and_players(how)
    pairs = list(zip(sorted(rules.races), sorted(rules.powers), strict=False))
    for count in players:
        engine = sw.Game.new(players=count, rules=rules)._engine
        for seed in range(10):
            for combos in ([], pairs[:2], pairs[: len(pairs) // 2 + 1]):
                fast = engine.new_state(seed, combos)
                slow = _opening_as_drawn(engine, seed, combos)
                assert state_to_dict(fast) == state_to_dict(slow)
                assert fast.race_masks == slow.race_masks and fast.reach_costs is None
                assert all(p.gen == fast.gen for p in fast.players)
                assert len({id(p) for p in fast.players}) == count


@RULE_SETS
def test_a_generation_marks_only_what_its_state_made(how: dict[str, object]) -> None:
    """A fork takes its parent's generation plus one, so two forks of one position share a
    number. Over seeded games played on several clones of one game (moves, undos, set-up
    edits, legality probes, in random turn), every state reached still saves as it did when
    it was reached, and each banner or player carrying a state's generation is held by that
    state alone (what a state changes in place is its own)."""
    rules, players = rules_and_players(how)
    for count in players[:2]:
        for seed in range(3):
            source = random.Random(seed)
            games = [sw.Game.new(players=count, seed=seed, rules=rules)]
            seen: dict[int, tuple[State, dict[str, Any]]] = {}
            for _ in range(150):
                game = source.choice(games)
                roll = source.random()
                if roll < 0.1:
                    games.append(game.clone())
                elif roll < 0.2 and game._undo:
                    game.undo()
                elif roll < 0.25:
                    with contextlib.suppress(sw.RulesError):  # not between turns
                        game.set_coins(source.randrange(count), source.randrange(30))
                elif not game.is_over:
                    actions = list(game.legal_actions())
                    assert game.is_legal(source.choice(actions))  # a probe on a fork
                    game.apply(source.choice(actions))
                seen.setdefault(id(game._state), (game._state, state_to_dict(game._state)))
            owners: dict[int, int] = {}
            for state, saved in seen.values():
                assert state_to_dict(state) == saved
                for held in (*state.races.values(), *state.players):
                    if held.gen == state.gen:
                        assert owners.setdefault(id(held), id(state)) == id(state)
            assert len(seen) > 100 and len(games) > 5


@RULE_SETS
def test_each_game_logs_through_its_own_bound_append(how: dict[str, object]) -> None:
    """The log's ``append`` is bound once per game. A new game, a loaded one, a clone and a
    deep copy each log through the ``append`` of their own log: the events the engine logs
    for a move go to the log of the game that made it and to no other, and undo takes them
    back."""
    rules, players = rules_and_players(how)
    for game in random_positions(rules, 2, players)[::10]:
        if game.is_over:
            continue
        family = [
            game,
            game.clone(),
            sw.Game.from_json(game.to_json(), rules=rules),
            copy.deepcopy(game),
            sw.Game.new(players=game.players, seed=5, rules=rules),
        ]
        before = [g.log for g in family]
        for i, g in enumerate(family):
            assert g._append.__self__ is g._log
            action = g.legal_actions()[-1]
            logged: list[Any] = []
            g._engine.apply(g._state.fork(), action, logged.append)
            g.apply(action)
            assert g.log == (*before[i], *build_log(logged))
            assert [other.log for other in family if other is not g] == [
                log for j, log in enumerate(before) if j != i
            ]
            g.undo()
            assert g.log == before[i]


@RULE_SETS
def test_shared_actions_are_carried_out_by_the_rule_of_their_type(how: dict[str, object]) -> None:
    """``apply`` finds the rule of a shared action (one ``legal_actions`` handed out) by its
    ``id``: it is the rule ``Engine._handlers`` names for the action's type, and a game played
    with the shared actions is the game played with equal actions made anew (the general
    path), save for save after every move; once the game is over both are refused alike,
    the games unchanged; an action equal to a shared one but ill-formed is refused."""
    from smallworld_rules.engine import Engine, basics, legal

    rules, players = rules_and_players(how)
    applied = 0
    for count in players[:2]:
        for seed in range(3):
            shared = sw.Game.new(players=count, seed=seed, rules=rules)
            fresh = sw.Game.new(players=count, seed=seed, rules=rules)
            if shared.phase is sw.Phase.PICK:
                with pytest.raises(sw.IllegalAction, match="must be an integer, not True"):
                    fresh.apply(sw.PickCombo(True))  # == PickCombo(1), a bool
            source = random.Random(seed)
            while not shared.is_over:
                action = source.choice(list(shared.legal_actions()))
                made = type(action)(**attrs.asdict(action))
                assert made == action and made is not action
                shared.apply(action)
                fresh.apply(made)
                assert shared.to_json() == fresh.to_json()
                if id(action) in basics._WELL_FORMED:  # (some listings make their own)
                    rule = legal._HANDLER_OF_SHARED[id(action)]
                    assert rule is Engine._handlers[type(action)]
                    applied += 1
                else:
                    assert id(action) not in legal._HANDLER_OF_SHARED
            for game, last in ((shared, action), (fresh, made)):
                before = game.to_json(), len(game._undo)
                with pytest.raises(sw.IllegalAction, match="the game is over"):
                    game.apply(last)
                assert (game.to_json(), len(game._undo)) == before
    assert applied > 100


@RULE_SETS
def test_a_fork_is_a_state_with_every_field_of_its_parent(how: dict[str, object]) -> None:
    """``fork`` makes its copy by calling ``State()``, which relies on the class having no
    ``__init__`` of its own: it has none, the fork is a plain ``State``, every field is its
    parent's (the token list and race table equal copies, the rest the very objects), and
    its generation is the next one; at every position of seeded games."""
    assert "__init__" not in State.__dict__ and "__new__" not in State.__dict__
    rules, players = rules_and_players(how)
    for game in random_positions(rules, 2, players):
        state = game._state
        fork = state.fork()
        assert type(fork) is State and fork.gen == state.gen + 1
        for name in State.__slots__:
            mine, theirs = getattr(fork, name), getattr(state, name)
            if name in ("region_tokens", "races"):
                assert mine == theirs and mine is not theirs, name
            elif name != "gen":
                assert mine is theirs, name


def test_events_are_made_by_calling_their_twin_class() -> None:
    """The fast constructor makes an event by calling the twin class of its slots (no
    ``object.__new__`` call), which runs the bases' ``__new__`` and ``__init__``: it is given
    only to classes whose bases have none of their own, and builds what the class's own
    constructor builds, for every event class (its type, fields, equality and hash)."""

    class Opening:
        __slots__ = ()

        def __init__(self) -> None:
            raise AssertionError("never run")

    class Making:
        __slots__ = ()

        def __new__(cls) -> Making:
            raise AssertionError("never run")

    for base in (Opening, Making):

        @attrs.frozen(weakref_slot=False)
        class Child(base):  # type: ignore[misc, valid-type]
            a: int

        with pytest.raises(TypeError, match="has its own __new__ or __init__"):
            quick_new(Child)
    for name, cls in EVENT_TYPES.items():
        values = [f"{name}.{field.name}" for field in attrs.fields(cls)]
        plain = object.__new__(cls)  # slot by slot, as attrs' own __init__ fills them
        for field, value in zip(attrs.fields(cls), values, strict=True):
            object.__setattr__(plain, field.name, value)
        for fast in (cls._make(*values), cls(*values)):
            assert type(fast) is cls and attrs.astuple(fast) == tuple(values)
            assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)


@RULE_SETS
def test_legal_actions_are_made_by_calling_their_class(how: dict[str, object]) -> None:
    """``game.legal_actions()`` makes its view by calling ``LegalActions()``, which relies on
    the class having no ``__init__`` or ``__new__`` of its own: it has none, and each view is
    a new ``LegalActions`` of the game's engine and position, not listed until used, then
    holding the engine's list of that position (at every position of seeded games)."""
    assert "__init__" not in sw.LegalActions.__dict__
    assert "__new__" not in sw.LegalActions.__dict__
    rules, players = rules_and_players(how)
    for game in random_positions(rules, 2, players):
        legal, again = game.legal_actions(), game.legal_actions()
        assert type(legal) is sw.LegalActions and legal is not again
        assert legal._engine is game._engine and legal._state is game._state
        assert legal._list is None
        assert list(legal) == game._engine.legal_actions(game._state) == list(again)
