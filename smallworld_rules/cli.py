"""The ``smallworld`` command (``smallworld --version``; every command has ``--help``).

* ``smallworld play [--players N] [--seed S] [--bots random,greedy,...] [--expansion ID ...]
  [--rules PATH ...] [--combos RACE:POWER,...] [--options NAME=VALUE,...] [--record FILE]
  [--quiet | --json]`` plays a full game between bots and prints it turn by turn (combos,
  conquests with their costs and losses, declines, coins scored), then a final table of coins
  and tokens; ``--record`` writes the game's record, ``--json`` prints one JSON object instead.
  ``--svg-dir DIR`` draws the board after every turn; ``--bots keyboard,greedy`` lets a person
  play a seat at the keyboard (numbered choices with their costs, ``u`` to undo).
* ``smallworld replay FILE [--quiet]`` replays a record (or every game of a tournament's records)
  and verifies every step, saying where
  it diverges (exit status 1 if it does); ``--quiet`` prints nothing but errors;
  ``--html PAGE`` writes a replay viewer.
* ``smallworld check PATH...`` validates rule files (a folder: every file in it), reporting
  every error; ``smallworld fmt PATH...`` rewrites them in the canonical layout.
* ``smallworld show ID`` prints a race's or power's rules text, numbers and source file;
  ``smallworld show map --players N [--svg FILE]`` a board's region key (and picture).
* ``smallworld tournament --games N --players P --bots greedy,random [--workers K]
  [--backend local|ray] [--records FILE [--resume]]`` plays many seeded games in parallel
  (:mod:`smallworld_rules.tournament`), then prints each bot's and seat's win rate, mean coins
  and rank with 95% confidence intervals, and the bots' Elo-style ratings.
* ``smallworld selfplay --games N --out DIR`` writes self-play training data
  (:mod:`smallworld_rules.selfplay`).

Every mistake (an unknown id, bot or option, a bad file) is reported as one line on stderr with
a non-zero exit status (2; 1 for ``check`` errors and diverging records), never a traceback.
The options of every command are described in ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from smallworld_rules import __version__, svg, tournament
from smallworld_rules import events as ev
from smallworld_rules.actions import Action
from smallworld_rules.backends import BACKENDS
from smallworld_rules.bots import BOTS, Bot, make_bot, play_game
from smallworld_rules.cli_args import parse_combos, parse_options
from smallworld_rules.dsl import ast, check, parse_file
from smallworld_rules.dsl.formatter import format_source
from smallworld_rules.dsl.lint import warnings as semantic_warnings
from smallworld_rules.errors import RuleFileError, RulesError
from smallworld_rules.game import Game
from smallworld_rules.htmlview import replay_html
from smallworld_rules.maps import MAP_NAMES, load_map, map_for_players
from smallworld_rules.packs import ENTRY_POINT_GROUP, available_packs
from smallworld_rules.records import (
    RecordMismatch,
    dump_record,
    load_record,
    replay_record,
)
from smallworld_rules.ruledefs import RuleDef
from smallworld_rules.rules import (
    Rules,
    available_expansions,
    id_conflict,
    load_rules,
    rule_files,
)
from smallworld_rules.terminal import play_in_terminal
from smallworld_rules.textboard import seat_name, token_names
from smallworld_rules.tournament import mean_interval, wilson_interval

#: The name in ``--bots`` of a seat played at the keyboard.
KEYBOARD = "keyboard"

__all__ = ["build_parser", "main", "mean_interval", "wilson_interval"]


class _Parser(argparse.ArgumentParser):
    """Reports a bad command line in one line (``smallworld play: error: …``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# ---------------------------------------------------------------------- printing a game


_token_names = token_names
_seat = seat_name


def _zones_line(game: Game) -> str:
    """The expansion's zones as they stand, e.g. ``Pit: 2 (Scouts 1, soul 1) | Den: 3``."""
    names = _token_names(game.rules)
    parts = []
    for zone_id, zone in game.rules.zones.items():
        held = game.zone(zone_id)
        kinds = ", ".join(f"{names.get(k, k)} {n}" for k, n in held.items() if n)
        total = sum(held.values())
        detail = f" ({kinds})" if kinds and zone.role is None else ""
        parts.append(f"{zone.name}: {total}{detail}")
    return " | ".join(parts)


def _describe(game: Game, event: ev.Event) -> str | None:
    """One printed line for a log event (or ``None`` to stay quiet)."""
    races = _token_names(game.rules)

    def name(race: str) -> str:
        return races.get(race, race)

    if isinstance(event, ev.TurnStarted):
        return f"\n== Round {event.round}, {_seat(game, event.player)}"
    if isinstance(event, ev.ComboPicked):
        bits = f"paid {event.paid}" + (f", took {event.collected}" if event.collected else "")
        power = game.rules.powers[event.power].name
        return (
            f"  picks {power} {name(event.race)} from position {event.position} "
            f"({bits}) with {event.tokens} tokens"
        )
    if isinstance(event, ev.Abandoned):
        return f"  abandons region {event.region}"
    if isinstance(event, ev.Conquered):
        line = f"  conquers region {event.region} for {event.cost}"
        if event.tokens != event.cost:
            line += f" (moves in {event.tokens})"
        if event.defender_race is not None:
            who = name(event.defender_race)
            line += f" from {who}"
            if event.defender is not None:
                line += f" of player {event.defender}"
            line += f": {event.lost} lost"
            if event.returned:
                line += f", {event.returned} withdrawn"
        return line
    if isinstance(event, ev.DieRolled) and event.region < 0:  # an ability's roll
        after = "" if event.success else ": nothing is affordable, the conquests end"
        return f"  rolls {event.face} off the next conquest{after}"
    if isinstance(event, ev.DieRolled):
        result = "succeeds" if event.success else "fails"
        return (
            f"  final attempt on region {event.region} (cost {event.cost}, {event.hand} in hand): "
            f"rolls {event.face}, {result}"
        )
    if isinstance(event, ev.Declined):  # a race it displaces has its own RaceRemoved line
        return f"  puts the {name(event.race)} into decline"
    if isinstance(event, ev.RaceRemoved):
        return f"  the {name(event.race)} of player {event.player} leave the map"
    if isinstance(event, ev.Scored):
        parts = ", ".join(f"{name(r)} {c}" for r, c, _ in event.details)
        return f"  scores {_plural(event.coins, 'coin')}" + (f" ({parts})" if parts else "")
    if isinstance(event, ev.AbilityUsed):  # abilities are named in the rule files
        on = ""
        if event.target is not None:
            on = f" on {_target_kind(game, event.race, event.ability)} {event.target}"
        return f"  uses {_ability_name(game, event.race, event.ability)}{on}"
    if isinstance(event, ev.RaceActs):
        readied = f", {_plural(event.readied, 'token')} readied" if event.readied else ""
        return f"  the {name(event.race)} act{readied}"
    if isinstance(event, ev.TokensGained):
        return f"  the {name(event.race)} gain {_plural(event.tokens, 'token')} from the box"
    if isinstance(event, ev.PowerChosen):
        power = game.rules.powers[event.power].name
        if event.price:
            return f"  {_seat(game, event.player)} buys {power} for {_plural(event.price, 'coin')}"
        return f"  {_seat(game, event.player)} activates {power}"
    if isinstance(event, ev.TokenBought):
        return (
            f"  {_seat(game, event.player)} buys a {name(event.race)} token for "
            f"{_plural(event.price, 'coin')}"
        )
    if isinstance(event, ev.Exchanged):
        zone = game.rules.zones[event.zone].name
        taken = ", ".join(name(k) for k in event.taken)
        return f"  the {zone} gives {event.gained} {name(event.race)} for {taken}"
    return None


def _ability_name(game: Game, race: str, ability: str) -> str:
    """How the log names an ability: the race or power whose rule file declares it, then the
    ability as the file writes it, e.g. ``place camp (Outposts)``."""
    rules = game.rules
    owners = [rules.races[race]] if race in rules.races else []
    power = next(
        (game.active_power(p) for p in range(game.players) if game.active_race(p) == race), None
    )
    if power is not None:
        owners.append(rules.powers[power])
    owners += [d for d in rules.powers.values() if d not in owners]
    owner = next((d for d in owners if any(a.name == ability for a in d.abilities)), None)
    words = ability.replace("_", " ")
    return f"{words} ({owner.name})" if owner is not None else words


def _target_kind(game: Game, race: str, ability: str) -> str:
    """``player`` or ``region``: what the race's ability aims at (read from its rule files)."""
    rules = game.rules
    own = [rules.races[race]] if race in rules.races else []  # a role's tokens have no file
    defs = [*own, *rules.powers.values()]
    kinds = {a.target for d in defs for a in d.abilities if a.name == ability}
    return "player" if kinds == {"player"} else "region"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _print_events(game: Game, events: Sequence[ev.Event]) -> None:
    for event in events:
        line = _describe(game, event)
        if line:
            print(line)


def _print_ranking(game: Game) -> None:
    print("\nFinal ranking:")
    for rank, p in enumerate(_ranking(game), 1):
        mark = "  winner" if p in game.winners else ""
        print(
            f"  {rank}. {_seat(game, p)}: {game.coins(p)} coins, "
            f"{_plural(game.tokens_on_map(p), 'token')} on the map{mark}"
        )


def _print_header(
    game: Game, seed: int, market: Sequence[Sequence[object]] | None = None
) -> None:
    """The game's set-up; ``market``: the market at the start, if ``game`` has moved on."""
    rules = game.rules
    print(f"Small World on the {game.map_name} map, {game.players} players, seed {seed}")
    shown = game.market if market is None else market
    print("Market: " + ", ".join(
        f"{rules.powers[str(p)].name} {rules.races[str(r)].name}" for r, p, *_ in shown
    ))
    for role in rules.roles.values():
        print(f"Player {game.players - 1} plays the {role.name} ({role.race.name} tokens)")


# ---------------------------------------------------------------------- options shared


#: What a command loads: (expansions, rule paths, packs, override).
_Spec = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]


