"""Write the committed pictures of the docs and the README: ``python docs/make_pictures.py``.

The Maps page and the tutorial draw theirs at every docs build (``gen_pages.py``); the
README's picture is committed (``docs/images/position.svg``) because GitHub shows the README
without building anything. ``tests/test_pictures.py`` checks that it is what this script
makes now.
"""

from __future__ import annotations

from pathlib import Path

import smallworld_rules as sw
from smallworld_rules import svg

IMAGES = Path(__file__).resolve().parent / "images"


def position() -> sw.Game:
    """A 3-player game between greedy bots, a few turns in, stopped after a conquest."""
    game = sw.Game.new(players=3, seed=5)
    bots = [sw.GreedyBot(p) for p in range(3)]
    while game.round < 4 or not isinstance(game.action_stack[-1], sw.Conquer):
        mover = game.to_move
        assert mover is not None and mover >= 0
        game.apply(bots[mover].choose(game.observation(mover), list(game.legal_actions())))
    return game


#: The turn flow: boxes (id, centre x, centre y, width, lines, style) and arrows (from, to,
#: label, bend points). Phases are ``game.phase`` values; arrows are the actions. Labels go
#: beside the arrow's longest segment, or where ``_LABEL_AT`` puts them.
_BOXES = [
    ("start", 450, 30, 220, ["a turn starts"], "end"),
    ("race", 450, 105, 300, ["an active race?"], "ask"),
    ("pick", 190, 190, 280, ["PICK", "PickCombo(k)"], "phase"),
    ("ready", 690, 190, 320, ["ready troops: all but one token", "per region back to the hand"],
     "step"),
    ("choose", 690, 285, 280, ["decline or expand?"], "ask"),
    ("conquest", 450, 385, 420, ["CONQUEST", "Abandon(r), Conquer(r), UseAbility(…)"], "phase"),
    ("die", 150, 490, 250, ["DIE_ROLL (a chance node)", "RollDie(face)"], "chance"),
    ("redeploy", 450, 490, 300, ["REDEPLOY", "Deploy(r, n), then EndTurn()"], "phase"),
    ("withdrawal", 450, 590, 380, ["WITHDRAWAL", "each defender places its surviving tokens"],
     "phase"),
    ("score", 450, 690, 380, ["score: a coin per region,", "plus what races and powers add"],
     "step"),
    ("next", 450, 775, 360, ["the next player's turn", "(after the last turn: OVER)"], "end"),
]
_ARROWS = [
    ("start", "race", "", []),
    ("race", "pick", "no (first turn, or after a decline)", [(190, 105)]),
    ("race", "ready", "yes", [(690, 105)]),
    ("pick", "conquest", "", [(190, 330), (380, 330)]),
    ("ready", "choose", "", []),
    ("choose", "conquest", "expand", [(690, 340), (450, 340)]),
    ("choose", "score", "Decline()", [(870, 285), (870, 690)]),
    ("conquest", "die", "ConquerWithDie(r)", [(150, 385)]),
    ("die", "redeploy", "", []),
    ("conquest", "redeploy", "Deploy(r, n) or EndTurn()", []),
    ("redeploy", "withdrawal", "", []),
    ("withdrawal", "score", "", []),
    ("score", "next", "", []),
]
_LABEL_AT = {("race", "pick"): (196, 146), ("conquest", "die"): (156, 436)}
_STYLES = {
    "phase": ("#d9f0ec", "#00796b"),
    "step": ("#fff8e1", "#b28704"),
    "ask": ("#ffffff", "#555555"),
    "chance": ("#fde7ef", "#ad1457"),
    "end": ("#eeeeee", "#555555"),
}


