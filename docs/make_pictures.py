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


def pictures() -> dict[str, str]:
    """File name -> SVG text of every committed picture."""
    return {"position.svg": svg.board(position())}


def main() -> None:
    IMAGES.mkdir(exist_ok=True)
    for name, text in pictures().items():
        (IMAGES / name).write_text(text, encoding="utf-8")
        print(f"wrote {IMAGES / name}")


if __name__ == "__main__":
    main()
