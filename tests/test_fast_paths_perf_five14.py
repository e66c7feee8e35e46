"""Pass 14c (the 5-player map, instructions per action): what it made cheaper must answer
exactly as before.

* The rows of ``Deploy(r, n)`` an engine makes when it is built (``core._DEPLOYS_MADE``)
  are the shared actions ``legal_actions`` handed out before, made on first listing, and
  a count beyond them is still made on demand.
* An EndTurn made in place keeps no token list in its record: undo puts back the tokens
  the next turn's start readied (``State.readied``) and nothing else, which must give the
  very tokens of before, after a readying, a turn that readied nothing, and the game's end.
"""

from __future__ import annotations

import random

import pytest
from helpers import rule_set_table

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


#: the official rules and Necromancer Island: the boxes' turns do not end in place (their
#: turns start with more than readying: ``Engine._plain_turns``)
_SETS = {
    name: how
    for name, how in rule_set_table(necromancer=True).items()
    if name in ("official", "necromancer_island")
}


@pytest.mark.parametrize("how", list(_SETS.values()), ids=list(_SETS))
def test_turn_ends_made_in_place_are_undone_to_the_tokens_of_before(
    how: dict[str, object],
) -> None:
    """Rule 1.6 taken back: at every EndTurn of seeded games that is made in place (its
    record, of 19 or 21 values, is the last entry of the history), the record holds no
    tokens, and ``undo`` gives back the position before it (its save and its token list),
    whether the next turn readied tokens, readied none, or the game ended; the move is then
    played again and the game goes on."""
    rules = sw.load_rules(**how)  # type: ignore[arg-type]
    players = (4, 5) if rules.roles else (2, 5)
    readied = quiet = ended = 0
    for seed in range(3):
        game = sw.Game.new(players=players[seed % 2], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            action = options[choose.randrange(len(options))]
            if type(action) is not sw.EndTurn:
                game.apply(action)
                continue
            before, tokens = game.to_json(), list(game._state.region_tokens)
            game.apply(action)
            record = game._undo[-3]
            if type(record) is tuple:
                assert len(record) in (19, 21) and record[2] is None
                after = game.to_json()
                if game.is_over:
                    ended += 1
                elif game._state.readied:
                    readied += 1
                else:
                    quiet += 1
                game.undo()
                assert game.to_json() == before
                assert game._state.region_tokens == tokens
                game.apply(action)
                assert game.to_json() == after
    assert readied > 5 and quiet > 0 and ended > 0
