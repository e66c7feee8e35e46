"""Draw each board: one polygon per region, touching exactly its neighbours.

Run ``python -m smallworld_rules.maps.make_geometry`` to regenerate ``maps/geometry/*.json``
from the map files; the output is deterministic (no randomness, fixed iteration counts).

The method, from the topology alone (the maps record no positions):

1. **The edge ring.** The regions flagged ``border`` touch the edge of the board, so together
   they form a closed chain of neighbours around it. Every such cycle through all of them is
   found by back-tracking search over the border regions' own borders.
2. **A straight-line drawing** (Tutte's barycentric embedding): the ring is pinned to an
   ellipse, and every inner region is put at the average of its neighbours (an iterated linear
   solve). For a planar map with its edge regions on the outside this draws every border as a
   straight segment with no two crossing. The ring's direction and starting angle are chosen
   so that region ids read left to right and top to bottom as on the printed board (ids follow
   that reading order), and the result is checked to have no crossing segments.
3. **Regions from the drawing** (the barycentric dual): each face of the drawing gets a corner
   point at its centre, each border segment a point at its middle; a region's polygon walks
   around it through the middles of its borders and the centres of its faces. Two regions
   therefore share the boundary piece *centre, middle, centre* exactly when they share a
   border, and regions on a common face meet at one point only. Edge regions are extended
   outwards to a rectangular frame.
   An inner region with just two neighbours that border each other (a peninsula) would be
   drawn flat between them; it is left out of the drawing and carved out of their shared
   border afterwards, so it touches those two only.
4. **Relaxation**: the shared points are smoothed (moved towards their neighbours along the
   polygons), then pushed a few pixels at a time out of regions smaller than their share of
   the board and into larger ones (regions with few neighbours get a smaller share). A move
   that would make a polygon cross itself or turn the other way is not made, so the shapes
   keep tiling the frame and touching exactly as before.

The JSON holds, per region, the polygon (integer coordinates in a ``width`` × ``height``
frame) and a label point inside it. ``tests/test_geometry.py`` checks for all four maps that
polygons share a boundary segment iff the regions are adjacent, that they tile the frame, and
that each region is one simple polygon.
"""

from __future__ import annotations

import json
import math
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from smallworld_rules.maps import MAP_NAMES

Point = tuple[float, float]

WIDTH, HEIGHT = 1200, 800
_RING_RX, _RING_RY = 0.47 * WIDTH, 0.46 * HEIGHT
_CX, _CY = WIDTH / 2, HEIGHT / 2


def _rings(adjacent: list[set[int]], border: list[int]) -> list[list[int]]:
    """Every Hamiltonian cycle of the border regions (each once, starting at the lowest id)."""
    members = set(border)
    start = min(border)
    found: list[list[int]] = []

    def extend(path: list[int], seen: set[int]) -> None:
        if len(found) >= 200:
            return
        last = path[-1]
        if len(path) == len(members):
            if start in adjacent[last] and path[1] < path[-1]:  # one direction of each cycle
                found.append(list(path))
            return
        for nxt in sorted(adjacent[last] & members - seen):
            seen.add(nxt)
            path.append(nxt)
            extend(path, seen)
            path.pop()
            seen.discard(nxt)

    extend([start], {start})
    return found


def _tutte(adjacent: list[set[int]], fixed: dict[int, Point], rounds: int) -> list[Point]:
    n = len(adjacent)
    pos: list[Point] = [fixed.get(v, (_CX, _CY)) for v in range(n)]
    free = [v for v in range(n) if v not in fixed and adjacent[v]]
    for _ in range(rounds):
        for v in free:
            xs = [pos[u][0] for u in adjacent[v]]
            ys = [pos[u][1] for u in adjacent[v]]
            pos[v] = (sum(xs) / len(xs), sum(ys) / len(ys))
    return pos


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two segments cross at a point inside both (touching ends do not count)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _planar(adjacent: list[set[int]], pos: list[Point]) -> bool:
    edges = [(u, v) for u in range(len(adjacent)) for v in adjacent[u] if u < v]
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1:]:
            if len({a, b, c, d}) == 4 and _segments_cross(pos[a], pos[b], pos[c], pos[d]):
                return False
    return True


