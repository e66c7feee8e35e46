"""Copy on write of the state (``State.fork``, ``State.own_race`` / ``own_player``).

``Game.apply`` changes a fork of the current state that shares the races, players and piece
tables of the state kept for ``undo``, and its values that are never changed in place (tuples,
among them the market and the players, and dicts replaced when they change). A change made
past the copy-on-write rules (see ``smallworld_rules/state.py``) would silently change that
earlier state. These tests play many random actions with every rule set and check, after each
one, that the state kept in the history is exactly as it was before the action, field by
field — also after illegal actions, set-up edits and loading a saved game — that the shared
fields hold values of the immutable kinds, and that undoing the whole game walks back through
the same states.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import random_moves_until_round

import smallworld_rules as sw
from smallworld_rules.state import State, state_to_dict

TEST_RULES = Path(__file__).parent / "rules"

#: Fields fork shares because they are tuples (``readied`` and ``truces``: of pairs) ...
TUPLE_FIELDS = (
    "race_stack", "power_stack", "power_discard", "conquered", "readied", "withdrawals",
    "winners", "used", "truces", "role_powers", "role_reserve", "market", "players",
    "region_race",
)
#: ... or dicts that are replaced by a changed copy, never changed in place (zones: of tuples).
REPLACED_DICTS = ("box", "pieces", "piece_supply", "regained", "zones", "race_masks")
#: Fields fork copies (changed in place; the nested objects have their own rules).
COPIED_FIELDS = ("region_tokens", "races")


def _rule_sets() -> dict[str, tuple[sw.Rules, tuple[int, ...]]]:
    return {
        "official": (sw.load_rules(), (2, 3, 4, 5)),
        "with_test_rules": (sw.load_rules(paths=[TEST_RULES]), (2, 3, 4)),
        "necromancer_island": (sw.load_rules(expansions=["necromancer_island"]), (3, 4, 5, 6)),
    }


_SETS: dict[str, tuple[sw.Rules, tuple[int, ...]]] = {}


def rule_set(name: str) -> tuple[sw.Rules, tuple[int, ...]]:
    if not _SETS:
        _SETS.update(_rule_sets())
    return _SETS[name]


def snapshot(s: State) -> dict[str, Any]:
    """Every field of a state, as plain data (and the nested objects' fields directly, so that
    a change ``state_to_dict`` would not show still fails)."""
    out = state_to_dict(s)
    # lang is saved only when a rule file uses it: compare it always
    out["lang"] = dict(s.lang)
    # gen is bookkeeping; race_masks is derived from region_race (compared below);
    # reach_costs is what legal_actions worked out for the position (test_engine_caches)
    unsaved = {"gen", "race_masks", "reach_costs"}
    assert set(State.__slots__) - unsaved <= set(out), "a field the snapshot would not compare"
    out["_races"] = {k: {f: getattr(v, f) for f in v.FIELDS} for k, v in s.races.items()}
    out["_players"] = [(p.coins, p.active, list(p.declined)) for p in s.players]
    out["_pieces"] = {r: dict(p) for r, p in s.pieces.items()}
    out["_market"] = [list(m) for m in s.market]
    # The dicts fork shares, as the state holds them (state_to_dict sorts and converts).
    out["_zones"] = {z: list(pile) for z, pile in s.zones.items()}
    out["_regained"] = dict(s.regained)
    out["_piece_supply"] = dict(s.piece_supply)
    out["_box"] = dict(s.box)
    out["_race_masks"] = dict(s.race_masks)
    return out


def check_shared_values(s: State) -> None:
    """The fields fork shares hold only values of the kinds nobody changes in place: a list
    there (from a path mypy does not see) would be shared by fork and could be changed."""
    for name in TUPLE_FIELDS:
        value = getattr(s, name)
        assert type(value) is tuple, f"{name} is a {type(value).__name__}"
    for name in ("readied", "truces"):
        assert all(type(pair) is tuple and len(pair) == 2 for pair in getattr(s, name)), name
    for name in REPLACED_DICTS:
        assert type(getattr(s, name)) is dict, name
    assert all(type(pile) is tuple for pile in s.zones.values()), "zones"
    assert all(type(rs.uses) is dict for rs in s.races.values()), "RaceState.uses"
    assert all(type(ps.declined) is tuple for ps in s.players), "PlayerState.declined"


@pytest.mark.parametrize("name", ["official", "with_test_rules", "necromancer_island"])
def test_apply_leaves_the_previous_state_unchanged(name: str) -> None:
    rules, player_counts = rule_set(name)
    checked = 0
    for seed in range(12):
        players = player_counts[seed % len(player_counts)]
        game = sw.Game.new(players=players, seed=seed, rules=rules)
        rng = random.Random(seed)
        history: list[tuple[State, dict[str, Any]]] = []
        earlier: list[sw.Action] = []
        while not game.is_over:
            before = game._state
            expected = snapshot(before)
            # An action legal somewhere earlier: often illegal now, and must change nothing.
            if earlier and rng.random() < 0.3:
                stale = rng.choice(earlier)
                try:
                    game.apply(stale)
                except sw.IllegalAction:
                    assert game._state is before
                    assert snapshot(before) == expected
                else:
                    assert snapshot(before) == expected
                    game.undo()
                    assert game._state is before
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
            assert snapshot(before) == expected, "apply changed the state kept for undo"
            check_shared_values(game._state)
            history.append((before, expected))
            earlier = options
            checked += 1
        # Every state in the history is still the one it was, and undo returns to each.
        for state, expected in reversed(history):
            assert snapshot(state) == expected
            game.undo()
            assert game._state is state
    assert checked > 500


def test_set_up_edits_leave_the_previous_state_unchanged() -> None:
    rules, _ = rule_set("official")
    game = sw.Game.new(players=3, seed=4, rules=rules)
    rng = random.Random(4)
    while game.round < 3:
        options = list(game.legal_actions())
        game.apply(options[rng.randrange(len(options))])
    while not (game.phase in (sw.Phase.PICK, sw.Phase.CONQUEST) and not game._state.acted):
        options = list(game.legal_actions())
        game.apply(options[rng.randrange(len(options))])
    before = game._state
    expected = snapshot(before)
    game.set_coins(0, 42)
    land = [r for r in range(len(game.map.regions)) if (game._engine.land_mask >> r) & 1]
    game.put(land[0], None, 1)
    game.clear(land[1])
    assert snapshot(before) == expected
    check_shared_values(game._state)
    for _ in range(3):
        game.undo()
    assert game._state is before


def test_copy_shares_nothing_changed_in_place() -> None:
    rules, _ = rule_set("official")
    game = sw.Game.new(players=2, seed=1, rules=rules)
    random_moves_until_round(game, 4, seed=1)
    s = game._state
    c = s.copy()
    assert snapshot(c) == snapshot(s)
    for key, rs in s.races.items():  # its uses are a value replaced when they change
        assert c.races[key] is not rs
    for a, b in zip(s.players, c.players, strict=True):  # declined: a tuple
        assert a is not b


@pytest.mark.parametrize("name", ["official", "necromancer_island"])
def test_loaded_states_follow_the_same_rules(name: str) -> None:
    """A state read back from a saved game holds the same kinds of values, and playing on
    from it leaves it unchanged."""
    rules, player_counts = rule_set(name)
    loaded = 0
    for seed in range(4):
        game = sw.Game.new(players=player_counts[seed % len(player_counts)], seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
            if rng.random() < 0.1:
                restored = sw.Game.from_json(game.to_json(), rules=rules)
                state = restored._state
                check_shared_values(state)
                expected = snapshot(state)
                assert expected == snapshot(game._state)
                for _ in range(3):
                    if restored.is_over:
                        break
                    options = list(restored.legal_actions())
                    restored.apply(options[rng.randrange(len(options))])
                    check_shared_values(restored._state)
                assert snapshot(state) == expected
                loaded += 1
    assert loaded > 20


def test_fork_shares_exactly_the_values_never_changed_in_place() -> None:
    rules, _ = rule_set("necromancer_island")
    game = sw.Game.new(players=4, seed=3, rules=rules)
    random_moves_until_round(game, 4, seed=3)
    s = game._state
    assert set(TUPLE_FIELDS + REPLACED_DICTS + COPIED_FIELDS) <= set(State.__slots__)
    fork, copy = s.fork(), s.copy()
    for f in (fork, copy):
        assert snapshot(f) == snapshot(s)
        for name in TUPLE_FIELDS + REPLACED_DICTS:
            if f is copy and name == "players":
                continue  # copy() gives the copy players of its own (below)
            assert getattr(f, name) is getattr(s, name), f"{name} is not shared"
        for name in COPIED_FIELDS:
            assert getattr(f, name) is not getattr(s, name), f"{name} is shared"
    assert all(a is not b for a, b in zip(copy.players, s.players, strict=True))