def _edge_point(box: tuple[str, int, int, int, list[str], str], toward: tuple[float, float]
                ) -> tuple[float, float]:
    """Where an arrow to or from ``toward`` meets the box: straight up, down or sideways when
    the point is level with the box, else on the line to its centre."""
    _, x, y, w, lines, _ = box
    h = 22 + 18 * len(lines)
    px, py = toward
    if x - w / 2 <= px <= x + w / 2 and abs(py - y) > h / 2:
        return (px, y - h / 2 if py < y else y + h / 2)
    if y - h / 2 <= py <= y + h / 2:
        return (x - w / 2 if px < x else x + w / 2, py)
    dx, dy = px - x, py - y
    scale = min((w / 2) / abs(dx) if dx else 1e9, (h / 2) / abs(dy) if dy else 1e9)
    return (x + dx * scale, y + dy * scale)


def _label(points: list[tuple[float, float]], text: str) -> str:
    """A label beside the longest segment of an arrow."""
    (x1, y1), (x2, y2) = max(
        zip(points, points[1:]), key=lambda s: abs(s[0][0] - s[1][0]) + abs(s[0][1] - s[1][1])
    )
    if abs(x1 - x2) >= abs(y1 - y2):  # level: above it, centred
        x, y, anchor = (x1 + x2) / 2, (y1 + y2) / 2 - 6, "middle"
    else:  # upright: beside it, on the side towards the middle of the picture
        x, y = x1 + (-6 if x1 > 450 else 6), (y1 + y2) / 2 + 4
        anchor = "end" if x1 > 450 else "start"
    return f'<text class="label" x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}">{text}</text>'


def turn_flow() -> str:
    """The turn as a diagram: phases, the actions between them, the chance node."""
    boxes = {b[0]: b for b in _BOXES}
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 820" role="img"'
        ' class="turn-flow">',
        "<title>How a turn of Small World flows</title>",
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8"'
        ' markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"'
        ' fill="#333"/></marker></defs>',
        '<style>text { font-family: DejaVu Sans, Verdana, Arial, sans-serif; font-size: 14px;'
        " fill: #1a1a1a; } .label { font-size: 12px; fill: #333; }"
        " .head { font-weight: bold; }</style>",
        '<rect width="900" height="820" fill="#ffffff"/>',
    ]
    for source, target, label, bends in _ARROWS:
        start, end = boxes[source], boxes[target]
        first = bends[0] if bends else (end[1], end[2])
        last = bends[-1] if bends else (start[1], start[2])
        points = [_edge_point(start, first), *bends, _edge_point(end, last)]
        path = " ".join(f"{x:.0f},{y:.0f}" for x, y in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="#333" stroke-width="1.6"'
                   ' marker-end="url(#head)"/>')
        if (source, target) in _LABEL_AT:
            x, y = _LABEL_AT[(source, target)]
            out.append(f'<text class="label" x="{x}" y="{y}">{label}</text>')
        elif label:
            out.append(_label(points, label))
    for _, x, y, w, lines, style in _BOXES:
        fill, stroke = _STYLES[style]
        h = 22 + 18 * len(lines)
        radius = h / 2 if style in ("end", "chance") else 6
        out.append(f'<rect x="{x - w / 2:.0f}" y="{y - h / 2:.0f}" width="{w}" height="{h}"'
                   f' rx="{radius:.0f}" fill="{fill}" stroke="{stroke}" stroke-width="2"'
                   + (' stroke-dasharray="5 3"' if style == "ask" else "") + "/>")
        for i, line in enumerate(lines):
            cls = ' class="head"' if i == 0 and style == "phase" else ""
            ty = y - 9 * (len(lines) - 1) + 18 * i + 5
            out.append(f'<text x="{x}" y="{ty:.0f}" text-anchor="middle"{cls}>{line}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def pictures() -> dict[str, str]:
    """File name -> SVG text of every committed picture."""
    return {"position.svg": svg.board(position()), "turn-flow.svg": turn_flow()}


def main() -> None:
    IMAGES.mkdir(exist_ok=True)
    for name, text in pictures().items():
        (IMAGES / name).write_text(text, encoding="utf-8")
        print(f"wrote {IMAGES / name}")


if __name__ == "__main__":
    main()
