"""A Conquer of a defended region carried out on the game's own position, with an undo
record instead of a fork (``Game._conquer_in_place``, ``smallworld_rules.in_place``), must
give exactly what the forking path gives: the same positions, events, refusals, undo,
history, saves and records.

Each comparison plays seeded games twice, once as ``Game.apply`` plays them and once with
every move forced down the forking path, with the official rules, every folder of test rule
files, each expansion alone and every expansion together.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import rule_sets, rules_and_players
from test_fast_paths_perf_gc6 import _identity as gc6_identity
from test_fast_paths_perf_gc6 import refused_as_before
from test_fast_paths_perf_state4 import (
    forking,
    history,
    made_by_any,
    made_in_place,
    play_alongside,
    position,
)

import smallworld_rules as sw
from smallworld_rules.events import Conquered, TokensToZone
from smallworld_rules.state import LOST_TRIBE, RaceState, state_to_dict

#: official, every tests/rules* folder, each expansion alone and every expansion together
RULE_SETS = rule_sets(each_box=True)


def defended_conquest(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place (nothing else holding the
    position) as a Conquer of a defended region: in the conquest phase, nothing in the
    rule language's memory, a race acting, of a region on the board that no piece holds,
    held by another race (not a role's, not in decline on its last region) or by a Lost
    Tribe whose tokens go to a zone, where the engine records no facts and keeps no
    discounts, no rule file has triggers on a loss and no race collects lost tokens, by a
    race without triggers and not a role's."""
    s = game._state
    engine = game._engine
    if type(action) is not sw.Conquer or s.lang or s.acting is None:
        return False
    region = action.region
    if s.phase is not sw.Phase.CONQUEST or not 0 <= region < len(s.region_tokens):
        return False
    occupant = s.region_race[region]
    triggering = engine._triggering
    if (
        occupant is None
        or (occupant == LOST_TRIBE and engine._lost_to_box)
        or not engine._quick_seize
        or s.pieces.get(region)
        or s.acting in triggering
        or s.races[s.acting].power in triggering
        or (s.acting == engine.role_race and not triggering.isdisjoint(s.role_powers))
        or engine.defender_events
        or engine._collectors
    ):
        return False
    if occupant == LOST_TRIBE:
        return engine.lost_zone is not None
    defender = s.races.get(occupant)
    return (
        defender is not None
        and occupant != s.acting
        and occupant != engine.role_race
        and not (defender.declined and s.race_masks[occupant] == 1 << region)
    )


@RULE_SETS
def test_defended_conquests_made_in_place_are_those_made_on_a_fork(
    how: dict[str, object],
) -> None:
    """Rule 1.8 (the conqueror puts the tokens the region cost into it; the defender loses
    one token to the box, or where its losses say, and takes the others back into hand to
    redeploy at the end of the turn) and ruling 10 (a Lost Tribe's tokens are discarded)
    are carried out alike in place and on a fork (``play_alongside``): every Conquer of a
    defended region that may be made in place (see ``defended_conquest``) was, and each
    is taken back and played again. Its record keeps the defender's side after the ten
    values of a Conquer of an undefended region."""
    taken = play_alongside(how, made_by_any, defended_conquest)
    for action, record, _ in taken:
        assert type(action) is sw.Conquer and len(record) == 11
        assert type(record[1]) in (int, RaceState) and len(record[10]) == 5
    kinds = {type(record[10][0]) for _, record, _ in taken}
    if how == {}:  # the official rules (the defender's banner is most often an earlier
        assert len(taken) >= 5 and RaceState in kinds  # position's: copied if it changes)
    if how == {"expansions": ["necromancer_island"]}:  # Lost Tribes' tokens to a zone
        assert any(record[10][0] is None for _, record, _ in taken)


def _identity(game: sw.Game) -> tuple[Any, ...]:
    """The objects of the game's position (by id: the banners, the defender's too), its
    generation and its data (gc6's), and the occupants, masks, box and zones it holds."""
    s = game._state
    return (*gc6_identity(game), id(s.region_race), id(s.race_masks), id(s.box), id(s.zones))