def _reading_score(pos: list[Point]) -> float:
    """How well ids follow the reading order: the share of id pairs in order.

    A pair is in order when the higher id lies clearly lower, or, at about the same height,
    further right.
    """
    n = len(pos)
    good = 0
    for i in range(n):
        for j in range(i + 1, n):
            dy, dx = pos[j][1] - pos[i][1], pos[j][0] - pos[i][0]
            good += dy > 0 if abs(dy) > HEIGHT / 10 else dx > 0
    return good / (n * (n - 1) / 2)


def _layout(adjacent: list[set[int]], border: list[int]) -> list[Point]:
    best: tuple[float, dict[int, Point]] | None = None
    for ring in _rings(adjacent, border):
        k = len(ring)
        for direction in (1, -1):
            for step in range(2 * k):
                offset = math.pi * 0.75 + step * math.pi / k  # start near the top left
                fixed = {
                    v: (
                        _CX + _RING_RX * math.cos(offset - direction * 2 * math.pi * i / k),
                        _CY - _RING_RY * math.sin(offset - direction * 2 * math.pi * i / k),
                    )
                    for i, v in enumerate(ring)
                }
                # A coarse solve ranks the candidates; the winner is solved fully below.
                pos = _tutte(adjacent, fixed, 300)
                score = _reading_score(pos)
                if (best is None or score > best[0]) and _planar(adjacent, pos):
                    best = (score, fixed)
    if best is None:
        raise ValueError("no planar drawing with the edge regions on the outside was found")
    return _tutte(adjacent, best[1], 3000)


def _angle(a: Point, b: Point) -> float:
    return math.atan2(-(b[1] - a[1]), b[0] - a[0])  # counter-clockwise with y pointing down


def _frame_point(p: Point) -> Point:
    """Where the ray from the centre through ``p`` leaves the frame."""
    dx, dy = p[0] - _CX, p[1] - _CY
    t = min(
        (WIDTH / 2) / abs(dx) if dx else math.inf,
        (HEIGHT / 2) / abs(dy) if dy else math.inf,
    )
    return (_CX + dx * t, _CY + dy * t)


_CORNERS: list[Point] = [(WIDTH, 0.0), (0.0, 0.0), (0.0, HEIGHT), (WIDTH, HEIGHT)]


def _corners_between(a: Point, b: Point) -> list[Point]:
    """Frame corners met going counter-clockwise (around the centre) from ``a`` to ``b``."""
    start, end = _angle((_CX, _CY), a), _angle((_CX, _CY), b)
    span = (end - start) % (2 * math.pi)
    found = []
    for c in _CORNERS:
        along = (_angle((_CX, _CY), c) - start) % (2 * math.pi)
        if 0 < along < span:
            found.append((along, c))
    return [c for _, c in sorted(found)]


def _area(poly: list[Point]) -> float:
    return sum(
        poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1]
        for i in range(len(poly))
    ) / 2


def _simple(poly: list[Point]) -> bool:
    n = len(poly)
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if _segments_cross(poly[i], poly[(i + 1) % n], poly[j], poly[(j + 1) % n]):
                return False
    return True


