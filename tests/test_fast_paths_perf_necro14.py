"""Pass 14a: Necromancer Island per action. A role's first Deploy of a turn and its Conquers
are made in place (``smallworld_rules.in_place``) unless its pairing (its race and every
power it activated) has triggers; what the move gives must be what the forking path gives.

The comparisons use ``play_alongside`` (test_fast_paths_perf_state4): each seeded game is
played twice, as ``Game.apply`` plays it and forced down the forking path, positions and
logs equal after every move, every move made in place exactly when the predicates say.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from test_fast_paths_perf_state4 import made_by_any, play_alongside

import smallworld_rules as sw

#: Necromancer Island alone (no power a role may draft has triggers), and every box
#: together (the role may activate powers with triggers: those moves fork)
ROLE_SETS = pytest.mark.parametrize(
    "how",
    [{"expansions": ["necromancer_island"]}, {"expansions": list(sw.available_expansions())}],
    ids=["necromancer_island", "expansions"],
)


def _role_move(seen: Counter[str]) -> Any:
    """A ``taken_back`` predicate for ``play_alongside``: the role's first Deploy of a turn
    and its Conquers, counted in ``seen`` by kind and by whether its pairing triggers (the
    moves it picks are then expected in place, and taken back and played again)."""

    def pick(game: sw.Game, action: sw.Action) -> bool:
        s = game._state
        engine = game._engine
        if s.acting is None or s.acting != engine.role_race or s.lang:
            return False
        if type(action) is sw.Deploy and s.phase is sw.Phase.CONQUEST:
            kind = "deploy"
        elif type(action) is sw.Conquer and s.phase is sw.Phase.CONQUEST:
            kind = "conquer"
        else:
            return False
        if not engine._triggering.isdisjoint(s.role_powers):
            seen[f"{kind} with triggers"] += 1
            return False
        seen[kind] += 1
        return made_by_any(game, action)

    return pick


@ROLE_SETS
def test_a_role_s_first_deploy_and_conquests_are_made_in_place_as_on_a_fork(
    how: dict[str, object],
) -> None:
    """Rule 1.10 (the conquests end) and rule 1.8 (a conquest) for the Necromancer (rule
    4.3: he conquers like any player) are carried out alike in place and on a fork: every
    first Deploy and Conquer of his that may be made in place was, each is taken back and
    played again; with every box, those of a pairing with triggers fork (and still give
    the same game)."""
    seen: Counter[str] = Counter()
    taken = play_alongside(how, made_by_any, _role_move(seen))
    deploys = [r for a, r, _ in taken if type(a) is sw.Deploy]
    conquers = [r for a, r, _ in taken if type(a) is sw.Conquer]
    assert all(len(r) == 6 for r in deploys)  # the record of a turn's first Deploy
    if how["expansions"] == ["necromancer_island"]:
        assert len(deploys) >= 10 and len(conquers) >= 10, seen
    else:  # fewer turns of his (more seats, other roles' boxes), some with triggers
        assert deploys, seen
        assert seen["deploy with triggers"] and seen["conquer with triggers"], seen
