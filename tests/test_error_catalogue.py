"""The error catalogue (issue 10): every labelled rule-file mistake, where it is reported.

``smallworld_rules.dsl.catalogue.CATALOGUE`` is the one list of the loader's error labels; the
documentation's error catalogue page is generated from it (docs/gen_pages.py).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import smallworld_rules
from smallworld_rules.dsl.catalogue import CATALOGUE, REPEAT, CatalogueEntry, diagnose, reproduce

PACKAGE = Path(smallworld_rules.__file__).parent
LABEL = re.compile(r"[a-z]+(?:-[a-z]+)+")
RAISES = re.compile(r"(?<!class )\bRuleFileError\(")  # a module that makes its own errors
# Mistakes about the file as a whole: the message has no offending line to show.
WHOLE_FILE = {"file-too-large", "unreadable-file"}


def _docstrings(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def loader_labels() -> dict[str, str]:
    """label -> module, for every label-shaped string (``unknown-hook``) outside docstrings in
    the modules of the package that raise a ``RuleFileError`` of their own."""
    labels: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not RAISES.search(source):
            continue
        tree = ast.parse(source)
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
                and LABEL.fullmatch(node.value)
            ):
                labels.setdefault(node.value, str(path.relative_to(PACKAGE.parent)))
    return labels


def test_the_catalogue_has_twenty_distinct_mistakes_or_more() -> None:
    """Issue 10: at least 20 labelled mistakes, one entry per label."""
    labels = [entry.label for entry in CATALOGUE]
    assert len(labels) >= 20
    assert len(set(labels)) == len(labels)


def test_every_label_the_loader_gives_has_an_entry() -> None:
    """Every label written in the parser, the semantic pass or the loader has an entry, and
    every entry's label is one of them (no entry outlives its label)."""
    found = loader_labels()
    assert len(found) >= 50, "the scan of the package found too few labels"
    assert {"unknown-hook", "unknown-terrain", "duplicate-id", "file-too-large"} <= set(found)
    catalogued = {entry.label for entry in CATALOGUE}
    missing = {label: module for label, module in found.items() if label not in catalogued}
    assert missing == {}, "labels without a catalogue entry"
    assert catalogued - set(found) == set(), "catalogue entries for labels nobody gives"


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e.label)
def test_each_mistake_is_reported_with_its_label_line_and_column(
    entry: CatalogueEntry, tmp_path: Path
) -> None:
    """Issue 10: the loader, run on the entry's files, names the mistake (label), points at it
    (line, column), shows the offending line with a caret under that column, and hints."""
    error = reproduce(entry, tmp_path, smallworld_rules.load_rules)
    assert error is not None, f"{entry.label}: the example loads without error"
    assert (error.label, error.line, error.column) == (entry.label, entry.line, entry.column)
    assert error.message
    assert error.hint
    shown = str(error).splitlines()
    assert shown[0] == f"{tmp_path / entry.path}:{entry.line}:{entry.column}: {error.message}"
    assert shown[-1] == f"hint: {error.hint}"
    if entry.label in WHOLE_FILE:
        assert error.context == ""
        return
    # The loader shows a line of at most 200 characters whole; the examples keep to that.
    offending = entry.data.decode("utf-8", "replace").splitlines()[entry.line - 1]
    assert len(offending) <= 200
    assert shown[1].endswith(offending)
    indent = len(shown[1]) - len(offending)
    assert shown[2].index("^") == indent + entry.column - 1


@pytest.mark.parametrize(
    "entry",
    [e for e in CATALOGUE if not e.missing and not e.earlier and e.encoding == "utf-8"],
    ids=lambda e: e.label,
)
def test_diagnose_finds_the_same_first_mistake(entry: CatalogueEntry) -> None:
    """The in-memory check of one file agrees with the loader."""
    first = diagnose(entry.text, entry.path)[0]
    assert (first.label, first.line, first.column) == (entry.label, entry.line, entry.column)


def test_the_entries_are_small_unless_they_repeat() -> None:
    """An example is a few lines the docs show whole; a long one says what it repeats."""
    for entry in CATALOGUE:
        assert len(entry.shown.splitlines()) <= 12, entry.label
        if entry.repeat is not None:
            assert entry.source.count(REPEAT) == 1, entry.label
        assert entry.explain.endswith("."), entry.label


def test_a_misspelt_terrain_gets_a_suggestion(tmp_path: Path) -> None:
    """Issue 10: the misspelt terrain is answered with the closest real one."""
    entry = next(e for e in CATALOGUE if e.label == "unknown-terrain")
    error = reproduce(entry, tmp_path, smallworld_rules.load_rules)
    assert error is not None
    assert "did you mean 'forest'?" in error.hint
