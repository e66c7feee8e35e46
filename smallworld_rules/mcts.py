"""A search bot: information-set Monte Carlo tree search (``smallworld play --bots mcts``).

:class:`MCTSBot` sees only its player's observation. It fills the secrets in with guesses
(:func:`~smallworld_rules.observation.game_from_observation`: the unseen order of the stacks
and the other players' coins) a few times over — the *determinizations* — and grows one tree
of actions over all of them (single-observer information-set MCTS): simulation ``k`` plays
on determinization ``k mod d``. Inside the tree, UCT picks the decisions of every player
(each for itself) and the die is drawn with its probabilities (``chance_outcomes()``); from
a new leaf a quick playout policy plays on until the end of the bot's next turn (see
``horizon``), and the position is valued by the coins each player gained since the root plus
:data:`REGION_WEIGHT` per region held (what next turn is likely to score). A simulation
applies actions on its determinization and takes them back with ``undo``, so no game is
copied per simulation.

>>> import smallworld_rules as sw
>>> from smallworld_rules.bots import RandomBot, play_game
>>> game = sw.Game.new(players=2, seed=3)
>>> game = play_game(game, [MCTSBot(seed=1, simulations=8), RandomBot(2)])
>>> game.is_over
True

The same seed, simulation count and observations give the same choices.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from smallworld_rules.actions import (
    Action,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    DrawPiece,
    EndTurn,
    PickCombo,
    RollDie,
)
from smallworld_rules.errors import RulesError
from smallworld_rules.game import CHANCE, Game
from smallworld_rules.observation import Observation, ObservedRules, game_from_observation
from smallworld_rules.rules import Rules
from smallworld_rules.state import Phase

#: Simulations per decision by default.
SIMULATIONS: Final = 100
#: Determinizations per decision by default (each simulation uses one, in turn).
DETERMINIZATIONS: Final = 4
#: UCT's exploration constant (values lie in -1 … 1).
EXPLORATION: Final = 0.7
#: Value of a region held at the horizon, in coins (next turn's likely income).
REGION_WEIGHT: Final = 0.5
#: A difference of this many coins between two players is worth about 0.76 (``tanh(1)``).
COIN_SCALE: Final = 8.0
#: A safety limit on the actions of one playout.
_PLAYOUT_LIMIT: Final = 400


class _Node:
    """Statistics of one action sequence from the root (the same for every determinization)."""

    __slots__ = ("children", "value", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.value = [0.0] * players  # summed rewards of each player


class MCTSBot:
    """Information-set Monte Carlo tree search over determinizations (see the module).

    Args:
        seed: seeds the determinizations, the die draws and the playouts.
        rules: the rules of the games it plays (default: the official rules plus the
            expansions its observations name).
        simulations: simulations per decision (a decision with one legal action takes none).
        determinizations: how many guesses of the secrets a decision searches over.
        horizon: turns (of any player) a simulation looks ahead of the current one; the
            default, ``None``, is one more than the number of players: to the end of the
            bot's next turn, so that a decline is valued with the fresh race it brings.
        exploration: UCT's exploration constant.
    """

    name: Final = "mcts"

    def __init__(
        self,
        seed: int = 0,
        rules: Rules | None = None,
        simulations: int = SIMULATIONS,
        determinizations: int = DETERMINIZATIONS,
        horizon: int | None = None,
        exploration: float = EXPLORATION,
    ) -> None:
        for label, value in (("simulations", simulations), ("determinizations",
                                                             determinizations)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RulesError(f"{label} must be a whole number ≥ 1, not {value!r}")
        self._rng = random.Random(seed)
        self._rules_for = ObservedRules(rules)
        self.simulations = simulations
        self.determinizations = determinizations
        self.horizon = horizon
        self.exploration = exploration

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The most visited of ``legal_actions`` after the search (see the class)."""
        actions = list(legal_actions)
        if not actions:
            raise RulesError("there is no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        rules = self._rules_for(observation)
        worlds = [
            game_from_observation(
                observation, rules, seed=self._rng.getrandbits(32), chance="explicit"
            )
            for _ in range(min(self.determinizations, self.simulations))
        ]
        players = worlds[0].players
        horizon = self.horizon if self.horizon is not None else players + 1
        start = _turn_number(worlds[0]) + horizon
        root = _Node(players)
        for k in range(self.simulations):
            self._simulate(root, worlds[k % len(worlds)], start)
        best, best_visits = actions[0], -1
        for action in actions:  # the first of the most visited, in the given order
            child = root.children.get(action)
            if child is not None and child.visits > best_visits:
                best, best_visits = action, child.visits
        return best

    # ------------------------------------------------------------------ one simulation

    def _simulate(self, root: _Node, game: Game, stop: int) -> None:
        path = [root]
        movers: list[int] = []  # who chose the move into path[i + 1] (CHANCE for the die)
        applied = 0
        node = root
        rng = self._rng
        baseline = [game.coins(p) for p in range(game.players)]
        try:
            expanded = False
            while not game.is_over and _turn_number(game) < stop and not expanded:
                mover = game.to_move
                assert mover is not None
                if mover == CHANCE:
                    action: Action = _draw(game, rng)
                else:
                    legal = list(game.legal_actions())
                    untried = [a for a in legal if a not in node.children]
                    if untried:
                        action = untried[rng.randrange(len(untried))]
                        expanded = True
                    else:
                        action = self._uct(node, legal, mover)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(game.players)
                game.apply(action)
                applied += 1
                path.append(child)
                movers.append(mover)
                node = child
            applied += _playout(game, stop, rng)
            reward = _value(game, baseline)
        finally:
            for _ in range(applied):
                game.undo()
        for visited in path:
            visited.visits += 1
            totals = visited.value
            for p, r in enumerate(reward):
                totals[p] += r

    def _uct(self, node: _Node, legal: list[Action], mover: int) -> Action:
        log_n = math.log(max(1, node.visits))
        best, best_score = legal[0], -math.inf
        for action in legal:
            child = node.children[action]
            score = child.value[mover] / child.visits + self.exploration * math.sqrt(
                log_n / child.visits
            )
            if score > best_score:
                best, best_score = action, score
        return best


def _turn_number(game: Game) -> int:
    """Turns played before the current one, counting every player's turns."""
    return game.round * game.players + game.active_player


def _draw(game: Game, rng: random.Random) -> RollDie | DrawPiece:
    outcomes = game.chance_outcomes()
    pick = rng.random()
    for action, probability in outcomes:
        pick -= probability
        if pick < 0:
            return action
    return outcomes[-1][0]


def _playout(game: Game, stop: int, rng: random.Random) -> int:
    """Play the quick policy until the turn ``stop`` begins or the game ends; the number of
    actions applied. The policy: in a pick, a random combo of the first three; in the
    conquests, one of the cheapest conquests while one is affordable, then (half the time) a
    die attempt; then the whole hand on one random region and the end of the turn."""
    applied = 0
    while applied < _PLAYOUT_LIMIT and not game.is_over and _turn_number(game) < stop:
        if game.to_move == CHANCE:
            game.apply(_draw(game, rng))
        else:
            game.apply(_quick(game, list(game.legal_actions()), rng))
        applied += 1
    return applied


def _quick(game: Game, legal: list[Action], rng: random.Random) -> Action:
    if game.phase is Phase.PICK:
        picks = [a for a in legal if isinstance(a, PickCombo) and a.index < 3]
        if picks:
            return picks[rng.randrange(len(picks))]
        return legal[rng.randrange(len(legal))]
    conquests = [a for a in legal if isinstance(a, Conquer)]
    if conquests:  # the cheapest, to conquer the most regions (a random one of them)
        costs = [game.conquest_cost(a.region) for a in conquests]
        cheapest = min(costs)
        conquests = [a for a, cost in zip(conquests, costs, strict=True) if cost == cheapest]
        return conquests[rng.randrange(len(conquests))]
    attempts = [a for a in legal if isinstance(a, ConquerWithDie)]
    if attempts and rng.random() < 0.5:
        return attempts[rng.randrange(len(attempts))]
    deploys: list[Deploy] = []
    most = 0
    for a in legal:
        if isinstance(a, EndTurn):
            return a
        if isinstance(a, Deploy):
            if a.count > most:
                deploys, most = [a], a.count
            elif a.count == most:
                deploys.append(a)
    if deploys:
        return deploys[rng.randrange(len(deploys))]
    rest = [a for a in legal if not isinstance(a, Conquer | ConquerWithDie | Decline)]
    pool = rest or legal
    return pool[rng.randrange(len(pool))]


def _value(game: Game, baseline: list[int]) -> list[float]:
    """Each player's reward in -1 … 1: its score (coins gained since the root, plus
    :data:`REGION_WEIGHT` per region held) against the best score of the others."""
    players = game.players
    held = [0] * players
    if not game.is_over:
        races = game._state.races
        for occupant in game._state.region_race:
            banner = races.get(occupant) if occupant is not None else None
            if banner is not None:
                held[banner.owner] += 1
    scores = [
        game.coins(p) - baseline[p] + REGION_WEIGHT * held[p] for p in range(players)
    ]
    rewards = []
    for p in range(players):
        best_other = max(scores[q] for q in range(players) if q != p)
        rewards.append(math.tanh((scores[p] - best_other) / COIN_SCALE))
    return rewards
