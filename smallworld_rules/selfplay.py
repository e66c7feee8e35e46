"""Self-play data: every move of many bot games as NumPy arrays, for training.

:func:`generate` plays ``games`` seeded games between bots (seats, seeds and bot seeds as in
:mod:`smallworld_rules.tournament`, on the same backends) and writes one ``.npz`` file per
game into a folder, with a ``selfplay.json`` describing the run. It is what
``smallworld selfplay`` runs. It needs NumPy (``pip install "smallworld-rules[ray]"``).

>>> import tempfile, numpy as np
>>> from smallworld_rules import selfplay
>>> folder = tempfile.mkdtemp()
>>> files = selfplay.generate(folder, games=1, bots=["random"], workers=1)
>>> data = np.load(files[0])
>>> data["observations"].shape[0] == data["actions"].shape[0] == data["legal_masks"].shape[0]
True
>>> bool(data["legal_masks"][np.arange(len(data["actions"])), data["actions"]].all())
True

**The files.** ``game-000007.npz`` holds game 7 (``np.load`` reads it); ``T`` is the number
of moves players made (chance nodes are not moves), ``P`` the players:

``observations`` (float32, ``T × D``)
    what the player to move sees: the player's view of the observation tensor
    (:func:`smallworld_rules.tensors.observation_tensor`);
``legal_masks`` (bool, ``T × A``)
    which of the ``A`` actions of the fixed action space (:mod:`smallworld_rules.action_space`,
    the numbering ``game.action_index`` and the adapters use) were legal;
``actions`` (int32, ``T``)
    the index of the action taken (always legal in its mask);
``players`` (int8, ``T``)
    the seat that moved;
``outcomes`` (float32, ``T``)
    the mover's final result: 1 for a winner, -1 for the last place, evenly spaced between
    (``1 - 2 (rank - 1) / (P - 1)``);
``coins``, ``tokens``, ``ranks`` (int32, ``P``) and ``winners`` (bool, ``P``)
    the final position;
``seed``, ``game`` (int64) and ``seats`` (str, ``P``)
    the game's seed, its index and the bot in each seat.

``selfplay.json`` holds the run's arguments, ``observation_size`` ``D``, ``action_size``
``A`` and ``action_names`` (the action of each index, e.g. ``"Conquer(region=5)"``). A file is
written whole (a temporary file then renamed), so an interrupted run leaves only complete
games, and running it again with the same arguments plays only the games still missing.
Everything is seeded: the same arguments give the same arrays on either backend.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from smallworld_rules.action_space import action_space
from smallworld_rules.actions import Action
from smallworld_rules.backends import execute
from smallworld_rules.bots import Bot, make_bot, play_game
from smallworld_rules.errors import RulesError
from smallworld_rules.game import Game
from smallworld_rules.observation import Observation
from smallworld_rules.tensors import observation_tensor, tensor_layout
from smallworld_rules.tournament import Match, Progress, RulesSpec, ranks, schedule

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FORMAT: Final = "smallworld_rules/selfplay"
VERSION: Final = 1


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise RulesError(
            "self-play data needs NumPy: pip install 'smallworld-rules[ray]'"
        ) from None
    return numpy


# ---------------------------------------------------------------------- the move encoding


class Encoding:
    """The numbers of one kind of game (rules, map, players): the library's fixed action space
    (:mod:`smallworld_rules.action_space`) and the player's view of the observation tensors
    (:mod:`smallworld_rules.tensors`), so that self-play data and the learning adapters
    (OpenSpiel, PettingZoo, Gymnasium) number actions and observations alike.
    """

    def __init__(self, game: Game) -> None:
        self.space = action_space(game)
        self.layout = tensor_layout(game, "player")
        self.size = self.space.size
        self.names = [repr(self.space.action(i)) for i in range(self.size)]
        self.observation_size = self.layout.size

    def action_index(self, action: Action) -> int:
        return self.space.index(action)

    def legal_mask(self, actions: Sequence[Action]) -> NDArray[np.bool_]:
        return _numpy().asarray(self.space.mask(actions), dtype=bool)  # type: ignore[no-any-return]


_ENCODINGS: dict[tuple[int, str, int], tuple[Any, Encoding]] = {}


def encoding(game: Game) -> Encoding:
    """The :class:`Encoding` of ``game``'s kind of game (built once per process)."""
    key = (id(game.rules), game.map_name, game.players)
    if key not in _ENCODINGS:  # the rules are kept with it, so their id is never reused
        _ENCODINGS[key] = (game.rules, Encoding(game))
    return _ENCODINGS[key][1]


def encode_move(game: Game, action: Action) -> tuple[NDArray[Any], NDArray[np.bool_], int]:
    """The one function the rest of the module uses: (observation vector of the player to
    move, legal mask, index of ``action``) at ``game``'s position, before ``action``."""
    numpy = _numpy()
    layout = encoding(game)
    mover = game.to_move
    assert mover is not None and mover >= 0
    vector = numpy.asarray(observation_tensor(game, mover), dtype=numpy.float32)
    return vector, layout.legal_mask(list(game.legal_actions())), layout.action_index(action)


# ---------------------------------------------------------------------- one game


