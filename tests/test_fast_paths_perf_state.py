"""The fixed cost of every action and every game, cut by fast paths that must give exactly
what the plain code gives: the seeded shuffle of a new game, the copy a move is applied to,
the undo history.

Each test compares the fast path with the general one (or the old result) on seeded games
with the official rules, every folder of test rule files and every expansion.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import pytest
from helpers import random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules import rng
from smallworld_rules.events import EVENT_TYPES, event_from_dict
from smallworld_rules.frozen import quick_new

GOLDEN = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1

#: every folder of test rule files (tests/rules, tests/rules_v3, tests/rules_market …)
RULE_SETS = rule_sets()


def _drawn_one_by_one(state: int, n: int) -> tuple[int, list[int]]:
    """``range(n)`` shuffled by drawing each position with ``randbelow`` (the definition)."""
    drawn = list(range(n))
    for i in range(n - 1, 0, -1):
        state, j = rng.randbelow(state, i + 1)
        drawn[i], drawn[j] = drawn[j], drawn[i]
    return state, drawn


def test_packed_shuffle_draws_what_randbelow_draws() -> None:
    """The seeded shuffle, which works out every draw at once (one 128-bit lane per draw
    of one integer), leaves the items and the generator exactly as drawing each position
    with ``randbelow`` does, for every length up to past the packed range."""
    source = random.Random(7)
    packed = 0
    for _ in range(3000):
        state, n = source.getrandbits(64), source.randrange(0, 140)
        shuffled = list(range(n))
        assert (rng.shuffle(state, shuffled), shuffled) == _drawn_one_by_one(state, n)
        packed += rng._PACKED_FROM <= n < 128
    assert packed > 2000


def _state_rejecting_draw(k: int) -> int:
    """A generator state whose ``k``-th draw (1-based) is ``2**64 - 1``, at or above the
    rejection limit of every count that is not a power of 2 (splitmix64 run backwards)."""

    def unshift(y: int, shift: int) -> int:  # the inverse of y ^ (y >> shift)
        out = y
        for _ in range(64 // shift + 1):
            out = y ^ (out >> shift)
        return out

    z = unshift(MASK, 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK, 30)
    return (z - k * GOLDEN) & MASK


@pytest.mark.parametrize("n", [6, 7, 14, 20, 100, 127])
def test_packed_shuffle_draws_again_after_a_rejected_draw(n: int) -> None:
    """A draw at or above randbelow's limit for its count is drawn again (so that every
    position is equally likely), whichever draw of the shuffle it is: the packed shuffle,
    which assumes none is, falls back to drawing one by one and gives randbelow's result
    when the first, a middle or the last draw is rejected."""
    # the k-th draw is of a count of n - k + 1: a power of 2 never rejects
    draws = [k for k in range(1, n) if (n - k + 1) & (n - k)]
    assert len(draws) >= 3
    for k in sorted({draws[0], draws[len(draws) // 2], draws[-1]}):
        state = _state_rejecting_draw(k)
        shuffled = list(range(n))
        assert (rng.shuffle(state, shuffled), shuffled) == _drawn_one_by_one(state, n)
        # and the draw was rejected: one state more than the number of draws
        assert _drawn_one_by_one(state, n)[0] == (state + n * GOLDEN) & MASK


@RULE_SETS
def test_new_games_shuffle_as_drawing_one_by_one(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule 1.2: the race banners and the power badges are shuffled into their stacks. A
    new game (its shuffles packed) saves to the same text as the game made with every
    shuffle drawn one by one, for 15 seeds at each player count."""
    rules, players = rules_and_players(how)
    games = [
        sw.Game.new(players=count, seed=seed, rules=rules).to_json()
        for count in players
        for seed in range(15)
    ]
    monkeypatch.setattr(rng, "shuffle", rng._shuffle_drawn)
    assert games == [
        sw.Game.new(players=count, seed=seed, rules=rules).to_json()
        for count in players
        for seed in range(15)
    ]


@RULE_SETS
def test_the_undo_history_is_every_move_in_order(how: dict[str, object]) -> None:
    """Every move can be undone, exactly: the history (kept as one flat list, three entries
    per move) holds, for each applied action and set-up edit in order, the very state
    before it and the log's length before it; a clone keeps the same history; undoing walks
    back through those states and log lengths to the start, and ``action_stack`` lists the
    actions applied (not the edits)."""
    rules, players = rules_and_players(how)
    walked = 0
    for count in players:
        for seed in range(3):
            game = sw.Game.new(players=count, seed=seed, rules=rules)
            moves: list[tuple[object, int, object]] = []
            if seed == 1:  # a set-up edit first: undone like a move
                moves.append((game._state, len(game._log), None))
                game.set_coins(0, 9)
            choose = random.Random(seed)
            while not game.is_over:
                options = list(game.legal_actions())
                action = options[choose.randrange(len(options))]
                moves.append((game._state, len(game._log), action))
                game.apply(action)
                if len(moves) == 40:
                    game = game.clone()  # the clone plays on with the same history
            assert [tuple(m) for m in game._history] == moves
            assert all(
                m[0] is h[0] and m[2] is h[2] for m, h in zip(moves, game._history, strict=True)
            )
            assert game.action_stack == tuple(a for _, _, a in moves if a is not None)
            twin = game.clone()
            assert twin._history == game._history
            for state, length, _ in reversed(moves):
                game.undo()
                assert game._state is state and len(game._log) == length
                walked += 1
            with pytest.raises(sw.RulesError, match="nothing to undo"):
                game.undo()
            assert twin.is_over and twin.action_stack  # the clone's history is its own
    assert walked > 1000


