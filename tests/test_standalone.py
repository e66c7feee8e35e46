"""The product stands on its own: the README's two set-up commands are the ones CI runs, the
command to play installs only what playing needs, and nothing the product ships cites a file
it does not ship."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: What the product ships (code, rule files, docs, tests, examples, benchmarks, CI).
PRODUCT = [
    "README.md", "mkdocs.yml", "pyproject.toml", ".ci", "docs", "smallworld_rules", "races",
    "powers", "expansions", "tests", "examples", "benchmarks",
]
#: A citation of the sources the product was written from, which it does not ship.
FOREIGN = re.compile(r"REFERENCE(\.md)?|DESIGN\.md|DESIGN §|§|\.\./shared|shared/(maps|rules)")


def setup_commands() -> list[str]:
    """The ```sh blocks of the README's "Set up" section."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_the_readme_has_two_set_up_commands_one_plays_one_tests() -> None:
    """Closes "watching a game installs the whole dev toolchain": the README has exactly two
    set-up commands; the one that plays installs the package alone (no extra), the other
    installs the dev extra and runs the tests."""
    play, tests = setup_commands()
    assert play.startswith("pip install -e . &&") and "smallworld play" in play
    assert "[" not in play.split("&&")[0]  # no extra: only attrs and lark
    assert tests == 'pip install -e ".[dev]" && pytest'
    runtime = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    assert sorted(re.split(r"[<>=]", d)[0] for d in runtime) == ["attrs", "lark"]


def test_ci_runs_the_readmes_commands_each_in_a_brand_new_venv() -> None:
    """Closes "CI is green only because its machine has packages installed by hand": .ci/run
    runs both commands of the README exactly as written (it checks first that the README says
    the same), each in a venv made afresh without system site packages."""
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    play, test = setup_commands()
    assert f"PLAY_COMMAND='{play}'" in script and f"TEST_COMMAND='{test}'" in script
    lines = [line.strip() for line in script.splitlines()]
    # each command runs as a line of its own, right after a fresh venv is made
    assert lines[lines.index(play) - 1] == "fresh_venv /tmp/sw-ci-play"
    assert lines[lines.index(test) - 1] == "fresh_venv /tmp/sw-ci-dev"
    assert "system-site-packages" not in script
    assert 'rm -rf "$1"' in script and 'python3 -m venv "$1"' in script
    # The README check CI makes accepts the README as it is, and refuses another command.
    check = script.split('"$TEST_COMMAND" <<\'PY\'\n', 1)[1].split("\nPY\n", 1)[0]
    ok = subprocess.run(["python3", "-c", check, play, test], cwd=REPO, capture_output=True)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(["python3", "-c", check, play, "pytest"], cwd=REPO, capture_output=True)
    assert bad.returncode != 0


def _product_files() -> list[Path]:
    files: list[Path] = []
    for name in PRODUCT:
        path = REPO / name
        found = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        files += [
            p for p in found
            if "__pycache__" not in p.parts and ".egg-info" not in str(p) and p.suffix != ".pyc"
        ]
    return files


def test_no_product_file_cites_a_file_it_does_not_ship() -> None:
    """Closes "the product cites files it does not ship": no code, rule file, docs page, test
    or example cites REFERENCE.md, DESIGN.md, section numbers (§) or ../shared; the product
    cites its own pages (the Core rules page, the Rulings page, the game options page)."""
    this = Path(__file__).resolve()
    found = []
    for path in _product_files():
        if path == this:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if FOREIGN.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:80]}")
    assert not found, "\n".join(found)


def test_the_core_rules_page_has_every_section_the_product_cites() -> None:
    """Every "rule N.M" the product cites is a section of the docs' Core rules page (a
    numbered heading with its stable anchor ``#rule-N-M``), and every ruling it cites is on
    the Rulings page."""
    page = (REPO / "docs" / "rules" / "core.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r"\{ #rule-([\d-]+) \}", page))
    rulings = tomllib.loads((REPO / "docs" / "rulings.toml").read_text())["rulings"]
    cited: set[str] = set()
    cited_rulings: set[str] = set()
    for path in _product_files():
        if path.suffix not in (".py", ".swr", ".md", ".toml"):
            continue
        text = path.read_text(encoding="utf-8")
        cited |= set(re.findall(r"\b[Rr]ules? (\d(?:\.\d+)?)", text))
        cited_rulings |= set(re.findall(r"\b[Rr]uling (\d+)\b", text))
    assert cited and cited_rulings
    missing = sorted(c for c in cited if c.replace(".", "-") not in anchors)
    assert not missing, missing
    assert cited_rulings <= set(rulings), sorted(cited_rulings - set(rulings))
