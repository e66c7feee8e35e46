"""The ``smallworld`` command.

``smallworld play --players 4 --seed 1`` plays a full game between random bots and prints it
turn by turn; ``smallworld check FILE...`` validates rule files.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from smallworld_rules import events as ev
from smallworld_rules.actions import Action
from smallworld_rules.bots import RandomBot, play_game
from smallworld_rules.dsl import ast, check, parse_file
from smallworld_rules.errors import RuleFileError, RulesError
from smallworld_rules.game import Game
from smallworld_rules.rules import load_rules


def _describe(game: Game, event: ev.Event) -> str | None:
    """One printed line for a log event (or ``None`` to stay quiet)."""
    races = game.rules.races

    def name(race: str) -> str:
        return races[race].name if race in races else "Lost Tribe"

    if isinstance(event, ev.TurnStarted):
        return f"\n== Round {event.round}, player {event.player}"
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
    if isinstance(event, ev.DieRolled):
        result = "succeeds" if event.success else "fails"
        return (
            f"  final attempt on region {event.region} (cost {event.cost}, {event.hand} in hand): "
            f"rolls {event.face}, {result}"
        )
    if isinstance(event, ev.Declined):
        removed = ", ".join(name(r) for r in event.removed)
        gone = f" ({removed} leave the map)" if removed else ""
        return f"  puts the {name(event.race)} into decline{gone}"
    if isinstance(event, ev.RaceRemoved):
        return f"  the {name(event.race)} of player {event.player} leave the map"
    if isinstance(event, ev.Scored):
        parts = ", ".join(f"{name(r)} {c}" for r, c, _ in event.details)
        return f"  scores {_plural(event.coins, 'coin')}" + (f" ({parts})" if parts else "")
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _play(args: argparse.Namespace) -> int:
    rules = load_rules(paths=args.rules or ())
    game = Game.new(players=args.players, seed=args.seed, rules=rules)
    bots = [RandomBot(args.seed * 100 + p) for p in range(game.players)]
    printed = len(game.log)

    def report(g: Game, action: Action) -> None:
        nonlocal printed
        for event in g.log[printed:]:
            line = None if args.quiet else _describe(g, event)
            if line:
                print(line)
        printed = len(g.log)

    if not args.quiet:
        print(f"Small World on the {game.map_name} map, {game.players} players, seed {args.seed}")
        print("Market: " + ", ".join(
            f"{rules.powers[p].name} {rules.races[r].name}" for r, p, _ in game.market
        ))
        for event in game.log:
            line = _describe(game, event)
            if line:
                print(line)
    play_game(game, bots, on_action=report, chance_seed=args.seed)
    print("\nFinal ranking:")
    order = sorted(range(game.players), key=lambda p: (-game.coins(p), -game.tokens_on_map(p), p))
    for rank, p in enumerate(order, 1):
        mark = "  winner" if p in game.winners else ""
        print(
            f"  {rank}. player {p}: {game.coins(p)} coins, "
            f"{_plural(game.tokens_on_map(p), 'token')} on the map{mark}"
        )
    return 0


def _check(args: argparse.Namespace) -> int:
    """Report every error of every file; the files may use each other's pieces and options,
    and the official ones."""
    official = load_rules()
    parsed: dict[str, ast.RuleFile] = {}
    errors: dict[str, list[RuleFileError]] = {}
    for path in args.files:
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
            errors[path] = check(tree, fh.read(), pieces, options)
    for path in args.files:
        for error in errors[path]:
            print(error, file=sys.stderr)
        if not errors[path]:
            print(f"{path}: ok")
    return 1 if any(errors.values()) else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="smallworld", description="Small World rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a full game between random bots")
    play.add_argument("--players", type=int, default=2, help="2 to 5 (default 2)")
    play.add_argument("--seed", type=int, default=0, help="seed of the game and the bots")
    play.add_argument("--rules", action="append", help="extra rule file or folder")
    play.add_argument("--quiet", action="store_true", help="print only the final ranking")
    play.set_defaults(run=_play)
    check = sub.add_parser("check", help="validate rule files")
    check.add_argument("files", nargs="+")
    check.set_defaults(run=_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``smallworld`` console script."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except RulesError as exc:
        print(f"smallworld: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `smallworld play | head`: the reader left; stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
