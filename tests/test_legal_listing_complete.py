"""The legal actions are the whole of what ``apply`` accepts.

``legal_actions`` is what a bot or a learning agent chooses from: an action that ``apply``
accepts but the listing leaves out is a move no such player can ever make. The one
documented exception is a Deploy, listed as 1 token and as all of them per region (any
count between is accepted, and is the same move made in steps).

The check runs over the whole fixed action space of the game (every index, through
``is_legal``) at positions of seeded random games, for the official rules, every folder of
test rule files, each expansion box alone and every box together.
"""

from __future__ import annotations

import random

import pytest
from helpers import rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.action_space import action_space

RULE_SETS = rule_sets(each_box=True)


def _unlisted(game: sw.Game) -> list[sw.Action]:
    """The actions of the action space ``is_legal`` accepts now that the listing lacks (a
    Deploy of a count between 1 and all aside), and those listed that it refuses."""
    legal = set(game.legal_actions())
    wrong: list[sw.Action] = []
    for i in range(action_space(game).size):
        action = game.action_at(i)
        listed = action in legal
        if type(action) is sw.Deploy and not listed and sw.Deploy(action.region, 1) in legal:
            continue  # (listed as 1 and all: a count between is the same move in steps)
        if game.is_legal(action) is not listed:
            wrong.append(action)
    return wrong


@RULE_SETS
def test_whatever_apply_accepts_is_listed(how: dict[str, object]) -> None:
    """Every action of the action space is listed by ``legal_actions`` exactly when
    ``is_legal`` (``apply``) accepts it, at every third position of two seeded random
    games (Deploys of a count between 1 and all aside)."""
    rules, players = rules_and_players(how)
    checked = 0
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        choose = random.Random(seed)
        step = 0
        while not game.is_over:
            if step % 3 == 1:
                assert _unlisted(game) == [], f"seed {seed}, move {step}, {game.phase}"
                checked += 1
            options = list(game.legal_actions())
            game.apply(options[choose.randrange(len(options))])
            step += 1
    assert checked > 20


def test_ending_a_first_round_of_conquests_is_listed() -> None:
    """Marauding (two rounds of conquests in a turn): ending the first round with tokens
    still in hand is accepted by ``apply``, so ``legal_actions`` lists EndTurn then too
    (it was left out: a random or learning player could never end a first round early)."""
    from helpers import new_game

    rules = sw.load_rules(expansions=["cursed"])
    game = new_game(rules, [("ratmen", "marauding"), ("humans", "alchemist")])
    game.apply(sw.PickCombo(0))
    game.apply(next(a for a in game.legal_actions() if isinstance(a, sw.Conquer)))
    assert game.hand(0) > 0 and game.is_legal(sw.EndTurn())
    assert sw.EndTurn() in game.legal_actions()
    game.apply(sw.EndTurn())
    assert game.phase is sw.Phase.CONQUEST  # the second round
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.EndTurn())  # its end asks for the tokens in hand to be placed first