def _spec(args: argparse.Namespace) -> _Spec:
    """What to load, from the rule options: (expansions, paths, packs, override)."""
    return (
        tuple(args.expansion or ()),
        tuple(args.rules or ()),
        tuple(args.pack or ()),
        bool(args.override),
    )


def _load(spec: _Spec) -> Rules:
    expansions, paths, packs, override = spec
    return load_rules(expansions=expansions, paths=paths, packs=packs, override=override)


def _player_range(rules: Rules) -> tuple[int, int]:
    """The player counts the official boards seat with these rules (an expansion may set its
    own range and play on the board for fewer players)."""
    fewer = max((e.map_minus for e in rules.expansions.values()), default=0)
    low, high = 2 + fewer, len(MAP_NAMES) + 1 + fewer
    for expansion in rules.expansions.values():
        if expansion.players is not None:
            low, high = max(low, expansion.players[0]), min(high, expansion.players[1])
    return low, high


def _check_players(players: int, rules: Rules) -> None:
    low, high = _player_range(rules)
    if not low <= players <= high:
        names = ", ".join(sorted(e.name for e in rules.expansions.values()))
        with_what = names or "the official boards"
        raise RulesError(f"--players must be from {low} to {high} with {with_what}, not {players}")


def _bot_list(text: str) -> list[str]:
    """``random,greedy`` -> the bot names, each checked."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise RulesError(f"--bots names no bot (known bots: {', '.join(sorted(BOTS))})")
    for name in names:
        if name not in BOTS and name != KEYBOARD:
            known = ", ".join(sorted([*BOTS, KEYBOARD]))
            raise RulesError(f"unknown bot {name!r} (known bots: {known})")
    return names


def _bot_names(text: str, players: int) -> list[str]:
    """``random,greedy`` -> one name per player (a single name plays every seat)."""
    names = _bot_list(text)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise RulesError(
            f"--bots names {len(names)} bots for {players} players: give 1 or {players}"
        )
    return names


def _rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--expansion", action="append", metavar="ID",
        help=f"load an expansion by id (repeatable): {', '.join(available_expansions())}",
    )
    parser.add_argument(
        "--rules", action="append", metavar="PATH", help="extra rule file or folder (repeatable)"
    )
    _pack_options(parser)


def _pack_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pack", action="append", metavar="NAME", help="load an installed rule pack (repeatable)"
    )
    parser.add_argument(
        "--override", action="store_true",
        help="let a file replace a loaded one with the same id",
    )


def _combo_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--combos", metavar="RACE:POWER,...",
        help="fix the top of every game's market: race and power ids, top first",
    )
    parser.add_argument(
        "--options", metavar="NAME=VALUE,...",
        help="game options, each true, false or a whole number (see smallworld show)",
    )


# ---------------------------------------------------------------------- play


def _play(args: argparse.Namespace) -> int:
    if args.record:
        target = Path(args.record)
        if target.is_dir() or not target.parent.is_dir():
            raise RulesError(
                f"cannot write the record to {args.record}: not a file in an existing folder"
            )
    rules = _load(_spec(args))
    _check_players(args.players, rules)
    game = Game.new(
        players=args.players, seed=args.seed, rules=rules,
        combos=parse_combos(args.combos) if args.combos else None,
        options=parse_options(args.options) if args.options else None,
    )
    names = _bot_names(args.bots, game.players)
    quiet = args.quiet or args.json
    bots: list[Bot | None] = [
        None if n == KEYBOARD else make_bot(n, args.seed * 100 + p, rules)
        for p, n in enumerate(names)
    ]
    printed = len(game.log)
    zones = _zones_line(game)
    picture = _pictures(args.svg_dir, game)

    def report(g: Game, action: Action) -> None:
        nonlocal printed, zones
        if not quiet:
            events = g.log[printed:]
            # The zones as the turn leaves them come before the next turn's heading.
            cut = next(
                (i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted)), len(events)
            )
            _print_events(g, events[:cut])
            now = _zones_line(g)
            if now != zones:
                print(f"  [{now}]")
            zones = now
            _print_events(g, events[cut:])
        printed = len(g.log)
        picture(g)

    def rewound(g: Game) -> None:
        nonlocal printed
        printed = len(g.log)

    if not quiet:
        _print_header(game, args.seed)
        print("Bots: " + ", ".join(f"player {p} {n}" for p, n in enumerate(names)))
        if zones:
            print(f"[{zones}]")
        _print_events(game, game.log)
    if KEYBOARD in names:
        if not play_in_terminal(
            game, bots, on_action=report, on_undo=rewound, chance_seed=args.seed
        ):
            return 0
    else:
        play_game(game, [b for b in bots if b is not None], on_action=report,
                  chance_seed=args.seed)
    if not args.json:
        _print_ranking(game)
    if args.record:
        text = dump_record(game.to_record())
        try:
            Path(args.record).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise RulesError(f"cannot write the record to {args.record}: {exc.strerror}") from None
        if not quiet:
            print(f"\nRecord written to {args.record}")
    if args.json:
        print(json.dumps(_summary(game, names, args.record), sort_keys=True))
    return 0


def _ranking(game: Game) -> list[int]:
    """Players from first to last: coins, then tokens on the map (the tie-break), then seat."""
    return sorted(range(game.players), key=lambda p: (-game.coins(p), -game.tokens_on_map(p), p))


def _summary(game: Game, bots: Sequence[str], record: str | None) -> dict[str, object]:
    """What ``play --json`` prints: the set-up and the result, one JSON object."""
    players = range(game.players)
    return {
        "map": game.map_name,
        "players": game.players,
        "seed": game.seed,
        "bots": list(bots),
        "expansions": list(game.rules.expansion_ids),
        "options": game.options,
        "rounds": game.round,
        "coins": [game.coins(p) for p in players],
        "tokens": [game.tokens_on_map(p) for p in players],
        "ranking": _ranking(game),
        "winners": game.winners,
        "record": record,
    }


def _pictures(folder: str | None, game: Game) -> Callable[[Game], None]:
    """``--svg-dir``: a picture of the board when the game starts and after every turn."""
    if folder is None:
        return lambda g: None
    target = Path(folder)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RulesError(f"cannot write pictures to {folder}: {exc.strerror}") from None
    written = [-1]

    def write(g: Game) -> None:
        turn = sum(isinstance(e, ev.TurnStarted) for e in g.log) - 1
        if turn > written[0] or g.is_over:
            name = "end" if g.is_over else f"turn-{turn:03d}"
            (target / f"{name}.svg").write_text(svg.board(g), encoding="utf-8")
            written[0] = turn

    write(game)
    return write


def _show_map(args: argparse.Namespace) -> int:
    """``show map --players N [--svg FILE]``: the region key (and a picture) of a board."""
    game_map = load_map(map_for_players(args.players or 2))
    print(f"The {game_map.name} map: {len(game_map)} regions, {game_map.turns} turns")
    for r in game_map.regions:
        marks = [r.terrain, *sorted(r.features)]
        marks += ["edge"] * r.edge + ["Lost Tribe"] * r.lost_tribe
        print(f"{r.id:4} {', '.join(marks):<38} borders {', '.join(map(str, r.adjacent))}")
    if args.svg:
        _write_text(args.svg, svg.board(game_map), "the picture")
        print(f"picture written to {args.svg}")
    return 0


def _write_text(path: str, text: str, what: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RulesError(f"cannot write {what} to {path}: {exc.strerror}") from None


def _replay_page(args: argparse.Namespace, game: Game) -> None:
    """``replay --html FILE``: the viewer page of the replayed game."""
    if args.html:
        page = replay_html(game, lambda e: _describe(game, e), f"{args.file}: {game.map_name}")
        _write_text(args.html, page, "the replay page")


# ---------------------------------------------------------------------- replay


def _replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise RulesError(f"cannot read {args.file}: {reason}") from None
    if tournament.is_records(text):
        return _replay_tournament(args)
    try:
        record = load_record(text)
    except RulesError as exc:
        raise RulesError(f"{args.file}: {exc}") from None
    named = record["rules"]
    expansions, paths, packs, override = _spec(args)
    rules = load_rules(
        expansions=dict.fromkeys([*named["expansions"], *expansions]),
        packs=dict.fromkeys([*named.get("packs", []), *packs]),
        paths=paths, override=override,
    )
    try:
        game, changed = replay_record(record, rules)
    except RecordMismatch as exc:
        print(f"smallworld: {args.file}: {exc}", file=sys.stderr)
        return 1
    _replay_page(args, game)
    if args.quiet:
        return 0
    _print_header(game, game.seed, record["market"])
    _print_events(game, game.log)
    _print_ranking(game)
    steps = len(record["steps"])
    print(f"\n{args.file}: {_plural(steps, 'step')} replayed, every one as recorded")
    if args.html:
        print(f"replay page written to {args.html}")
    if changed:
        print(
            f"note: rule files changed since the record was made ({', '.join(changed)}), "
            "but the game replays identically"
        )
    return 0


def _replay_tournament(args: argparse.Namespace) -> int:
    """Verify every game of a tournament's records (``tournament --records FILE``)."""
    try:
        games = tournament.verify_records(args.file, args.rules or ())
    except RecordMismatch as exc:
        print(f"smallworld: {args.file}: {exc}", file=sys.stderr)
        return 1
    print(f"{args.file}: {_plural(games, 'game')} replayed, every step as recorded")
    return 0


