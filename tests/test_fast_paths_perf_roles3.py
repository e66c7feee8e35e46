"""The shortcuts of pass 8j give what the general code gives.

* A role's win that reads only ``count(tokens in …)`` of its reserve and of pile zones is
  asked again only when the tray or the piles were replaced (they are copied on write):
  the answer kept is, after every turn of seeded games, the win asked afresh.
* The exchange of the Well makes one new tray and one new set of piles for all the
  tokens it exchanges: the same tray, piles, hand and events as the general code (one
  ``to_box`` a token, the piles replaced after each exchange), kept here verbatim.
* The context answers ``count(powers)``, ``count(tokens on map)``, ``own regions`` and
  ``all_mask`` without the engine's frames: the same as the engine's helpers.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from helpers import finished_games, players_for, rule_set_table, rule_sets

import smallworld_rules as sw
from smallworld_rules.dsl import ast, codegen
from smallworld_rules.engine.context import _Ctx, _EventCtx, _ReachCtx
from smallworld_rules.engine.core import Engine
from smallworld_rules.events import Event, Exchanged, TokensToZone, build_log
from smallworld_rules.state import SOUL, State

_POS = ast.Pos(1, 1)

#: The rule sets of rule_sets(necromancer=True, each_box=True) that have a role.
_WITH_ROLE = {
    name: how
    for name, how in rule_set_table(necromancer=True, each_box=True).items()
    if sw.load_rules(**how).roles
}
with_role = pytest.mark.parametrize("how", list(_WITH_ROLE.values()), ids=list(_WITH_ROLE))


def _play(rules: sw.Rules, games: int) -> int:
    """Seeded uniformly random games; the number of actions played."""
    return sum(len(game.action_stack) for game in finished_games(rules, games))


@with_role
def test_role_win_kept_is_the_win_asked_again(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule 4.2.5 (A18): the Necromancer wins at once when every Ghost is on the map or the
    Island, checked after every turn. Where the engine gives the answer it kept (the tray
    and the piles are the very objects it was worked out from), it is the win asked again
    of the position as it is."""
    rules = sw.load_rules(**how)
    turn_end = Engine._role_turn_end
    seen = {"kept": 0, "asked": 0}

    def checked(engine: Engine, s: Any, log: Any) -> bool:
        before = engine._role_won
        got = turn_end(engine, s, log)
        role = engine.role
        assert role is not None and role.won is not None and engine.role_race is not None
        want = role.won(_Ctx(engine, s, engine.role_race))
        assert got is want
        if before is not None and engine._role_won is before:
            seen["kept"] += 1
        else:
            seen["asked"] += 1
        return got

    monkeypatch.setattr(Engine, "_role_turn_end", checked)
    assert _play(rules, 6) > 0
    (role,) = rules.roles.values()
    if role.win_places is not None:
        assert seen["kept"] > 50 and seen["asked"] > 50, seen


def _count(place: str) -> ast.CountTokens:
    return ast.CountTokens(place, pos=_POS)


def test_places_read_are_every_count_of_tokens_or_none() -> None:
    """A win is kept only when all it reads is known: the places of every
    ``count(tokens in …)`` of numbers, sums, products and ``min``/``max`` of them; anything
    else (``count(powers)``, a region count) gives ``None``."""
    pos = _POS
    well, reserve, island = _count("well"), _count("reserve"), _count("island")
    two = ast.Number(2, pos=pos)
    total = ast.BinOp("+", reserve, ast.BinOp("*", well, two, pos=pos), pos=pos)
    assert codegen.places_read(total, two) == ("reserve", "well")
    both = ast.Call("max", (island, well, two), pos=pos)
    assert codegen.places_read(both) == ("island", "well")
    assert codegen.places_read(two) == ()
    powers = ast.CountPowers(pos=pos)
    assert codegen.places_read(ast.BinOp("+", reserve, powers, pos=pos)) is None
    assert codegen.places_read(reserve, ast.Call("min", (well, powers), pos=pos)) is None


