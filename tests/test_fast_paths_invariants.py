"""The invariants every position keeps (checked at every load and set-up edit) are looked for
in a few whole-state tests first (``position._looks_sound``), entry by entry only when one of
them fails (``position._check_closely``, which names the first problem). The quick tests may
send a sound position on to the close check, never pass an unsound one: these tests compare
the two on every position of seeded games and on thousands of positions broken one field at
a time, with the official rules, Necromancer Island, every ``tests/rules*`` folder and every
expansion."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from helpers import random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.engine import position
from smallworld_rules.state import LOST_TRIBE, State

RULE_SETS = rule_sets(necromancer=True)

Breakage = Callable[[State, random.Random], None]


def _tokens(s: State, rng: random.Random) -> None:
    r = rng.randrange(len(s.region_tokens))
    s.region_tokens[r] += rng.choice((-2, -1, 1))


def _emptied(s: State, rng: random.Random) -> None:
    r = rng.randrange(len(s.region_tokens))
    s.region_tokens[r] = 0


def _occupant(s: State, rng: random.Random) -> None:
    occupants = list(s.region_race)
    r = rng.randrange(len(occupants))
    occupants[r] = rng.choice([None, LOST_TRIBE, *s.races, "nobody"])
    s.region_race = tuple(occupants)  # the masks left as they were


def _mask(s: State, rng: random.Random) -> None:
    masks = dict(s.race_masks)
    race = rng.choice([*masks, LOST_TRIBE, *s.races])
    bit = 1 << rng.randrange(len(s.region_tokens) + 2)  # sometimes beyond the map
    masks[race] = rng.choice((masks.get(race, 0) ^ bit, 0, -1, bit))
    s.race_masks = masks


def _box(s: State, rng: random.Random) -> None:
    race = rng.choice(sorted(s.box))
    s.box = {**s.box, race: s.box[race] + rng.choice((-1, 1, -s.box[race] - 1))}


def _banner(s: State, rng: random.Random) -> None:
    if s.races:
        rs = s.own_race(rng.choice(sorted(s.races)))
        if rng.random() < 0.5:
            rs.hand += rng.choice((-1, 1, -rs.hand - 1))
        else:
            rs.held += rng.choice((-1, 1, -rs.held - 1))


def _moved_below_zero(s: State, rng: random.Random) -> None:
    """Tokens moved between a tray, a hand and the held-back tokens, one of them left
    negative: the sum still adds up."""
    if s.races:
        race = rng.choice(sorted(s.races))
        rs = s.own_race(race)
        if rng.random() < 0.5:
            rs.hand, rs.held = rs.hand + rs.held + 1, -1
        else:
            tray = s.box[race]
            s.box = {**s.box, race: -1}
            rs.hand += tray + 1


def _piece(s: State, rng: random.Random) -> None:
    names = sorted(s.piece_supply)
    if not names:
        return
    name = rng.choice(names)
    if rng.random() < 0.5:
        s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] + rng.choice((-1, 1))}
    else:
        r = rng.randrange(len(s.region_tokens))
        held = dict(s.pieces.get(r, {}))
        held[name] = held.get(name, 0) + 1
        s.set_pieces(r, held)


def _zone(s: State, rng: random.Random) -> None:
    zone = rng.choice([*s.zones, "pile"])
    s.zones = {**s.zones, zone: (*s.zones.get(zone, ()), rng.choice(sorted(s.box)))}


def _coins(s: State, rng: random.Random) -> None:
    ps = s.own_player(rng.randrange(len(s.players)))
    ps.coins = -1 - rng.randrange(3)


BREAKAGES: tuple[Breakage, ...] = (
    _tokens, _emptied, _occupant, _mask, _box, _banner, _moved_below_zero, _piece, _zone,
    _coins,
)


def _closely(engine: object, s: State) -> str | None:
    """The entry-by-entry check alone: the first problem's message, or None."""
    try:
        position._check_closely(engine, s)  # type: ignore[arg-type]
    except sw.RulesError as exc:
        return str(exc)
    return None


@RULE_SETS
def test_the_quick_tests_pass_every_position_of_play(how: dict[str, object]) -> None:
    """Every position reached by legal play keeps the invariants (token supplies add up,
    occupants and their masks agree, no negative coins): the quick tests say so without the
    entry-by-entry check, and the entry-by-entry check agrees."""
    rules, players = rules_and_players(how)
    positions = random_positions(rules, 6, players)
    for game in positions:
        assert position._looks_sound(game._engine, game._state)
        assert _closely(game._engine, game._state) is None
    assert len(positions) > 300


@RULE_SETS
def test_the_quick_tests_never_pass_a_broken_position(how: dict[str, object]) -> None:
    """A position broken in one field (tokens, occupants, masks, trays, hands, pieces, zones,
    coins) passes the quick tests only if the entry-by-entry check finds nothing wrong with
    it either; and ``check_invariants`` refuses it with the entry-by-entry check's message
    (the first problem, as before the quick tests existed)."""
    rules, players = rules_and_players(how)
    choose = random.Random(5)
    refused = passed = 0
    for game in random_positions(rules, 4, players)[::3]:
        for breakage in BREAKAGES:
            s = game._state.copy()
            breakage(s, choose)
            problem = _closely(game._engine, s)
            if position._looks_sound(game._engine, s):
                assert problem is None, breakage.__name__
                passed += 1
                continue
            refused += 1
            if problem is None:
                game._engine.check_invariants(s)  # sound after all: nothing raised
            else:
                with pytest.raises(sw.RulesError) as caught:
                    game._engine.check_invariants(s)
                assert str(caught.value) == problem
    assert refused > 500
