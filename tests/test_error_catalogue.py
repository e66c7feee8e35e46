"""The error catalogue (issue 10): every labelled rule-file mistake, where it is reported."""

from __future__ import annotations

import pytest

from smallworld_rules.dsl.catalogue import CATALOGUE, CatalogueEntry, diagnose


def test_the_catalogue_has_twenty_distinct_mistakes_or_more() -> None:
    """Issue 10: at least 20 labelled mistakes, one entry per label."""
    labels = [entry.label for entry in CATALOGUE]
    assert len(labels) >= 20
    assert len(set(labels)) == len(labels)


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e.label)
def test_each_mistake_is_reported_with_its_label_line_and_column(entry: CatalogueEntry) -> None:
    """Issue 10: the loader names the mistake (label), points at it (line, column) and shows
    the offending line with a caret under that column."""
    errors = diagnose(entry.source, entry.path)
    assert errors, f"{entry.label}: the example loads without error"
    first = errors[0]
    assert (first.label, first.line, first.column) == (entry.label, entry.line, entry.column)
    assert first.message
    shown = str(first).splitlines()
    assert shown[0].startswith(f"{entry.path}:{entry.line}:{entry.column}: ")
    offending = entry.source.splitlines()[entry.line - 1]
    assert shown[1].endswith(offending)
    indent = len(shown[1]) - len(offending)
    assert shown[2].index("^") == indent + entry.column - 1

def test_a_misspelt_terrain_gets_a_suggestion() -> None:
    """Issue 10: the misspelt terrain is answered with the closest real one."""
    entry = next(e for e in CATALOGUE if e.label == "unknown-terrain")
    assert "did you mean 'forest'?" in diagnose(entry.source)[0].hint
