"""The library's exceptions.

Every error the library raises on bad input derives from :class:`RulesError`, which is a
``ValueError``: an illegal action, a broken rule file, a corrupt saved game or map.
"""

from __future__ import annotations


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