# ---------------------------------------------------------------------- check


def _given_files(given: Sequence[str]) -> list[str]:
    """The rule files named on the command line: files as given, folders as their ``*.swr``
    files; anything else (a FIFO, a device) is refused before anything is read."""
    files: list[str] = []
    for path in given:
        if Path(path).is_dir():
            files += [str(p) for p in rule_files(path)]
        elif Path(path).exists() and not Path(path).is_file():
            rule_files(path)  # raises: neither a regular file nor a folder
        else:
            files.append(path)
    return list(dict.fromkeys(files))


def _check(args: argparse.Namespace) -> int:
    """Report every error of every file; the files may use each other's pieces and options,
    and the official ones."""
    official = load_rules(packs=tuple(args.pack or ()))
    parsed: dict[str, ast.RuleFile] = {}
    errors: dict[str, list[RuleFileError]] = {}
    files = _given_files(args.files)
    for path in files:
        try:
            parsed[path] = parse_file(path)
            errors[path] = []
        except RuleFileError as exc:
            errors[path] = [exc]
    statements = [st for tree in parsed.values() for st in tree.statements]
    pieces = set(official.pieces) | {s.name for s in statements if isinstance(s, ast.PieceDecl)}
    options = set(official.options) | {
        s.name for s in statements if isinstance(s, ast.OptionDecl)
    }
    for path, tree in parsed.items():
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        errors[path] = check(tree, text, pieces, options)
        conflict = id_conflict(official, tree, text, args.override)
        if conflict is not None:
            errors[path].insert(0, conflict)
        if not errors[path]:  # legal, but surely not meant: warnings (exit status 0)
            most = max((p.tokens for p in official.powers.values()), default=0)
            for warning in semantic_warnings(tree, text, most):
                print(f"warning: {warning}", file=sys.stderr)
    for path in files:
        for error in errors[path]:
            print(error, file=sys.stderr)
        if not errors[path]:
            print(f"{path}: ok")
    return 1 if any(errors.values()) else 0


