"""Gymnasium: ``import smallworld_rules.gymnasium`` registers
``"smallworld_rules/SmallWorld-v0"``, one learning seat against built-in bots.

Needs the ``ai`` extra (``pip install "smallworld-rules[ai]"``).

>>> import gymnasium as gym
>>> import smallworld_rules.gymnasium
>>> env = gym.make("smallworld_rules/SmallWorld-v0", opponents=["random"])
>>> observation, info = env.reset(seed=1)
>>> sorted(observation), info["seat"]
(['action_mask', 'observation'], 0)

The agent plays seat ``seat`` (0: the first player); the other seats are played by the bots
named in ``opponents`` (:mod:`smallworld_rules.bots`: ``"random"``, ``"greedy"``, ``"mcts"``;
one name for every other seat, or one per seat), each seeded from the episode's seed. A step
plays the agent's action, then every bot move (and die roll, from the game's seeded
generator) until the agent must act again or the game ends.

Observations are dicts: ``"observation"``, the agent's view tensor
(:mod:`smallworld_rules.tensors`, no other player's coins nor the stack order), and
``"action_mask"``, the legal mask of the fixed action space
(:mod:`smallworld_rules.action_space`). The reward comes at the end: ``1 / number of
winners`` if the agent is among the winners, else 0.

**Illegal actions.** With ``illegal="penalty"`` (the default) an action outside the mask
ends the episode at once (``terminated``) with reward ``illegal_penalty`` (-1) and
``info["illegal_action"]`` set, the game left as it was; with ``illegal="raise"`` it raises
:class:`~smallworld_rules.IllegalAction` and nothing changes. A step after the end raises
:class:`~smallworld_rules.RulesError` (call ``reset``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces

import smallworld_rules as sw
from smallworld_rules.action_space import action_space
from smallworld_rules.bots import Bot, make_bot
from smallworld_rules.rules import Rules
from smallworld_rules.tensors import HIGH, observation_tensor, tensor_layout, winner_shares

#: The registered id.
ENV_ID: Final = "smallworld_rules/SmallWorld-v0"
#: The illegal-action policies.
ILLEGAL_POLICIES: Final = ("penalty", "raise")


class SmallWorldEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of Small World against bots (see the module).

    Args:
        players: the number of players.
        seat: the agent's seat.
        opponents: bot names (one for every other seat, or one per other seat in order).
        map: a map name, or ``None`` for the official map of the player count.
        expansions: expansion ids (those of ``sw.available_expansions()``).
        rules: loaded rules (instead of ``expansions``).
        illegal: ``"penalty"`` or ``"raise"`` (see the module).
        illegal_penalty: the reward of an illegal action under ``"penalty"``.
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        RulesError: a bad seat, bot name, policy or render mode.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (as gymnasium.Env)

    def __init__(
        self,
        players: int = 2,
        seat: int = 0,
        opponents: Sequence[str] = ("greedy",),
        map: str | None = None,
        expansions: Sequence[str] = (),
        rules: Rules | None = None,
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise sw.RulesError(f"render_mode is None or 'ansi', not {render_mode!r}")
        if illegal not in ILLEGAL_POLICIES:
            raise sw.RulesError(f"illegal is 'penalty' or 'raise', not {illegal!r}")
        self.render_mode = render_mode
        self._rules = rules if rules is not None else sw.load_rules(expansions=list(expansions))
        self._map = map
        self.game = sw.Game.new(players=players, rules=self._rules, map=map)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise sw.RulesError(f"seat is a player from 0 to {players - 1}, not {seat!r}")
        self.seat = seat
        names = list(opponents)
        if len(names) == 1:
            names *= players - 1
        if len(names) != players - 1:
            raise sw.RulesError(f"{players - 1} opponents need 1 or {players - 1} bot names, "
                                f"not {len(names)}")
        for name in names:
            make_bot(name)  # an unknown name is refused now, not at the first reset
        self._names = names
        self._bots: list[Bot | None] = []
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self._space = action_space(self.game)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, HIGH, (tensor_layout(self.game).size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self._space.size,), np.int8),
        })
        self.action_space = spaces.Discrete(self._space.size)
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game (of ``seed``, or one drawn from the environment's generator) and play
        the bots up to the agent's first decision."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31)) if seed is None else seed
        self.game = sw.Game.new(
            players=self.game.players, seed=game_seed, rules=self._rules, map=self._map
        )
        others = iter(self._names)
        self._bots = [
            None if p == self.seat else make_bot(next(others), game_seed * 100 + p, self._rules)
            for p in range(self.game.players)
        ]
        self._done = False
        self._advance()
        return self._observe(), self._info()

    def _advance(self) -> None:
        """Play the bots (and the die) until the agent must act or the game is over."""
        game = self.game
        while not game.is_over and game.to_move != self.seat:
            mover = game.to_move
            assert mover is not None and mover != sw.CHANCE  # the die is rolled by the game
            bot = self._bots[mover]
            assert bot is not None
            game.apply(bot.choose(game.observation(mover), list(game.legal_actions())))

    def _observe(self) -> dict[str, np.ndarray[Any, Any]]:
        mask = np.zeros(self._space.size, np.int8)
        if self.game.to_move == self.seat:
            mask[self._space.legal_indices(self.game)] = 1
        tensor = np.asarray(observation_tensor(self.game, self.seat), np.float32)
        return {"observation": tensor, "action_mask": mask}

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"seat": self.seat, "round": self.game.round, **extra}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an index), then the bots; see the module for illegal actions.

        Raises:
            IllegalAction: an illegal action with ``illegal="raise"``.
            RulesError: the episode is over (call ``reset``).
        """
        if self._done:
            raise sw.RulesError("the episode is over: call reset()")
        try:
            self.game.apply(self._space.action(int(action)))
        except sw.RulesError:  # IllegalAction, or an index outside the space
            if self.illegal == "raise":
                raise
            self._done = True
            return self._observe(), self.illegal_penalty, True, False, self._info(
                illegal_action=True
            )
        self._advance()
        reward = 0.0
        if self.game.is_over:
            self._done = True
            reward = winner_shares(self.game)[self.seat]
        return self._observe(), reward, self.game.is_over, False, self._info()

    def render(self) -> str | None:
        """The position as text, for ``render_mode="ansi"``."""
        if self.render_mode == "ansi":
            return str(self.game)
        return None


gymnasium.register(id=ENV_ID, entry_point="smallworld_rules.gymnasium:SmallWorldEnv")
