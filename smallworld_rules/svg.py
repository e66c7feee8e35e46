"""Pictures of the board as SVG text (like ``chess.svg.board``), no dependency needed.

>>> import smallworld_rules as sw
>>> from smallworld_rules import svg
>>> game = sw.Game.new(players=2, seed=1)
>>> picture = svg.board(game, highlight=[3, 4])
>>> picture.startswith("<svg") and picture.count('class="shape"') == 23
True
>>> svg.board("3p").count('class="shape"')  # a map alone: terrain, symbols, ids
30

Each region is drawn from the map's geometry (``maps/geometry``): its terrain colour, its id,
its symbols (mines, caverns, magic sources; Mountains show a peak), and what stands there: a
disc in the owner's colour with the token count and the race's name (a hatched disc for a race
in decline, a grey one for a Lost Tribe) and the pieces by name. Regions of the last action are
outlined in red, regions asked for in ``highlight`` in gold. A side panel lists the players,
the market, the zones of an expansion and a legend.

Every text that comes from a rule file or a record (race names, piece names, zone names) is
escaped: a name cannot inject markup. Elements carry ``data-*`` attributes (``data-region``,
``data-owner``, ``data-tokens``, ``data-piece``) so that a program or a test can read the
picture back.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING, Any

from smallworld_rules.errors import MapError
from smallworld_rules.maps import GameMap, load_geometry, load_map
from smallworld_rules.textboard import combo_name, seat_name, status_line, token_names

if TYPE_CHECKING:
    from smallworld_rules.game import Game

#: Fill colour of each terrain.
TERRAIN_COLOURS = {
    "farmland": "#e8d877",
    "forest": "#4b9447",
    "hill": "#a9d27c",
    "mountain": "#a0958c",
    "swamp": "#71917c",
    "sea": "#4f8fd6",
    "lake": "#8cc2f2",
}
#: Colour of each seat, in order.
PLAYER_COLOURS = (
    "#d7263d", "#1b65d6", "#f2a007", "#7b2cbf", "#17a589", "#e4572e", "#222222", "#ff66b3",
)
_PANEL = 330
_FONT = "font-family:DejaVu Sans,Verdana,Arial,sans-serif"

_STYLE = f"""
.smallworld-board text {{ {_FONT}; }}
.shape {{ stroke: #2b2b2b; stroke-width: 2; stroke-linejoin: round; }}
.region-id {{ font-size: 17px; font-weight: bold; fill: #1a1a1a; }}
.water .region-id {{ fill: #ffffff; }}
.occupant-count {{ font-size: 15px; font-weight: bold; fill: #ffffff; }}
.occupant-race, .piece {{ font-size: 12px; fill: #111111; }}
.declined-disc {{ stroke-dasharray: 4 3; }}
.highlight {{ fill: none; stroke: #ffd400; stroke-width: 7; stroke-linejoin: round; }}
.last-action {{ fill: none; stroke: #e0001b; stroke-width: 5; stroke-dasharray: 12 6; }}
.panel text {{ font-size: 14px; fill: #1a1a1a; }}
.panel .heading {{ font-size: 16px; font-weight: bold; }}
"""


#: Drawings made for custom maps, by their map document (a drawing takes a second or two).
_DRAWN: dict[str, dict[str, Any]] = {}


def _geometry(game_map: GameMap) -> dict[str, Any]:
    """The drawing of a board: shipped for the official maps, made on the fly otherwise."""
    geometry = load_geometry(game_map.name)
    if geometry is not None and len(geometry["regions"]) == len(game_map.regions):
        return geometry
    from smallworld_rules.maps.make_geometry import build

    key = repr(game_map.to_dict())
    if key not in _DRAWN:
        try:
            _DRAWN[key] = build(game_map.to_dict())
        except (ValueError, KeyError, ZeroDivisionError):
            raise MapError(
                f"cannot draw the {game_map.name} map: its edge regions form no ring "
                "around the others"
            ) from None
    return _DRAWN[key]


def _text(x: float, y: float, text: str, cls: str, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}" text-anchor="middle"{extra}>'
        f"{escape(text)}</text>"
    )


def _points(poly: Iterable[Iterable[float]]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in poly)


def _symbol(kind: str, x: float, y: float) -> str:
    """A small drawn symbol: the Mountain's peak, a mine, a cavern or a magic source."""
    if kind == "mountain":
        return (
            f'<path class="symbol mountain-peak" d="M{x - 11:.1f},{y + 7:.1f} L{x:.1f},'
            f'{y - 9:.1f} L{x + 11:.1f},{y + 7:.1f} Z" fill="#5d534b" stroke="#fff"/>'
        )
    if kind == "mine":
        return (
            f'<rect class="symbol mine" x="{x - 7:.1f}" y="{y - 7:.1f}" width="14" height="14"'
            f' transform="rotate(45 {x:.1f} {y:.1f})" fill="#f4c430" stroke="#5a4500"/>'
        )
    if kind == "cavern":
        return (
            f'<path class="symbol cavern" d="M{x - 9:.1f},{y + 6:.1f} A9,10 0 0 1 '
            f'{x + 9:.1f},{y + 6:.1f} Z" fill="#222" stroke="#ddd"/>'
        )
    # magic source: a star
    spikes = []
    for i in range(10):
        r = 9 if i % 2 == 0 else 4
        a = math.pi / 2 + i * math.pi / 5
        spikes.append(f"{x + r * math.cos(a):.1f},{y - r * math.sin(a):.1f}")
    return (
        f'<polygon class="symbol magic" points="{" ".join(spikes)}" fill="#c77dff"'
        f' stroke="#3c096c"/>'
    )


def _last_regions(game: Game) -> list[int]:
    stack = game.action_stack
    if not stack:
        return []
    last = stack[-1]
    found = [getattr(last, field, None) for field in ("region", "target")]
    return [r for r in found if isinstance(r, int) and 0 <= r < len(game.map.regions)]


def _region(game_map: GameMap, shape: dict[str, Any], printed_tribes: bool) -> str:
    """A region as printed: its shape, id and symbols (and the Lost Tribe symbol if asked)."""
    spec = game_map.regions[shape["id"]]
    x, y = shape["label"]
    water = spec.terrain in ("sea", "lake")
    out = [
        f'<g class="region{" water" if water else ""}" data-region="{spec.id}"'
        f' data-terrain="{spec.terrain}">',
        f'<polygon class="shape" points="{_points(shape["polygon"])}"'
        f' fill="{TERRAIN_COLOURS.get(spec.terrain, "#cccccc")}"/>',
        _text(x, y - 12, str(spec.id), "region-id"),
    ]
    symbols = (["mountain"] if spec.terrain == "mountain" else []) + sorted(spec.features)
    for i, kind in enumerate(symbols):
        out.append(_symbol(kind, x - 12 * (len(symbols) - 1) + 24 * i, y - 36))
    if printed_tribes and spec.lost_tribe:
        out.append(_text(x, y + 12, "Lost Tribe", "occupant-race"))
    out.append("</g>")
    return "".join(out)


def _occupant(game: Game, region: int, x: float, y: float, names: dict[str, str]) -> str:
    view = game.region(region)
    out = [f'<g class="contents" data-region="{region}">']
    if view.tokens:
        if view.lost_tribe:
            fill, label, owner, cls = "#6b6b6b", "Lost Tribe", "", "occupant lost-tribe"
        else:
            owner_seat = view.owner if view.owner is not None else -1
            fill = PLAYER_COLOURS[owner_seat % len(PLAYER_COLOURS)] if owner_seat >= 0 else "#444"
            race = view.race or ""
            label = names.get(race, race) + (" (declined)" if view.declined else "")
            owner = str(view.owner) if view.owner is not None else ""
            cls = "occupant declined" if view.declined else "occupant"
        disc = (
            f'<circle class="occupant-disc{" declined-disc" if view.declined else ""}"'
            f' cx="{x:.1f}" cy="{y:.1f}" r="14" fill="{fill}" stroke="#ffffff" stroke-width="2"'
            + (' fill-opacity="0.55"' if view.declined else "")
            + "/>"
        )
        out.append(
            f'<g class="{cls}" data-owner="{owner}" data-race="{escape(view.race or "")}"'
            f' data-tokens="{view.tokens}">{disc}'
            + _text(x, y + 5, str(view.tokens), "occupant-count")
            + _text(x, y + 28, label, "occupant-race")
            + "</g>"
        )
    for i, (name, count) in enumerate(sorted(view.pieces.items())):
        if count:
            out.append(
                _text(
                    x, y + 42 + 13 * i, f"{name} x{count}", "piece",
                    data_piece=name, data_count=str(count),
                )
            )
    out.append("</g>")
    return "".join(out)


def _outline(shape: dict[str, Any], cls: str) -> str:
    return (
        f'<polygon class="{cls}" data-region="{shape["id"]}"'
        f' points="{_points(shape["polygon"])}"/>'
    )


def _panel(game: Game | None, game_map: GameMap, x: float, height: float) -> str:
    lines: list[tuple[str, str, str | None]] = []  # (text, class, swatch colour)
    if game is None:
        lines.append((f"The {game_map.name} map", "heading", None))
        lines.append((f"{len(game_map.regions)} regions, {game_map.turns} turns", "", None))
    else:
        rules, names = game.rules, token_names(game.rules)
        lines.append((status_line(game), "heading", None))
        for p in range(game.players):
            what = combo_name(game, p) or "no race yet"
            lines.append((f"{seat_name(game, p)}: {what}, {game.coins(p)} coins", "player",
                          PLAYER_COLOURS[p % len(PLAYER_COLOURS)]))
            for declined in game.declined_races(p):
                lines.append((f"    in decline: {names.get(declined, declined)}", "", None))
        lines.append(("Market", "heading", None))
        for i, (race, power, coins) in enumerate(game.market):
            extra = f" +{coins}" if coins else ""
            lines.append(
                (f"{i}. {rules.powers[power].name} {rules.races[race].name}{extra}", "", None)
            )
        if rules.zones:
            lines.append(("Off the map", "heading", None))
        for zone_id, zone in rules.zones.items():
            held = game.zone(zone_id)
            kinds = ", ".join(f"{names.get(k, k)} x{n}" for k, n in held.items() if n)
            lines.append((f"{zone.name}: {kinds or 'empty'}", "zone", None))
        last = game.action_stack[-1:] if game.action_stack else ()
        if last:
            lines.append((f"last: {last[0]!r}", "", None))
    lines.append(("Legend", "heading", None))
    for terrain, colour in TERRAIN_COLOURS.items():
        lines.append((terrain, "legend", colour))
    out = [f'<g class="panel"><rect x="{x}" y="0" width="{_PANEL}" height="{height}"'
           f' fill="#f7f3e8" stroke="#2b2b2b" stroke-width="2"/>']
    y = 26.0
    for text, cls, swatch in lines:
        tx = x + 14 + (24 if swatch else 0)
        if swatch:
            out.append(f'<rect x="{x + 12}" y="{y - 13}" width="18" height="16" fill="{swatch}"'
                       ' stroke="#2b2b2b"/>')
        for i, part in enumerate(textwrap.wrap(text, 30 if cls == "heading" else 36)[:3]):
            indent = 12 if i else 0
            out.append(
                f'<text x="{tx + indent}" y="{y:.1f}" class="{cls}">{escape(part)}</text>'
            )
            y += 22 if cls == "heading" else 19
    for i, kind in enumerate(("mountain", "mine", "cavern", "magic")):
        sx = x + 26 + 78 * i
        out.append(_symbol(kind, sx, y))
        label = "peak" if kind == "mountain" else kind
        out.append(f'<text x="{sx - 8}" y="{y + 26:.1f}" class="legend">{label}</text>')
    out.append("</g>")
    return "".join(out)


def _drawing(game_map: GameMap) -> tuple[dict[str, Any], int, int]:
    geometry = _geometry(game_map)
    return geometry, geometry["width"] + _PANEL, geometry["height"]


def base(game_map: GameMap, *, printed_tribes: bool = False, size: int | None = None) -> str:
    """The opening of the SVG document with what never changes: the regions as printed.

    :func:`board` is ``base`` + :func:`overlay` + ``"</svg>"``; the replay viewer draws the
    base once and swaps the overlay at every step.
    """
    geometry, width, height = _drawing(game_map)
    shown = f' width="{size}" height="{round(size * height / width)}"' if size else ""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="smallworld-board" role="img"'
        f' viewBox="0 0 {width} {height}"{shown}>',
        f"<title>Small World, the {escape(game_map.name)} map</title><style>{_STYLE}</style>",
        f'<rect x="0" y="0" width="{geometry["width"]}" height="{height}" fill="#fbf7ec"/>',
    ]
    out += [_region(game_map, shape, printed_tribes) for shape in geometry["regions"]]
    return "\n".join(out)


def overlay_parts(
    game: Game | None, game_map: GameMap, highlight: Iterable[int] = ()
) -> list[str]:
    """The pieces of :func:`overlay`: each region's contents, the outlines, the panel.

    Most of them stay the same from one step of a game to the next, so the replay viewer
    stores each distinct piece once.
    """
    geometry, _, height = _drawing(game_map)
    shapes = geometry["regions"]
    wanted = {r for r in highlight if isinstance(r, int) and 0 <= r < len(game_map.regions)}
    out = []
    if game is not None:
        names = token_names(game.rules)
        out += [
            _occupant(game, s["id"], s["label"][0], s["label"][1] + 10, names) for s in shapes
        ]
        out += [_outline(shapes[r], "last-action") for r in _last_regions(game)]
    out += [_outline(shapes[r], "highlight") for r in sorted(wanted)]
    out.append(_panel(game, game_map, geometry["width"], height))
    return out


def overlay(game: Game | None, game_map: GameMap, highlight: Iterable[int] = ()) -> str:
    """What stands on the board now, the outlines and the side panel (see :func:`base`)."""
    return "\n".join(['<g class="overlay">', *overlay_parts(game, game_map, highlight), "</g>"])


def board(
    game_or_map: Game | GameMap | str,
    *,
    highlight: Iterable[int] = (),
    size: int | None = None,
) -> str:
    """The board as an SVG document (a ``str``), e.g. to save as ``.svg`` or show in Jupyter.

    Args:
        game_or_map: a :class:`~smallworld_rules.Game` (the position), a
            :class:`~smallworld_rules.GameMap` or a map name (the empty board).
        highlight: regions to outline in gold (legal targets, say).
        size: the picture's width in pixels (the height follows); default: natural size.

    Raises:
        MapError: a map name that is not known, or a custom map that cannot be drawn.
    """
    # Anything but a map or a map's name is a game: svg sits above the façade, which draws
    # itself through this module, so it does not import Game back.
    game: Game | None = None
    if isinstance(game_or_map, GameMap):
        game_map = game_or_map
    elif isinstance(game_or_map, str):
        game_map = load_map(game_or_map)
    else:
        game = game_or_map
        game_map = game.map
    parts = [
        base(game_map, printed_tribes=game is None, size=size),
        overlay(game, game_map, highlight),
        "</svg>",
    ]
    return "\n".join(parts)
