"""Tournaments between bots: many seeded games, on this machine's processes or on Ray.

:func:`run` plays ``games`` games between the named bots and returns a :class:`Tournament`:
each bot's win rate with its 95% Wilson interval, its mean coins and mean rank with their 95%
intervals, the same per seat, and an Elo-style rating. It is what ``smallworld tournament``
runs.

>>> from smallworld_rules import tournament
>>> result = tournament.run(["random", "greedy"], games=2, workers=1)
>>> [g.seats for g in result.games]
[('random', 'greedy'), ('greedy', 'random')]
>>> sorted(result.bot_stats())
['greedy', 'random']

Game ``i`` has the seed ``seed + i``; its seats rotate the bots (seat ``s`` plays bot
``(s + i) % len(bots)``) and the bot in seat ``p`` is seeded ``(seed + i) * 100 + p``, as in
``smallworld play --seed``. So a game's result depends only on its index: the backend, the
number of workers and the order in which games finish change nothing.

**Records.** With ``records=PATH`` every game is written, as it finishes, to a JSON-lines
file: a first line describing the tournament (``"format": "smallworld_rules/tournament"``),
then one line per game, ``{"game": i, "seed": …, "seats": […], "record": {…}}``, where
``record`` is the game's record in the format of :mod:`smallworld_rules.records`
(``smallworld replay PATH`` verifies every one). ``resume=True`` reads the games already in
the file and plays only the others; a last line cut short by an interruption is dropped and
its game played again, so no game is lost or recorded twice.

**Elo-style rating.** Every game counts as a match between each two seats held by different
bots: the better rank (coins, then race tokens on the map: the game's own order) wins, an
equal rank is a draw. The ratings are the Bradley–Terry maximum-likelihood strengths of all
these matches (found by Hunter's minorisation–maximisation iteration, so they do not depend
on the order of the games), with one virtual draw between every two bots so that a bot that
never loses still has a finite rating, on the Elo scale: a difference of 400 points means
10-to-1 odds, and the bots' mean rating is 1500.
"""

from __future__ import annotations

import json
import math
import signal
import statistics
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Final

import attrs

from smallworld_rules.backends import JobFailed, default_workers, execute
from smallworld_rules.bots import BOTS, make_bot, play_game
from smallworld_rules.errors import RulesError
from smallworld_rules.game import Game
from smallworld_rules.records import RecordMismatch, load_record, replay_record, rules_for_record
from smallworld_rules.rules import Rules, load_rules

FORMAT: Final = "smallworld_rules/tournament"
VERSION: Final = 1
_Z95: Final = 1.959964


@attrs.frozen
class RulesSpec:
    """What to load, by name (workers load it themselves: rules are not sent to them).

    ``paths`` are a user's rule files: on a cluster they must exist on every node.
    """

    expansions: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    packs: tuple[str, ...] = ()
    override: bool = False

    def load(self) -> Rules:
        """The rules, loaded once per process."""
        if self not in _LOADED:
            _LOADED[self] = load_rules(
                expansions=self.expansions, paths=self.paths, packs=self.packs,
                override=self.override,
            )
        return _LOADED[self]

    def to_dict(self) -> dict[str, Any]:
        return {
            "expansions": list(self.expansions), "paths": list(self.paths),
            "packs": list(self.packs), "override": self.override,
        }


_LOADED: dict[RulesSpec, Rules] = {}


@attrs.frozen
class Match:
    """One game to play: what a worker is sent."""

    index: int
    seed: int
    seats: tuple[str, ...]
    rules: RulesSpec
    combos: tuple[tuple[str, str], ...] | None = None
    options: tuple[tuple[str, bool | int], ...] = ()
    record: bool = False

    def new_game(self) -> Game:
        return Game.new(
            players=len(self.seats), seed=self.seed, rules=self.rules.load(),
            combos=self.combos, options=dict(self.options),
        )