@pytest.mark.parametrize(
    ("places", "kept"),
    [
        (("reserve", "well"), True),
        (("well",), True),
        ((), True),
        (("map",), False),  # the race's regions: not the tray nor a pile
        (("island",), False),  # a role's hand zone: its banner, not a pile
        (("reserve", "elsewhere"), False),
        (None, False),
    ],
)
def test_role_win_kept_only_when_it_reads_the_tray_and_piles(
    places: tuple[str, ...] | None, kept: bool
) -> None:
    """The Necromancer's win (rule 4.2.5) is answered from what was kept only when every
    place it counts is his reserve or a pile zone (the Well), both replaced when they
    change; his Ghosts on the map or the Island are read afresh after every turn."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    (role,) = rules.roles.values()
    changed = attrs.evolve(rules, roles={role.id: attrs.evolve(role, win_places=places)})
    game = sw.Game.new(players=4, seed=0, rules=changed)
    assert (game._engine._role_won is not None) is kept


def _no_counter(name: str) -> tuple[str, bool]:
    raise AssertionError(name)  # these wins name no counter


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ((("well",),), 1),
        ((("reserve",),), 11),
        ((("reserve",), ("well",)), 12),
    ],
    ids=["well", "reserve", "both"],
)
def test_role_win_kept_follows_the_tray_and_the_piles(
    left: tuple[tuple[str], ...], right: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A role wins at once when the two sides of its ``win`` are equal (rule 4.2.5): with
    wins that come true in the middle of a game (Ghosts in the Well, in the reserve, or
    both, equal to a number), the answer kept from the same tray and piles is the win asked
    afresh, each game until the role wins (the harvest left out, so that the tray and the
    Well also change apart)."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    (role,) = rules.roles.values()
    side: ast.Expr = _count(left[0][0])
    for (place,) in left[1:]:
        side = ast.BinOp("+", side, _count(place), pos=_POS)
    number = ast.Number(right, pos=_POS)
    won = codegen.equal(side, number, _no_counter)
    assert won is not None
    places = codegen.places_read(side, number)
    assert places == tuple(sorted(p for (p,) in left))
    # without the harvest, a purchase changes the tray alone (the harvest fills the Well
    # at the end of every turn of the role)
    variant = attrs.evolve(role, won=won, win_places=places, harvest=None)
    changed = attrs.evolve(rules, roles={role.id: variant})
    turn_end = Engine._role_turn_end
    seen = {True: 0, False: 0}

    def checked(engine: Engine, s: Any, log: Any) -> bool:
        got = turn_end(engine, s, log)
        assert engine.role_race is not None
        assert got is won(_Ctx(engine, s, engine.role_race))
        seen[got] += 1
        return got

    monkeypatch.setattr(Engine, "_role_turn_end", checked)
    for seed in range(12):
        game = sw.Game.new(players=3 + seed % 3, seed=seed, rules=changed)
        assert game._engine._role_won is not None
        rng = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    assert seen[True] >= 3 and seen[False] > 50, seen


def _general_turn_end(engine: Engine, s: State, log: Any) -> bool:
    """The role's turn end as it was before pass 8j (the general code), verbatim."""
    role, race = engine.role, engine.role_race
    assert role is not None and race is not None
    if s.races[race].held:
        rs = s.own_race(race)
        rs.hand += rs.held
        rs.held = 0
    ctx = None
    if role.harvest is not None and s.active == engine.role_seat:
        amount, zone = role.harvest
        ctx = _Ctx(engine, s, race)
        souls = max(0, amount(ctx))
        if souls:
            s.zones = {**s.zones, zone: s.zones[zone] + (SOUL,) * souls}
            log(TokensToZone._make(zone, (SOUL,) * souls))
    if role.exchange is not None and len(s.zones[role.exchange[1]]) >= role.exchange[0]:
        count, zone, gain = role.exchange
        rs = s.own_race(race)
        pile = list(s.zones[zone])
        while len(pile) >= count:
            taken = engine._take_from_pile(pile, count, race)
            s.zones = {**s.zones, zone: tuple(pile)}
            for kind in taken:
                if kind in s.box:
                    s.to_box(kind, 1)
            gained = min(gain, s.box[race])
            s.to_box(race, -gained)
            rs.hand += gained
            log(Exchanged._make(zone, tuple(taken), race, gained))
    won = role.won
    if won is None:
        return False
    return won(_Ctx(engine, s, race) if ctx is None else ctx)


@with_role
def test_role_turn_end_is_the_general_code(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After every turn (rule 4.3 c-d, rule 4.5): the role's harvest into the Well, then each
    4 tokens of the Well (Ghosts first) give 1 Ghost from his reserve to the Island, the
    others back to their box. The engine's turn end leaves the same tray, piles, role
    banner, events and answer as the general code on the same position."""
    rules = sw.load_rules(**how)
    turn_end = Engine._role_turn_end
    exchanged = [0]

    def checked(engine: Engine, s: State, log: Any) -> bool:
        other = s.fork()
        want_events: list[Event] = []
        want = _general_turn_end(engine, other, want_events.append)
        got_events: list[Event] = []
        got = turn_end(engine, s, got_events.append)
        race = engine.role_race
        assert race is not None
        assert got is want
        assert build_log(got_events) == build_log(want_events)
        assert s.box == other.box and list(s.box) == list(other.box)
        assert s.zones == other.zones and list(s.zones) == list(other.zones)
        mine, theirs = s.races[race], other.races[race]
        assert [getattr(mine, f) for f in mine.FIELDS] == [
            getattr(theirs, f) for f in theirs.FIELDS
        ]
        exchanged[0] += sum(type(e) is Exchanged for e in build_log(got_events))
        for event in got_events:
            log(event)
        return got

    monkeypatch.setattr(Engine, "_role_turn_end", checked)
    assert _play(rules, 6) > 0
    assert exchanged[0] > 20


@rule_sets(necromancer=True, each_box=True)
def test_context_reads_are_the_engines_helpers(how: dict[str, Any]) -> None:
    """``count(powers)`` (a role's: all it activated, rule 4.3), ``count(tokens on map)``,
    ``own regions`` and every region, as the context reads them, are the engine's
    ``_powers``, ``regions_of``, ``mask_of`` and the map's, for every race of every
    position of seeded games (the role's token kind among them)."""
    rules = sw.load_rules(**how)
    players = players_for(rules)
    compared = 0
    for seed in range(3):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            engine, s = game._engine, game._state
            races = set(s.races) | set(s.race_masks)
            if engine.role_race is not None:
                races.add(engine.role_race)
            for race in sorted(races):
                tokens = sum(s.region_tokens[r] for r in engine.regions_of(s, race))
                for ctx in (
                    _Ctx(engine, s, race),
                    _ReachCtx(engine, s, race, 0),
                    _EventCtx(engine, s, race, 0),
                ):
                    assert ctx.powers_count() == len(engine._powers(s, race))
                    assert ctx.own_mask() == engine.mask_of(s, race)
                    assert ctx.tokens_in("map") == tokens
                    assert ctx.all_mask == engine.map.all_mask
                    compared += 1
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    assert compared > 500
