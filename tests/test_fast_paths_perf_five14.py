"""Pass 14c (the 5-player map, instructions per action): what it made cheaper must answer
exactly as before.

* The rows of ``Deploy(r, n)`` an engine makes when it is built (``core._DEPLOYS_MADE``)
  are the shared actions ``legal_actions`` handed out before, made on first listing, and
  a count beyond them is still made on demand.
"""

from __future__ import annotations

import pytest

import smallworld_rules as sw
from smallworld_rules.actions import Deploy
from smallworld_rules.engine import core
from smallworld_rules.engine.basics import _WELL_FORMED, _region_deploys, _shared


@pytest.mark.parametrize("players", [2, 5])
def test_deploy_rows_made_with_the_engine_are_the_shared_actions(players: int) -> None:
    """Each row made with the engine holds, per region, the very ``_shared(Deploy, r, n)``
    (the object ``apply`` knows well formed), for every count below the bound; a count
    above it is made when first asked, as every count was before."""
    game = sw.Game.new(players=players, seed=3)
    engine = game._engine
    assert sorted(engine._all_deploys) == list(range(2, core._DEPLOYS_MADE))
    for count, row in engine._all_deploys.items():
        assert len(row) == engine.n
        for r, action in enumerate(row):
            assert action is _shared(Deploy, r, count)
            assert action == Deploy(r, count)
            assert id(action) in _WELL_FORMED
    big = core._DEPLOYS_MADE + 3
    engine._all_deploys.pop(big, None)  # (an earlier test may have listed it)
    listed = engine._deploys((0, 4), big)
    assert listed == [Deploy(0, 1), Deploy(0, big), Deploy(4, 1), Deploy(4, big)]
    assert listed[1] is _shared(Deploy, 0, big) and listed[3] is _shared(Deploy, 4, big)
    assert engine._all_deploys[big] == _region_deploys(engine.n, big)
