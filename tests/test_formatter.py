"""The canonical formatter (issue 10, part 5): round trip, idempotence, comments kept, and the
official rule files kept formatted."""

from __future__ import annotations

from pathlib import Path

import pytest

from smallworld_rules.dsl import parse
from smallworld_rules.dsl.formatter import WIDTH, format_source, format_tree
from smallworld_rules.rules import rules_root

ROOT = rules_root()
OFFICIAL = sorted([*ROOT.glob("races/*.swr"), *ROOT.glob("powers/*.swr"),
                   *ROOT.glob("expansions/*.swr")])
TEST_FILES = sorted((Path(__file__).parent / "rules").glob("*.swr"))


@pytest.mark.parametrize("path", OFFICIAL + TEST_FILES, ids=lambda p: p.stem)
def test_formatting_keeps_the_tree_and_is_idempotent(path: Path) -> None:
    """parse(format(source)) == parse(source), and formatting twice changes nothing."""
    source = path.read_text(encoding="utf-8")
    once = format_source(source, str(path))
    assert parse(once, str(path)) == parse(source, str(path))
    assert format_source(once, str(path)) == once


@pytest.mark.parametrize("path", OFFICIAL, ids=lambda p: p.stem)
def test_official_rule_files_are_formatted(path: Path) -> None:
    """The shipped rule files are kept in the canonical layout (`smallworld fmt`)."""
    source = path.read_text(encoding="utf-8")
    assert format_source(source, str(path)) == source


def test_every_line_fits_the_width() -> None:
    for path in OFFICIAL:
        for line in path.read_text(encoding="utf-8").splitlines():
            assert len(line) <= WIDTH, (path, line)


def test_comments_stay_where_they_belong() -> None:
    """Stand-alone comments stay above the statement that follows them; end-of-line comments
    stay on their statement's line; comments before the header and the closing brace stay."""
    source = (
        "# file comment\n"
        'power keen "Keen" {  # header note\n'
        "  tokens 4\n"
        "  # about the text\n"
        '  text "Keen eyes."\n'
        "  ability look {\n"
        "    # when\n"
        "    during conquest   # only then\n"
        "    gain 1\n"
        "  }\n"
        "  # the end\n"
        "}\n"
    )
    assert format_source(source) == (
        "# file comment\n"
        'power keen "Keen" {  # header note\n'
        "    tokens 4\n"
        "    # about the text\n"
        '    text "Keen eyes."\n'
        "    ability look {\n"
        "        # when\n"
        "        during conquest  # only then\n"
        "        gain 1\n"
        "    }\n"
        "    # the end\n"
        "}\n"
    )


def test_a_hash_inside_a_string_is_no_comment() -> None:
    source = 'race x "X #1" { tokens 1 box 1 text "a # b" }'
    expected = 'race x "X #1" {\n    tokens 1\n    box 1\n    text "a # b"\n}\n'
    assert format_source(source) == expected


def test_long_text_is_wrapped_and_parentheses_are_minimal() -> None:
    tree = parse(
        'power p "P" { text "' + "word " * 60 + '" '
        "score add (1 + 2) + (3 * (4 - 1)) / 2 when (coastal or border) and not (water) }"
    )
    printed = format_tree(tree)
    assert "score add 1 + 2 + 3 * (4 - 1) / 2 when (coastal or border) and not water" in printed
    assert printed.count('"') >= 6 and parse(printed) == tree
