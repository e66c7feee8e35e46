"""The library's exceptions.

Every error the library raises on bad input derives from :class:`RulesError`, which is a
``ValueError``: an illegal action, a broken rule file, a corrupt saved game or map.
"""

from __future__ import annotations

import reprlib


class RulesError(ValueError):
    """Base class of every error raised on bad input (a ``ValueError``)."""


class IllegalAction(RulesError):
    """An action that is not legal now; the game is left exactly as it was.

    Attributes:
        action: the refused action (may be ``None`` when the input was not an action).
        reason: a sentence saying why it was refused.
    """

    def __init__(self, reason: str, action: object = None) -> None:
        self.reason = reason
        self.action = action
        super().__init__(reason if action is None else f"{action!r}: {reason}")


class RuleFileError(RulesError):
    """A rule file that cannot be loaded.

    The message reads ``path:line:column: message``, then the offending line with a caret under
    the column, then a hint.

    Attributes:
        path: the file (or ``"<string>"``).
        line: 1-based line of the mistake.
        column: 1-based column of the mistake.
        message: what is wrong, in one sentence.
        hint: how to fix it (may be empty).
        label: a short stable name of the kind of mistake (e.g. ``"unknown-hook"``).
        context: the offending line with a caret under the column.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str = "<string>",
        line: int = 1,
        column: int = 1,
        hint: str = "",
        label: str = "error",
        source: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.hint = hint
        self.label = label
        self.context = caret_context(source, line, column) if source is not None else ""
        text = f"{path}:{line}:{column}: {message}"
        if self.context:
            text += "\n" + self.context
        if hint:
            text += f"\nhint: {hint}"
        super().__init__(text)


class MapError(RulesError):
    """A map file that is malformed (the message names the region)."""


def caret_context(source: str, line: int, column: int) -> str:
    """Return the ``line`` of ``source`` and a caret under ``column`` (both 1-based)."""
    lines = source.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    text = lines[line - 1].replace("\t", " ")
    if len(text) > 200:  # a pathological line: show a window around the column
        start = max(0, column - 100)
        text, column = text[start : start + 200], column - start
    return f"    {text}\n    {' ' * (max(column, 1) - 1)}^"


#: The longest excerpt of its input an error message quotes (characters).
EXCERPT_LENGTH = 60


def _excerpt_repr() -> reprlib.Repr:
    shown = reprlib.Repr()
    shown.maxlevel = 3
    shown.maxstring = shown.maxother = shown.maxlong = EXCERPT_LENGTH - 10
    shown.maxlist = shown.maxtuple = shown.maxdict = shown.maxset = 6
    return shown


_EXCERPT = _excerpt_repr()


def excerpt(value: object) -> str:
    """What an error message may quote of its input: ``repr(value)``, escaped, cut to a short
    excerpt whatever its size or depth (a 50 MB string in a saved game gives a short message).

    >>> excerpt("scouts")
    "'scouts'"
    >>> excerpt("x" * 10_000_000)
    "'xxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxx' (10000000 characters)"
    >>> excerpt([[[[["deep"]]]]])
    '[[[[...]]]]'
    """
    try:
        text = _EXCERPT.repr(value)
    except Exception:  # a repr that fails (an int too long to print, a hostile object)
        text = f"<{type(value).__name__}>"
    if len(text) > EXCERPT_LENGTH:
        text = text[: EXCERPT_LENGTH - 3] + "..."
    if isinstance(value, str) and len(value) > EXCERPT_LENGTH:
        text += f" ({len(value)} characters)"
    return text