@RULE_SETS
def test_fork_copies_what_changes_in_place_and_shares_the_rest(how: dict[str, object]) -> None:
    """The copy a move is applied to (``State.fork``) is the position itself: every field
    the same value; the region tokens and the table of races in play (changed in place)
    its own copies, of the same kinds; every other field the very object the position holds
    (values never changed in place); a generation of its own; and the position left as it
    was."""
    from smallworld_rules.state import State, state_to_dict

    rules, players = rules_and_players(how)
    copied = {"region_tokens", "races"}
    checked = 0
    for game in random_positions(rules, 4, players):
        state = game._state
        before = state_to_dict(state)
        new = state.fork()
        assert state_to_dict(new) == before == state_to_dict(state)
        assert new.gen != state.gen
        for name in State.__slots__:
            if name == "gen":
                continue
            mine, theirs = getattr(new, name), getattr(state, name)
            if name in copied:
                assert mine == theirs and mine is not theirs
                assert type(mine) is type(theirs)
            else:
                assert mine is theirs, name
        checked += 1
    assert checked > 200


@RULE_SETS
def test_new_games_asked_alike_get_the_engine_the_checks_give(how: dict[str, object]) -> None:
    """A new game asked what the last one was asked (no options) shares that game's engine:
    the one ``Engine.shared`` gives for its rules, map, players, options and chance, and the
    game saves to the same text; once games asked otherwise have made enough engines for
    that one to be dropped from the shared table, the next game gets the table's new engine;
    a wrong seed is still refused with the same message."""
    from smallworld_rules.engine import Engine, core
    from smallworld_rules.maps import load_map, map_for_players
    from smallworld_rules.options import resolve_options

    rules, players = rules_and_players(how)
    toggled = next(n for n, o in sorted(rules.options.items()) if isinstance(o.default, bool))
    for count in players[:2]:
        seats = count - max((e.map_minus for e in rules.expansions.values()), default=0)
        key = (rules, load_map(map_for_players(seats)), count)
        expected = Engine.shared(*key, resolve_options(rules.options, None), False)
        first = sw.Game.new(players=count, seed=4, rules=rules)
        assert first._engine is expected
        again = sw.Game.new(players=count, seed=4, rules=rules)
        assert again._engine is expected and again.to_json() == first.to_json()
        with pytest.raises(sw.RulesError, match="seed must be an integer, not 'x'"):
            sw.Game.new(players=count, seed="x", rules=rules)  # type: ignore[arg-type]
        for other in players:  # more engines than the table keeps: the first is dropped
            for chance in ("seeded", "explicit"):
                for value in (True, False):
                    options = {toggled: value}
                    sw.Game.new(players=other, seed=4, rules=rules, chance=chance, options=options)
        assert expected not in core._ENGINES.values()
        later = sw.Game.new(players=count, seed=4, rules=rules)
        assert later._engine is not expected and later._engine in core._ENGINES.values()
        assert later._engine is Engine.shared(*key, resolve_options(rules.options, None), False)
        assert later.to_json() == first.to_json()


@RULE_SETS
def test_legal_actions_are_the_engines_list_of_the_position(how: dict[str, object]) -> None:
    """``game.legal_actions()`` (a lazy view of the position) holds exactly the engine's legal
    actions of the position, in order; it answers ``in`` as ``is_legal`` does, for every
    Deploy count too; and it still holds them after the game has moved on (it belongs to the
    position it was asked of)."""
    rules, players = rules_and_players(how)
    deploys = 0
    for count in players[:2]:
        game = sw.Game.new(players=count, seed=count, rules=rules)
        choose = random.Random(count)
        while not game.is_over:
            legal = game.legal_actions()
            expected = game._engine.legal_actions(game._state)
            assert isinstance(legal, sw.LegalActions) and list(legal) == expected
            assert len(legal) == len(expected) and repr(legal) == f"LegalActions({expected!r})"
            assert all(action in legal for action in expected)
            for action in expected:
                if isinstance(action, sw.Deploy):
                    for n in range(1, action.count + 2):
                        other = sw.Deploy(action.region, n)
                        assert (other in legal) == game.is_legal(other)
                        deploys += 1
            game.apply(expected[choose.randrange(len(expected))])
            assert list(legal) == expected
    assert deploys > 100