def _packs(args: argparse.Namespace) -> int:
    found = available_packs()
    if not found:
        print("no rule pack is installed (packs register in the entry-point group "
              f"{ENTRY_POINT_GROUP!r})")
    for pack in found:
        print(f"{pack.name}: {pack.distribution} {pack.version} ({pack.value})")
    return 0


# ---------------------------------------------------------------------- fmt


def _fmt(args: argparse.Namespace) -> int:
    """Print each file in the canonical layout (comments kept); every file is read and
    formatted before any is written, so a broken file changes nothing."""
    formatted: dict[str, tuple[str, str]] = {}
    for path in _given_files(args.files):
        try:
            with open(path, encoding="utf-8") as fh:
                source = fh.read()
        except OSError as exc:
            raise RulesError(f"cannot read {path}: {exc.strerror}") from None
        formatted[path] = (source, format_source(source, path))
    changed = [path for path, (old, new) in formatted.items() if old != new]
    if args.check:
        for path in changed:
            print(f"{path}: not formatted")
        return 1 if changed else 0
    for path in changed:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(formatted[path][1])
        print(f"{path}: formatted")
    return 0


# ---------------------------------------------------------------------- show


def _find(rules: Rules, wanted: str) -> RuleDef:
    """A race, power or expansion by id, else a race or power by display name or alias."""
    try:
        return rules.get(wanted)
    except RulesError:
        pass
    try:
        return rules.find_race(wanted)
    except RulesError as race_error:
        try:
            return rules.find_power(wanted)
        except RulesError:
            raise race_error from None


