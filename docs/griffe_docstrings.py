"""A Griffe extension for the API reference (mkdocs.yml loads it for mkdocstrings).

The library's docstrings are Google style, but keep two habits of Sphinx readers that Markdown
does not understand. This extension rewrites them as the docstrings are loaded, without
touching the code:

- cross-reference roles, ``:meth:`Game.apply``` or ``:class:`~pkg.mod.Name```, become inline
  code (the last component after a ``~``);
- doctest examples (lines starting with ``>>>`` and their output) become ```` ```pycon ````
  blocks, instead of nested block quotes, and a reST ``text::`` before an indented code block
  loses its second colon.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:meth|func|class|data|attr|mod|exc|obj|const|ref):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    if match.group(1):
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def _fence_doctests(text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
        elif in_fence:
            pass
        elif stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block: list[str] = []
            while i < len(lines) and lines[i].strip() and lines[i].startswith(indent):
                block.append(lines[i][len(indent) :])
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if not in_fence and stripped.endswith("::") and not stripped.startswith(":"):
            line = line[:-1]
        out.append(line)
        i += 1
    return "\n".join(out)


def rewrite(text: str) -> str:
    """The docstring ``text`` with roles and doctests rewritten for Markdown."""
    return _fence_doctests(_ROLE.sub(_role, text))


class SphinxHabits(griffe.Extension):
    """Rewrite reST roles and doctest blocks in every docstring Griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rewrite(obj.docstring.value)
