"""Loading a save takes shortcuts for what a loaded position is known to hold: these tests
compare each with the general way, on the positions of seeded games with the official rules,
Necromancer Island, every ``tests/rules*`` folder and every expansion, sound and broken.

* The invariants of a loaded position are checked with ``fresh_masks``: its occupants' masks
  were just worked out from the occupants (``State.set_occupants``), so they are not compared
  again. Whatever else is wrong, the answer (nothing, or the refusal's message) is the one
  ``check_invariants`` gives without the shortcut.
* ``state_from_dict`` tests the turn's single values (round, active, phase, …) of a saved
  state at once, and the players; any other value is checked one field at a time, in the
  same order, for the first refusal and its message. The field-by-field way is taken here by
  emptying the table of phases by name (a phase is then read by ``Phase(name)``, the same
  phase) and by giving the players as a subclass of ``list``.
* When the log is left as text, the depth of the rest of a save but its state is known at
  once when its values are single values, lists of them and options of them (what the
  engine writes); anything else is searched as before.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from helpers import random_positions, rule_sets, rules_and_players
from test_fast_paths_invariants import (
    Breakage,
    _banner,
    _box,
    _closely,
    _coins,
    _moved_below_zero,
)

import smallworld_rules as sw
from smallworld_rules import saved
from smallworld_rules.engine import position
from smallworld_rules.state import LOST_TRIBE, SOUL, State, state_to_dict


def _tokens(s: State, rng: random.Random) -> None:
    r = rng.randrange(len(s.region_tokens))
    s.region_tokens[r] += rng.choice((-2, -1, 1, 18))


def _emptied(s: State, rng: random.Random) -> None:
    s.region_tokens[rng.randrange(len(s.region_tokens))] = 0


def _moved_off(s: State, rng: random.Random) -> None:
    """An occupied region's tokens moved onto an empty region, the occupants as they were
    (as many tokenless regions as before), and as many tokens of its race put in its tray
    (its tokens still add up)."""
    held = [r for r, t in enumerate(s.region_tokens) if t]
    empty = [r for r, t in enumerate(s.region_tokens) if not t]
    if held and empty:
        r, to = rng.choice(held), rng.choice(empty)
        race, moved = s.region_race[r], s.region_tokens[r]
        s.region_tokens[to], s.region_tokens[r] = moved, 0
        if race in s.box:
            s.box = {**s.box, race: s.box[race] + moved}


def _occupant(s: State, rng: random.Random) -> None:
    """Another occupant (or none) for a region, the masks worked out again (as a load does)."""
    occupants = list(s.region_race)
    r = rng.randrange(len(occupants))
    occupants[r] = rng.choice([None, LOST_TRIBE, *s.races, *s.box, "nobody"])
    s.set_occupants(tuple(occupants))


def _tribes(s: State, rng: random.Random) -> None:
    """Lost Tribe tokens on a region, sometimes more than the box holds."""
    occupants = list(s.region_race)
    r = rng.randrange(len(occupants))
    occupants[r] = LOST_TRIBE
    s.set_occupants(tuple(occupants))
    s.region_tokens[r] = rng.choice((1, 2, 18, 19))


def _out_of_play(s: State, rng: random.Random) -> None:
    """A race leaves play, its tokens on the map left there."""
    if s.races:
        s.races = {k: v for k, v in s.races.items() if k != rng.choice(sorted(s.races))}


def _piece(s: State, rng: random.Random) -> None:
    names = sorted(s.piece_supply)
    if not names:
        return
    name = rng.choice(names)
    kind = rng.random()
    if kind < 0.4:
        s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] + rng.choice((-1, 1))}
    elif kind < 0.6:
        s.piece_supply = {**s.piece_supply, name: -1}
    else:
        r = rng.randrange(len(s.region_tokens))
        held = dict(s.pieces.get(r, {}))
        held[name if kind < 0.9 else "nothing"] = held.get(name, 0) + 1
        s.set_pieces(r, held)


def _zone(s: State, rng: random.Random) -> None:
    zone = rng.choice([*s.zones, "pile"])
    kind = rng.choice([*sorted(s.box), LOST_TRIBE, SOUL])
    s.zones = {**s.zones, zone: (*s.zones.get(zone, ()), kind)}


BREAKAGES: tuple[Breakage, ...] = (
    _tokens, _emptied, _moved_off, _occupant, _tribes, _box, _banner, _moved_below_zero,
    _out_of_play, _piece, _zone, _coins,
)


def _checked(engine: object, s: State, fresh_masks: bool) -> str | None:
    try:
        engine.check_invariants(s, fresh_masks=fresh_masks)  # type: ignore[attr-defined]
    except sw.RulesError as exc:
        return str(exc)
    return None


@rule_sets(necromancer=True, each_box=True)
def test_the_invariants_with_fresh_masks_are_what_checking_everything_gives(
    how: dict[str, object],
) -> None:
    """Every banner's tokens add up (tray, hand, held back, map, zones), a region holds
    tokens exactly when it has an occupant, no more Lost Tribe tokens than the box's, pieces
    add up, no negative coins: a loaded position whose masks come from its occupants gets the
    same answer with ``fresh_masks`` as without, sound or broken in one field (then the
    message of the entry-by-entry check, the first problem)."""
    rules, players = rules_and_players(how)
    choose = random.Random(11)
    refused = 0
    for game in random_positions(rules, 3, players)[::2]:
        engine = game._engine
        assert _checked(engine, game._state, True) is None
        assert position._looks_sound(engine, game._state, True)
        for breakage in BREAKAGES:
            s = game._state.copy()
            breakage(s, choose)
            s.set_occupants(s.region_race)  # the masks as a load makes them
            expected = _closely(engine, s)
            assert _checked(engine, s, True) == expected, breakage.__name__
            assert _checked(engine, s, False) == expected, breakage.__name__
            refused += expected is not None
    assert refused > 40


def test_a_broken_position_is_found_with_fresh_masks() -> None:
    """The quick test with fresh masks does not pass what the entry-by-entry check refuses:
    on the 2-player board, tokens on an empty region, an occupied region without tokens, a
    tray short of a token, too many Lost Tribe tokens."""
    game = sw.Game.new(players=2, seed=3)
    engine, sound = game._engine, game._state
    assert position._looks_sound(engine, sound, True)
    empty = sound.region_race.index(None)
    tribe = sound.region_race.index(LOST_TRIBE)
    breaks: list[Callable[[State], None]] = [
        lambda s: s.region_tokens.__setitem__(empty, 1),
        lambda s: s.region_tokens.__setitem__(tribe, 0),
        lambda s: setattr(s, "box", {**s.box, "trolls": s.box["trolls"] - 1}),
        lambda s: s.region_tokens.__setitem__(tribe, 18),
    ]
    for broken in breaks:
        s = sound.copy()
        broken(s)
        assert not position._looks_sound(engine, s, True)
        with pytest.raises(sw.RulesError):
            engine.check_invariants(s, fresh_masks=True)


_TURN_FIELDS = (
    "round", "active", "phase", "conquered_nonempty", "acted", "picked", "die_target", "rng",
    "acting", "attacked", "die_bonus", "decline_at_end", "purchases",
)
_VALUES: tuple[Any, ...] = (
    None, True, False, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 99, 100,
    2**23 - 1, 2**23, 2**64 - 1, 2**64, 1.5, "", "x", "conquest", "redeploy", "trolls",
    "#lost_tribe", [], {}, [1],
)


class _Seats(list):  # type: ignore[type-arg]
    """The players as a list the quick test does not take."""


def _outcome(engine: Any, data: Any) -> tuple[str, str]:
    try:
        s = saved.state_from_dict(engine, data)
    except sw.RulesError as exc:
        return "refused", str(exc)
    return "loaded", _rep(s)


def _rep(value: Any) -> str:
    """Every field of a loaded state (its players and races too), with its type and its
    entries' types."""
    if hasattr(value, "__slots__") and not isinstance(value, (str, tuple)):
        slots = [n for n in value.__slots__ if n not in ("gen", "reach_costs")]
        return f"{type(value).__name__}(" + ",".join(_rep(getattr(value, n)) for n in slots) + ")"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__}[" + ",".join(map(_rep, value)) + "]"
    if isinstance(value, dict):
        items = ",".join(f"{_rep(k)}:{_rep(v)}" for k, v in value.items())
        return f"{type(value).__name__}{{{items}}}"
    return f"{type(value).__name__}:{value!r}"


