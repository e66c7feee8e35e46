"""The Pygments lexer of rule files (``smallworld_rules.lexer``), used by the docs."""

from __future__ import annotations

import pytest

pygments = pytest.importorskip("pygments")

from pygments.token import Keyword, Name  # noqa: E402

from smallworld_rules.lexer import SwrLexer  # noqa: E402


def tokens(source: str) -> list[tuple[object, str]]:
    return [(kind, text) for kind, text in SwrLexer().get_tokens(source) if text.strip()]


def test_header_words_declare_only_in_headers() -> None:
    """``power flying "Flying"`` is a header (declaration, then the id as a class name);
    ``buy power price`` is a statement: ``power`` is a keyword and ``price`` no class name."""
    header = tokens('power flying "Flying" {\n}\n')
    assert header[:2] == [(Keyword.Declaration, "power"), (Name.Class, "flying")]
    statement = tokens("    buy power price count(powers) + 1\n")
    kinds = dict((text, kind) for kind, text in statement)
    assert kinds["buy"] in Keyword and kinds["price"] in Keyword
    assert kinds["power"] is Keyword
    assert all(kind is not Keyword.Declaration and kind is not Name.Class
               for kind, _ in statement)
