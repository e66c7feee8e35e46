"""The replay viewer in a real browser: headless Chromium opens the page, runs its script
without an error, draws the board at the step asked for, and takes a screenshot. Skipped
when Chromium is not installed (CI installs the Debian package ``chromium``)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules.htmlview import replay_html
from tests.test_board_cli import hostile_game

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]


def chromium(*args: str) -> str:
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", f"--user-data-dir={profile}", *args,
            ],
            capture_output=True, text=True, timeout=120, check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, sw.Game]:
    game = sw.Game.new(players=3, seed=5)
    sw.play_game(game, [sw.GreedyBot(p) for p in range(3)])
    target = tmp_path_factory.mktemp("viewer") / "replay.html"
    target.write_text(replay_html(game), encoding="utf-8")
    return target, game


def test_viewer_runs_without_script_errors(page: tuple[Path, sw.Game]) -> None:
    """The page's script runs to the end (it marks the body ready) and raises no error (the
    page's error handler would mark it); the step in the address is shown."""
    path, game = page
    dom = chromium("--dump-dom", f"{path.as_uri()}#40")
    assert 'data-ready="1"' in dom
    assert 'data-error="1"' not in dom and "script error:" not in dom.split("</script>")[-1]
    assert f"step 40 / {len(game.action_stack)}:" in dom
    assert dom.count('class="contents"') == len(game.map)
    assert dom.count("<tr>") == 1 + game.players


def test_viewer_screenshot(page: tuple[Path, sw.Game], tmp_path: Path) -> None:
    """A screenshot of the last step is a picture of a sensible size."""
    path, game = page
    shot = tmp_path / "viewer.png"
    chromium(f"--screenshot={shot}", "--window-size=1400,900",
             f"{path.as_uri()}#{len(game.action_stack)}")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000
    keep = Path(tempfile.gettempdir()) / "smallworld-viewer.png"
    keep.write_bytes(data)  # left for a look by hand


def test_hostile_name_stays_text_in_the_browser(tmp_path: Path) -> None:
    """A race named ``<script>…`` shows as text in the rendered page and runs nothing."""
    target = tmp_path / "hostile.html"
    target.write_text(replay_html(hostile_game(tmp_path)), encoding="utf-8")
    dom = chromium("--dump-dom", f"{target.as_uri()}#30")
    assert 'data-ready="1"' in dom and 'data-error="1"' not in dom
    assert "&lt;script&gt;alert(" in dom
    assert "<script>alert(" not in dom