def _each_field(engine: Any, data: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The load with every turn value and player checked one at a time."""
    general = {**data, "players": _Seats(data["players"])}
    with monkeypatch.context() as patched:
        patched.setattr(saved, "_PHASES", {})
        return _outcome(engine, general)


def _players_variants(data: Any, rng: random.Random) -> list[Any]:
    out = []
    for _ in range(6):
        players = json.loads(json.dumps(data["players"]))
        seat = rng.choice(players)
        key = rng.choice(["coins", "active", "declined", "declined", "zz"])
        seat[key] = rng.choice(
            [*_VALUES, ["trolls"], [[1]], ["x"], [None], [seat.get("active")]]
        )
        out.append({**data, "players": players})
    return out


@rule_sets(necromancer=True)
def test_the_turn_values_and_players_tested_at_once_load_as_checking_each_one(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A saved state whose round, active player, phase, flags, die target and bonus, random
    state, acting race, attacked players, purchases or players hold any of ~30 values
    (sound, out of range by one, of another type) loads into the same state (every field,
    with its type) as checking each field in turn, or is refused with the same message."""
    rules, players = rules_and_players(how)
    rng = random.Random(3)
    outcomes = {"loaded": 0, "refused": 0}
    for game in random_positions(rules, 2, players)[::9]:
        engine = game._engine
        data = json.loads(json.dumps(state_to_dict(game._state)))  # as a save holds it
        assert _outcome(engine, data)[0] == "loaded"
        variants = [data, *_players_variants(data, rng)]
        for field in _TURN_FIELDS:
            variants += [{**data, field: value} for value in rng.sample(_VALUES, 12)]
        for variant in variants:
            got = _outcome(engine, variant)
            assert got == _each_field(engine, variant, monkeypatch), variant
            outcomes[got[0]] += 1
    assert outcomes["refused"] > 100 and outcomes["loaded"] > 10


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


_OTHER_VALUES: tuple[Any, ...] = (
    None, 0, "x", [], {}, ["a", "b"], [1, [2]], {"a": 1}, {"a": {"b": 1}}, {"a": [1]},
    _deep(21), _deep(22), _deep(23), _deep(24), {"a": _deep(22)}, {"a": _deep(23)},
    [_deep(22)], [_deep(23)],
)


def test_the_rest_of_a_save_is_as_deep_as_searching_it_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A save nested more than 24 levels deep is refused as not a saved game, wherever the
    deep value sits: with a value of its own, an option, an added key or a board carried in
    ``map_data`` replaced by single values, lists or objects up to 26 levels deep, loading
    it gives the same document and log text (or the same refusal) as searching its values
    level by level; every save of a seeded game is known flat at once."""
    from smallworld_rules.saved import load_save_json

    def load(text: str) -> tuple[str, Any]:
        try:
            return "read", load_save_json(text)
        except sw.RulesError as exc:
            return "refused", str(exc)

    def searched(text: str) -> tuple[str, Any]:
        with monkeypatch.context() as patched:
            patched.setattr(saved, "_flat_but_state", lambda doc: False)
            return load(text)

    rng = random.Random(8)
    custom = sw.Game.new(players=2, seed=1).to_json().replace('"map_data":null', '"map_data":{}')
    shown = refused = 0
    for expansions, players in (([], (2, 3)), (list(sw.available_expansions()), (3, 4))):
        rules = sw.load_rules(expansions=expansions)
        for game in random_positions(rules, 2, players)[::15]:
            text = game.to_json()
            assert saved._flat_but_state(load_save_json(text)[0])
            doc = json.loads(text)
            for _ in range(25):
                bad = json.loads(json.dumps(doc))
                key = rng.choice([k for k in bad if k != "state"] + ["zz", "options"])
                if key == "options" and rng.random() < 0.5:
                    bad["options"] = {**bad["options"], "x": rng.choice(_OTHER_VALUES)}
                else:
                    bad[key] = rng.choice(_OTHER_VALUES)
                variant = json.dumps(bad, sort_keys=True, separators=(",", ":"))
                got = load(variant)
                assert got == searched(variant), key
                shown += got[0] == "read" and got[1][1] is not None
                refused += got[0] == "refused"
    assert load(custom) == searched(custom)
    assert shown > 20 and refused > 20
