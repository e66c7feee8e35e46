"""A Pygments lexer for rule files (``.swr``), so documentation can highlight them.

Pygments is not a dependency of the library: it is imported here only, and this module is
imported only by Pygments itself, through the ``pygments.lexers`` entry point declared in
``pyproject.toml`` (the docs build uses it for fenced ```` ```swr ```` blocks).

The keywords are read from the grammar (``dsl/grammar.lark``) and the names of flags,
properties and hooks from :mod:`smallworld_rules.dsl.vocabulary` when the module is imported,
so the lexer follows the language as it grows without being edited.

>>> from pygments import highlight
>>> from pygments.formatters import NullFormatter
>>> print(highlight('power p "P" { tokens 4 }', SwrLexer(), NullFormatter()), end="")
power p "P" { tokens 4 }
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Collection, Iterable

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
    _TokenType,
)

from smallworld_rules.dsl import vocabulary

__all__ = ["SwrLexer", "grammar_keywords", "vocabulary_names"]

_HEADER_WORDS = ("race", "power", "expansion")
_OPERATOR_WORDS = ("add", "sub", "set", "and", "or", "not")
_CONSTANT_WORDS = ("true", "false")
_WORD = re.compile(r"[a-z][a-z0-9_]*\Z")
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def grammar_keywords() -> list[str]:
    """Every keyword of the rule language: the word literals of ``grammar.lark``."""
    package = importlib.resources.files("smallworld_rules.dsl")
    grammar = package.joinpath("grammar.lark").read_text("utf-8")
    found: set[str] = set()
    for line in grammar.splitlines():
        code = line.split("//", 1)[0]
        found.update(w for w in _LITERAL.findall(code) if _WORD.match(w))
    return sorted(found)


def vocabulary_names() -> list[str]:
    """Every name of the closed vocabulary: flags, properties, hooks, region-set bases …

    Read from the public tables of :mod:`smallworld_rules.dsl.vocabulary` (dicts by key,
    tuples and sets by element), so a table added there is picked up without an edit here.
    """
    found: set[str] = set()
    for attribute, value in vars(vocabulary).items():
        if attribute.startswith("_") or not attribute.isupper():
            continue
        wanted = isinstance(value, Collection) and not isinstance(value, str)
        items: Iterable[object] = value if wanted else ()
        found.update(item for item in items if isinstance(item, str) and _WORD.match(item))
    return sorted(found)


def _split() -> tuple[list[str], list[str], list[str], list[str]]:
    keywords = set(grammar_keywords())
    operators = [w for w in _OPERATOR_WORDS if w in keywords]
    constants = [w for w in _CONSTANT_WORDS if w in keywords]
    hooks = [w for w in vocabulary.HOOKS if w in keywords]
    plain = sorted(keywords - set(operators) - set(constants) - set(hooks) - set(_HEADER_WORDS))
    return plain, operators, constants, hooks


_PLAIN, _OPERATORS, _CONSTANTS, _HOOKS = _split()
_BUILTINS = sorted(set(vocabulary_names()) - set(grammar_keywords()))


def _word_rules(*groups: tuple[list[str], _TokenType]) -> list[tuple[str, _TokenType]]:
    """One rule per non-empty group of words (longest first, whole words only)."""
    return [
        (r"\b(?:" + "|".join(sorted(map(re.escape, group), key=len, reverse=True)) + r")\b", kind)
        for group, kind in groups
        if group
    ]


class SwrLexer(RegexLexer):
    """Rule files of ``smallworld_rules`` (races, powers, expansions)."""

    name = "Small World rule file"
    aliases = ["swr", "smallworld"]  # noqa: RUF012 - Pygments' class attribute
    filenames = ["*.swr"]  # noqa: RUF012
    mimetypes = ["text/x-smallworld-rules"]  # noqa: RUF012
    url = "https://pypi.org/project/smallworld-rules/"

    tokens = {  # noqa: RUF012
        "root": [
            (r"[ \t\r\n]+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"(?:[^"\\]|\\["\\])*"', String.Double),
            (r'"[^\n]*', String.Double),  # an unterminated string, to the end of the line
            # A header is the word, an id and a display name (`power thrifty "Thrifty"`); the
            # same words elsewhere (`buy power price …`) are plain keywords.
            (
                r"\b(" + "|".join(_HEADER_WORDS) + r")\b([ \t\r\n]+)([a-z][a-z0-9_]*)"
                r'(?=[ \t]+")',
                bygroups(Keyword.Declaration, Whitespace, Name.Class),  # type: ignore[no-untyped-call]
            ),
            (r"\b(?:" + "|".join(_HEADER_WORDS) + r")\b", Keyword),
            *_word_rules(
                (_HOOKS, Keyword.Type),
                (_OPERATORS, Operator.Word),
                (_CONSTANTS, Keyword.Constant),
                (_PLAIN, Keyword),
                (_BUILTINS, Name.Builtin),
            ),
            (r"[a-z][a-z0-9_]*", Name),
            (r"[0-9]+", Number.Integer),
            (r"[-+*/=<>]", Operator),
            (r"[{}()\[\]:,;.]", Punctuation),
            (r".", Text),
        ],
    }
