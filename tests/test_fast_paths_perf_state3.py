"""The fixed cost of every action and the objects the undo history keeps for the cyclic
collector, cut by fast paths that must give exactly what the plain code gives: the conquest
costs ``legal_actions`` leaves on a position (``State.reach_costs``), kept as one object and
dropped once the move played from that position is done.

Each test compares the fast path with the general one on seeded games with the official
rules, every folder of test rule files and every expansion.
"""

from __future__ import annotations

import random

from helpers import rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.engine.conquest import KeptCosts, ReachCosts

#: every folder of test rule files (tests/rules, tests/rules_v3, tests/rules_market …)
RULE_SETS = rule_sets()


@RULE_SETS
def test_a_move_drops_the_costs_its_position_listed(how: dict[str, object]) -> None:
    """Rule 1.7 (a conquest costs 2 tokens plus 1 per token, Mountain and piece there, at
    least 1) is applied alike whether or not the costs ``legal_actions`` worked out for a
    position are still kept. Two games play the same seeded moves: one lists each position
    first (a conquest takes its cost from the listing), the other never lists (every
    conquest is costed in full); they save alike after every move. A move drops the costs
    of the position it was played from (a move taken back by undo leaves it without them),
    unless a clone shares that position: then the costs stay, the same object, for the
    next move from it in either game."""
    rules, players = rules_and_players(how)
    listed = dropped_by_undone = kept_after_clone = dropped = 0
    for seed in range(4):
        count = players[seed % len(players)]
        game = sw.Game.new(players=count, seed=seed, rules=rules)
        plain = sw.Game.new(players=count, seed=seed, rules=rules)
        choose = random.Random(seed)
        move = 0
        while not game.is_over:
            options = list(game.legal_actions())
            position = game._state
            costs = position.reach_costs
            action = options[choose.randrange(len(options))]
            again = False
            if costs is not None:
                listed += 1
                assert costs.engine is game._engine and costs.race == position.acting
                assert type(costs) in (ReachCosts, KeptCosts)
                other = next(
                    (a for a in options if isinstance(a, sw.Conquer | sw.ConquerWithDie)),
                    options[0],
                )
                if move % 3 == 0:  # tried and taken back: played again without the costs
                    game.apply(other)
                    game.undo()
                    assert game._state is position and position.reach_costs is None
                    dropped_by_undone += 1
                    costs = None
                elif move % 3 == 1:  # a clone plays from the same position
                    twin = game.clone()
                    twin.apply(other)
                    assert twin._undo[-3] is position and position.reach_costs is costs
                    kept_after_clone += 1
                    again = True
            game.apply(action)
            plain.apply(action)
            assert game._undo[-3] is position
            assert game._state.reach_costs is None  # the fork's, used by its move
            if again:
                assert position.reach_costs is costs
            else:
                assert position.reach_costs is None
                dropped += costs is not None
            assert game.to_json() == plain.to_json()
            move += 1
    assert listed > 20 and dropped_by_undone > 5 and kept_after_clone > 5 and dropped > 5