def _show(args: argparse.Namespace) -> int:
    if args.id == "map":
        return _show_map(args)
    rules = _load(_spec(args))
    rule = _find(rules, args.id)
    print(f"{rule.name} ({rule.kind} {rule.id})")
    numbers = [f"tokens {rule.tokens}"]
    if rule.kind == "race":
        numbers.append(f"box {rule.box}")
    if rule.conquest_tokens:
        numbers.append(f"conquest-only tokens {rule.conquest_tokens}")
    print(", ".join(numbers))
    if rule.aliases:
        print("also called: " + ", ".join(rule.aliases))
    for piece in rule.pieces:
        traits = [f"supply {piece.supply}"]
        if piece.defence:
            traits.append(f"defence {piece.defence}")
        traits += [
            word for flag, word in (
                (piece.immune, "immune"), (piece.survives_decline, "survives decline"),
                (piece.one_per_region, "one per region"),
            ) if flag
        ]
        if piece.loot:
            traits.append(f"loot {piece.loot}")
        print(f"piece {piece.name}: {', '.join(traits)}")
    for option in rule.options:
        print(f"option {option.name} (default {option.default}): {option.text}")
    print(f"source: {rule.path}")
    print()
    print(rule.text)
    try:
        source = Path(rule.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 0
    print(f"\n--- {rule.path} ---")
    print(source.rstrip("\n"))
    return 0


# ---------------------------------------------------------------------- tournament


def _tournament(args: argparse.Namespace) -> int:
    _check_games_options(args)
    if args.resume and not args.records:
        raise RulesError("--resume needs --records FILE, the records of the tournament")
    expansions, paths, packs, override = _spec(args)
    try:
        result = tournament.run(
            _bot_list(args.bots), games=args.games, players=args.players, seed=args.seed,
            rules=tournament.RulesSpec(expansions, paths, packs, override),
            combos=parse_combos(args.combos) if args.combos else None,
            options=parse_options(args.options) if args.options else None,
            backend=args.backend, workers=args.workers, address=args.address,
            records=args.records, resume=args.resume, progress=args.progress,
        )
    except tournament.TournamentInterrupted as stop:
        where = (
            f" in {stop.records}; run the same command with --resume to play the other "
            f"{stop.total - stop.recorded}"
            if stop.records is not None else " (give --records FILE to be able to resume)"
        )
        print(
            f"smallworld: interrupted: {_plural(stop.recorded, 'game')} of {stop.total} "
            f"recorded{where}",
            file=sys.stderr,
        )
        return 130
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result.table())
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    from smallworld_rules import selfplay  # needs NumPy, an optional extra

    _check_games_options(args)
    expansions, paths, packs, override = _spec(args)
    try:
        files = selfplay.generate(
            args.out, games=args.games, players=args.players, seed=args.seed,
            bots=_bot_list(args.bots),
            rules=tournament.RulesSpec(expansions, paths, packs, override),
            combos=parse_combos(args.combos) if args.combos else None,
            options=parse_options(args.options) if args.options else None,
            backend=args.backend, workers=args.workers, address=args.address,
            progress=args.progress,
        )
    except KeyboardInterrupt:
        written = len(list(Path(args.out).glob("game-*[0-9].npz")))
        print(
            f"smallworld: interrupted: {_plural(written, 'game')} of {args.games} written in "
            f"{args.out}; run the same command again to play the others",
            file=sys.stderr,
        )
        return 130
    print(f"{_plural(len(files), 'game')} of self-play data in {args.out}")
    return 0


