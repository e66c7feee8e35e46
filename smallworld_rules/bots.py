"""Bots: players that choose actions, behind one small protocol.

A bot sees what a player at the table sees and nothing more: :meth:`Bot.choose` is given the
player's observation (``game.observation(player)``, see :mod:`smallworld_rules.observation`:
the other players' coins and the order of the stacks are hidden) and the legal actions, and
returns one of them. :func:`play_game` runs a game between bots.

>>> import smallworld_rules as sw
>>> from smallworld_rules.bots import GreedyBot, RandomBot, play_game
>>> game = play_game(sw.Game.new(players=2, seed=3), [RandomBot(1), GreedyBot(2)])
>>> game.is_over
True

Writing a bot takes one method:

>>> class FirstBot:
...     def choose(self, observation, legal_actions):
...         return legal_actions[0]
>>> play_game(sw.Game.new(players=2, seed=3), [FirstBot(), FirstBot()]).is_over
True

A bot that wants to look ahead rebuilds a game from its observation with
:func:`~smallworld_rules.observation.game_from_observation`: the secrets are filled in with
guesses of its own (other players' coins 0, the stacks shuffled by the bot's seed), so it can
``clone`` that game and try actions without knowing anything it should not. :class:`GreedyBot`
does exactly that.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

from smallworld_rules import events as ev
from smallworld_rules.actions import (
    Action,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    DrawPiece,
    EndTurn,
    PickCombo,
    Purchase,
    RollDie,
)
from smallworld_rules.errors import IllegalAction, RulesError
from smallworld_rules.game import CHANCE, Game
from smallworld_rules.mcts import MCTSBot
from smallworld_rules.observation import Observation, ObservedRules, game_from_observation
from smallworld_rules.rules import Rules
from smallworld_rules.state import Phase


class Bot(Protocol):
    """Anything that picks one of the legal actions from what its player may know."""

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Return one of ``legal_actions`` for the player of ``observation``.

        Args:
            observation: ``game.observation(player)`` of the player who must act.
            legal_actions: the legal actions now, in the order of ``game.legal_actions()``.
        """
        ...


class RandomBot:
    """Uniformly random over the legal actions, from its own seeded generator.

    Args:
        seed: seeds the bot's generator (the same seed plays the same moves).
    """

    name: Final = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(
        self, observation: Observation | Game, legal_actions: Sequence[Action] | None = None
    ) -> Action:
        """Pick a legal action uniformly at random.

        Args:
            observation: the player's observation (unused), or a :class:`Game` for short.
            legal_actions: the legal actions (read from the game when a game is given).
        """
        if legal_actions is None:
            if not isinstance(observation, Game):
                raise RulesError("RandomBot.choose needs the legal actions")
            legal_actions = list(observation.legal_actions())
        if not legal_actions:
            raise RulesError("there is no legal action to choose from")
        return legal_actions[self._rng.randrange(len(legal_actions))]


#: Weights of :class:`GreedyBot`'s evaluation (coins scored this turn count 1 each).
HAND_WEIGHT: Final = 0.1  #: per token still in hand during the conquests (cheap conquests)
ENEMY_WEIGHT: Final = 0.5  #: per region taken from another player this turn
TOKEN_WEIGHT: Final = 0.4  #: per token on the map after a pick's turn (the race's strength)
DECLINE_MARGIN: Final = 2.0  #: decline when carrying on would score less than this much more
#: per round still to play, what a purchase (a role's token or power) is expected to bring back
PURCHASE_RETURN: Final = 0.6
_ROLLOUT_LIMIT: Final = 200


