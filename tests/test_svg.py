"""Pictures of the board (``smallworld_rules.svg``): every picture is a valid SVG document
with one shape per region, shapes that touch exactly as the regions border each other, and
every token on the map drawn with its count; names from rule files are escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules import svg
from smallworld_rules.maps import MAP_NAMES, build_map

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & "Bad" Folk'


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def shapes(root: ET.Element) -> dict[int, list[tuple[float, float]]]:
    found: dict[int, list[tuple[float, float]]] = {}
    for group in root.iter(f"{NS}g"):
        if "region" in group.get("class", "").split():
            (poly,) = [p for p in group.iter(f"{NS}polygon") if p.get("class") == "shape"]
            region = int(group.get("data-region", "-1"))
            assert region not in found
            found[region] = [
                (float(x), float(y))
                for x, y in (pt.split(",") for pt in (poly.get("points") or "").split())
            ]
    return found


def occupants(root: ET.Element) -> dict[int, int]:
    """Tokens drawn per region (read back from the occupant groups)."""
    drawn: dict[int, int] = {}
    for group in root.iter(f"{NS}g"):
        if group.get("class") == "contents":
            region = int(group.get("data-region", "-1"))
            for sub in group.iter(f"{NS}g"):
                if "occupant" in sub.get("class", "").split():
                    drawn[region] = drawn.get(region, 0) + int(sub.get("data-tokens", "0"))
    return drawn


def check_picture(text: str, game_map: sw.GameMap) -> ET.Element:
    """Valid SVG, one shape per region, shapes touching iff the regions are adjacent."""
    root = parse(text)
    drawn = shapes(root)
    assert sorted(drawn) == list(range(len(game_map.regions)))
    sides = {
        r: {frozenset(e) for e in pairwise([*poly, poly[0]])} for r, poly in drawn.items()
    }
    touching = {(a, b) for a in sides for b in sides if a < b and sides[a] & sides[b]}
    assert touching == {(r.id, a) for r in game_map.regions for a in r.adjacent if r.id < a}
    return root


def played(players: int, actions: int, seed: int = 3) -> sw.Game:
    game = sw.Game.new(players=players, seed=seed)
    bots = [sw.GreedyBot(p) for p in range(players)]
    for _ in range(actions):
        if game.is_over:
            break
        mover = game.to_move
        assert mover is not None and mover >= 0
        game.apply(bots[mover].choose(game.observation(mover), list(game.legal_actions())))
    return game


@pytest.mark.parametrize("name", MAP_NAMES)
def test_every_empty_map_is_drawn(name: str) -> None:
    """The empty board: a shape per region with its terrain, adjacency as in the map data,
    the printed Lost Tribe symbols, and no tokens."""
    game_map = sw.load_map(name)
    root = check_picture(svg.board(name), game_map)
    assert occupants(root) == {}
    terrains = {
        int(g.get("data-region", "-1")): g.get("data-terrain")
        for g in root.iter(f"{NS}g") if g.get("data-terrain")
    }
    assert terrains == {r.id: r.terrain for r in game_map.regions}
    tribes = svg.board(game_map).count(">Lost Tribe</text>")
    assert tribes == bin(game_map.lost_tribe_mask).count("1")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_positions_draw_every_token(players: int) -> None:
    """A position in play: every region's tokens are drawn with the right count, each
    occupant in its owner's colour."""
    game = played(players, 40 + 10 * players)
    root = check_picture(svg.board(game), game.map)
    expected = {r: game.region(r).tokens for r in range(len(game.map)) if game.region(r).tokens}
    assert occupants(root) == expected
    assert sum(expected.values()) > 0
    for group in root.iter(f"{NS}g"):
        if group.get("class") == "occupant":
            owner = int(group.get("data-owner", "-1"))
            (disc,) = group.iter(f"{NS}circle")
            assert disc.get("fill") == svg.PLAYER_COLOURS[owner]