@RULE_SETS
def test_a_refused_defended_conquest_leaves_the_position_as_it_was(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Conquer of a defended region that is not legal (one the race may not reach or
    cannot pay for) is refused as on a fork and leaves the game exactly as it was, also
    when it is tried in place: the same position object, banners (the defender's too),
    tokens, occupants, box, zones, generation, save, log and history, and no fork made. So
    does a legal one whose log refuses its event after every change the move made (or,
    where a Lost Tribe's tokens go to a zone, the zone's event, before the conquest's)."""
    rules, players = rules_and_players(how)
    tried = stopped = 0
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            legal = set(options)
            probes: list[tuple[Any, Any]] = [
                (p, None)
                for p in (sw.Conquer(r) for r in range(len(game.map.regions)))
                if p not in legal and defended_conquest(game, p)
            ][:3]
            probes += [(a, Conquered) for a in options if defended_conquest(game, a)][:1]
            zoned = [a for a in options if defended_conquest(game, a)]
            if zoned and game._engine.lost_zone is not None:
                probes.append((zoned[-1], (TokensToZone, Conquered)))
            for probe, kinds in probes:
                refused_as_before(game, probe, kinds, monkeypatch, identity=_identity)
                tried += 1
                stopped += kinds is not None
            game.apply(options[choose.randrange(len(options))])
    if how == {}:
        assert tried > 20 and stopped > 5


def _defending(rules: sw.Rules, seed: int, players: int) -> tuple[sw.Game, sw.Conquer] | None:
    """A seeded game played until a Conquer of a region another race defends with two
    tokens or more may be made in place (its defender takes tokens back into hand), and
    that Conquer; None if the game ends first."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    choose = random.Random(seed)
    while not game.is_over:
        options = list(game.legal_actions())
        for a in options:
            if defended_conquest(game, a):
                assert isinstance(a, sw.Conquer)
                s = game._state
                if s.region_race[a.region] != LOST_TRIBE and s.region_tokens[a.region] >= 2:
                    return game, a
        game.apply(options[choose.randrange(len(options))])
    return None


def test_a_defenders_banner_held_elsewhere_is_copied_before_it_changes(
    official: sw.Rules,
) -> None:
    """Rule 1.8's defender takes tokens back into hand: where its banner and the acting
    one are the position's own and nothing else holds them, the Conquer made in place
    changes both banners themselves (the record keeps their hands) and taking it back puts
    the hands back on them; where something else holds them too (a fork of the position
    kept aside), the move copies them first (the record keeps the banners, the position
    takes a generation of its own) and the fork is left as it was; a clone sharing the
    position sends the move and its undo to a fork."""
    found = 0
    for seed in range(12):
        reached = _defending(official, seed, 2 + seed % 4)
        if reached is None:
            continue
        found += 1
        game, conquer = reached
        s = game._state
        defender, acting = s.region_race[conquer.region], s.acting
        assert defender is not None and acting is not None
        s.own_race(acting)  # the position's own (copies, if not yet)
        s.own_race(defender)
        banners = id(s.races[acting]), id(s.races[defender])
        del s
        with forking():
            reference = game.clone()
            reference.apply(conquer)
        expected, before, past = position(reference), position(game), history(game)
        del reference
        game.apply(conquer)  # nothing else holds the banners: changed themselves
        record = game._undo[-3]
        assert made_in_place(game) and position(game) == expected
        assert type(record[1]) is int and type(record[10][0]) is int
        races = game._state.races
        assert (id(races[acting]), id(races[defender])) == banners
        del races
        game.undo()
        races = game._state.races
        assert (id(races[acting]), id(races[defender])) == banners
        del races
        assert position(game) == before and history(game) == past
        aside = game._state.fork()  # holds both banners
        kept = state_to_dict(aside)
        game.apply(conquer)
        record = game._undo[-3]
        assert made_in_place(game) and position(game) == expected
        assert type(record[1]) is RaceState and type(record[10][0]) is RaceState
        assert state_to_dict(aside) == kept
        game.undo()
        assert position(game) == before and state_to_dict(aside) == kept
        del aside, record
        twin = game.clone()  # shares the position: the move on a fork
        game.apply(conquer)
        assert not made_in_place(game) and position(twin) == before
        game.undo()
        del twin
        game.apply(conquer)
        assert made_in_place(game)
        twin = game.clone()
        game.undo()  # the twin shares the position: undone on a fork
        assert position(game) == before and position(twin) == expected
        twin.undo()
        assert position(twin) == before and history(twin) == past
    assert found >= 4
