"""OpenSpiel: ``import smallworld_rules.openspiel`` registers the game ``"python_smallworld"``.

Needs the ``ai`` extra (``pip install "smallworld-rules[ai]"``).

>>> import pyspiel
>>> import smallworld_rules.openspiel
>>> game = pyspiel.load_game("python_smallworld", {"players": 2, "seed": 1})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)
>>> state.action_to_string(state.legal_actions()[0])
'PickCombo(index=0)'

The game is sequential, with imperfect information (the other players' coins and the order
of the combo stacks are secret) and explicit chance: the reinforcement die is a chance node
whose outcomes are the faces ``0 … 3`` with their probabilities; with an expansion whose
rules draw face-down pieces (``draw``), so is each draw, whose outcomes ``4, 5, …`` are the
kinds of the bag (the action space's ``draw_kinds``, in order), each with its supply's share
of the bag. Parameters:

* ``players`` (2): the number of players;
* ``map`` (``""``): a map name, ``""`` for the official map of the player count;
* ``expansions`` (``""``): comma-separated expansion ids (those of ``sw.available_expansions()``);
* ``seed`` (0): seeds the shuffle of the combo stacks (and the badge reshuffles).

Player actions are the indices of the fixed action space (:mod:`smallworld_rules.action_space`)
of the set-up; ``num_distinct_actions()`` is its size. Rewards come at the end only: each
winner scores ``1 / number of winners`` (a shared first place shares the point; the
tie-break on tokens on the map is the engine's), everyone else 0 — a constant-sum game.

Observations: ``observation_string``/``observation_tensor`` are the player's view
(``smallworld_rules.tensors``), ``information_state_string`` adds the history of actions
(every action is public but a draw of a face-down piece for another player's race,
shown as ``-1``), ``information_state_tensor`` is the player's view
tensor too (everything a player knew earlier is on the board or in the market now, but for
the others' scoring, which the game keeps secret). An observer made with
``private_info=ALL_PLAYERS`` is the perfect-information view, with ``NONE`` the public one.
"""

from __future__ import annotations

import json
from typing import Any, Final

import numpy as np
import pyspiel

import smallworld_rules as sw
from smallworld_rules.action_space import ActionSpace, action_space
from smallworld_rules.actions import DrawPiece, RollDie
from smallworld_rules.engine import DIE_FACES
from smallworld_rules.language import hidden_pieces
from smallworld_rules.tensors import encode, tensor_layout, viewed_observation, winner_shares

#: The parameters and their defaults.
DEFAULT_PARAMS: Final[dict[str, Any]] = {"players": 2, "map": "", "expansions": "", "seed": 0}
#: The chance outcome of the first ``DrawPiece`` (those of ``RollDie`` are the die's faces).
_FIRST_DRAW: Final = max(DIE_FACES) + 1
#: The most players a game may have (an expansion's role takes a seat beyond the maps' five).
MAX_PLAYERS: Final = 6

_GAME_TYPE = pyspiel.GameType(
    short_name="python_smallworld",
    long_name="Python Small World",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=DEFAULT_PARAMS,
)


def new_game(params: dict[str, Any]) -> sw.Game:
    """The :class:`~smallworld_rules.Game` a parameter set starts (``chance="explicit"``)."""
    expansions = [e for e in str(params.get("expansions", "")).split(",") if e]
    return sw.Game.new(
        players=int(params.get("players", 2)),
        seed=int(params.get("seed", 0)),
        rules=sw.load_rules(expansions=expansions),
        map=str(params.get("map", "")) or None,
        chance="explicit",
    )


def max_game_length(game: sw.Game, space: ActionSpace) -> int:
    """A generous bound on the actions of a game: per turn, each region abandoned, conquered
    and attempted with a die roll once, the tokens of the active race and of every defender
    placed one at a time, every piece placed once, and 20 more (picks, declines, purchases,
    abilities without a piece)."""
    regions = len(game.map.regions)
    pieces = sum(piece.supply for piece in game.rules.pieces.values())
    per_turn = 4 * regions + (game.players + 1) * space.deploy_cap + pieces + 20
    return game.map.turns * game.players * per_turn


