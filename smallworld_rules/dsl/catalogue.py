"""The error catalogue: one labelled mistake per entry, with the rule file that makes it.

Every entry is checked by the test suite (its label, line and column are what the loader
reports) and rendered as the documentation's error catalogue, so the two never disagree.

>>> entry = next(e for e in CATALOGUE if e.label == "unknown-terrain")
>>> error = diagnose(entry.source, entry.path)[0]
>>> (error.label, error.line, error.column) == (entry.label, entry.line, entry.column)
True
"""

from __future__ import annotations

import attrs

from smallworld_rules.dsl.parser import parse
from smallworld_rules.dsl.semantics import check
from smallworld_rules.errors import RuleFileError

__all__ = ["CATALOGUE", "CatalogueEntry", "diagnose"]


@attrs.frozen
class CatalogueEntry:
    """A labelled mistake.

    Attributes:
        label: the ``RuleFileError.label`` the loader gives it.
        title: the mistake in a few words.
        source: a whole rule file that makes it.
        line, column: where the loader points.
        path: the file name the example pretends to have.
    """

    label: str
    title: str
    source: str
    line: int
    column: int
    path: str = "<example>"


def diagnose(source: str, path: str = "<example>") -> list[RuleFileError]:
    """Every error of one rule file on its own: the syntax error, or all semantic ones."""
    try:
        tree = parse(source, path)
    except RuleFileError as error:
        return [error]
    return check(tree, source)


def _race(*body: str) -> str:
    return 'race scouts "Scouts" {\n' + "".join(f"    {line}\n" for line in body) + "}\n"


_BASICS = ("tokens 5", "box 10", 'text "Scouts see far."')


def _basic(*body: str) -> str:
    return _race(*_BASICS, *body)