def build(doc: dict[str, Any]) -> dict[str, Any]:
    """The geometry document of one map document."""
    regions = doc["regions"]
    n = len(regions)
    border = [r["id"] for r in regions if r["border"]]
    adjacent = [set(r["adjacent"]) for r in regions]
    # An inner region with two neighbours that border each other would be drawn flat between
    # them: it is left out of the drawing and carved out of their shared border afterwards.
    pinched = {
        v: (min(adj), max(adj))
        for v, adj in enumerate(adjacent)
        if v not in border and len(adj) == 2 and max(adj) in adjacent[min(adj)]
    }
    for v in pinched:
        for u in adjacent[v]:
            adjacent[u].discard(v)
        adjacent[v] = set()
    pos = _layout(adjacent, border)
    ring_edges: set[frozenset[int]] = set()
    ring = set(border)

    def around_of(v: int) -> list[int]:
        return sorted(adjacent[v], key=lambda u: _angle(pos[v], pos[u]))

    order = [around_of(v) for v in range(n)]

    # Faces: the face left of the directed border u->v continues with v->w, w being the
    # neighbour of v just before u counter-clockwise.
    face_of: dict[tuple[int, int], int] = {}
    faces: list[list[int]] = []
    for u in range(n):
        for v in adjacent[u]:
            if (u, v) in face_of:
                continue
            face: list[int] = []
            a, b = u, v
            while (a, b) not in face_of:
                face_of[(a, b)] = len(faces)
                face.append(a)
                around = order[b]
                a, b = b, around[(around.index(a) - 1) % len(around)]
            faces.append(face)
    areas = [_area([pos[v] for v in f]) for f in faces]
    # y points down, so counter-clockwise faces have negative area; the outer face is the
    # one turning the other way.
    outer = max(range(len(faces)), key=lambda f: areas[f])
    for i, v in enumerate(faces[outer]):
        ring_edges.add(frozenset((v, faces[outer][(i + 1) % len(faces[outer])])))
    if set(faces[outer]) != ring:
        raise ValueError("the outer face of the drawing is not the ring of edge regions")

    # Points shared between polygons, by key, so that shared boundaries are identical.
    points: dict[Any, Point] = {}
    for f, face in enumerate(faces):
        if f != outer:
            points[("face", f)] = (
                sum(pos[v][0] for v in face) / len(face),
                sum(pos[v][1] for v in face) / len(face),
            )
    for u in range(n):
        for v in adjacent[u]:
            if u < v:
                mid = ((pos[u][0] + pos[v][0]) / 2, (pos[u][1] + pos[v][1]) / 2)
                points[("mid", u, v)] = mid
                if frozenset((u, v)) in ring_edges:
                    points[("out", u, v)] = _frame_point(mid)

    def mid_key(u: int, v: int) -> tuple[str, int, int]:
        return ("mid", min(u, v), max(u, v))

    polys: list[list[Any]] = []
    for v in range(n):
        keys: list[Any] = []
        around = order[v]
        if v in pinched:
            polys.append(keys)
            continue
        for i, u in enumerate(around):
            keys.append(mid_key(v, u))
            f = face_of[(v, u)]
            if f != outer:
                keys.append(("face", f))
            else:
                w = around[(i + 1) % len(around)]
                into, out = ("out", min(u, v), max(u, v)), ("out", min(v, w), max(v, w))
                keys.append(into)
                for c in _corners_between(points[into], points[out]):
                    keys.append(("corner", c))
                    points[("corner", c)] = c
                keys.append(out)
        polys.append(keys)

    for v, (a, b) in pinched.items():
        pos[v] = _carve(points, polys, v, a, b, pos)
    _relax(points, polys, pos, [set(r["adjacent"]) for r in regions])

    out_regions = []
    for v in range(n):
        poly = [points[k] for k in polys[v]]
        out_regions.append(
            {
                "id": v,
                "polygon": [[round(x, 1), round(y, 1)] for x, y in poly],
                "label": [round(c, 1) for c in _label_point(poly)],
            }
        )
    return {
        "map": doc.get("name", ""),
        "width": WIDTH,
        "height": HEIGHT,
        "method": "smallworld_rules.maps.make_geometry (Tutte drawing, barycentric dual)",
        "regions": out_regions,
    }


def _carve(
    points: dict[Any, Point], polys: list[list[Any]], v: int, a: int, b: int, pos: list[Point]
) -> Point:
    """Cut region ``v`` out of the border of ``a`` and ``b``, around its middle.

    The border ``x, middle, y`` becomes ``x, px, qa, py, y`` for ``a`` (``qa`` towards ``a``'s
    point, inside its star-shaped polygon) and ``y, py, qb, px, x`` for ``b``; ``v`` is the
    quadrilateral between, so it touches ``a`` and ``b`` only, which still touch each other.
    """
    mid = ("mid", a, b)
    m = points[mid]
    ka = polys[a]
    i = ka.index(mid)
    x, y = ka[i - 1], ka[(i + 1) % len(ka)]

    def towards(p: Point, share: float) -> Point:
        return (m[0] + (p[0] - m[0]) * share, m[1] + (p[1] - m[1]) * share)

    px, py = ("carve", v, "x"), ("carve", v, "y")
    qa, qb = ("carve", v, "a"), ("carve", v, "b")
    points[px], points[py] = towards(points[x], 0.75), towards(points[y], 0.75)
    points[qa], points[qb] = towards(pos[a], 0.6), towards(pos[b], 0.6)
    ka[i:i + 1] = [px, qa, py]
    kb = polys[b]
    j = kb.index(mid)
    kb[j:j + 1] = [py, qb, px]
    polys[v] = [py, qa, px, qb]
    corners = [points[k] for k in polys[v]]
    return (sum(c[0] for c in corners) / 4, sum(c[1] for c in corners) / 4)


