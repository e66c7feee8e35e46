"""Bots that choose actions: a small protocol and a seeded uniform random player.

>>> import smallworld_rules as sw
>>> from smallworld_rules.bots import RandomBot, play_game
>>> game = play_game(sw.Game.new(players=2, seed=3), [RandomBot(1), RandomBot(2)])
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from smallworld_rules.actions import Action, RollDie
from smallworld_rules.game import CHANCE, Game


class Bot(Protocol):
    """Anything that picks one of the legal actions of a game."""

    def choose(self, game: Game) -> Action:
        """Return one action from ``game.legal_actions()`` for ``game.to_move``."""


class RandomBot:
    """Uniformly random over the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        actions = list(game.legal_actions())
        return actions[self._rng.randrange(len(actions))]


def sample_chance(game: Game, rng: random.Random) -> RollDie:
    """Draw a chance outcome with its probability (for ``chance="explicit"`` games)."""
    outcomes = game.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


def play_game(
    game: Game,
    bots: Sequence[Bot],
    on_action: Callable[[Game, Action], None] | None = None,
    chance_seed: int = 0,
    max_actions: int = 100_000,
) -> Game:
    """Play ``game`` to its end, asking ``bots[player]`` whenever that player must act.

    ``on_action`` is called after each applied action. Returns the same game.
    """
    chance_rng = random.Random(chance_seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        mover = game.to_move
        action: Action
        if mover == CHANCE:
            action = sample_chance(game, chance_rng)
        else:
            assert mover is not None
            action = bots[mover].choose(game)
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    raise RuntimeError(f"the game did not end within {max_actions} actions")