class GreedyBot:
    """Picks the action with the best immediate outcome, judged on clones of a rebuilt game.

    The bot rebuilds a game from its observation (:func:`game_from_observation`, its own
    guesses for the secrets), then for each candidate action plays it on a clone and finishes
    the turn plainly (no further conquest): the value is the coins scored this turn, plus a
    little for tokens still in hand (cheap conquests first) and for regions taken from other
    players. A die attempt is valued by the average over the die's faces; a purchase adds
    :data:`PURCHASE_RETURN` per round left to play. Combos are valued by
    a quick turn of cheapest conquests (coins this turn, less the price, plus the tokens the
    race puts on the map). It declines when carrying on would score less than
    :data:`DECLINE_MARGIN` coins more than declining (never in the last round). Tokens are
    spread one at a time to the weakest regions that border someone else.

    Args:
        seed: seeds the bot's guesses and tie-breaks.
        rules: the rules of the games it plays (default: the official rules plus the
            expansions its observations name).
    """

    name: Final = "greedy"

    def __init__(self, seed: int = 0, rules: Rules | None = None) -> None:
        self._rng = random.Random(seed)
        self._rules_for = ObservedRules(rules)

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Pick the legal action with the best immediate outcome (see the class)."""
        actions = list(legal_actions)
        if not actions:
            raise RulesError("there is no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        game = game_from_observation(
            observation, self._rules_for(observation), seed=self._rng.getrandbits(32),
            chance="explicit",
        )
        me = int(observation["player"])
        if game.phase is Phase.PICK:
            return self._pick(game, me, actions)
        if game.phase is Phase.WITHDRAWAL:
            return self._spread(game, me, actions)
        return self._best(game, me, actions)

    # ------------------------------------------------------------------ decisions

    def _pick(self, game: Game, me: int, actions: list[Action]) -> Action:
        best: tuple[float, int] | None = None
        choice = actions[0]
        for i, action in enumerate(actions):
            twin = game.clone()
            start, before = game.coins(me), game.tokens_on_map(me)
            try:
                twin.apply(action)
            except IllegalAction:
                continue
            self._rollout(twin, me, conquer=True)
            value = twin.coins(me) - start + TOKEN_WEIGHT * (twin.tokens_on_map(me) - before)
            if best is None or (value, -i) > best:
                best, choice = (value, -i), action
        return choice

    def _best(self, game: Game, me: int, actions: list[Action]) -> Action:
        """Conquests, abilities, decline: try each; placing tokens is one 'stop' option."""
        stop = [a for a in actions if isinstance(a, Deploy | EndTurn)]
        others = [a for a in actions if not isinstance(a, Deploy | EndTurn)]
        in_conquest = game.phase is Phase.CONQUEST
        stop_value = self._finish_value(game.clone(), me, game.coins(me))
        if in_conquest:
            stop_value += HAND_WEIGHT * game.hand(me)
        best_value, best_action = stop_value, None
        for action in others:
            if isinstance(action, Decline):
                value = self._decline_value(game, me)
            else:
                value = self._value(game, me, action)
            if isinstance(action, Purchase) and value is not None:
                # An investment: its price now against what it brings in the rounds left.
                value += PURCHASE_RETURN * (game.map.turns - game.round + 1)
            if value is not None and value > best_value + 1e-9:
                best_value, best_action = value, action
        if best_action is not None:
            return best_action
        if not stop:
            return others[0]
        return self._spread(game, me, stop)

    def _value(self, game: Game, me: int, action: Action) -> float | None:
        """Coins this turn after ``action`` and a plain finish, plus the small extras."""
        twin = game.clone()
        start, logged = game.coins(me), len(game.log)
        try:
            twin.apply(action)
        except IllegalAction:
            return None
        extra = 0.0
        for event in twin.log[logged:]:
            if isinstance(event, ev.Conquered) and event.defender not in (None, me):
                extra += ENEMY_WEIGHT
        if twin.to_move == CHANCE:  # a die attempt: average over the faces
            total = 0.0
            for roll, probability in twin.chance_outcomes():
                branch = twin.clone()
                branch.apply(roll)
                total += probability * self._finish_value(branch, me, start)
            return total + extra
        if twin.phase is Phase.CONQUEST and twin.active_player == me:
            extra += HAND_WEIGHT * twin.hand(me)
        return self._finish_value(twin, me, start) + extra

    def _decline_value(self, game: Game, me: int) -> float | None:
        """Declining scores its coins, plus the margin a fresh race is worth next turn."""
        if game.round >= game.map.turns or not game.market:
            return None  # no later turn, or no combo to pick after declining
        twin = game.clone()
        start = game.coins(me)
        try:
            twin.apply(Decline())
        except IllegalAction:
            return None
        declined = self._finish_value(twin, me, start)
        carry_on = game.clone()
        self._rollout(carry_on, me, conquer=True)
        if carry_on.coins(me) - start - declined < DECLINE_MARGIN:
            return float("inf")  # a fresh race will do better
        return None

    def _spread(self, game: Game, me: int, actions: Sequence[Action]) -> Action:
        """Place one token on the weakest own region bordering someone else (or end)."""
        ends = [a for a in actions if isinstance(a, EndTurn)]
        deploys = [a for a in actions if isinstance(a, Deploy)]
        if ends and not deploys:
            return ends[0]
        if not deploys:
            return actions[0]
        game_map = game.map

        def exposed(region: int) -> bool:
            for other in game_map.neighbours(region):
                view = game.region(other)
                if view.owner != me and game_map.regions[other].terrain not in ("sea", "lake"):
                    return True
            return False

        def key(action: Deploy) -> tuple[int, int, int, int]:
            view = game.region(action.region)
            return (0 if exposed(action.region) else 1, view.tokens, action.count, action.region)

        return min(deploys, key=key)

    # ------------------------------------------------------------------ finishing a turn

    def _turn_over(self, game: Game, me: int, logged: int) -> bool:
        if game.is_over:
            return True
        return any(
            isinstance(e, ev.TurnEnded) and e.player == me for e in game.log[logged:]
        )

    def _finish_value(self, game: Game, me: int, start: int) -> float:
        """Finish the turn without conquering more; the coins gained since ``start``."""
        self._rollout(game, me, conquer=False)
        return float(game.coins(me) - start)

    def _rollout(self, game: Game, me: int, conquer: bool) -> None:
        """Play out the rest of ``me``'s turn: cheapest conquests if ``conquer``, then place
        every token and end the turn; other players' withdrawals place all at once."""
        logged = len(game.log)
        for _ in range(_ROLLOUT_LIMIT):
            if self._turn_over(game, me, logged):
                return
            mover = game.to_move
            if mover == CHANCE:
                outcomes = game.chance_outcomes()
                game.apply(max(outcomes, key=lambda o: o[1])[0])
                continue
            if mover == me and game.phase is Phase.CONQUEST and conquer:
                conquests = [a for a in game.legal_actions() if isinstance(a, Conquer)]
                if conquests:
                    costs = [(game.conquest_cost(a.region), a.region) for a in conquests]
                    game.apply(Conquer(min(costs)[1]))
                    continue
            if mover == me and self._quick_finish(game, me):
                continue
            game.apply(_plain(list(game.legal_actions())))
        return

    @staticmethod
    def _quick_finish(game: Game, me: int) -> bool:
        """End the turn, or place the whole hand on one own region; False if neither works."""
        try:
            game.apply(EndTurn())
            return True
        except IllegalAction:
            pass
        race = game.active_race(me)
        hand = game.hand(me)
        if race is None or hand < 1:
            return False
        for r in range(len(game.map.regions)):
            view = game.region(r)
            if view.owner == me and view.race == race:
                try:
                    game.apply(Deploy(r, hand))
                    return True
                except IllegalAction:
                    return False
        return False


