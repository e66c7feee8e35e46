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
    what the player to move sees, as a vector (:func:`encode_move`);
``legal_masks`` (bool, ``T × A``)
    which of the ``A`` actions were legal;
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
``A`` and ``action_names`` (the action of each index, e.g. ``"Conquer 5"``). A file is
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

import attrs

from smallworld_rules.actions import Action
from smallworld_rules.backends import execute
from smallworld_rules.bots import Bot, make_bot, play_game
from smallworld_rules.errors import RulesError
from smallworld_rules.game import Game
from smallworld_rules.observation import Observation
from smallworld_rules.state import Phase
from smallworld_rules.tournament import Match, Progress, RulesSpec, ranks, schedule

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FORMAT: Final = "smallworld_rules/selfplay"
VERSION: Final = 1
_MARKET: Final = 6


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise RulesError(
            "self-play data needs NumPy: pip install 'smallworld-rules[ray]'"
        ) from None
    return numpy


# ---------------------------------------------------------------------- the move encoding
#
# PLACEHOLDER: a small action space and observation vector of this module's own, kept behind
# the one function `encode_move`. It is to be replaced by the library's fixed integer action
# space and observation tensors (`game.action_index`, `game.legal_mask`) when they land; the
# rest of this module only calls `encode_move` and reads `Encoding.size`/`names`.


class Encoding:
    """The action indices and observation layout of one kind of game (rules, map, players).

    Actions: end turn, decline, the market's positions, then per region abandon, conquer and
    conquer with the die, deploy ``0`` to ``box`` tokens (the largest race box), then each
    ability without a target or aimed at each region (or player) number, choosing and buying
    each power, and buying a token.
    """

    def __init__(self, game: Game) -> None:
        rules = game.rules
        regions = range(len(game.map.regions))
        most = max([rd.box for rd in rules.races.values()] + [1])
        abilities = sorted({
            a.name for d in [*rules.races.values(), *rules.powers.values()] for a in d.abilities
        })
        self.races = sorted(rules.races)
        self.powers = sorted(rules.powers)
        self.pieces = sorted(rules.pieces)
        self.terrains = sorted({region.terrain for region in game.map.regions})
        self.players = game.players
        keys: list[tuple[Any, ...]] = [("EndTurn",), ("Decline",)]
        keys += [("PickCombo", i) for i in range(_MARKET)]
        for kind in ("Abandon", "Conquer", "ConquerWithDie"):
            keys += [(kind, r) for r in regions]
        keys += [("Deploy", r, c) for r in regions for c in range(most + 1)]
        for name in abilities:
            keys += [("UseAbility", name, None), *(("UseAbility", name, r) for r in regions)]
        keys += [("ChoosePower", p) for p in self.powers]
        keys += [("Purchase", "token", None), *(("Purchase", "power", p) for p in self.powers)]
        self.index = {key: i for i, key in enumerate(keys)}
        self.names = [" ".join(str(k) for k in key if k is not None) for key in keys]
        self.size = len(keys)
        self.observation_size = len(self.observe(game.observation(0)))

    def action_index(self, action: Action) -> int:
        key = (type(action).__name__, *attrs.astuple(action, recurse=False))
        if key not in self.index:
            raise RulesError(f"the self-play encoding has no index for {action!r}")
        return self.index[key]

    def legal_mask(self, actions: Sequence[Action]) -> NDArray[np.bool_]:
        mask = _numpy().zeros(self.size, dtype=bool)
        mask[[self.action_index(a) for a in actions]] = True
        return mask  # type: ignore[no-any-return]

    def observe(self, seen: Observation) -> list[float]:
        """The vector of what a player sees (seats counted from the player's own)."""
        me = seen["player"]

        def seat(p: int | None) -> list[float]:
            return _one_hot(None if p is None else (p - me) % self.players, self.players)

        phases = [phase.value for phase in Phase]
        out = [seen["round"] / max(1, seen["game"]["turns"]), seen["coins"] / 100.0]
        out += _one_hot(phases.index(seen["phase"]), len(phases)) + seat(seen["to_move"])
        for p in range(self.players):
            view = seen["players"][(me + p) % self.players]
            out += [view["hand"] / 20.0, view["tokens_on_map"] / 20.0,
                    len(view["declined_races"]) / 3.0]
            out += _one_hot(_at(self.races, view["active_race"]), len(self.races))
            out += _one_hot(_at(self.powers, view["active_power"]), len(self.powers))
        for region in seen["regions"]:
            out += [region["tokens"] / 10.0, float(region["declined"]),
                    float(region["lost_tribe"])]
            out += seat(region["owner"]) + _one_hot(
                _at(self.terrains, region["terrain"]), len(self.terrains)
            )
            out += [float(region["pieces"].get(piece, 0)) for piece in self.pieces]
        market = list(seen["market"])[:_MARKET]
        for i in range(_MARKET):
            race, power, coins = market[i] if i < len(market) else (None, None, 0)
            out += _one_hot(_at(self.races, race), len(self.races))
            out += [*_one_hot(_at(self.powers, power), len(self.powers)), coins / 10.0]
        return out


def _one_hot(i: int | None, n: int) -> list[float]:
    return [1.0 if i == k else 0.0 for k in range(n)]


def _at(items: list[str], item: str | None) -> int | None:
    return items.index(item) if item in items else None


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
    vector = numpy.asarray(layout.observe(game.observation(mover)), dtype=numpy.float32)
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
