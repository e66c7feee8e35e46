"""Hidden information: what one player may know of a game (``game.observation(player)``).

Small World has two secrets: every player's victory coins are kept face down, and the order
of the combo stacks (race banners and power badges below the visible market) is unknown. An
observation is the position with those secrets removed, as plain JSON-ready data:

* ``coins``: the observing player's own coins; every other player's ``coins`` is ``None``;
* ``regions``: everyone's board: owner, race, tokens, declined, Lost Tribe, pieces;
* ``players``: each player's active race and power, races in decline, tokens in hand and on
  the map, the powers working for it (``game.powers``; and coins for the observer only);
* ``zones``: the tokens in every zone an expansion declares and in a role's reserve, by kind
  (``game.zone``);
* ``market``: the visible combos top to bottom, ``[race, power, coins on it]``;
* ``stacks``: only the *sizes* of the race and power stacks, never their order or contents;
* ``state``: the public part of the engine's state, field for field (the game's random
  generator, the stacks and the other players' coins are left out, and so are the trays of
  the races not in play, which are full and would name the races in the stack), so that a
  program can rebuild a playable game from the observation alone
  (:func:`game_from_observation`).

>>> import json
>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=7)
>>> obs = game.observation(0)
>>> obs["coins"], obs["players"][1]["coins"], obs["stacks"]["races"] > 0
(5, None, True)
>>> "race_stack" in obs["state"] or "rng" in obs["state"]
False
>>> json.loads(json.dumps(obs)) == obs
True

The rebuilt game of :func:`game_from_observation` is a *determinization*: it agrees with the
observation on everything the player may know and fills in the secrets with guesses of its
own — the other players' coins are 0, the stacks hold the banners and badges that are nowhere
else, in an order shuffled by the caller's seed, and the game's generator is seeded by that
seed too. A bot can clone it and try actions on it without ever seeing the real secrets.
"""

from __future__ import annotations

import json
import random
from typing import Any

from smallworld_rules.errors import RulesError, excerpt
from smallworld_rules.game import Game
from smallworld_rules.hidden import (
    FORMAT,
    HIDDEN_STATE_FIELDS,
    PUBLIC_STATE_FIELDS,
    VERSION,
    Observation,
    observe,
)
from smallworld_rules.language import hidden_pieces
from smallworld_rules.maps import MAP_NAMES
from smallworld_rules.rules import Rules, load_rules
from smallworld_rules.saved import FORMAT as SAVED_FORMAT
from smallworld_rules.saved import VERSION as SAVED_VERSION

__all__ = [
    "FORMAT",
    "HIDDEN_STATE_FIELDS",
    "PUBLIC_STATE_FIELDS",
    "VERSION",
    "Observation",
    "ObservedRules",
    "game_from_observation",
    "observe",
]


def _check_ids(observation: Observation, rules: Rules) -> None:
    """Refuse an observation naming a race, power, piece or option ``rules`` lack, saying so
    (a game played with a user's rule files, rebuilt with the official rules)."""
    public, meta = observation["state"], observation["game"]
    races = set(rules.races) | {role.race.id for role in rules.roles.values()}
    named = {
        "race": set(public["races"]) | {m[0] for m in public["market"]},
        "power": {m[1] for m in public["market"]}
        | {r["power"] for r in public["races"].values() if r["power"] is not None},
        "piece": set(public["piece_supply"]),
        "game option": set(meta["options"]),
    }
    known = {"race": races, "power": set(rules.powers), "piece": set(rules.pieces),
             "game option": set(rules.options)}
    for kind, ids in named.items():
        unknown = sorted(ids - known[kind])
        if unknown:
            raise RulesError(
                f"the observation names the {kind} {excerpt(unknown[0])}, which these rules do "
                "not have: the game was played with other rule files; pass its rules "
                "(game_from_observation(observation, game.rules), GreedyBot(rules=game.rules))"
            )


