"""Playing in the terminal against the bots (``smallworld play --bots keyboard,greedy``).

At each decision of the player at the keyboard the text board is shown with a numbered list
of the legal actions (with their costs); they enter a number, or an action in words (``conquer 5``,
``deploy 5 2``, ``abandon 3``, ``decline``, ``end``), ``u`` to undo their last action (and the
bots' moves since), ``b`` to see the board again, ``q`` to stop. An entry that is not a legal
action is explained (the game's own reason) and asked again; nothing changes.

>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=1)
>>> describe_action(game, sw.PickCombo(1)).startswith("pick ")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from smallworld_rules.actions import (
    Abandon,
    Action,
    ChoosePower,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    DrawPiece,
    EndTurn,
    PickCombo,
    Purchase,
    RollDie,
    UseAbility,
)
from smallworld_rules.bots import Bot, sample_chance
from smallworld_rules.errors import IllegalAction, RulesError
from smallworld_rules.textboard import render, token_names

if TYPE_CHECKING:
    from smallworld_rules.game import Game

_HELP = (
    "enter a number from the list, or an action in words (conquer R, deploy R N, abandon R, "
    "decline, end), u to undo your last action, b to show the board, q to quit"
)


def _where(game: Game, region: int) -> str:
    spec = game.map.regions[region]
    view = game.region(region)
    bits = [spec.terrain, *sorted(spec.features)]
    if view.tokens:
        names = token_names(game.rules)
        who = "Lost Tribe" if view.lost_tribe else names.get(view.race or "", view.race or "")
        owner = "" if view.owner is None else f" of player {view.owner}"
        bits.append(f"{who}{owner} x{view.tokens}")
    return f"region {region} ({', '.join(bits)})"


def describe_action(game: Game, action: Action) -> str:
    """The action in words, with what it costs now (tokens for a conquest, coins for a
    combo)."""
    rules = game.rules
    if isinstance(action, PickCombo):
        race, combo_power, _ = game.market[action.index]
        trial = game.clone()
        mover = game.to_move if game.to_move is not None and game.to_move >= 0 else 0
        before = game.coins(mover)
        trial.apply(action)
        change = trial.coins(mover) - before
        return (
            f"pick {rules.powers[combo_power].name} {rules.races[race].name} "
            f"(coins {change:+d}, {trial.hand(mover)} tokens)"
        )
    if isinstance(action, Conquer):
        return f"conquer {_where(game, action.region)} for {game.conquest_cost(action.region)}"
    if isinstance(action, ConquerWithDie):
        return (
            f"final conquest of {_where(game, action.region)} with the die "
            f"(cost {game.conquest_cost(action.region)}, {game.hand(game.active_player)} in hand)"
        )
    if isinstance(action, Deploy):
        return f"deploy {action.count} on {_where(game, action.region)}"
    if isinstance(action, Abandon):
        return f"abandon {_where(game, action.region)}"
    if isinstance(action, Decline):
        return "put your active race into decline"
    if isinstance(action, EndTurn):
        return "end this part of the turn"
    if isinstance(action, UseAbility):
        target = action.target
        on = "" if target is None else (
            f" on {_where(game, target)}" if isinstance(target, int) else f" on {target}"
        )
        return f"use {action.name}{on}"
    if isinstance(action, Purchase):
        bought = rules.powers.get(action.power or "")
        what = f" ({bought.name})" if bought is not None else ""
        return f"buy {action.item}{what}"
    if isinstance(action, ChoosePower):
        name = rules.powers[action.power].name if action.power in rules.powers else action.power
        return f"choose {name}"
    if isinstance(action, RollDie):
        return f"the die shows {action.face}"
    if isinstance(action, DrawPiece):  # the kind stays secret: others watch the screen
        drawn = rules.pieces.get(action.kind)
        return f"a face-down piece of {drawn.holder if drawn else '?'} is drawn"
    return repr(action)


def parse_words(text: str) -> Action | None:
    """An action typed in words (``conquer 5``, ``deploy 5 2``, ``end``), or ``None``."""
    words = text.lower().split()
    if not words:
        return None
    verb, numbers = words[0], words[1:]
    if not all(n.isdigit() for n in numbers):
        return None
    args = [int(n) for n in numbers]
    makers: dict[str, tuple[int, Callable[..., Action]]] = {
        "conquer": (1, Conquer),
        "die": (1, ConquerWithDie),
        "deploy": (2, Deploy),
        "abandon": (1, Abandon),
        "pick": (1, PickCombo),
        "decline": (0, Decline),
        "end": (0, EndTurn),
    }
    if verb not in makers or makers[verb][0] != len(args):
        return None
    return makers[verb][1](*args)


def play_in_terminal(
    game: Game,
    bots: Sequence[Bot | None],
    *,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    on_action: Callable[[Game, Action], None] | None = None,
    on_undo: Callable[[Game], None] | None = None,
    chance_seed: int = 0,
) -> bool:
    """Play ``game`` to its end; seats whose bot is ``None`` are asked through ``read``.

    Returns:
        ``True`` if the game ended, ``False`` if the player at the keyboard quit (or the
        input ended).
    """
    if len(bots) != game.players:
        raise RulesError(f"{game.players} players need {game.players} seats, not {len(bots)}")
    chance = random.Random(chance_seed)
    marks: list[int] = []  # actions played before each action typed at the keyboard
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        action: Action
        if mover < 0:
            action = sample_chance(game, chance)
        elif bots[mover] is not None:
            bot = bots[mover]
            assert bot is not None
            action = bot.choose(game.observation(mover), list(game.legal_actions()))
        else:
            chosen = _ask(game, mover, read, write, marks)
            if chosen is None:
                return False
            if chosen == "undo":
                target = marks.pop()
                while len(game.action_stack) > target:
                    game.undo()
                write("undone: your last action, and the moves made after it")
                if on_undo is not None:
                    on_undo(game)
                continue
            assert not isinstance(chosen, str)
            marks.append(len(game.action_stack))
            action = chosen
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    return True


def _ask(
    game: Game,
    player: int,
    read: Callable[[str], str],
    write: Callable[[str], None],
    marks: list[int],
) -> Action | str | None:
    """The keyboard player's choice: a legal action, ``"undo"``, or ``None`` to quit."""
    actions = list(game.legal_actions())
    write("")
    write(render(game, viewer=player))
    write(f"Player {player}, your choices:")
    for i, action in enumerate(actions):
        write(f"  {i:3}. {describe_action(game, action)}")
    while True:
        try:
            entry = read(f"player {player}> ").strip()
        except EOFError:
            write("(input ended: stopping)")
            return None
        if entry in ("q", "quit", "exit"):
            return None
        if entry in ("u", "undo"):
            if marks:
                return "undo"
            write("nothing to undo: you have not acted yet")
            continue
        if entry in ("b", "board"):
            write(render(game, viewer=player))
            continue
        if entry.isdigit():
            number = int(entry)
            if number < len(actions):
                return actions[number]
            write(f"there is no choice {number}: enter 0 to {len(actions) - 1} ({_HELP})")
            continue
        typed = parse_words(entry)
        if typed is None:
            write(f"not understood: {entry[:40]!r}; {_HELP}")
            continue
        try:
            game.clone().apply(typed)
        except IllegalAction as exc:
            write(f"not legal now: {exc}")
            continue
        return typed
