"""The conquest listing's shortcuts of pass 8h give what the general pieces of the engine
give, on the positions of seeded random games, with the official rules, every folder of
test rule files and every expansion."""

from __future__ import annotations

import random
from typing import Any

from helpers import random_positions, rule_sets, rules_and_players

from smallworld_rules.engine.basics import _bits
from smallworld_rules.engine.core import Engine
from smallworld_rules.language import flow, hidden_pieces, values
from smallworld_rules.state import State

RULE_SETS = rule_sets()


def _general_reach(engine: Engine, s: State, race: str) -> int:
    """Where ``race`` may attack, every step taken on every path (no mask kept per own
    regions): the regions bordering its own (or where it enters), widened by its links,
    far reach and flags, less its own, water, covered, immune and truce regions."""
    combo = engine._combo_of(s, race)
    own = s.race_masks.get(race, 0)
    if own:
        reach = 0
        for r in _bits(own):
            reach |= engine.map.adjacency[r]
        if combo.far:
            reach = values.far_reach(engine, combo.reach, combo.flags, own, reach)
        if own & combo.link:
            reach |= combo.link
        if "conquer_anywhere" in combo.flags:
            reach |= engine.land_mask
    else:
        reach = engine.role_enter if race == engine.role_race else engine.map.entry_mask
        if "enter_anywhere" in combo.flags:
            reach |= engine.land_mask
    reach &= ~own
    if "enter_water" not in combo.flags:
        reach &= ~engine.map.water_mask
    if engine._immunizing:
        reach &= ~values.immune_regions(engine, s)
    if engine.keeps_out and "no_return_to_abandoned" in combo.flags:
        reach &= ~flow.abandoned(s, race)
    if engine._hiding:
        reach &= ~hidden_pieces.repelled(s, race)
    reach &= engine.open_mask
    reach &= ~engine._pieces_mask(s, engine._immune_pieces)
    return reach & ~engine.truce_mask(s, race)


@RULE_SETS
def test_reach_is_the_general_reach(how: dict[str, Any]) -> None:
    """Rule 1.7: a race conquers a region bordering one it holds (one with no region
    enters at the edge), never its own, water without a flag that lets it, a covered or
    immune region or one under a truce; links, far reach and flags widen that. On every
    position of seeded games, for every race in play, the reach (the common one read from
    what is kept per own regions) is the one worked out step by step, and what is kept per
    own regions is their bordering mask less themselves and water."""
    rules, players = rules_and_players(how)
    checked = plain = 0
    for game in random_positions(rules, 4 if how else 8, players):
        engine, state = game._engine, game._state
        for race in state.races:
            occupied = engine._occupied(state, race)
            assert occupied[3] == occupied[2] & ~occupied[1] & ~engine.map.water_mask
            assert engine.reach_mask(state, race) == _general_reach(engine, state, race)
            checked += 1
            combo = engine._combo_of(state, race)
            plain += bool(occupied[1]) and not combo.far and "enter_water" not in combo.flags
    assert checked > 200 and plain > 50


def test_bits_by_chunks_are_the_set_bits() -> None:
    """The regions of a mask (what every listing reads its reach and own regions from)
    are its set bits, lowest first: for random masks up to 300 bits wide (the tables
    added as masks first reach them), around every chunk's edges, and for 0."""
    rng = random.Random(8)
    masks = [0, 1, (1 << 300) - 1]
    masks += [1 << k for k in range(300)] + [(1 << k) - 1 for k in range(1, 300)]
    masks += [rng.getrandbits(rng.randrange(1, 300)) for _ in range(3000)]
    for mask in masks:
        assert list(_bits(mask)) == [i for i in range(mask.bit_length()) if mask >> i & 1]


def _regions_holding(s: State, wanted: frozenset[str]) -> int:
    """The regions holding at least one piece named in ``wanted``, each region's pieces
    looked at one by one."""
    out = 0
    for r, held in s.pieces.items():
        if any(count and name in wanted for name, count in held.items()):
            out |= 1 << r
    return out


@RULE_SETS
def test_piece_masks_are_the_regions_holding_them(how: dict[str, Any]) -> None:
    """An immune piece keeps its region out of every reach (no enemy may conquer it),
    and other rule files read the regions of a piece: on every position of seeded games,
    the regions holding the immune pieces, the guarding ones, each piece kind and every
    kind together are those whose pieces, one by one, include one (a count above 0)."""
    rules, players = rules_and_players(how)
    checked = found = 0
    for game in random_positions(rules, 4 if how else 8, players):
        engine, state = game._engine, game._state
        kinds = [engine._immune_pieces, engine._guard_pieces, frozenset(rules.pieces)]
        kinds += [frozenset([name]) for name in rules.pieces]
        for wanted in kinds:
            mask = engine._pieces_mask(state, wanted)
            assert mask == (_regions_holding(state, wanted) if wanted else 0)
            checked += 1
            found += mask != 0
    assert checked > 500 and found > 100
