"""The fast paths of pass 9c (carrying out conquests and deploys at 4 players) give exactly
what the general code gives.

Each test plays seeded random games with the official rules, every folder of test rule
files and every expansion (alone, and all together), and carries out actions on every
position twice: once as the game does, once with the engine's quick answer switched to
the general code. The states (every field, in order), the events and the refusals must be
the same, and the position the action was carried out from must be left as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from helpers import random_positions, rule_sets, rules_and_players
from test_fast_paths_perf_apply2 import _compare

import smallworld_rules as sw
from smallworld_rules.engine.core import Engine
from smallworld_rules.state import LOST_TRIBE

RULE_SETS = rule_sets(each_box=True)


@contextmanager
def _every_region_seized(engine: Engine) -> Iterator[None]:
    """The engine with every conquest sent through ``_seize``, as before ``_conquer``
    took a region no race defends itself (engines are shared: put back after)."""
    kept = engine._quick_seize
    engine._quick_seize = False
    try:
        yield
    finally:
        engine._quick_seize = kept


def _conquests(game: sw.Game) -> list[sw.Action]:
    """Every legal Conquer, and, legal or not, a Conquer of each region the acting race
    holds none of that the listing left out (refused: out of reach, or too dear)."""
    legal = [a for a in game.legal_actions() if isinstance(a, sw.Conquer)]
    s = game._state
    out: list[sw.Action] = list(legal)
    if s.phase is sw.Phase.CONQUEST and s.acting is not None:
        listed = {a.region for a in legal}
        out += [
            sw.Conquer(r)
            for r in range(game._engine.n)
            if r not in listed and s.region_race[r] != s.acting
        ][:3]
    return out


@RULE_SETS
def test_undefended_regions_taken_quickly_are_those_of_the_general_code(
    how: dict[str, Any],
) -> None:
    """Rules 1.7 and 1.8 (the conqueror places the tokens the region costs; nobody loses
    a token from an empty region) and ruling 10 (Lost Tribes are simply discarded): every
    Conquer on every position of seeded games, carried out as games do (a region no race
    defends and no piece holds taken without ``_seize``) and through ``_seize``, gives the
    same state, events and refusals, and leaves the position unchanged."""
    assert _compare(how, _every_region_seized, _conquests) > 100


@pytest.mark.parametrize(
    "how", [{}, {"expansions": ["necromancer_island"]}], ids=["official", "necromancer_island"]
)
def test_the_quick_seizure_is_taken(how: dict[str, Any]) -> None:
    """The comparison above meets the quick seizure: on positions of seeded games a legal
    Conquer of an empty region and one of a Lost Tribe, without pieces, are listed where
    the engine takes them quickly (official rules: many of each; Necromancer Island, whose
    lost tokens go to a zone: empty regions only)."""
    rules, players = rules_and_players(how)
    empty = tribes = 0
    for game in random_positions(rules, 4, players):
        engine, s = game._engine, game._state
        if not engine._quick_seize:
            continue
        for action in game.legal_actions():
            if isinstance(action, sw.Conquer) and not s.pieces.get(action.region):
                occupant = s.region_race[action.region]
                empty += occupant is None
                tribes += occupant == LOST_TRIBE and engine._lost_to_box
    assert empty > 50
    if how:  # lost tokens go to a zone there: a Lost Tribe's conquest takes _seize
        assert tribes == 0
    else:
        assert tribes > 10
