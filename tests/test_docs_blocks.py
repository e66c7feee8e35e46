"""Docs examples a reader copies: every Python block of the docs runs on its own, unless it
says it continues the example above (its title), and code lines fit the page (88
characters)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_docs import DOCS, PAGES, Block, blocks

CONTINUES = "continues the"
#: Rule-file blocks that quote an official file as it is (wrapped by the CSS, not cut off).
QUOTED = {"index.md"}


def python_blocks() -> list[tuple[Block, list[Block]]]:
    """Each Python block, with the titled rule-file blocks before it on its page."""
    found = []
    for page in PAGES:
        files: list[Block] = []
        for block in blocks(page):
            if block.lang == "swr" and block.title:
                files.append(block)
            elif block.lang in ("python", "py"):
                found.append((block, list(files)))
    return found


STANDALONE = [(b, f) for b, f in python_blocks() if not b.title.startswith(CONTINUES)]


def test_some_blocks_run_alone_and_some_continue() -> None:
    """Both kinds exist (the collection is not empty by accident)."""
    assert len(STANDALONE) >= 15
    assert len(python_blocks()) > len(STANDALONE)


@pytest.mark.parametrize(
    ("block", "files"), STANDALONE, ids=[b.where for b, _ in STANDALONE]
)
def test_block_runs_alone(
    block: Block, files: list[Block], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block not marked as continuing runs in a fresh namespace (the rule files the page
    shows before it are written first, as a reader would save them)."""
    monkeypatch.chdir(tmp_path)
    for rule in files:
        target = tmp_path / rule.title
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rule.body, encoding="utf-8")
    namespace: dict[str, Any] = {"__name__": "example", "__file__": str(tmp_path / "ex.py")}
    exec(compile(block.body, block.where, "exec"), namespace)  # the docs' own examples


def test_code_lines_fit_the_page() -> None:
    """Lines of code blocks are at most 88 characters (wider ones are cut off on the page)."""
    wide = [
        f"{block.where}: {line}"
        for page in PAGES
        for block in blocks(page)
        if block.lang != "swr" or block.page.name not in QUOTED
        for line in block.body.splitlines()
        if len(line) > 88
    ]
    assert wide == []
    assert DOCS.is_dir()


def _header_cells(text: str) -> list[list[str]]:
    """The header row of every Markdown table in ``text``."""
    lines = text.splitlines()
    return [
        [cell.strip() for cell in lines[i].strip().strip("|").split("|")]
        for i in range(len(lines) - 1)
        if lines[i].lstrip().startswith("|") and set(lines[i + 1].strip()) <= set("|-: ")
        and "-" in lines[i + 1]
    ]


def test_tables_have_named_columns() -> None:
    """No table has a blank header cell: in the hand-written pages, and in the pages the
    generator makes (the options page's tables, an expansion's facts, a map's region key)."""
    pytest.importorskip("mkdocs_gen_files")
    from tests.test_docs import _generator

    generator = _generator()
    written: dict[str, str] = {}
    generator.write = lambda name, text, edit=None: written.__setitem__(name, text)
    texts = [page.read_text(encoding="utf-8") for page in PAGES]
    texts += [generator.options_markdown(), generator.ambiguities_markdown(),
              generator.implementations_markdown(), generator.calls_markdown(),
              generator.maps_markdown().replace("\n    ", "\n")]
    texts += [generator.rule_page(rule) for rule in generator.all_rule_defs()]
    headers = [row for text in texts for row in _header_cells(text)]
    assert len(headers) > 20
    assert [row for row in headers if "" in row] == []
    assert any(name.startswith("images/map-") for name in written)
