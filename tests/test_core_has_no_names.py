"""The core knows no race, power, piece or expansion by name.

Every Python token of ``smallworld_rules/`` (identifiers, strings, comments and docstrings, so
their examples too), and every line of the grammar, is searched for the official names (and
for the word "human", which reads as the race): examples use names of their own.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import smallworld_rules

CORE = Path(smallworld_rules.__file__).parent
NAMES = re.compile(
    r"amazon|dwar(f|ves)|\belf\b|\belves\b|ghoul|giant|halfling|human|\borcs?\b|ratm[ae]n"
    r"|skeleton|sorcerer|triton|\btrolls?\b|wizard|alchemist|berserk|bivouac|commando|diplomat"
    r"|dragon|flying|fortif|fortress|heroic|\bhero(es)?\b|merchant|mounted|pillag|seafar"
    r"|\bspirit\b|\bstout\b|underworld|wealthy|encampment|\blairs?\b|\bholes?\b|\bghosts?\b"
    r"|necromancer|well of souls|soul.?well",
    re.IGNORECASE,
)


def _offending(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".lark":
        return [f"{path}:{n}: {line}" for n, line in enumerate(source.splitlines(), 1)
                if NAMES.search(line)]
    hits = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        kinds = (tokenize.NAME, tokenize.STRING, tokenize.COMMENT)
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
    """The scanner is not blind: a name in code, a comment or a docstring is found."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""Ratmen in a docstring."""\nx = "elves"  # Giants\ny = "scouts"\n')
    assert len(_offending(sample)) == 3
