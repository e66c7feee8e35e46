"""The conquest listing's caches of pass 9b (the immune mask, the open regions less the
immune ones and the cost tables, each kept with the very table of piece tables it was
worked out for) give what the general pieces of the engine give, and a position's listing
is a function of that position alone: whatever was listed before it, and with piece
tables that are equal but not the same objects (a load, a position reached two ways).
On the positions of seeded random games with the official rules, every folder of test
rule files, each box alone and every box together."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from helpers import finished_games, rule_sets, rules_and_players
from test_fast_paths_perf_legal3 import _general_reach

import smallworld_rules as sw
from smallworld_rules.engine.basics import _bits
from smallworld_rules.engine.core import Engine
from smallworld_rules.state import Phase, State

RULE_SETS = rule_sets(each_box=True)


def _positions(game: sw.Game) -> list[State]:
    """Every position of a finished game, first to last (the undo history, then the end)."""
    return [*(state for state, _, _ in game._history), game._state]


def _forget(engine: Engine) -> None:
    """The engine's kept immune mask and cost tables dropped: the next listing works them
    out from nothing (a pairing's first listing takes conquest_costs' general path)."""
    engine._immune_cache = ({}, 0, 0)
    engine._cost_tables = {}


def _regions_holding(on_map: Mapping[int, Mapping[str, int]], wanted: frozenset[str]) -> int:
    """The regions holding at least one piece named in ``wanted``, entry by entry."""
    out = 0
    for r, held in on_map.items():
        for name, count in held.items():
            if count and name in wanted:
                out |= 1 << r
    return out


def _listed(engine: Engine, s: State) -> tuple[list[sw.Action], dict[int, Any]]:
    """The listing of a fresh copy of ``s`` (sharing its piece tables), and the costs it
    leaves on the copy for each region (None: not listed as reachable)."""
    trial = s.copy()
    acts = engine.legal_actions(trial)
    kept = trial.reach_costs
    costs = {} if kept is None else {r: kept.get(r) for r in range(-1, engine.n + 1)}
    return acts, costs


def _with_equal_pieces(s: State) -> State:
    """A copy of ``s`` whose piece tables hold the same pieces in new objects."""
    twin = s.copy()
    twin.pieces = {r: dict(held) for r, held in s.pieces.items()}
    return twin


@RULE_SETS
def test_listings_do_not_depend_on_what_was_listed_before(how: dict[str, Any]) -> None:
    """Rule 1.7 and 1.9: the legal conquests of a position (Conquer, the final attempt with
    the die) follow from its reach and each region's cost, defence of the pieces there
    included; the rest of the listing from its hand and regions. On every position of
    seeded games the listing, and the cost of every region left for the conquest that
    follows, are the same listed in game order (each cache warm from the position
    before), with every cache dropped first (the general path: the immune mask from the
    pieces, each pairing's costs through conquest_costs), in reverse game order, and with
    piece tables equal to the position's but new objects. After each listing the immune
    mask kept is that of the position's very piece tables, the open regions less those
    kept beside it, and every kept cost table is its pieces' defence added to the table
    without pieces."""
    rules, players = rules_and_players(how)
    games = finished_games(rules, 3, players)
    listed = with_pieces = tables = 0
    for game in games:
        engine = game._engine
        positions = [s for s in _positions(game) if s.phase in (Phase.CONQUEST, Phase.REDEPLOY)]
        in_order = []
        for s in positions:
            acts, costs = _listed(engine, s)
            in_order.append((acts, costs))
            if s.pieces and engine._immune_pieces and s.phase is Phase.CONQUEST and costs:
                on_map, mask, allowed = engine._immune_cache
                assert on_map is s.pieces  # the copy listed shares them
                assert mask == _regions_holding(s.pieces, engine._immune_pieces)
                assert allowed == engine.open_mask & ~mask
                with_pieces += 1
            for kept in engine._cost_tables.values():
                if kept[1] is None:
                    continue
                pieces = engine.rules.pieces
                defended = list(kept[1])
                for r, held in kept[2].items():
                    for name, count in held.items():
                        defended[r] += pieces[name].defence * count
                assert list(kept[3]) == defended
                tables += 1
        for s, (acts, costs) in zip(positions, in_order, strict=True):
            _forget(engine)
            assert _listed(engine, s) == (acts, costs)
            assert _listed(engine, _with_equal_pieces(s)) == (acts, costs)
            listed += 1
        for s, (acts, costs) in zip(positions[::-1], in_order[::-1], strict=True):
            assert _listed(engine, s) == (acts, costs)
            assert _listed(engine, _with_equal_pieces(s)) == (acts, costs)
    assert listed > 100
    if not how:  # the official rules: fixed cost tables, immune pieces (holes, heroes…)
        assert tables > 100 and with_pieces > 20


@RULE_SETS
def test_listed_costs_are_the_breakdowns(how: dict[str, Any]) -> None:
    """Rule 1.7: a region costs 2 tokens, plus 1 per token there, 1 for a Mountain and
    each piece's defence, with the modifiers of the race (at least 1); it attacks only
    regions it may reach (never one an immune piece holds). On every conquest position of
    seeded games the cost the listing leaves for each region of the reach (worked out step
    by step, every restriction applied) is the region's cost breakdown, and no region
    outside the reach has one."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in finished_games(rules, 2, players):
        engine = game._engine
        for s in _positions(game):
            if s.phase is not Phase.CONQUEST or s.acting is None:
                continue
            trial = s.copy()
            engine.legal_actions(trial)
            kept = trial.reach_costs
            if kept is None:
                continue
            race = s.acting
            reach = _general_reach(engine, trial, race)
            assert set(kept) == set(_bits(reach))
            for r in range(engine.n):
                expected = engine.conquest_cost(trial, race, r).value if (reach >> r) & 1 else None
                assert kept.get(r) == expected
                checked += 1
    assert checked > 200