def game_from_observation(
    observation: Observation,
    rules: Rules | None = None,
    seed: int = 0,
    chance: str | None = None,
) -> Game:
    """A playable game consistent with ``observation``, its secrets filled in by guesses.

    The other players' coins are 0; the race and power stacks hold the banners and badges
    that are in no other place, shuffled by ``seed``; the game's random generator is seeded by
    ``seed``. Everything else is as observed, so legal actions, conquest costs and the scores
    of the observing player are exactly those of the real game.

    Args:
        observation: from :meth:`Game.observation`.
        rules: the rules of the game (default: the official rules plus the observation's
            expansions and rule packs; pass the rules for a user's own rule files).
        seed: seeds the guesses.
        chance: ``"seeded"`` or ``"explicit"`` (default: as in the observed game).

    Returns:
        A new :class:`~smallworld_rules.Game` without undo history or log.

    Raises:
        RulesError: the observation is malformed or does not fit ``rules``.
    """
    try:
        meta = observation["game"]
        public = dict(observation["state"])
        player = observation["player"]
        stacks = observation["stacks"]
    except (KeyError, TypeError) as exc:
        raise RulesError(f"not an observation: missing {exc}") from None
    if observation.get("format") != FORMAT:
        raise RulesError(f"not an observation: 'format' must be {FORMAT!r}")
    if rules is None:
        rules = load_rules(expansions=meta["expansions"], packs=meta["packs"])
    rng = random.Random(seed)
    # face-down pieces of other players: drawn again from their bags
    public["pieces"], public["piece_supply"] = hidden_pieces.guess(
        rules, public["pieces"], public["piece_supply"], rng
    )
    _check_ids({**observation, "state": public}, rules)
    in_play = set(public["races"])
    market = public["market"]
    races = sorted(set(rules.races) - in_play - {m[0] for m in market})
    attached = {r["power"] for r in public["races"].values() if r["power"] is not None}
    powers = sorted(
        set(rules.powers) - attached - {m[1] for m in market} - set(public["power_discard"])
        - set(public.get("role_powers", [])) - set(public.get("role_reserve", []))
    )
    rng.shuffle(races)
    rng.shuffle(powers)
    if "role_reserve" not in public:  # another seat's private reserve: guessed as well
        reserve_size = stacks.get("role_reserve", 0)
        public["role_reserve"] = sorted(powers[:reserve_size])
        powers = powers[reserve_size:]
    if len(races) != stacks["races"] or len(powers) != stacks["powers"]:
        raise RulesError("the observation does not fit these rules: the stacks do not add up")
    state: dict[str, Any] = {}
    if meta["map"] in MAP_NAMES:
        # Fields this module does not know yet start as in a fresh game.
        fresh = Game.new(
            players=meta["players"], seed=seed, rules=rules, map=meta["map"],
            options=meta["options"],
        )
        state.update(json.loads(fresh.to_json())["state"])
    state.update(public)
    # A tray not listed is full but for the race's tokens lying in zones (lost to the Well).
    zoned = [kind for pile in public.get("zones", {}).values() for kind in pile]
    state["box"] = {
        race: public["box"].get(race, rule.box - zoned.count(race))
        for race, rule in sorted(rules.races.items())
    }
    for role in rules.roles.values():  # a role's tokens are always in play
        state["box"][role.race.id] = public["box"][role.race.id]
    state["players"] = [
        {**entry, "coins": entry["coins"] if i == player else 0}
        for i, entry in enumerate(public["players"])
    ]
    state["race_stack"] = races
    state["power_stack"] = powers
    state["rng"] = rng.getrandbits(64)
    doc = {
        "format": SAVED_FORMAT,
        "version": SAVED_VERSION,
        "map": meta["map"],
        "map_data": meta["map_data"],
        "players": meta["players"],
        "seed": seed,
        "chance": chance or meta["chance"],
        "options": meta["options"],
        "expansions": meta["expansions"],
        "packs": meta["packs"],
        "state": state,
        "log": [],
    }
    try:
        return Game.from_json(json.dumps(doc), rules=rules)
    except RulesError as exc:
        raise RulesError(f"the observation does not fit these rules: {exc}") from None


class ObservedRules:
    """The rules of the games a bot sees: the ones it was given, or else the official rules
    plus the expansions and packs its observations name (each set loaded once)."""

    def __init__(self, rules: Rules | None = None) -> None:
        self._rules = rules
        self._loaded: dict[tuple[str, ...], Rules] = {}

    def __call__(self, observation: Observation) -> Rules:
        if self._rules is not None:
            return self._rules
        meta = observation["game"]
        expansions, packs = tuple(meta["expansions"]), tuple(meta["packs"])
        key = (*expansions, "|", *packs)
        if key not in self._loaded:
            self._loaded[key] = load_rules(expansions=expansions, packs=packs)
        return self._loaded[key]
