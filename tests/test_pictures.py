"""The committed pictures (the README's position, ``docs/images/*.svg``) are what
``docs/make_pictures.py`` makes now, and each is a valid board picture: one shape per region,
shapes touching as the regions border each other, every token drawn."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.test_svg import check_picture, occupants

DOCS = Path(__file__).resolve().parent.parent / "docs"


def make_pictures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_pictures", DOCS / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def module() -> ModuleType:
    return make_pictures()


def test_committed_pictures_are_current(module: ModuleType) -> None:
    """Every committed picture is byte for byte what the script makes now."""
    made = module.pictures()
    assert made
    for name, text in made.items():
        assert (DOCS / "images" / name).read_text(encoding="utf-8") == text, name


def test_readme_position_is_a_checked_board(module: ModuleType) -> None:
    """The README's picture is a board picture of its game, every token drawn, and the
    README shows it."""
    game = module.position()
    root = check_picture((DOCS / "images" / "position.svg").read_text("utf-8"), game.map)
    expected = {r: game.region(r).tokens for r in range(len(game.map)) if game.region(r).tokens}
    assert occupants(root) == expected
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert "](docs/images/position.svg)" in readme


def test_turn_flow_diagram_names_every_phase(module: ModuleType) -> None:
    """The turn-flow diagram is valid SVG and has a box for every phase of a game."""
    import xml.etree.ElementTree as ET

    import smallworld_rules as sw

    root = ET.fromstring((DOCS / "images" / "turn-flow.svg").read_text(encoding="utf-8"))
    words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for phase in sw.Phase:
        assert phase.value.upper() in words, phase
    page = (DOCS / "turn.md").read_text(encoding="utf-8")
    assert "](images/turn-flow.svg)" in page
