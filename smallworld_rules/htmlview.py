"""A replay viewer: one self-contained HTML file stepping through a game.

The file holds everything (inline CSS, JavaScript and SVG, no network, no CDN; its content
security policy forbids loading anything): the board drawn once, and for each step what stands
on it, the log lines of that step and the scores. A slider, buttons and the arrow keys (Home
and End too) move between steps.

>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=1)
>>> game.apply(sw.PickCombo(0))
>>> page = replay_html(game)
>>> page.startswith("<!DOCTYPE html>") and '"steps":2' in page
True

Every text in the page comes escaped: SVG fragments are escaped when drawn, and the data is
JSON with ``<`` written as ``\\u003c``, so no name in a record can close the script or inject
markup.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

from smallworld_rules.events import Event
from smallworld_rules.svg import PLAYER_COLOURS, base, overlay_parts
from smallworld_rules.textboard import combo_name, status_line

if TYPE_CHECKING:
    from smallworld_rules.game import Game

_CSS = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 0; background: #efe9da;
  color: #1a1a1a; }
header { padding: 8px 14px; font-size: 18px; font-weight: bold; }
.controls { padding: 4px 14px; display: flex; gap: 10px; align-items: center; }
.controls input[type=range] { flex: 1; }
#label { min-width: 22em; font-family: monospace; }
.main { display: flex; gap: 12px; padding: 6px 14px; align-items: flex-start; }
#board { flex: 3; min-width: 0; }
#board svg { width: 100%; height: auto; border: 1px solid #888; background: #fff; }
aside { flex: 1; min-width: 16em; }
#log { height: 420px; overflow-y: auto; background: #fff; border: 1px solid #aaa;
  font-family: monospace; font-size: 12px; padding: 4px 8px; margin: 0; list-style: none; }
#log li.now { background: #fff3b0; }
table { border-collapse: collapse; width: 100%; background: #fff; }
td, th { border: 1px solid #aaa; padding: 2px 6px; text-align: left; font-size: 13px; }
.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; }
#errors { background: #c00; color: #fff; padding: 6px; }
"""

_JS = """
(function () {
  var data = JSON.parse(document.getElementById('frames').textContent);
  var slider = document.getElementById('step');
  var layer = document.getElementById('overlay');
  var label = document.getElementById('label');
  var scores = document.getElementById('scores');
  var log = document.getElementById('log');
  slider.max = data.steps - 1;
  function text(tag, value) {
    var el = document.createElement(tag);
    el.textContent = value;
    return el;
  }
  function show(i) {
    i = Math.max(0, Math.min(data.steps - 1, i));
    slider.value = i;
    var frame = data.frames[i];
    layer.innerHTML = frame.overlay.map(function (k) { return data.parts[k]; }).join('');
    label.textContent = 'step ' + i + ' / ' + (data.steps - 1) + ': ' + frame.action;
    scores.textContent = '';
    var head = document.createElement('tr');
    ['player', 'race', 'coins', 'tokens'].forEach(function (h) {
      head.appendChild(text('th', h));
    });
    scores.appendChild(head);
    frame.players.forEach(function (p, seat) {
      var row = document.createElement('tr');
      var who = text('td', String(seat));
      var swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = data.colours[seat % data.colours.length];
      who.insertBefore(swatch, who.firstChild);
      row.appendChild(who);
      row.appendChild(text('td', p[0]));
      row.appendChild(text('td', String(p[1])));
      row.appendChild(text('td', String(p[2])));
      scores.appendChild(row);
    });
    log.textContent = '';
    var now = null;
    for (var k = 0; k <= i; k++) {
      data.frames[k].log.forEach(function (line) {
        var li = text('li', line);
        if (k === i) { li.className = 'now'; now = now || li; }
        log.appendChild(li);
      });
    }
    if (now) { now.scrollIntoView({block: 'nearest'}); }
    else { log.scrollTop = log.scrollHeight; }
  }
  slider.addEventListener('input', function () { show(Number(slider.value)); });
  document.getElementById('prev').addEventListener('click', function () {
    show(Number(slider.value) - 1);
  });
  document.getElementById('next').addEventListener('click', function () {
    show(Number(slider.value) + 1);
  });
  document.addEventListener('keydown', function (e) {
    var i = Number(slider.value);
    if (e.key === 'ArrowLeft') { show(i - 1); }
    else if (e.key === 'ArrowRight') { show(i + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(data.steps - 1); }
    else { return; }
    e.preventDefault();
  });
  show(Number(location.hash.slice(1)) || 0);
  document.body.setAttribute('data-ready', '1');
})();
"""