def _plain(actions: list[Action]) -> Action:
    """A safe default move when finishing a turn: end it, else place the most tokens."""
    for action in actions:
        if isinstance(action, EndTurn):
            return action
    deploys = [a for a in actions if isinstance(a, Deploy)]
    if deploys:
        return max(deploys, key=lambda a: a.count)
    for action in actions:
        if not isinstance(action, Conquer | ConquerWithDie | Decline | PickCombo):
            return action
    return actions[0]


#: The built-in bots by name (``smallworld play --bots random,greedy``).
BOTS: Mapping[str, Callable[..., Any]] = {
    "random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot,
}


def make_bot(name: str, seed: int = 0, rules: Rules | None = None) -> Bot:
    """A built-in bot by name (see :data:`BOTS`).

    Raises:
        RulesError: unknown bot name.
    """
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed, rules)
    if name == "mcts":
        return MCTSBot(seed, rules)
    raise RulesError(f"unknown bot {name!r} (known bots: {', '.join(sorted(BOTS))})")


def sample_chance(game: Game, rng: random.Random) -> RollDie | DrawPiece:
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

    Each bot gets only ``game.observation(player)`` and the legal actions. Chance nodes (with
    ``chance="explicit"``) are drawn from a generator seeded with ``chance_seed``.

    Args:
        game: the game, played in place.
        bots: one bot per player.
        on_action: called with the game and the action after each applied action.
        chance_seed: seeds the draws at chance nodes.
        max_actions: a safety limit.

    Returns:
        The same game, now over.

    Raises:
        IllegalAction: a bot chose an action that is not legal.
        RuntimeError: the game did not end within ``max_actions``.
    """
    if len(bots) != game.players:
        raise RulesError(f"{game.players} players need {game.players} bots, not {len(bots)}")
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
            action = bots[mover].choose(game.observation(mover), list(game.legal_actions()))
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    raise RuntimeError(f"the game did not end within {max_actions} actions")