def _relax(
    points: dict[Any, Point], polys: list[list[Any]], pos: list[Point], degree: list[set[int]]
) -> None:
    """Even out the drawing, never folding a polygon.

    Each round moves every shared point towards the average of its neighbours along the
    polygons (smoothing: half-way in the first rounds, a tenth later), then a few pixels
    away from the middle of each region smaller than the mean and towards that of each
    larger one (evening out the sizes). A move that would make a polygon cross itself or
    turn the other way is not made.
    """
    near: dict[Any, set[Any]] = {}
    owners: dict[Any, set[int]] = {}
    for v, keys in enumerate(polys):
        for i, k in enumerate(keys):
            owners.setdefault(k, set()).add(v)
            near.setdefault(k, set()).update((keys[i - 1], keys[(i + 1) % len(keys)]))
    signs = [_area([points[k] for k in keys]) < 0 for keys in polys]
    movable = sorted((k for k in near if k[0] in ("face", "mid", "carve")), key=repr)

    def move(k: Any, to: Point, keep_inside: bool) -> None:
        old = points[k]
        points[k] = to
        for v in owners[k]:
            shape = [points[j] for j in polys[v]]
            if (_area(shape) < 0) != signs[v] or not _simple(shape) or (
                keep_inside and not _inside(pos[v], shape)
            ):
                points[k] = old
                return

    # A region with few neighbours is drawn smaller (the printed boards' are, too).
    mean = WIDTH * HEIGHT / len(polys)
    wanted = [mean * min(1.0, (len(degree[v]) + 1) / 5) for v in range(len(polys))]
    for round_ in range(110):
        # Smoothing also flattens small bumps, so it is gentle once the sizes are evened out.
        share = 0.5 if round_ < 20 else 0.1
        for k in movable:
            if round_ >= 20 and k[0] == "carve":  # a carved region would be flattened away
                continue
            xs = [points[j][0] for j in near[k]]
            ys = [points[j][1] for j in near[k]]
            old = points[k]
            target = (sum(xs) / len(xs), sum(ys) / len(ys))
            move(k, (old[0] + (target[0] - old[0]) * share, old[1] + (target[1] - old[1]) * share),
                 keep_inside=round_ < 20)
        if round_ < 20:
            continue
        shapes = [[points[k] for k in keys] for keys in polys]
        areas = [abs(_area(shape)) for shape in shapes]
        middles = [
            (sum(p[0] for p in shape) / len(shape), sum(p[1] for p in shape) / len(shape))
            for shape in shapes
        ]
        for k in movable:
            old = points[k]
            dx = dy = 0.0
            for v in owners[k]:
                mx, my = middles[v]
                length = math.hypot(old[0] - mx, old[1] - my) or 1.0
                push = max(-1.0, min(1.0, 1 - areas[v] / wanted[v]))
                dx += push * (old[0] - mx) / length
                dy += push * (old[1] - my) / length
            step = math.hypot(dx, dy)
            if step > 1e-9:
                scale = min(4.0, 4.0 * step) / step
                move(k, (old[0] + dx * scale, old[1] + dy * scale), keep_inside=False)


def _inside(p: Point, poly: list[Point]) -> bool:
    x, y = p
    inside = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _label_point(poly: list[Point]) -> Point:
    """The sampled point of the polygon furthest from its boundary (room for a label)."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    best, room = poly[0], -1.0
    steps = 24
    for i in range(1, steps):
        for j in range(1, steps):
            p = (
                min(xs) + (max(xs) - min(xs)) * i / steps,
                min(ys) + (max(ys) - min(ys)) * j / steps,
            )
            if _inside(p, poly):
                d = min(
                    _to_segment(p, poly[k], poly[(k + 1) % len(poly)]) for k in range(len(poly))
                )
                if d > room:
                    best, room = p, d
    return best


def _to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    along = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length if length else 0.0
    t = max(0.0, min(1.0, along))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def main(argv: list[str] | None = None) -> int:
    """Write ``geometry/<map>.json`` for every official map (or the maps named)."""
    names = (argv if argv is not None else sys.argv[1:]) or list(MAP_NAMES)
    here = Path(str(resources.files("smallworld_rules.maps")))
    (here / "geometry").mkdir(exist_ok=True)
    for name in names:
        doc = json.loads((here / f"{name}.json").read_text(encoding="utf-8"))
        doc.setdefault("name", name)
        geometry = build(doc)
        geometry["map"] = name
        target = here / "geometry" / f"{name}.json"
        target.write_text(json.dumps(geometry, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
