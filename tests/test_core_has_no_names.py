"""The core knows no race, power, piece or expansion by name.

Every Python token of ``smallworld_rules/`` (identifiers, strings, comments) except docstrings,
and every line of the grammar, is searched for the official names. Docstring examples may name
them (docstring examples are allowed).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import smallworld_rules

CORE = Path(smallworld_rules.__file__).parent
NAMES = re.compile(
    r"amazon|dwar(f|ves)|\belf\b|\belves\b|ghoul|giant|halfling|\bhumans?\b|\borcs?\b|ratm[ae]n"
    r"|skeleton|sorcerer|triton|\btrolls?\b|wizard|alchemist|berserk|bivouac|commando|diplomat"
    r"|dragon|flying|fortif|fortress|heroic|\bhero(es)?\b|merchant|mounted|pillag|seafar"
    r"|\bspirit\b|\bstout\b|underworld|wealthy|encampment|\blairs?\b|\bholes?\b|\bghosts?\b"
    r"|necromancer|well of souls|soul.?well",
    re.IGNORECASE,
)


def _docstring_lines(source: str) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                doc = body[0]
                lines.update(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
    return lines


#: Tokens that match a name but are none: ``--bots human`` names a seat played at the keyboard
#: (a kind of player, not the race), once, in the command line.
NOT_NAMES = {("cli.py", '"human"')}


def _offending(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".lark":
        return [f"{path}:{n}: {line}" for n, line in enumerate(source.splitlines(), 1)
                if NAMES.search(line)]
    skip = _docstring_lines(source)
    hits = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.start[0] in skip:
            continue
        kinds = (tokenize.NAME, tokenize.STRING, tokenize.COMMENT)
        if (path.name, tok.string) in NOT_NAMES:
            continue
        if tok.type in kinds and NAMES.search(tok.string):
            hits.append(f"{path}:{tok.start[0]}: {tok.string}")
    return hits


def test_core_names_no_race_power_piece_or_expansion() -> None:
    """No race, power, piece or expansion name in the core's code."""
    files = sorted(CORE.rglob("*.py")) + sorted(CORE.rglob("*.lark"))
    assert len(files) > 10
    hits = [hit for path in files for hit in _offending(path)]
    assert hits == []


def test_the_check_itself_finds_names(tmp_path: Path) -> None:
    """The scanner is not blind: a name in code or a comment is found, in a docstring not."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""Ratmen in a docstring is fine."""\nx = "elves"  # Giants\n')
    assert len(_offending(sample)) == 2