class _Recorder:
    """A bot that plays as ``bot`` does and records each of its moves, encoded."""

    def __init__(self, bot: Bot, game: Game, moves: list[tuple[Any, Any, int, int]]) -> None:
        self.bot, self.game, self.moves = bot, game, moves

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        action = self.bot.choose(observation, legal_actions)
        vector, mask, index = encode_move(self.game, action)
        self.moves.append((vector, mask, index, observation["player"]))
        return action


def play_selfplay_game(match: Match) -> dict[str, Any]:
    """Play one game (in a worker) and return its arrays (the ``.npz`` file's contents)."""
    numpy = _numpy()
    rules = match.rules.load()
    game = match.new_game()
    moves: list[tuple[Any, Any, int, int]] = []
    bots = [
        _Recorder(make_bot(name, match.seed * 100 + p, rules), game, moves)
        for p, name in enumerate(match.seats)
    ]
    play_game(game, bots, chance_seed=match.seed)
    players = range(game.players)
    coins = [game.coins(p) for p in players]
    tokens = [game.tokens_on_map(p) for p in players]
    places = ranks(coins, tokens, game.winners)
    span = max(1, game.players - 1)
    layout = encoding(game)
    return {
        "observations": numpy.stack([m[0] for m in moves]).astype(numpy.float32)
        if moves else numpy.zeros((0, layout.observation_size), numpy.float32),
        "legal_masks": numpy.stack([m[1] for m in moves]) if moves
        else numpy.zeros((0, layout.size), bool),
        "actions": numpy.asarray([m[2] for m in moves], dtype=numpy.int32),
        "players": numpy.asarray([m[3] for m in moves], dtype=numpy.int8),
        "outcomes": numpy.asarray(
            [1 - 2 * (places[m[3]] - 1) / span for m in moves], dtype=numpy.float32
        ),
        "coins": numpy.asarray(coins, dtype=numpy.int32),
        "tokens": numpy.asarray(tokens, dtype=numpy.int32),
        "ranks": numpy.asarray(places, dtype=numpy.int32),
        "winners": numpy.asarray([p in game.winners for p in players], dtype=bool),
        "seed": numpy.int64(match.seed),
        "game": numpy.int64(match.index),
        "seats": numpy.asarray(match.seats),
    }


# ---------------------------------------------------------------------- many games


def generate(
    folder: str | Path,
    games: int = 10,
    players: int = 2,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    *,
    rules: RulesSpec | None = None,
    combos: Sequence[tuple[str, str]] | None = None,
    options: Mapping[str, bool | int] | None = None,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    retries: int = 3,
    progress: bool | None = None,
) -> list[Path]:
    """Play ``games`` self-play games and write each to ``folder`` (see the module's text).

    Args:
        folder: where the files go (created if missing; it may hold this run's files
            already: the games still missing are played).
        games: how many games.
        players: players per game.
        seed: the first game's seed.
        bots: bot names; seats rotate over them.
        rules: what to load (default: the official rules).
        combos: fixes the top of every game's market.
        options: game options.
        backend: ``"local"`` or ``"ray"``, as for :func:`smallworld_rules.tournament.run`.
        workers: local processes; Ray: tasks in flight are bounded by it.
        address: the Ray cluster to join.
        retries: attempts after the first for a game that fails or whose worker is lost.
        progress: a progress bar on standard error (default: when it is a terminal).

    Returns:
        The files of every game, in game order.

    Raises:
        RulesError: a bad argument, or a folder holding another run's files.
    """
    _numpy()
    matches = schedule(bots, games, players, seed, rules, combos, options)
    first = matches[0].new_game()
    spec, fixed = matches[0].rules, matches[0].combos
    names = list(bots)
    layout = encoding(first)
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise RulesError(f"{out} is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": FORMAT, "version": VERSION, "games": games, "players": players, "seed": seed,
        "bots": names, "rules": spec.to_dict(),
        "combos": [list(c) for c in fixed] if fixed is not None else None,
        "options": dict(sorted((options or {}).items())),
        "observation_size": layout.observation_size, "action_size": layout.size,
        "action_names": layout.names,
    }
    meta_path = out / "selfplay.json"
    if meta_path.exists():
        try:
            found = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            found = None
        if found != meta:
            raise RulesError(f"{out} holds another self-play run's files: use another folder")
    elif any(out.iterdir()):
        raise RulesError(f"{out} is not empty: self-play writes to an empty folder")
    else:
        meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    files = {i: out / f"game-{i:06d}.npz" for i in matches}
    todo = {i: m for i, m in matches.items() if not files[i].exists()}
    numpy = _numpy()
    bar = Progress(games, sys.stderr.isatty() if progress is None else progress)
    written = games - len(todo)
    bar.show(written)
    try:
        for index, arrays in execute(
            play_selfplay_game, todo, backend=backend, workers=workers, address=address,
            retries=retries,
        ):
            partial = files[index].with_suffix(".tmp.npz")
            numpy.savez_compressed(partial, **arrays)
            os.replace(partial, files[index])
            written += 1
            bar.show(written)
    except KeyboardInterrupt:
        bar.stop()
        raise
    return [files[i] for i in sorted(files)]
