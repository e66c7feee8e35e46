"""The position as text: what ``print(game)`` shows.

>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=1)
>>> text = str(game)
>>> text.splitlines()[0]
'Small World, 2p map: round 1 of 10, player 0 to pick a combo'
>>> "Lost Tribe x1" in text and "Market:" in text
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.rules import Rules
from smallworld_rules.state import LOST_TRIBE, SOUL, Phase

if TYPE_CHECKING:
    from smallworld_rules.game import Game

#: What the player to move is asked for, by phase.
_ASKED = {
    Phase.PICK: "to pick a combo",
    Phase.CONQUEST: "to conquer",
    Phase.DIE_ROLL: "to roll the reinforcement die",
    Phase.REDEPLOY: "to redeploy",
    Phase.WITHDRAWAL: "to place the tokens that withdrew",
}


def token_names(rules: Rules) -> dict[str, str]:
    """Display names of every kind of token: races, roles' tokens, and the core's own."""
    names = {race: rd.name for race, rd in rules.races.items()}
    names.update({role.race.id: role.race.name for role in rules.roles.values()})
    names.update({LOST_TRIBE: "Lost Tribe", SOUL: "soul"})
    return names


def seat_name(game: Game, player: int) -> str:
    """``player 3`` or, for the seat a role plays, ``player 3 (Role Name)``."""
    role = next(iter(game.rules.roles.values()), None)
    if role is not None and player == game.players - 1:
        return f"player {player} ({role.name})"
    return f"player {player}"


def status_line(game: Game) -> str:
    """Map, round and who must do what, e.g. ``2p map: round 1 of 10, player 0 to …``."""
    where = f"{game.map_name} map: round {game.round} of {game.map.turns}"
    if game.is_over:
        winners = ", ".join(str(p) for p in game.winners)
        return f"{where}, game over (won by player {winners})"
    to_move = game.to_move
    who = "chance" if to_move is None or to_move < 0 else f"player {to_move}"
    return f"{where}, {who} {_ASKED.get(game.phase, game.phase.value)}"


def combo_name(game: Game, player: int) -> str | None:
    """``"Seaborne Scouts"``: the power and race of a player's active race, or ``None``."""
    race = game.active_race(player)
    if race is None:
        return None
    power = game.active_power(player)
    power_name = game.rules.powers[power].name if power is not None else ""
    return f"{power_name} {token_names(game.rules).get(race, race)}".strip()


def player_lines(game: Game, viewer: int | None = None) -> list[str]:
    """One line per player: races, power, hand and coins (others' coins hidden from a
    ``viewer``, as the coins are kept face down)."""
    names = token_names(game.rules)
    lines = []
    for p in range(game.players):
        parts = []
        combo = combo_name(game, p)
        if combo is not None:
            parts.append(combo)
            if game.hand(p):
                parts.append(f"{game.hand(p)} in hand")
        declined = [names.get(r, r) for r in game.declined_races(p)]
        if declined:
            parts.append("in decline: " + ", ".join(declined))
        coins = "?" if viewer is not None and viewer != p else str(game.coins(p))
        mark = "*" if p == game.active_player and not game.is_over else " "
        what = "; ".join(parts) or "no race yet"
        lines.append(f"{mark} {seat_name(game, p)}: {what}; {coins} coins")
    return lines


def market_line(game: Game) -> str:
    """The visible combos, top first, with the coins lying on each."""
    rules = game.rules
    items = []
    for i, (race, power, coins) in enumerate(game.market):
        extra = f" +{coins}" if coins else ""
        items.append(f"{i}. {rules.powers[power].name} {rules.races[race].name}{extra}")
    lines = ["Market:"]
    for item in items or ["empty"]:  # a combo is never split across lines
        if len(lines[-1]) + len(item) + 2 > 88:
            lines[-1] += ","
            lines.append(" ")
        lines[-1] += ("," if lines[-1][-1] not in ": " else "") + " " + item
    return "\n".join(lines)


def zone_lines(game: Game) -> list[str]:
    """The expansion's zones off the map, by name, with their tokens by kind."""
    names = token_names(game.rules)
    lines = []
    for zone_id, zone in game.rules.zones.items():
        held = game.zone(zone_id)
        kinds = ", ".join(f"{names.get(k, k)} x{n}" for k, n in held.items() if n)
        lines.append(f"{zone.name}: {kinds or 'empty'}")
    return lines


def region_line(game: Game, region: int) -> str:
    """``  12 hill (mine)       player 1 Scouts x3 [camp 1]``."""
    names = token_names(game.rules)
    spec = game.map.regions[region]
    view = game.region(region)
    land = spec.terrain + (f" ({', '.join(sorted(spec.features))})" if spec.features else "")
    if view.lost_tribe:
        who = f"Lost Tribe x{view.tokens}"
    elif view.race is not None:
        state = " in decline" if view.declined else ""
        who = f"player {view.owner} {names.get(view.race, view.race)}{state} x{view.tokens}"
    else:
        who = "-"
    pieces = ", ".join(f"{name} {n}" for name, n in sorted(view.pieces.items()) if n)
    return f"{region:4} {land:<24} {who}" + (f" [{pieces}]" if pieces else "")


def render(game: Game, viewer: int | None = None) -> str:
    """The whole position as text (see the module example).

    Args:
        game: the game.
        viewer: show only this player's coins (the others' are face down); ``None``: all.
    """
    lines = [f"Small World, {status_line(game)}", *player_lines(game, viewer), market_line(game)]
    lines += zone_lines(game)
    lines.append("Regions:")
    lines += [region_line(game, r) for r in range(len(game.map.regions))]
    return "\n".join(lines)