CATALOGUE: tuple[CatalogueEntry, ...] = (
    # ---- syntax
    CatalogueEntry("bad-header", "the file does not start with race, power or expansion",
                   'rase scouts "Scouts" {\n    tokens 5\n}\n', 1, 1),
    CatalogueEntry("bad-id", "a name with a hyphen",
                   'race my-scouts "Scouts" {\n    tokens 5\n}\n', 1, 6),
    CatalogueEntry("missing-brace", "the closing brace is missing",
                   'race scouts "Scouts" {\n    tokens 5\n    box 10\n', 3, 11),
    CatalogueEntry("unknown-hook", "a misspelt hook",
                   _basic("conquest_cots sub 1"), 5, 5),
    CatalogueEntry("unknown-operator", "an operator that does not exist",
                   _basic("score plus 1"), 5, 11),
    CatalogueEntry("unknown-status", "a misspelt status",
                   _basic("score add 1 while activ"), 5, 23),
    CatalogueEntry("missing-value", "a word where a number belongs",
                   _race("tokens 5", "box ten"), 3, 9),
    CatalogueEntry("missing-name", "a number where a name belongs",
                   _basic("flag 3"), 5, 10),
    CatalogueEntry("missing-when", "a condition without its 'when'",
                   _basic("score add 7 first_turn"), 5, 17),
    CatalogueEntry("unterminated-string", "a string never closed",
                   'race scouts "Scouts" {\n    text "Scouts see far.\n}\n', 2, 10),
    CatalogueEntry("bad-escape", "an escape other than \\\" and \\\\",
                   'race scouts "Scouts" {\n    text "Scouts\\nsee far."\n}\n', 2, 17),
    CatalogueEntry("unexpected-character", "punctuation the language does not use",
                   _race("tokens 5;"), 2, 13),
    CatalogueEntry("trailing-input", "text after the closing brace",
                   _race(*_BASICS) + "race more {\n", 6, 1),
    # ---- names and vocabulary
    CatalogueEntry("unknown-terrain", "a misspelt terrain (with a suggestion)",
                   _basic("score add count(own regions with terrain forrest)"), 5, 46),
    CatalogueEntry("unknown-feature", "a feature the maps do not have",
                   _basic("score add count(own regions with feature gold)"), 5, 46),
    CatalogueEntry("unknown-property", "a bare terrain name used as a condition",
                   _basic("conquest_cost sub 1 when target forest"), 5, 37),
    CatalogueEntry("unknown-flag", "a flag the core does not know",
                   _basic("flag fly_anywhere"), 5, 10),
    CatalogueEntry("unknown-piece", "a piece used but never declared",
                   _basic("score add count(own regions with piece tower)"), 5, 44),
    CatalogueEntry("unknown-piece-property", "a piece property that does not exist",
                   _basic("piece tower supply 3 { sturdy }"), 5, 28),
    CatalogueEntry("missing-property-value", "a piece property without its number",
                   _basic("piece tower supply 3 { defence }"), 5, 28),
    CatalogueEntry("value-on-flag-property", "a number given to a property that takes none",
                   _basic("piece tower supply 3 { immune 1 }"), 5, 28),
    CatalogueEntry("unknown-option", "a game option nobody declares",
                   _basic("score add 1 when option scouts_bonus"), 5, 29),
    # ---- statements
    CatalogueEntry("duplicate-statement", "a statement given twice",
                   _basic("tokens 6"), 5, 5),
    CatalogueEntry("missing-tokens", "a race without its tokens",
                   'race scouts "Scouts" {\n    box 10\n    text "Scouts see far."\n}\n', 1, 1),
    CatalogueEntry("missing-text", "a race without its rules text",
                   'race scouts "Scouts" {\n    tokens 5\n    box 10\n}\n', 1, 1),
    CatalogueEntry("missing-box", "a race without its box",
                   'race scouts "Scouts" {\n    tokens 5\n    text "Scouts see far."\n}\n', 1, 1),
    CatalogueEntry("box-on-power", "a box given to a power",
                   'power keen "Keen" {\n    tokens 4\n    box 10\n    text "Keen eyes."\n}\n',
                   3, 5),
    CatalogueEntry("box-too-small", "a box smaller than the banner",
                   _race("tokens 5", "box 4", 'text "Scouts see far."'), 3, 5),
    CatalogueEntry("bad-supply", "a piece with no supply",
                   _basic("piece tower supply 0 { defence 1 }"), 5, 5),
    CatalogueEntry("id-mismatch", "an id that differs from the file name",
                   _race(*_BASICS), 1, 6, path="races/rangers.swr"),
    # ---- expressions and conditions
    CatalogueEntry("division-by-zero", "a division by zero",
                   _basic("score add count(own regions) / 0"), 5, 36),
    CatalogueEntry("impossible-condition", "a target region tested where there is none",
                   _basic("score add 1 when target terrain forest"), 5, 22),
    # ---- abilities and triggers
    CatalogueEntry("ability-without-target", "an ability whose effect needs a target",
                   _basic("piece tower supply 3 { defence 1 }",
                          "ability build {", "    during redeploy", "    place tower", "}"),
                   8, 9),
    CatalogueEntry("ability-without-phase", "an ability that never says when",
                   _basic("ability rally {", "    gain 1", "}"), 5, 13),
    CatalogueEntry("ability-without-effect", "an ability that does nothing",
                   _basic("ability rally {", "    during conquest", "}"), 5, 13),
    CatalogueEntry("wrong-target", "an effect aimed at the wrong kind of target",
                   _basic("ability parley {", "    during redeploy",
                          "    target region", "    truce", "}"), 8, 9),
    CatalogueEntry("bad-limit", "a limit per player without a target",
                   _basic("ability rally {", "    during conquest",
                          "    once_per_player_per_turn", "    gain 1", "}"), 7, 9),
    CatalogueEntry("effect-not-in-trigger", "a player's decision written as a trigger",
                   _basic("on conquest do convert"), 5, 20),
    CatalogueEntry("unused-target", "a target no effect uses",
                   _basic("ability rally {", "    during conquest",
                          "    target region", "    gain 1", "}"), 7, 9),
)