class SmallWorldGame(pyspiel.Game):  # type: ignore[misc]
    """``"python_smallworld"``: the set-up of the parameters (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULT_PARAMS, **(params or {})}
        self.first = new_game(params)
        self.space = action_space(self.first)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=_FIRST_DRAW + len(self.space.draw_kinds),
            num_players=self.first.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(self.first, self.space),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> SmallWorldState:
        """The start of the game."""
        return SmallWorldState(self, self.first.clone())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SmallWorldObserver:
        """An observer (strings and tensors) of the kind asked for."""
        return SmallWorldObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class SmallWorldState(pyspiel.State):  # type: ignore[misc]
    """A position: a :class:`~smallworld_rules.Game` played with ``chance="explicit"``."""

    def __init__(self, game: SmallWorldGame, played: sw.Game) -> None:
        super().__init__(game)
        self._held = _Held(played, game.space)

    @property
    def game(self) -> sw.Game:
        """The position, as a :class:`~smallworld_rules.Game`."""
        return self._held.game

    @property
    def _space(self) -> ActionSpace:
        return self._held.space

    def current_player(self) -> int:
        """The player to act, ``CHANCE`` at a die roll, ``TERMINAL`` at the end."""
        if self.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        mover = self.game.to_move
        assert mover is not None
        return int(pyspiel.PlayerId.CHANCE) if mover == sw.CHANCE else mover

    def _legal_actions(self, player: int) -> list[int]:
        return self._space.legal_indices(self.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The die's faces (or the kinds of face-down piece left in the bag) with their
        probabilities."""
        return [(self._chance_id(a), p) for a, p in self.game.chance_outcomes()]

    def _chance_id(self, action: RollDie | DrawPiece) -> int:
        if isinstance(action, RollDie):
            return action.face
        return _FIRST_DRAW + self._space.draw_kinds.index(action.kind)

    def _chance_action(self, outcome: int) -> RollDie | DrawPiece:
        kinds = self._space.draw_kinds
        if _FIRST_DRAW <= outcome < _FIRST_DRAW + len(kinds):
            return DrawPiece(kinds[outcome - _FIRST_DRAW])
        return RollDie(outcome)

    def _apply_action(self, action: int) -> None:
        if self.game.to_move == sw.CHANCE:
            self.game.apply(self._chance_action(int(action)))
        else:
            self.game.apply(self._space.action(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return repr(self._chance_action(int(action)))
        return repr(self._space.action(int(action)))

    def history_seen_by(self, player: int | None) -> list[int]:
        """The actions so far as ``player`` knows them (``None``: everything, ``-1``: the
        public view): a face-down piece drawn for another player's race is ``-1`` (which
        kind came out of the bag is his secret)."""
        if player is None or not self._space.draw_kinds:
            return list(self.history())
        unseen = hidden_pieces.seen_by(self.game._engine, self.game._state, player)
        hidden = {_FIRST_DRAW + i for i, kind in enumerate(self._space.draw_kinds)
                  if kind in unseen}
        seen = []
        chance = int(pyspiel.PlayerId.CHANCE)
        for item in self.full_history():
            secret = item.player == chance and item.action in hidden
            seen.append(-1 if secret else item.action)
        return seen

    def is_terminal(self) -> bool:
        """Whether the last turn has been played."""
        return self.game.is_over

    def returns(self) -> list[float]:
        """1 / number of winners for each winner, 0 for the others; 0 before the end."""
        return winner_shares(self.game)

    def __str__(self) -> str:
        return self.game.to_json()


class _Held:
    """The game inside an OpenSpiel state, and its action space.

    OpenSpiel clones a Python state by deep-copying its attributes: the game is cloned
    (the engine and the space are shared, never copied). It pickles them for its
    serialisation: the game travels as its JSON.
    """

    __slots__ = ("game", "space")

    def __init__(self, game: sw.Game, space: ActionSpace) -> None:
        self.game = game
        self.space = space

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game.clone(), self.space)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _unpickle, (self.game.to_json(),)


def _unpickle(text: str) -> _Held:
    game = sw.Game.from_json(text)
    return _Held(game, action_space(game))


class SmallWorldObserver:
    """Strings and tensors of one view (OpenSpiel's Python observer interface).

    ``private_info``: ``SINGLE_PLAYER`` is the player's view, ``ALL_PLAYERS`` the perfect
    view, ``NONE`` the public view; ``perfect_recall`` adds the history of actions to the
    string.
    """

    def __init__(self, game: SmallWorldGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            self.view = "perfect"
        elif private == pyspiel.PrivateInfoType.NONE:
            self.view = "public"
        else:
            self.view = "player"
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.layout = tensor_layout(game.first, self.view)
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict: dict[str, Any] = {}
        offset = 0
        for name, shape in self.layout.sections:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset:offset + size].reshape(shape)
            offset += size

    def set_from(self, state: SmallWorldState, player: int) -> None:
        """Fill ``tensor`` (and the ``dict`` views of it) for ``player``."""
        observation, stacks = viewed_observation(state.game, player, self.view)
        self.tensor[:] = encode(observation, stacks, layout=self.layout)

    def string_from(self, state: SmallWorldState, player: int) -> str:
        """The view as compact JSON (with ``"history"``: the action indices, if perfect
        recall)."""
        observation, stacks = viewed_observation(state.game, player, self.view)
        if stacks is not None:
            observation["stacks"]["race_stack"], observation["stacks"]["power_stack"] = stacks
        if self.perfect_recall:
            seer = {"perfect": None, "public": -1}.get(self.view, player)
            observation["history"] = state.history_seen_by(seer)
        return json.dumps(observation, sort_keys=True, separators=(",", ":"))


pyspiel.register_game(_GAME_TYPE, SmallWorldGame)
