"""Hidden information, below the :class:`~smallworld_rules.Game` façade: what one player may
know of a game, as data (the body of ``game.observation(player)``; the keys are described in
:mod:`smallworld_rules.observation`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from smallworld_rules.language import hidden_pieces, memory
from smallworld_rules.maps import MAP_NAMES
from smallworld_rules.state import LOST_TRIBE, RESERVE, state_to_dict

if TYPE_CHECKING:
    from smallworld_rules.game import Game

#: An observation: a JSON-ready dict (see the module documentation for its keys).
Observation = dict[str, Any]

FORMAT: Final = "smallworld_rules/observation"
VERSION: Final = 1

#: Engine state fields every player may see (copied into ``observation["state"]``).
PUBLIC_STATE_FIELDS: Final = frozenset({
    "region_race", "region_tokens", "pieces", "box", "piece_supply", "races", "players",
    "market", "power_discard", "round", "active", "phase", "conquered", "conquered_nonempty",
    "acted", "picked", "readied", "die_target", "withdrawals", "winners", "acting", "used",
    "attacked", "truces", "die_bonus", "decline_at_end", "regained", "zones", "role_powers",
    "purchases",
})
#: Engine state fields no player may see: the stacks' order and the game's random generator
#: (``players[i].coins`` of the other players is hidden inside the public ``players`` field),
#: and a role's reserved powers (its private reserve: only the role's own seat sees them).
HIDDEN_STATE_FIELDS: Final = frozenset({"race_stack", "power_stack", "rng", "role_reserve"})


def observe(game: Game, player: int) -> Observation:
    """What ``player`` may know of ``game`` now (the body of ``game.observation``).

    Args:
        game: the game.
        player: the observing player.

    Returns:
        A JSON-ready dict; see the module documentation for its keys.

    Raises:
        RulesError: no such player.
    """
    own_coins = game.coins(player)  # also checks the player number
    full = state_to_dict(game._state)
    state = {key: value for key, value in full.items() if key in PUBLIC_STATE_FIELDS}
    # The tray of a race not in play is full: listing it would name the races in the stack.
    state["box"] = {race: n for race, n in full["box"].items() if race in full["races"]}
    state["players"] = [
        {**entry, "coins": entry["coins"] if i == player else None}
        for i, entry in enumerate(full["players"])
    ]
    if player == game._engine.role_seat:
        state["role_reserve"] = list(full["role_reserve"])
    # face-down pieces of other players' races: only that a marker of the file lies there
    unseen = hidden_pieces.seen_by(game._engine, game._state, player) if game._engine._hiding \
        else {}
    if unseen:
        state["pieces"] = {r: hidden_pieces.masked(p, unseen) for r, p in state["pieces"].items()}
        state["piece_supply"] = hidden_pieces.masked(state["piece_supply"], unseen)
    public_lang: dict[str, Any] = {}
    swap = memory.get(game._state, "swap")
    if swap is not None:  # the badge the player who just picked is choosing (public)
        public_lang["swap"] = list(swap)
    if memory.get(game._state, "banner"):  # the tokens lying on banners (skip_tokens)
        public_lang["banner"] = dict(memory.get(game._state, "banner"))
    if memory.get(game._state, "borrowed"):  # badges of the market borrowed (borrow power)
        public_lang["borrowed"] = dict(memory.get(game._state, "borrowed"))
    if public_lang:
        state["lang"] = public_lang
    races = full["races"]
    on_map = [0] * game.players
    regions = []
    for r, (occupant, tokens) in enumerate(zip(full["region_race"], full["region_tokens"],
                                               strict=True)):
        banner = races.get(occupant) if occupant is not None else None
        if banner is not None:
            on_map[banner["owner"]] += tokens
        regions.append({
            "id": r,
            "terrain": game.map.regions[r].terrain,
            "owner": banner["owner"] if banner else None,
            "race": occupant if banner else None,
            "tokens": tokens,
            "declined": bool(
                banner and (banner["declined"] or game._engine.seen_declined(occupant))
            ),
            "lost_tribe": occupant == LOST_TRIBE,
            "pieces": dict(state["pieces"].get(str(r), {})),
        })
    players = []
    for p, entry in enumerate(full["players"]):
        active = entry["active"]
        players.append({
            "coins": own_coins if p == player else None,
            "active_race": active,
            "active_power": races[active]["power"] if active else None,
            "declined_races": list(entry["declined"]),
            "hand": races[active]["hand"] if active else 0,
            "tokens_on_map": on_map[p],
            "powers": game.powers(p),
        })
    stacks = {"races": len(full["race_stack"]), "powers": len(full["power_stack"])}
    if game.rules.roles:
        stacks["role_reserve"] = len(full["role_reserve"])  # its size only: it is private
    to_move = game.to_move
    # Every place off the map tokens can be in (every player sees the piles, the Island and
    # the role's reserve; the box of a race not in play would name the races in the stack).
    zones = {name: game.zone(name) for name in sorted(game.rules.zones)}
    if game.rules.roles:
        zones[RESERVE] = game.zone(RESERVE)
    return {
        "format": FORMAT,
        "version": VERSION,
        "player": player,
        "game": {
            "players": game.players,
            "map": game.map_name,
            "map_data": None if game.map_name in MAP_NAMES else game.map.to_dict(),
            "turns": game.map.turns,
            "chance": "explicit" if game._engine.explicit_chance else "seeded",
            "options": game.options,
            "expansions": list(game.rules.expansion_ids),
            "packs": list(game.rules.packs),
        },
        "round": game.round,
        "active_player": game.active_player,
        "to_move": to_move,
        "phase": game.phase.value,
        "winners": game.winners,
        "coins": own_coins,
        "players": players,
        "regions": regions,
        "market": [list(combo) for combo in game.market],
        "stacks": stacks,
        "power_discard": list(full["power_discard"]),
        "zones": zones,
        "state": state,
    }