def test_declined_races_lost_tribes_and_pieces_are_shown() -> None:
    """A race in decline is drawn as declined, a Lost Tribe as such, pieces by name and
    count."""
    game = sw.Game.new(players=2, seed=5)
    race = game.market[0][0]
    piece = sorted(game.rules.pieces)[0]
    game.put(1, 0, 3, declined=True, race=race)
    game.put(4, 1, 2, race=game.market[1][0], pieces={piece: 1})
    root = check_picture(svg.board(game), game.map)
    classes = {
        int(region.get("data-region", "-1")): g.get("class")
        for region in root.iter(f"{NS}g") if region.get("class") == "contents"
        for g in region.iter(f"{NS}g") if "occupant" in (g.get("class") or "")
    }
    assert classes[1] == "occupant declined"
    assert classes[4] == "occupant"
    assert all(classes[r] == "occupant lost-tribe" for r in range(len(game.map))
               if game.region(r).lost_tribe)
    marks = [t for t in root.iter(f"{NS}text") if t.get("data-piece") == piece]
    assert [(t.get("data-count"), t.text) for t in marks] == [("1", f"{piece} x1")]


def test_highlight_and_last_action() -> None:
    """Regions asked for are outlined in gold; the last action's region in red."""
    game = played(2, 3)
    last = game.action_stack[-1]
    region = getattr(last, "region", None)
    root = parse(svg.board(game, highlight=[2, 5, 99], size=600))
    gold = [int(p.get("data-region", "-1")) for p in root.iter(f"{NS}polygon")
            if p.get("class") == "highlight"]
    red = [int(p.get("data-region", "-1")) for p in root.iter(f"{NS}polygon")
           if p.get("class") == "last-action"]
    assert gold == [2, 5]
    assert red == ([region] if isinstance(region, int) else [])
    assert root.get("width") == "600"


def test_hostile_race_name_is_escaped(tmp_path: Path) -> None:
    """A custom race's name is data: it appears as text, never as markup, in the SVG and
    in the text board."""
    rule = tmp_path / "hostile.swr"
    name = HOSTILE.replace('"', "'")
    rule.write_text(f'race hostile "{name}" {{\n    tokens 5\n    box 10\n    text "x"\n}}\n')
    rules = sw.load_rules(paths=[rule])
    game = sw.Game.new(players=2, seed=1, rules=rules)
    game.put(3, 0, 2, race="hostile")
    text = svg.board(game)
    root = check_picture(text, game.map)
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    assert "<script" not in text
    assert any(name in (t.text or "") for t in root.iter(f"{NS}text"))
    assert name in str(game)


def test_expansion_zones_in_the_panel() -> None:
    """An expansion's zones are listed by name beside the board."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    game = sw.Game.new(players=3, seed=1, rules=rules)
    root = parse(svg.board(game))
    zone_texts = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "zone"]
    assert len(zone_texts) == len(rules.zones) > 0
    for zone in rules.zones.values():
        assert any(zone.name in (t or "") for t in zone_texts)


def test_jupyter_and_unknown_map() -> None:
    """``Game._repr_svg_`` gives the picture; an unknown map name is a MapError."""
    game = sw.Game.new(players=2, seed=1)
    assert game._repr_svg_() == svg.board(game)
    with pytest.raises(sw.MapError):
        svg.board("9p")


def test_custom_map_is_drawn_from_its_topology() -> None:
    """A board of one's own is drawn by the same method: shapes touch iff adjacent."""
    ring = [0, 1, 2, 3, 4]  # edge regions around one inner region 5
    regions = []
    for i in ring:
        adjacent = sorted({ring[(i + 1) % 5], ring[(i - 1) % 5], 5})
        terrain = "sea" if i == 0 else "hill"
        regions.append({"id": i, "terrain": terrain, "border": True, "adjacent": adjacent})
    regions.append({"id": 5, "terrain": "forest", "border": False, "adjacent": ring})
    game_map = build_map({"players": 2, "turns": 5, "regions": regions}, "ring")
    check_picture(svg.board(game_map), game_map)


def test_a_map_without_an_edge_ring_is_refused() -> None:
    """A custom board whose edge regions form no ring cannot be drawn: a MapError says so."""
    regions = [
        {"id": 0, "terrain": "hill", "border": True, "adjacent": [1]},
        {"id": 1, "terrain": "hill", "border": True, "adjacent": [0, 2]},
        {"id": 2, "terrain": "hill", "border": False, "adjacent": [1]},
    ]
    game_map = build_map({"players": 2, "turns": 5, "regions": regions}, "path")
    with pytest.raises(sw.MapError, match="cannot draw the path map"):
        svg.board(game_map)