#: Written before the viewer's script, so that any script error shows on the page (a test
#: reads ``data-error`` back from the rendered page).
_ON_ERROR = """
window.onerror = function (message) {
  var box = document.getElementById('errors');
  box.hidden = false;
  box.setAttribute('data-error', '1');
  box.textContent += 'script error: ' + message + ' ';
};
"""


def _frame(game: Game, describe: Callable[[Event], str | None], start: int) -> dict[str, Any]:
    stack = game.action_stack
    events = game.log[start:]
    lines = [line.strip() for line in (describe(e) for e in events) if line]
    return {
        "action": repr(stack[-1]) if stack else "start",
        "status": status_line(game),
        "log": lines,
        "players": [
            [combo_name(game, p) or "-", game.coins(p), game.tokens_on_map(p)]
            for p in range(game.players)
        ],
    }


def replay_html(
    game: Game, describe: Callable[[Event], str | None] | None = None, title: str = ""
) -> str:
    """The HTML page of a game's every step, from its start to its current position.

    Args:
        game: a game with its history (played here, or replayed from a record); it is not
            changed (a clone is walked back).
        describe: one log line per event (``None`` to skip it); default: the event's name.
        title: shown at the top.
    """
    describe = describe or (lambda e: type(e).__name__)
    walker = game.clone()
    frames: list[dict[str, Any]] = []
    pictures: list[list[str]] = []
    while True:
        start = 0
        if walker.action_stack:
            before = walker.clone()
            before.undo()
            start = len(before.log)
        frame = _frame(walker, describe, start)
        pictures.append(overlay_parts(walker, walker.map))
        frames.append(frame)
        if not walker.action_stack:
            break
        walker.undo()
    frames.reverse()
    pictures.reverse()
    # A region's contents mostly stay the same from step to step: each distinct piece of a
    # picture is stored once, and a step lists the pieces it is made of.
    index: dict[str, int] = {}
    parts: list[str] = []
    for frame, picture in zip(frames, pictures, strict=True):
        for part in picture:
            if part not in index:
                index[part] = len(parts)
                parts.append(part)
        frame["overlay"] = [index[part] for part in picture]
    data = {
        "steps": len(frames),
        "colours": list(PLAYER_COLOURS),
        "frames": frames,
        "parts": parts,
    }
    blob = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    heading = title or f"Small World replay: the {game.map_name} map, {game.players} players"
    policy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
            f"<title>{escape(heading)}</title><style>{_CSS}</style>",
            f"<script>{_ON_ERROR}</script></head><body>",
            '<div id="errors" hidden></div>',
            f"<header>{escape(heading)}</header>",
            '<div class="controls"><button id="prev" title="previous step (←)">&#9664;</button>'
            '<input type="range" id="step" min="0" value="0" aria-label="step">'
            '<button id="next" title="next step (→)">&#9654;</button>'
            '<span id="label"></span></div>',
            '<div class="main"><div id="board">',
            base(game.map),
            '<g id="overlay"></g></svg></div>',
            '<aside><h3>Scores</h3><table id="scores"></table>'
            '<h3>Log</h3><ol id="log"></ol></aside></div>',
            f'<script type="application/json" id="frames">{blob}</script>',
            f"<script>{_JS}</script>",
            "</body></html>",
        ]
    )
