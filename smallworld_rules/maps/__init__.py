"""The four official boards, loaded from the JSON files shipped in this package.

A :class:`GameMap` is immutable and carries tables precomputed at load: adjacency and
terrain/feature sets as integer bitmasks (bit ``r`` stands for region ``r``), so the hot paths
test membership with a shift and an ``and``.

>>> m = load_map("2p")
>>> m.name, m.players, m.turns, len(m.regions)
('2p', 2, 10, 23)
>>> m.regions[5].terrain, sorted(m.regions[5].features)
('mountain', ['cavern', 'mine'])
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from smallworld_rules.errors import MapError, excerpt

TERRAINS = frozenset({"farmland", "forest", "hill", "mountain", "swamp", "sea", "lake"})
WATER_TERRAINS = frozenset({"sea", "lake"})
FEATURES = frozenset({"mine", "cavern", "magic"})
MAP_NAMES = ("2p", "3p", "4p", "5p")


@attrs.frozen
class Region:
    """One region of a board, as printed."""

    id: int
    terrain: str
    features: frozenset[str]
    lost_tribe: bool
    edge: bool  #: physically touches the edge of the board
    adjacent: tuple[int, ...]


@attrs.frozen
class GameMap:
    """A board with its precomputed tables.

    Attributes:
        name: ``"2p"`` … ``"5p"`` (or the stem of a custom map file).
        players: the player count the board is made for.
        turns: spaces on the turn track.
        regions: the regions, ``regions[i].id == i``.
        adjacency: bitmask of neighbours per region.
        terrain_masks: terrain name -> bitmask of regions of that terrain.
        feature_masks: feature name -> bitmask of regions carrying it.
        all_mask: every region.
        water_mask: Seas and the Lake.
        coastal_mask: land regions bordering a Sea or the Lake.
        entry_mask: regions a first conquest may target: touching the edge, or the shore of a
            Sea that touches the edge (rule 1.7, ruling 1). Seas themselves are on the
            edge and so included; whether water may be entered at all is decided elsewhere.
        lost_tribe_mask: regions with a Lost Tribe at setup.
    """

    name: str
    players: int
    turns: int
    regions: tuple[Region, ...]
    adjacency: tuple[int, ...]
    terrain_masks: Mapping[str, int]
    feature_masks: Mapping[str, int]
    all_mask: int
    water_mask: int
    coastal_mask: int
    entry_mask: int
    lost_tribe_mask: int

    def __len__(self) -> int:
        return len(self.regions)

    def adjacent_mask(self, regions: int) -> int:
        """Regions bordering at least one of ``regions`` (both as bitmasks)."""
        adjacency = self.adjacency
        out = 0
        while regions:
            low = regions & -regions
            out |= adjacency[low.bit_length() - 1]
            regions ^= low
        return out

    def neighbours(self, region: int) -> tuple[int, ...]:
        """The regions sharing a border with ``region``."""
        return self.regions[region].adjacent

    def to_dict(self) -> dict[str, Any]:
        """The board as a map document (the layout :func:`build_map` reads)."""
        return {
            "name": self.name,
            "players": self.players,
            "turns": self.turns,
            "regions": [
                {
                    "id": r.id,
                    "terrain": r.terrain,
                    "border": r.edge,
                    "features": sorted(r.features),
                    "lost_tribe": r.lost_tribe,
                    "adjacent": list(r.adjacent),
                }
                for r in self.regions
            ],
        }


def _fail(where: str, msg: str) -> MapError:
    return MapError(f"{where}: {msg}")


def build_map(doc: Mapping[str, Any], name: str) -> GameMap:
    """Validate a map document (the JSON layout of ``smallworld_rules/maps/*.json``) and precompute
    its tables.

    Raises:
        MapError: naming the map and the region at fault.
    """
    if not isinstance(doc, Mapping):
        raise _fail(name, "a map file must hold a JSON object")
    for key in ("players", "turns", "regions"):
        if key not in doc:
            raise _fail(name, f"missing key {key!r}")
    players, turns, raw = doc["players"], doc["turns"], doc["regions"]
    if not isinstance(players, int) or not 1 <= players <= 8:
        raise _fail(name, f"'players' must be a whole number from 1 to 8, not {excerpt(players)}")
    if not isinstance(turns, int) or not 1 <= turns <= 99:
        raise _fail(name, f"'turns' must be a whole number from 1 to 99, not {excerpt(turns)}")
    if not isinstance(raw, list) or not raw or len(raw) > 60:
        raise _fail(name, "'regions' must be a list of 1 to 60 regions")
    n = len(raw)
    regions: list[Region] = []
    for index, r in enumerate(raw):
        where = f"{name}: region {index}"
        if not isinstance(r, Mapping):
            raise MapError(f"{where}: must be an object")
        if r.get("id") != index:
            raise MapError(f"{where}: 'id' must equal its position in the list ({index})")
        terrain = r.get("terrain")
        if terrain not in TERRAINS:
            raise MapError(
                f"{where}: unknown terrain {excerpt(terrain)} (known: {sorted(TERRAINS)})"
            )
        features = r.get("features", [])
        if not isinstance(features, list) or any(f not in FEATURES for f in features):
            raise MapError(
                f"{where}: unknown feature in {excerpt(features)} (known: {sorted(FEATURES)})"
            )
        adjacent = r.get("adjacent")
        if not isinstance(adjacent, list) or any(
            not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < n or a == index
            for a in adjacent
        ):
            raise MapError(f"{where}: 'adjacent' must list other region ids from 0 to {n - 1}")
        if len(set(adjacent)) != len(adjacent):
            raise MapError(f"{where}: 'adjacent' lists a region twice")
        edge, tribe = r.get("border", False), r.get("lost_tribe", False)
        if not isinstance(edge, bool) or not isinstance(tribe, bool):
            raise MapError(f"{where}: 'border' and 'lost_tribe' must be true or false")
        if terrain in WATER_TERRAINS and (features or tribe):
            raise MapError(f"{where}: a water region carries no symbol and no Lost Tribe")
        regions.append(Region(index, terrain, frozenset(features), tribe, edge, tuple(adjacent)))
    for r in regions:
        for a in r.adjacent:
            if r.id not in regions[a].adjacent:
                raise _fail(
                    name, f"region {r.id} lists {a} as adjacent but {a} does not list {r.id}"
                )

    def mask(pred: Any) -> int:
        return sum(1 << r.id for r in regions if pred(r))

    adjacency = tuple(sum(1 << a for a in r.adjacent) for r in regions)
    water = mask(lambda r: r.terrain in WATER_TERRAINS)
    edge_seas = mask(lambda r: r.terrain == "sea" and r.edge)
    return GameMap(
        name=name,
        players=players,
        turns=turns,
        regions=tuple(regions),
        adjacency=adjacency,
        terrain_masks={t: mask(lambda r, t=t: r.terrain == t) for t in sorted(TERRAINS)},
        feature_masks={f: mask(lambda r, f=f: f in r.features) for f in sorted(FEATURES)},
        all_mask=(1 << n) - 1,
        water_mask=water,
        coastal_mask=mask(lambda r: not (water >> r.id) & 1 and adjacency[r.id] & water),
        entry_mask=mask(lambda r: r.edge or adjacency[r.id] & edge_seas),
        lost_tribe_mask=mask(lambda r: r.lost_tribe),
    )


_CACHE: dict[str, GameMap] = {}


def load_map(name_or_path: str | Path) -> GameMap:
    """Load an official board by name (``"2p"`` … ``"5p"``) or a map file by path.

    Official boards are parsed once per process and cached.

    Raises:
        MapError: unknown name, unreadable file, or a malformed board.
    """
    key = str(name_or_path)
    if key in _CACHE:
        return _CACHE[key]
    if key in MAP_NAMES:
        text = resources.files(__name__).joinpath(f"{key}.json").read_text(encoding="utf-8")
        name = key
    else:
        path = Path(key)
        if path.suffix != ".json" or not path.is_file():
            names = ", ".join(MAP_NAMES)
            raise MapError(f"unknown map {key!r}: use one of {names} or a .json path")
        text, name = path.read_text(encoding="utf-8"), path.stem
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{name}: not valid JSON ({exc})") from None
    game_map = build_map(doc, name)
    _CACHE[key] = game_map
    return game_map


def map_for_players(players: int) -> str:
    """The official board for a player count (2 to 5)."""
    if not 2 <= players <= 5:
        raise MapError(f"the official boards are for 2 to 5 players, not {players}")
    return f"{players}p"


_GEOMETRY: dict[str, dict[str, Any]] = {}


def load_geometry(name: str) -> dict[str, Any] | None:
    """The drawing of an official board (``maps/geometry/<name>.json``), or ``None``.

    It holds ``width``, ``height`` and per region a ``polygon`` and a ``label`` point; polygons
    share a boundary segment exactly when the regions are adjacent (made by
    ``python -m smallworld_rules.maps.make_geometry``).

    >>> g = load_geometry("2p")
    >>> g["width"], len(g["regions"])
    (1200, 23)
    """
    if name not in MAP_NAMES:
        return None
    if name not in _GEOMETRY:
        text = resources.files(__name__).joinpath(f"geometry/{name}.json").read_text("utf-8")
        _GEOMETRY[name] = json.loads(text)
    return _GEOMETRY[name]
