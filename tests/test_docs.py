"""The documentation's examples work: every ```python block of docs/**/*.md runs, every
```swr block parses, and the generated error catalogue shows every entry of
``smallworld_rules.dsl.catalogue.CATALOGUE`` with the loader's message.

Python blocks run in order, one shared namespace per page, in a scratch working directory. A
```swr block with a ``title="some/path.swr"`` is also written to that path (relative to the
scratch directory) when the page reaches it, so later Python blocks can load it.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import smallworld_rules as sw
from smallworld_rules.dsl import check, parse
from smallworld_rules.dsl.catalogue import CATALOGUE

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n"
    r"(?P<body>.*?)"
    r"^(?P=indent)(?P=fence)[ \t]*$",
    re.M | re.S,
)
_TITLE = re.compile(r"""title=(?P<q>["'])(?P<title>.*?)(?P=q)""")
_KIND = re.compile(r"^\s*(?:#[^\n]*\n\s*)*(race|power|expansion)\b")


@attrs.frozen
class Block:
    page: Path
    line: int
    lang: str
    title: str
    body: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(DOCS.parent)}:{self.line}"


def blocks(page: Path) -> Iterator[Block]:
    """The fenced code blocks of a page, in order (indented ones included, de-indented)."""
    text = page.read_text(encoding="utf-8")
    for match in _FENCE.finditer(text):
        info = match.group("info").strip()
        indent = match.group("indent")
        lines = match.group("body").splitlines()
        body = "\n".join(line.removeprefix(indent) for line in lines) + "\n"
        title = _TITLE.search(info)
        yield Block(
            page=page,
            line=text.count("\n", 0, match.start()) + 2,
            lang=(info.split() or [""])[0].lstrip("{.").rstrip("}"),
            title=title.group("title") if title else "",
            body=body,
        )


def _ids(items: list[Any]) -> list[str]:
    return [str(getattr(item, "where", item)) for item in items]


PYTHON_PAGES = [p for p in PAGES if any(b.lang in ("python", "py") for b in blocks(p))]
SWR_BLOCKS = [b for p in PAGES for b in blocks(p) if b.lang == "swr"]


def test_the_docs_have_examples() -> None:
    """The collection is not empty by accident (a renamed folder, a broken pattern)."""
    assert len(PYTHON_PAGES) >= 3
    assert len(SWR_BLOCKS) >= 10


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[str(p.relative_to(DOCS)) for p in PYTHON_PAGES])
def test_python_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Python block of the page runs, in order, in one namespace."""
    monkeypatch.chdir(tmp_path)
    # __file__ lets an example such as a pack's __init__.py find "its" folder.
    namespace: dict[str, Any] = {
        "__name__": f"docs.{page.stem}",
        "__file__": str(tmp_path / f"{page.stem}.py"),
    }
    for block in blocks(page):
        if block.lang == "swr" and block.title:
            target = tmp_path / block.title
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
        elif block.lang in ("python", "py"):
            code = compile(block.body, block.where, "exec")
            exec(code, namespace)  # the docs' own examples


@pytest.fixture(scope="module")
def official() -> sw.Rules:
    return sw.load_rules()


@pytest.mark.parametrize("block", SWR_BLOCKS, ids=_ids(SWR_BLOCKS))
def test_rule_file_examples_parse(block: Block, official: sw.Rules) -> None:
    """A whole file parses and passes the semantic check; a fragment parses inside a file."""
    if _KIND.match(block.body):
        path = block.title or "<string>"
        tree = parse(block.body, path)
        errors = check(tree, block.body, set(official.pieces), set(official.options))
        assert errors == [], "\n".join(str(e) for e in errors)
    else:
        parse(f'race example "Example" {{\n{block.body}}}\n', block.where)


# --------------------------------------------------------------------------- error catalogue


def _generator() -> ModuleType:
    """docs/gen_pages.py, imported (it builds nothing unless mkdocs-gen-files runs it)."""
    spec = importlib.util.spec_from_file_location("docs_gen_pages", DOCS / "gen_pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_error_catalogue_page_shows_every_entry() -> None:
    """The error catalogue page is generated from ``CATALOGUE`` (tests/test_error_catalogue.py
    checks the entries): a section per label, with the loader's message for its example."""
    pytest.importorskip("mkdocs_gen_files")
    page = _generator().errors_page()
    for entry in CATALOGUE:
        section = page.split(f"{{#{entry.label}}}", 1)[1].split("\n## ", 1)[0]
        assert f"{entry.path}:{entry.line}:{entry.column}: " in section, entry.label