def _event_the_plain_way(cls: type[Any], values: list[Any]) -> Any:
    """An event made without its fast constructor: a bare instance of ``cls`` whose slots
    are set one by one through their descriptors (as a frozen attrs class sets them)."""
    event = object.__new__(cls)
    for field, value in zip(attrs.fields(cls), values, strict=True):
        cls.__dict__[field.name].__set__(event, value)
    return event


@pytest.mark.parametrize("cls", list(EVENT_TYPES.values()), ids=lambda c: c.__name__)
def test_events_made_fast_are_the_events_made_slot_by_slot(cls: type[Any]) -> None:
    """A log event (made in ``__new__`` as an instance of a twin class with the same slots,
    then given its class) is the event of its class with those fields: equal to the one
    made slot by slot, with the same type, repr, hash and JSON form, by position or by name;
    frozen; copied, pickled (every protocol) and evolved to equal events."""
    fields = attrs.fields(cls)
    values = [(f"v{i}",) if "tuple" in str(f.type) else i + 1 for i, f in enumerate(fields)]
    plain = _event_the_plain_way(cls, values)
    for fast in (cls(*values), cls(**{f.name: v for f, v in zip(fields, values, strict=True)})):
        assert type(fast) is cls and fast == plain and repr(fast) == repr(plain)
        assert hash(fast) == hash(plain) and fast.to_dict() == plain.to_dict()
        assert copy.copy(fast) == fast and copy.deepcopy(fast) == fast
        assert all(
            pickle.loads(pickle.dumps(fast, protocol)) == fast
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1)
        )
        assert attrs.evolve(fast) == fast and event_from_dict(fast.to_dict()) == fast
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(fast, fields[0].name, values[0])
    with pytest.raises(TypeError):
        cls(*values, "one too many")


def test_quick_new_refuses_what_it_could_not_build_the_same() -> None:
    """The fast constructor is given only to classes it builds exactly as attrs does: not
    to one with a ``__weakref__`` slot (whose instances cannot change class), nor to fields
    with a validator, a converter or a factory."""

    @attrs.frozen
    class Weak:
        a: int

    @attrs.frozen(weakref_slot=False)
    class Checked:
        a: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen(weakref_slot=False)
    class Made:
        a: list[int] = attrs.field(factory=list)

    with pytest.raises(TypeError, match="__weakref__"):
        quick_new(Weak)
    for cls in (Checked, Made):
        with pytest.raises(TypeError, match="quick_new cannot build"):
            quick_new(cls)


@RULE_SETS
def test_the_events_of_games_are_those_made_slot_by_slot(how: dict[str, object]) -> None:
    """Every event the engine logs in seeded games (made by the fast constructors) equals
    the event of its class made slot by slot from its fields, and a saved game's log reads
    back equal."""
    rules, players = rules_and_players(how)
    events = 0
    for count in players[:2]:
        game = sw.Game.new(players=count, seed=count, rules=rules)
        choose = random.Random(count)
        while not game.is_over:
            options = list(game.legal_actions())
            game.apply(options[choose.randrange(len(options))])
        for event in game.log:
            cls = type(event)
            values = [getattr(event, f.name) for f in attrs.fields(cls)]
            assert cls in EVENT_TYPES.values() and event == _event_the_plain_way(cls, values)
            events += 1
        assert sw.Game.from_json(game.to_json(), rules=rules).log == game.log
    assert events > 200


@RULE_SETS
def test_a_clone_is_the_game_made_by_its_constructor(how: dict[str, object]) -> None:
    """``clone`` (which makes its twin without ``Game.__init__``) gives a game with the same
    attributes, in the same order, as the constructor makes, holding the same engine, state
    and seed and copies of the log and the undo history; a loaded game's clone reads the
    same log; playing on either leaves the other as it was."""
    rules, players = rules_and_players(how)
    for game in random_positions(rules, 2, players)[::15]:
        twin = game.clone()
        made = sw.Game(game._engine, game._state, game._seed, list(game._log))
        assert list(vars(twin)) == list(vars(made))
        assert twin._engine is game._engine and twin._state is game._state
        assert twin.seed == game.seed and twin._log == game._log and twin._log is not game._log
        assert twin._undo == game._undo and twin._undo is not game._undo
        if not game.is_over:
            before = game.to_json(), len(game._undo)
            twin.apply(twin.legal_actions()[0])
            assert (game.to_json(), len(game._undo)) == before
        loaded = sw.Game.from_json(game.to_json(), rules=rules).clone()
        assert loaded.log == game.log and loaded.to_json() == game.to_json()