@attrs.frozen
class GameResult:
    """One game's outcome. ``ranks[p]`` is seat ``p``'s place (1 = a winner; equal places
    share a rank); ``record`` is the game's record when records were asked for."""

    index: int
    seed: int
    seats: tuple[str, ...]
    coins: tuple[int, ...]
    tokens: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    record: dict[str, Any] | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def ranks(self) -> tuple[int, ...]:
        return ranks(self.coins, self.tokens, self.winners)


def ranks(coins: Sequence[int], tokens: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """Each player's place: the winners first (a role can win with fewer coins), then by coins,
    then by race tokens on the map; players equal on both share a place.

    >>> ranks([10, 12, 10], [5, 3, 7], [1])
    (3, 1, 2)
    """
    key = list(zip(coins, tokens, strict=True))
    places = []
    for p in range(len(coins)):
        if p in winners:
            places.append(1)
            continue
        better = sum(1 for q in range(len(coins)) if q not in winners and key[q] > key[p])
        places.append(1 + len(winners) + better)
    return tuple(places)


def schedule(
    bots: Sequence[str],
    games: int,
    players: int,
    seed: int,
    rules: RulesSpec | None = None,
    combos: Sequence[tuple[str, str]] | None = None,
    options: Mapping[str, bool | int] | None = None,
    record: bool = False,
) -> dict[int, Match]:
    """The games of a tournament by index: seeds, rotated seats and what to load.

    Raises:
        RulesError: no games, an unknown bot, or a bad player count, combo or option (the
            first game is set up here to find out before anything is played).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RulesError(f"games must be at least 1, not {games!r}")
    names = list(bots)
    if not names:
        raise RulesError(f"no bot named (known bots: {', '.join(sorted(BOTS))})")
    for name in names:
        if name not in BOTS:
            raise RulesError(f"unknown bot {name!r} (known bots: {', '.join(sorted(BOTS))})")
    spec = rules or RulesSpec()
    fixed = tuple((race, power) for race, power in combos) if combos is not None else None
    matches = {
        i: Match(
            index=i, seed=seed + i, rules=spec, combos=fixed,
            options=tuple(sorted((options or {}).items())), record=record,
            seats=tuple(names[(s + i) % len(names)] for s in range(players)),
        )
        for i in range(games)
    }
    matches[0].new_game()
    return matches


def play_match(match: Match) -> GameResult:
    """Play one tournament game (in a worker)."""
    rules = match.rules.load()
    game = match.new_game()
    bots = [make_bot(name, match.seed * 100 + p, rules) for p, name in enumerate(match.seats)]
    play_game(game, bots, chance_seed=match.seed)
    players = range(game.players)
    return GameResult(
        index=match.index,
        seed=match.seed,
        seats=match.seats,
        coins=tuple(game.coins(p) for p in players),
        tokens=tuple(game.tokens_on_map(p) for p in players),
        winners=tuple(game.winners),
        actions=len(game.action_stack),
        record=game.to_record() if match.record else None,
    )


# ---------------------------------------------------------------------- statistics


def wilson_interval(successes: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``).

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = _Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval (95% for the default ``z``)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def elo_ratings(games: Iterable[GameResult], bots: Sequence[str]) -> dict[str, float]:
    """Elo-style ratings of ``bots`` from the games (the method is in the module's text).

    Two wins of ``a`` over ``b`` and the virtual draw: ``a`` scores 2.5 of 3, odds of 5 to 1,
    400 × log10(5) ≈ 280 points apart:

    >>> g = GameResult(0, 0, ("a", "b"), (9, 5), (3, 3), (0,), 10)
    >>> r = elo_ratings([g, attrs.evolve(g, index=1)], ["a", "b"])
    >>> round(r["a"] - r["b"]), round(r["a"] + r["b"])
    (280, 3000)
    """
    names = list(dict.fromkeys(bots))
    at = {name: i for i, name in enumerate(names)}
    n = len(names)
    score = [0.0] * n
    played = [[0.0] * n for _ in range(n)]
    for i in range(n):  # the prior: one draw between every two bots
        for j in range(i + 1, n):
            score[i] += 0.5
            score[j] += 0.5
            played[i][j] += 1
            played[j][i] += 1
    for game in games:
        places = game.ranks
        for a in range(len(game.seats)):
            for b in range(a + 1, len(game.seats)):
                i, j = at[game.seats[a]], at[game.seats[b]]
                if i == j:
                    continue
                won = 1.0 if places[a] < places[b] else 0.5 if places[a] == places[b] else 0.0
                score[i] += won
                score[j] += 1 - won
                played[i][j] += 1
                played[j][i] += 1
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denominator = sum(
                played[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i
            )
            new.append(score[i] / denominator if denominator else 1.0)
        centre = math.exp(statistics.fmean(math.log(s) for s in new))
        new = [s / centre for s in new]
        change = max(abs(a - b) / b for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    return {name: 1500 + 400 * math.log10(strength[at[name]]) for name in names}


@attrs.frozen
class Stats:
    """A bot's or a seat's results over the tournament (rates are fractions; ``low`` and
    ``high`` bound 95% intervals)."""

    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    coins: float
    coins_low: float
    coins_high: float
    rank: float
    rank_low: float
    rank_high: float

    @classmethod
    def of(cls, wins: int, coins: Sequence[float], places: Sequence[float]) -> Stats:
        n = len(coins)
        low, high = wilson_interval(wins, n)
        return cls(n, wins, wins / n, low, high, *mean_interval(coins), *mean_interval(places))


@attrs.frozen
class Tournament:
    """The games of a tournament (by index) and what they say about the bots."""

    bots: tuple[str, ...]
    players: int
    seed: int
    games: tuple[GameResult, ...]

    def bot_stats(self) -> dict[str, Stats]:
        """Each bot's results over every seat it held."""
        return self._stats(lambda game, seat: game.seats[seat])

    def seat_stats(self) -> dict[int, Stats]:
        """Each seat's results whatever bot held it (the first seat's advantage, say)."""
        return self._stats(lambda game, seat: seat)

    def _stats(self, by: Callable[[GameResult, int], Any]) -> dict[Any, Stats]:
        wins: dict[Any, int] = {}
        coins: dict[Any, list[float]] = {}
        places: dict[Any, list[float]] = {}
        for game in self.games:
            for seat, place in enumerate(game.ranks):
                key = by(game, seat)
                wins[key] = wins.get(key, 0) + (seat in game.winners)
                coins.setdefault(key, []).append(game.coins[seat])
                places.setdefault(key, []).append(place)
        return {key: Stats.of(wins[key], coins[key], places[key]) for key in coins}

    def elo(self) -> dict[str, float]:
        """The bots' Elo-style ratings (see the module's text)."""
        return elo_ratings(self.games, self.bots)

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (what ``smallworld tournament --json`` prints)."""
        elo = self.elo()
        return {
            "games": len(self.games),
            "players": self.players,
            "seeds": [self.seed, self.seed + len(self.games) - 1] if self.games else [],
            "bots": {
                name: {**attrs.asdict(stats), "elo": round(elo[name], 1)}
                for name, stats in self.bot_stats().items()
            },
            "seats": [attrs.asdict(stats) for _, stats in sorted(self.seat_stats().items())],
            "results": [
                {"game": g.index, "seed": g.seed, "seats": list(g.seats), "coins": list(g.coins),
                 "tokens": list(g.tokens), "winners": list(g.winners), "ranks": list(g.ranks)}
                for g in self.games
            ],
        }

    def table(self) -> str:
        """The summary table ``smallworld tournament`` prints."""
        first, last = self.seed, self.seed + len(self.games) - 1
        lines = [
            f"Tournament: {_plural(len(self.games), 'game')} of {self.players} players "
            f"(seeds {first} to {last}), bots {', '.join(dict.fromkeys(self.bots))}",
            f"{'bot':<10} {'seats':>6} {'wins':>6}  {'win rate (95% CI)':<26} "
            f"{'mean coins (95% CI)':<22} {'mean rank':>9} {'Elo':>5}",
        ]
        elo = self.elo()
        for name, stats in self.bot_stats().items():
            lines.append(f"{name:<10} {_row(stats)} {round(elo[name]):>5}")
        lines.append(
            f"{'seat':<10} {'games':>6} {'wins':>6}  {'win rate (95% CI)':<26} "
            f"{'mean coins (95% CI)':<22} {'mean rank':>9}"
        )
        for seat, stats in sorted(self.seat_stats().items()):
            lines.append(f"{'seat ' + str(seat):<10} {_row(stats)}")
        lines.append("Shared wins count as a win for each player sharing them.")
        lines.append("Elo: Bradley-Terry ratings of the pairwise results (mean 1500).")
        return "\n".join(lines)


def _row(stats: Stats) -> str:
    rate = (f"{100 * stats.win_rate:.1f}% ({100 * stats.win_low:.1f}% to "
            f"{100 * stats.win_high:.1f}%)")
    coins = f"{stats.coins:.1f} ({stats.coins_low:.1f} to {stats.coins_high:.1f})"
    return f"{stats.games:>6} {stats.wins:>6}  {rate:<26} {coins:<22} {stats.rank:>9.2f}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ---------------------------------------------------------------------- records


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped the tournament: ``recorded`` of ``total`` games are done (and written to
    ``records`` if there is a file, from which ``resume=True`` carries on)."""

    def __init__(self, recorded: int, total: int, records: Path | None) -> None:
        super().__init__(f"{recorded} of {total} games played")
        self.recorded = recorded
        self.total = total
        self.records = records


def _header(
    bots: Sequence[str], games: int, players: int, seed: int, spec: RulesSpec,
    combos: Sequence[tuple[str, str]] | None, options: Mapping[str, bool | int],
) -> dict[str, Any]:
    return {
        "format": FORMAT, "version": VERSION, "games": games, "players": players, "seed": seed,
        "bots": list(bots), "rules": spec.to_dict(),
        "combos": [list(c) for c in combos] if combos is not None else None,
        "options": dict(sorted(options.items())),
    }


def is_records(text: str) -> bool:
    """Whether ``text`` starts like a tournament's records file (its first line's format)."""
    try:
        first = json.loads(text.split("\n", 1)[0])
    except (ValueError, RecursionError):
        return False
    return isinstance(first, dict) and first.get("format") == FORMAT


def read_records(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]], int]:
    """A records file: (its header or ``None`` if empty, its game lines, the length in bytes
    of its complete lines: a last line cut short by an interruption is not counted).

    Raises:
        RulesError: the file cannot be read, or a complete line is not a tournament's.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RulesError(f"cannot read {path}: {exc.strerror}") from None
    complete = data.rfind(b"\n") + 1
    lines = data[:complete].splitlines()
    try:
        rows = [json.loads(line) for line in lines]
    except (ValueError, RecursionError):
        raise RulesError(f"{path}: not a tournament's records (a line is not JSON)") from None
    if not rows:
        return None, [], complete
    header = rows[0]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RulesError(f"{path}: not a tournament's records (format must be {FORMAT!r})")
    if header.get("version") != VERSION:
        raise RulesError(f"{path}: tournament records version {header.get('version')!r}, "
                         f"expected {VERSION}")
    for number, row in enumerate(rows[1:], 2):
        if (
            not isinstance(row, dict)
            or not isinstance(row.get("game"), int)
            or not isinstance(row.get("seats"), list)
            or not isinstance(row.get("record"), dict)
        ):
            raise RulesError(f"{path}: line {number} is not a game of the tournament")
    return header, rows[1:], complete


def _result_of(row: Mapping[str, Any], path: Path) -> GameResult:
    try:
        record = load_record(row["record"])
        result = record["result"]
        return GameResult(
            index=row["game"], seed=record["seed"], seats=tuple(row["seats"]),
            coins=tuple(result["coins"]), tokens=tuple(result["tokens"]),
            winners=tuple(result["winners"]), actions=len(record["steps"]), record=record,
        )
    except (RulesError, KeyError, TypeError) as exc:
        raise RulesError(f"{path}: game {row.get('game')!r} has a broken record ({exc})") from None


def _resume(path: Path, header: dict[str, Any], matches: Mapping[int, Match]) -> list[GameResult]:
    """The games already in ``path`` (which must describe the same tournament); the file is
    cut back to its complete lines."""
    found, rows, complete = read_records(path)
    if found is None:
        return []
    if found != header:
        changed = sorted(k for k in set(found) | set(header) if found.get(k) != header.get(k))
        raise RulesError(
            f"{path} holds another tournament's records ({', '.join(changed)} differ): "
            "resume with the same options, or use another file"
        )
    done: dict[int, GameResult] = {}
    for row in rows:
        result = _result_of(row, path)
        match = matches.get(result.index)
        if match is None or match.seats != result.seats or match.seed != result.seed:
            raise RulesError(f"{path}: game {result.index} is not one of this tournament's")
        if result.index in done:
            raise RulesError(f"{path}: game {result.index} is recorded twice")
        done[result.index] = result
    with path.open("r+b") as fh:
        fh.truncate(complete)
    return list(done.values())


def _write(fh: IO[str], row: Mapping[str, Any]) -> None:
    fh.write(json.dumps(row, separators=(",", ":")) + "\n")
    fh.flush()


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C held back until the block is done, so that a game is written and counted
    together: an interruption between the two would report one game fewer than the file
    holds. A handler that only notes the signal, not a blocked signal mask: a mask holds
    back only the thread that set it, and the kernel hands a process's SIGINT to any thread
    of it that does not block it (Ray, a test runner and many programs have threads of
    their own). Python runs signal handlers in the main thread only, so elsewhere the
    block runs unguarded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        if came:  # the Ctrl-C that came meanwhile, raised now by the handler it was meant for
            signal.raise_signal(signal.SIGINT)


def verify_records(path: str | Path, paths: Iterable[str | Path] = ()) -> int:
    """Replay every game of a records file, verifying each step; returns how many there are.

    Args:
        path: the records file.
        paths: a user's own rule files the games were played with.

    Raises:
        RulesError: a broken file.
        RecordMismatch: a game that does not replay as recorded (its message names the game).
    """
    path = Path(path)
    _, rows, _ = read_records(path)
    loaded: dict[str, Rules] = {}
    for row in rows:
        try:
            record = load_record(row["record"])
            key = json.dumps([record["rules"].get("expansions"), record["rules"].get("packs")])
            if key not in loaded:
                loaded[key] = rules_for_record(record, paths)
            replay_record(record, loaded[key])
        except RecordMismatch as exc:
            raise RecordMismatch(
                exc.step, f"game {row['game']}: {exc.reason}", exc.rules_changed
            ) from None
        except RulesError as exc:
            raise RulesError(f"{path}: game {row['game']}: {exc}") from None
    return len(rows)


# ---------------------------------------------------------------------- running


class Progress:
    """A one-line progress bar on standard error: ``[#####-----] 12/40 games``."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled

    def show(self, done: int) -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * done // self.total if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if done == self.total else ""
        print(f"\r[{bar}] {done}/{self.total} games", end=end, file=sys.stderr, flush=True)

    def stop(self) -> None:
        if self.enabled:
            print(file=sys.stderr, flush=True)


def run(
    bots: Sequence[str],
    games: int = 20,
    players: int = 2,
    seed: int = 0,
    *,
    rules: RulesSpec | None = None,
    combos: Sequence[tuple[str, str]] | None = None,
    options: Mapping[str, bool | int] | None = None,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    records: str | Path | None = None,
    resume: bool = False,
    progress: bool | None = None,
    retries: int = 3,
    on_game: Callable[[GameResult], None] | None = None,
    _exit_once: Mapping[int, str | Path] | None = None,
) -> Tournament:
    """Play a tournament between bots (see the module's text for seeds, seats and records).

    Args:
        bots: bot names (:data:`~smallworld_rules.bots.BOTS`); seats rotate over them.
        games: how many games.
        players: players per game.
        seed: the first game's seed.
        rules: what to load (default: the official rules).
        combos: fixes the top of every game's market (``Game.new(combos=...)``).
        options: game options (``Game.new(options=...)``).
        backend: ``"local"`` (processes here) or ``"ray"`` (see :mod:`~smallworld_rules.backends`).
        workers: local processes (default: up to 4); Ray: tasks in flight are bounded by it.
        address: the Ray cluster to join (default: a local Ray, or the one already initialised).
        records: a JSON-lines file to write every game to as it finishes.
        resume: carry on from the games already in ``records``.
        progress: a progress bar on standard error (default: when it is a terminal).
        retries: attempts after the first for a game that fails or whose worker is lost.
        on_game: called with each game's result as it finishes (in the order they finish).
        _exit_once: tests only: game indices whose first attempt kills its worker.

    Raises:
        RulesError: a bad argument (unknown bot, expansion, combo, option; a records file of
            another tournament, or one that exists without ``resume``), or a game that failed
            on every attempt (the games finished are kept in ``records``).
        TournamentInterrupted: Ctrl-C (a ``KeyboardInterrupt``); the games finished so far are
            in ``records``.
    """
    if workers is not None and workers < 1:
        raise RulesError(f"workers must be at least 1, not {workers}")
    matches = schedule(bots, games, players, seed, rules, combos, options, records is not None)
    first = matches[0]
    path = Path(records) if records is not None else None
    names = list(bots)
    header = _header(names, games, players, seed, first.rules, first.combos, options or {})
    done: list[GameResult] = []
    if path is None and resume:
        raise RulesError("resume needs the records file of the tournament to resume")
    if path is not None:
        if path.is_dir() or not path.parent.is_dir():
            raise RulesError(f"cannot write the records to {path}: not a file in an existing "
                             "folder")
        if path.exists() and path.stat().st_size and not resume:
            raise RulesError(f"{path} already holds records: resume that tournament, or "
                             "write to another file")
        if path.exists():
            done = _resume(path, header, matches)
    bar = Progress(games, sys.stderr.isatty() if progress is None else progress)
    todo = {i: m for i, m in matches.items() if i not in {g.index for g in done}}
    fh = path.open("a", encoding="utf-8") if path is not None else None
    try:
        if fh is not None and path is not None and not path.stat().st_size:
            _write(fh, header)
        bar.show(len(done))
        if todo:
            results = execute(
                play_match, todo, backend=backend, workers=workers, address=address,
                retries=retries, exit_once=_exit_once,
            )
            try:
                for _, result in results:
                    with _ctrl_c_held():
                        if fh is not None:
                            assert result.record is not None
                            _write(fh, {"game": result.index, "seed": result.seed,
                                        "seats": list(result.seats), "record": result.record})
                        done.append(result)
                    bar.show(len(done))
                    if on_game is not None:
                        on_game(result)
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
    except KeyboardInterrupt:
        if len(done) < games:
            bar.stop()
        raise TournamentInterrupted(len(done), games, path) from None
    except JobFailed as failed:
        bar.stop()
        what = "the workers died" if failed.key is None else f"game {failed.key} failed"
        kept = f"; the {len(done)} games played are in {path}" if path is not None else ""
        raise RulesError(f"{what} {failed.attempts} times: {failed.reason}{kept}") from None
    finally:
        if fh is not None:
            fh.close()
    done.sort(key=lambda g: g.index)
    return Tournament(bots=tuple(names), players=players, seed=seed, games=tuple(done))


__all__ = [
    "GameResult",
    "Match",
    "RulesSpec",
    "Stats",
    "Tournament",
    "TournamentInterrupted",
    "default_workers",
    "elo_ratings",
    "is_records",
    "mean_interval",
    "play_match",
    "ranks",
    "read_records",
    "run",
    "schedule",
    "verify_records",
    "wilson_interval",
]
