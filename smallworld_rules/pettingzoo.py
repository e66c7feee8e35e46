"""PettingZoo: :func:`env` is an AEC environment of Small World, one agent per player.

Needs the ``ai`` extra (``pip install "smallworld-rules[ai]"``).

>>> from smallworld_rules.pettingzoo import env
>>> environment = env(players=2)
>>> environment.reset(seed=1)
>>> observation, reward, termination, truncation, info = environment.last()
>>> sorted(observation)
['action_mask', 'observation']
>>> environment.agent_selection, int(observation["action_mask"].sum()) > 0
('player_0', True)

Agents are ``"player_0"`` … in seat order; ``agent_selection`` is whoever must act (a defender
placing its tokens after a conquest too). Each agent's observation is a dict: ``"observation"``
is its view tensor (:mod:`smallworld_rules.tensors`, ``float32``: no other player's coins, no
stack order) and ``"action_mask"`` the legal mask of the fixed action space
(:mod:`smallworld_rules.action_space`, ``int8``; all zeros for an agent not to move). The die
is rolled by the game's seeded generator. Rewards come at the end only: each winner gets
``1 / number of winners``, the others 0. An action outside the mask raises
:class:`~smallworld_rules.IllegalAction` and changes nothing.

``reset(seed=s)`` starts the game of seed ``s``; ``reset()`` without a seed plays the next
seed of a sequence drawn from the last seed given (the constructor's ``seed`` at first), so
runs are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import smallworld_rules as sw
from smallworld_rules.action_space import action_space
from smallworld_rules.rules import Rules
from smallworld_rules.tensors import HIGH, observation_tensor, tensor_layout, winner_shares


def env(**kwargs: Any) -> SmallWorldEnv:
    """A new :class:`SmallWorldEnv` (keyword arguments as its constructor's)."""
    return SmallWorldEnv(**kwargs)


class SmallWorldEnv(AECEnv):  # type: ignore[misc]
    """Small World as a PettingZoo AEC environment (see the module).

    Args:
        players: the number of players.
        map: a map name, or ``None`` for the official map of the player count.
        expansions: expansion ids (those of ``sw.available_expansions()``).
        rules: loaded rules (instead of ``expansions``).
        seed: the first game's seed, for a ``reset()`` without one.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the position as text).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "smallworld_v0", "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        map: str | None = None,
        expansions: Sequence[str] = (),
        rules: Rules | None = None,
        seed: int = 0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise sw.RulesError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._rules = rules if rules is not None else sw.load_rules(expansions=list(expansions))
        self._map = map
        self._players = players
        self._seeds = random.Random(seed)
        self.game = self._new_game(seed)
        self._space = action_space(self.game)
        size = tensor_layout(self.game).size
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, HIGH, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self._space.size,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._space.size) for agent in self.possible_agents
        }
        self.agents: list[str] = []

    def _new_game(self, seed: int) -> sw.Game:
        return sw.Game.new(players=self._players, seed=seed, rules=self._rules, map=self._map)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The dict space of ``"observation"`` and ``"action_mask"``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(size of the action space)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (of ``seed``, or the next seed of the sequence)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        else:
            seed = self._seeds.getrandbits(31)
        self.game = self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        mover = self.game.to_move
        if mover is not None:
            self.agent_selection = self.possible_agents[mover]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The agent's view tensor and its action mask."""
        seat = self._seat[agent]
        mask = np.zeros(self._space.size, np.int8)
        if self.game.to_move == seat:
            mask[self._space.legal_indices(self.game)] = 1
        tensor = np.asarray(observation_tensor(self.game, seat), np.float32)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` (an index) for ``agent_selection``.

        Raises:
            IllegalAction: the action is not legal now (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.apply(self._space.action(int(action)))
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_over:
            for agent_id, share in zip(self.agents, winner_shares(self.game), strict=True):
                self.rewards[agent_id] = share
                self.terminations[agent_id] = True
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        """The position as text, for ``render_mode="ansi"``."""
        if self.render_mode == "ansi":
            return str(self.game)
        return None

    def close(self) -> None:
        """Nothing to release."""
