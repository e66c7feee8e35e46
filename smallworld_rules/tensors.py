"""Observation tensors: a position as one flat list of numbers, for learning programs.

:func:`observation_tensor` encodes what one player may know (it is built from
``game.observation(player)`` alone, so the other players' coins and the order of the stacks
cannot leak into it); with ``view="perfect"`` it encodes everything, secrets included, and
with ``view="public"`` only what every player knows (the observer's own coins and private
reserve left out too). The layout is fixed by the rules, the map and the number of players,
like the action space; :func:`tensor_layout` names its sections. Numbers are plain Python
floats (counts are raw counts, not scaled); ``numpy.asarray(tensor)`` makes an array.

>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=1)
>>> layout = tensor_layout(game)
>>> tensor = observation_tensor(game, 0)
>>> len(tensor) == layout.size
True
>>> layout.section(tensor, "players")[0][:2]   # player 0: coins 5, known
[5.0, 1.0]
>>> layout.section(tensor, "players")[1][:2]   # player 1: coins hidden
[0.0, 0.0]
>>> len(observation_tensor(game, 0, view="perfect")) == tensor_layout(game, "perfect").size
True

The sections, in order (``P`` players, ``n`` regions, ``K`` token kinds: the races sorted by
id then the roles' token kinds, ``W`` powers sorted by id; the docs page "Action space and
observation tensors" has the full table):

``observer`` (P), ``to_move`` (P + 1: the last is the die), ``active_player`` (P),
``phase`` (6, in :class:`~smallworld_rules.Phase` order), ``round`` (2: round, turns),
``regions`` (n × region features), ``players`` (P × player features), ``market``
(6 × combo features), ``stacks`` (3: races, powers, a role's reserve: sizes only),
``power_discard`` (W), ``conquered`` (n), ``die`` (2), ``zones`` (one per shared zone),
``role_powers`` (W), ``role_reserve`` (W: only in the role's own view and the perfect view);
the perfect view adds ``race_stack`` (races in the rules × K) and ``power_stack`` (W × W),
each stack position one-hot, top first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from smallworld_rules.engine import MARKET_SIZE
from smallworld_rules.errors import RulesError
from smallworld_rules.language import hidden_pieces
from smallworld_rules.state import Phase

if TYPE_CHECKING:
    from smallworld_rules.game import Game

#: An upper bound of every number of a tensor (the largest 32-bit float), for the adapters'
#: observation spaces: every number is a count or a flag, never below 0.
HIGH: Final = 3.4028234663852886e38
#: The views a tensor can be made for.
VIEWS: Final = ("player", "public", "perfect")
_PHASES: Final = list(Phase)
#: The first numbers of a player's row (then its active kind, power and declined kinds).
PLAYER_FIELDS: Final = ("coins", "coins_known", "hand", "tokens_on_map")
#: The last numbers of a region's row (after terrain, features, owner).
REGION_FIELDS: Final = ("lost_tribe", "declined", "tokens")


class TensorLayout:
    """The sections of the tensors of one set-up and view.

    Attributes:
        view: ``"player"``, ``"public"`` or ``"perfect"``.
        sections: ``(name, shape)`` in order; a shape is ``(length,)`` or ``(rows, length)``.
        size: the tensor's length.
        kinds, powers, terrains, features, pieces, zones: the ids each one-hot or count
            column stands for, in order.
    """

    def __init__(self, game: Game, view: str) -> None:
        rules, players, n = game.rules, game.players, len(game.map.regions)
        self.view = view
        self.kinds: list[str] = sorted(rules.races) + sorted(
            role.race.id for role in rules.roles.values()
        )
        self.powers: list[str] = sorted(rules.powers)
        self.terrains: list[str] = sorted({r.terrain for r in game.map.regions})
        self.features: list[str] = sorted({f for r in game.map.regions for f in r.features})
        self.pieces: list[str] = sorted(rules.pieces)
        # a face-down piece another player sees as its file's placeholder (hidden_pieces)
        self.pieces += sorted({
            hidden_pieces.placeholder(p.holder) for p in rules.pieces.values() if p.hidden
        })
        self.zones: list[str] = sorted(z for z, d in rules.zones.items() if d.role is None)
        k, w = len(self.kinds), len(self.powers)
        #: per region, its terrain (one-hot) and printed features (many-hot)
        self.printed: list[list[float]] = [
            [float(r.terrain == t) for t in self.terrains]
            + [float(f in r.features) for f in self.features]
            for r in game.map.regions
        ]
        region = len(self.terrains) + len(self.features) + players + len(REGION_FIELDS) + k
        region += len(self.pieces)
        self.sections: list[tuple[str, tuple[int, ...]]] = [
            ("observer", (players,)),
            ("to_move", (players + 1,)),
            ("active_player", (players,)),
            ("phase", (len(_PHASES),)),
            ("round", (2,)),
            ("regions", (n, region)),
            ("players", (players, len(PLAYER_FIELDS) + k + w + k)),
            ("market", (MARKET_SIZE, 2 + k + w)),
            ("stacks", (3,)),
            ("power_discard", (w,)),
            ("conquered", (n,)),
            ("die", (2,)),
            ("zones", (len(self.zones),)),
            ("role_powers", (w,)),
            ("role_reserve", (w,)),
        ]
        if view == "perfect":
            self.sections += [("race_stack", (len(rules.races), k)), ("power_stack", (w, w))]
        self._offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        offset = 0
        for name, shape in self.sections:
            self._offsets[name] = (offset, shape)
            offset += _length(shape)
        self.size: int = offset

    def section(self, tensor: Sequence[float], name: str) -> Any:
        """The part of ``tensor`` for section ``name``: a list, or a list of rows.

        Raises:
            RulesError: no such section.
        """
        if name not in self._offsets:
            raise RulesError(f"no tensor section {name!r} (sections: "
                             f"{', '.join(n for n, _ in self.sections)})")
        offset, shape = self._offsets[name]
        flat = list(tensor[offset:offset + _length(shape)])
        if len(shape) == 1:
            return flat
        return [flat[i * shape[1]:(i + 1) * shape[1]] for i in range(shape[0])]


def _length(shape: tuple[int, ...]) -> int:
    return shape[0] * (shape[1] if len(shape) > 1 else 1)


_LAYOUTS: dict[tuple[int, int, int, str], tuple[Game, TensorLayout]] = {}


def tensor_layout(game: Game, view: str = "player") -> TensorLayout:
    """The layout of ``game``'s tensors for ``view`` (built once per rules, map, players).

    Raises:
        RulesError: an unknown view.
    """
    if view not in VIEWS:
        raise RulesError(f"a view is one of {', '.join(VIEWS)}, not {view!r}")
    key = (id(game.rules), id(game.map), game.players, view)
    kept = _LAYOUTS.get(key)
    # The kept game holds its rules and map, so their ids cannot have been reused.
    if kept is None or kept[0].rules is not game.rules or kept[0].map is not game.map:
        if len(_LAYOUTS) >= 32:
            del _LAYOUTS[next(iter(_LAYOUTS))]
        kept = _LAYOUTS[key] = (game, TensorLayout(game, view))
    return kept[1]


def observation_tensor(game: Game, player: int, view: str = "player") -> list[float]:
    """The position as ``player`` sees it, as a flat list of floats (see the module).

    Args:
        game: the game.
        player: the observing player.
        view: ``"player"`` (what the player may know), ``"public"`` (what every player
            knows) or ``"perfect"`` (everything, secrets included).

    Raises:
        RulesError: no such player or view.
    """
    layout = tensor_layout(game, view)  # also checks the view
    return encode(*viewed_observation(game, player, view), layout=layout)


def viewed_observation(
    game: Game, player: int, view: str = "player"
) -> tuple[dict[str, Any], tuple[list[str], list[str]] | None]:
    """``game.observation(player)`` changed for ``view``, and the stacks (top first) for the
    perfect view (``None`` otherwise): the public view has no coins nor private reserve of
    the observer, the perfect view has every player's coins and the role's reserve.

    Raises:
        RulesError: no such player or view.
    """
    if view not in VIEWS:
        raise RulesError(f"a view is one of {', '.join(VIEWS)}, not {view!r}")
    observation = game.observation(player)
    if view == "public":
        observation["coins"] = observation["players"][player]["coins"] = None
        observation["state"]["players"][player]["coins"] = None
        observation["state"].pop("role_reserve", None)
    elif view == "perfect":
        state = game._state
        for p, entry in enumerate(observation["players"]):
            entry["coins"] = observation["state"]["players"][p]["coins"] = game.coins(p)
        observation["state"]["role_reserve"] = list(state.role_reserve)
        return observation, (list(state.race_stack), list(state.power_stack))
    return observation, None


def encode(
    observation: dict[str, Any],
    stacks: tuple[list[str], list[str]] | None = None,
    *,
    layout: TensorLayout,
) -> list[float]:
    """Encode an observation (``game.observation(player)``) in ``layout``; ``stacks`` (the
    race and power stacks, top first) only for the perfect view."""
    out: list[float] = []
    players = observation["game"]["players"]
    kinds = {kind: i for i, kind in enumerate(layout.kinds)}
    powers = {power: i for i, power in enumerate(layout.powers)}

    def one_hot(size: int, index: int | None) -> list[float]:
        row = [0.0] * size
        if index is not None:
            row[index] = 1.0
        return row

    def many_hot(size: int, table: dict[str, int], ids: Sequence[str]) -> list[float]:
        row = [0.0] * size
        for i in ids:
            if i in table:
                row[table[i]] = 1.0
        return row

    state = observation["state"]
    to_move = observation["to_move"]
    out += one_hot(players, observation["player"])
    out += one_hot(players + 1, None if to_move is None else (players if to_move < 0
                                                               else to_move))
    out += one_hot(players, observation["active_player"])
    out += one_hot(len(_PHASES), _PHASES.index(Phase(observation["phase"])))
    out += [float(observation["round"]), float(observation["game"]["turns"])]
    pieces = {p: i for i, p in enumerate(layout.pieces)}
    for region in observation["regions"]:
        out += layout.printed[region["id"]]
        out += one_hot(players, region["owner"])
        out += [float(region["lost_tribe"]), float(region["declined"]), float(region["tokens"])]
        out += one_hot(len(kinds), kinds.get(region["race"]))
        counts = [0.0] * len(pieces)
        for name, count in region["pieces"].items():
            if name in pieces:
                counts[pieces[name]] = float(count)
        out += counts
    for entry in observation["players"]:
        coins = entry["coins"]
        out += [float(coins or 0), float(coins is not None), float(entry["hand"]),
                float(entry["tokens_on_map"])]
        out += one_hot(len(kinds), kinds.get(entry["active_race"]))
        out += one_hot(len(powers), powers.get(entry["active_power"]))
        out += many_hot(len(kinds), kinds, entry["declined_races"])
    for slot in range(MARKET_SIZE):
        if slot < len(observation["market"]):
            race, power, coins = observation["market"][slot]
            out += [1.0, float(coins)]
            out += one_hot(len(kinds), kinds.get(race)) + one_hot(len(powers), powers.get(power))
        else:
            out += [0.0] * (2 + len(kinds) + len(powers))
    sizes = observation["stacks"]
    out += [float(sizes["races"]), float(sizes["powers"]), float(sizes.get("role_reserve", 0))]
    out += many_hot(len(powers), powers, observation["power_discard"])
    conquered = [0.0] * len(observation["regions"])
    for r in state["conquered"]:
        conquered[r] = 1.0
    out += conquered
    out += [float(state["die_bonus"] >= 0), float(max(state["die_bonus"], 0))]
    out += [float(len(state["zones"].get(zone, ()))) for zone in layout.zones]
    out += many_hot(len(powers), powers, state.get("role_powers", ()))
    out += many_hot(len(powers), powers, state.get("role_reserve", ()))
    if layout.view == "perfect":
        if stacks is None:
            raise RulesError("the perfect view needs the stacks")
        race_stack, power_stack = stacks
        for slot in range(dict(layout.sections)["race_stack"][0]):
            out += one_hot(len(kinds), kinds[race_stack[slot]] if slot < len(race_stack)
                           else None)
        for slot in range(len(powers)):
            out += one_hot(len(powers), powers[power_stack[slot]] if slot < len(power_stack)
                           else None)
    if len(out) != layout.size:  # pragma: no cover - the layout and the encoder disagree
        raise RulesError(f"tensor of {len(out)} numbers for a layout of {layout.size}")
    return out


def winner_shares(game: Game) -> list[float]:
    """Each player's reward at the end, as the adapters give it: ``1 / number of winners``
    for a winner (a shared first place shares the point), 0 for the others and before the
    end."""
    winners = game.winners
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(game.players)]