def _games_options(parser: argparse.ArgumentParser, games: int, bots: str) -> None:
    """Many seeded games, on a backend: tournament's and selfplay's options."""
    parser.add_argument(
        "--games", type=int, default=games, help=f"how many games (default {games})"
    )
    parser.add_argument("--players", type=int, default=2, help="players per game")
    parser.add_argument(
        "--bots", default=bots, metavar="NAMES",
        help=f"comma-separated bots; seats rotate from game to game (default {bots})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument(
        "--workers", type=int, default=None, metavar="K",
        help="local processes (default: up to 4); with --backend ray, the CPUs of the Ray "
        "started for the run, or on a cluster 4 games in flight per K",
    )
    parser.add_argument(
        "--backend", choices=BACKENDS, default="local",
        help="local: processes on this machine (default); ray: tasks on a Ray cluster",
    )
    parser.add_argument(
        "--address", metavar="ADDR",
        help="the Ray cluster to join (default: a Ray started for the run)",
    )
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )


def _check_games_options(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise RulesError(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        raise RulesError(f"--workers must be at least 1, not {args.workers}")
    if args.address is not None and args.backend != "ray":
        raise RulesError("--address is a Ray cluster's: it needs --backend ray")


# ---------------------------------------------------------------------- the parser


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``smallworld``."""
    parser = _Parser(prog="smallworld", description="Small World rules engine.")
    parser.add_argument("--version", action="version", version=f"smallworld {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = sub.add_parser("play", help="play a full game between bots")
    play.add_argument(
        "--players", type=int, default=2,
        help="2 to 5 on the official boards; an expansion may say otherwise, e.g. 3 to 6 "
        "(default 2)",
    )
    play.add_argument("--seed", type=int, default=0, help="seed of the game and the bots")
    play.add_argument(
        "--bots", default="random", metavar="NAMES",
        help=f"one bot for every player, or one per player, comma-separated "
        f"({', '.join(sorted(BOTS))}; default random)",
    )
    _rules_options(play)
    _combo_options(play)
    play.add_argument("--record", metavar="FILE", help="write the game's record to FILE")
    play.add_argument("--quiet", action="store_true", help="print only the final ranking")
    play.add_argument(
        "--json", action="store_true",
        help="print only one JSON object: set-up, coins, tokens, ranking, winners",
    )
    play.add_argument("--svg-dir", metavar="DIR", help="write a picture after every turn")
    play.set_defaults(run=_play)

    replay = sub.add_parser("replay", help="replay a game record and verify every step")
    replay.add_argument("file", metavar="FILE")
    _rules_options(replay)
    replay.add_argument(
        "--quiet", action="store_true",
        help="print nothing but errors (the exit status is the verdict)",
    )
    replay.add_argument("--html", metavar="FILE", help="write a replay viewer page to FILE")
    replay.set_defaults(run=_replay)

    check_cmd = sub.add_parser("check", help="validate rule files")
    check_cmd.add_argument("files", nargs="+", metavar="PATH")
    _pack_options(check_cmd)
    check_cmd.set_defaults(run=_check)

    packs = sub.add_parser("packs", help="list the installed rule packs")
    packs.set_defaults(run=_packs)

    fmt = sub.add_parser("fmt", help="rewrite rule files in the canonical layout")
    fmt.add_argument("files", nargs="+", metavar="PATH")
    fmt.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a file is not formatted"
    )
    fmt.set_defaults(run=_fmt)

    show = sub.add_parser("show", help="print a race's or power's rules and source, or a map")
    show.add_argument("id", metavar="ID", help="a race or power, or 'map'")
    show.add_argument("--players", type=int, help="show map: the board for N players")
    show.add_argument("--svg", metavar="FILE", help="show map: write its picture to FILE")
    _rules_options(show)
    show.set_defaults(run=_show)

    tournament = sub.add_parser("tournament", help="many seeded games between bots")
    _games_options(tournament, 20, "greedy,random")
    tournament.add_argument(
        "--records", metavar="FILE", help="write every game's record to FILE (JSON lines)"
    )
    tournament.add_argument(
        "--resume", action="store_true",
        help="carry on from the games already in --records FILE",
    )
    _combo_options(tournament)
    tournament.add_argument(
        "--json", action="store_true", help="print the results as JSON instead of tables"
    )
    _rules_options(tournament)
    tournament.set_defaults(run=_tournament)

    selfplay = sub.add_parser("selfplay", help="write self-play training data (NumPy .npz)")
    selfplay.add_argument("--out", required=True, metavar="DIR", help="folder for the files")
    _games_options(selfplay, 10, "greedy")
    _combo_options(selfplay)
    _rules_options(selfplay)
    selfplay.set_defaults(run=_selfplay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``smallworld`` console script."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except RulesError as exc:
        print(f"smallworld: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `smallworld play | head`: the reader left; stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


def _one_line(exc: Exception) -> str:
    """The error as one line, except rule-file errors, whose caret context helps."""
    text = str(exc)
    return text if isinstance(exc, RuleFileError) else " ".join(text.split())


if __name__ == "__main__":
    sys.exit(main())
