"""Loading rule files: the official races and powers, expansions, and a user's own files.

>>> import smallworld_rules as sw
>>> rules = sw.load_rules()
>>> all(race.box >= race.tokens for race in rules.races.values())
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs

from smallworld_rules.dsl import ast
from smallworld_rules.dsl.compiler import compile_file
from smallworld_rules.dsl.parser import parse_file
from smallworld_rules.dsl.semantics import check
from smallworld_rules.errors import RulesError
from smallworld_rules.options import CORE_OPTIONS
from smallworld_rules.ruledefs import OptionDef, PieceDef, RuleDef

RULE_SUFFIX = ".swr"
KIND_FOLDERS = {"race": "races", "power": "powers", "expansion": "expansions"}


@attrs.frozen
class Rules:
    """A loaded set of rule files, ready for :meth:`Game.new`.

    Attributes:
        races: race id -> compiled race.
        powers: power id -> compiled power.
        expansions: expansion id -> compiled expansion (only those asked for).
        pieces: piece name -> its declaration (across all files).
        options: game option name -> its declaration (the core's and the files').
    """

    races: Mapping[str, RuleDef]
    powers: Mapping[str, RuleDef]
    expansions: Mapping[str, RuleDef] = attrs.field(factory=dict)
    pieces: Mapping[str, PieceDef] = attrs.field(factory=dict)
    options: Mapping[str, OptionDef] = attrs.field(factory=lambda: dict(CORE_OPTIONS))

    def get(self, rule_id: str) -> RuleDef:
        """The race, power or expansion with that id.

        Raises:
            RulesError: no such id.
        """
        for table in (self.races, self.powers, self.expansions):
            if rule_id in table:
                return table[rule_id]
        raise RulesError(f"no race, power or expansion with id {rule_id!r}")


def rules_root() -> Path:
    """The folder holding ``races/``, ``powers/`` and ``expansions/``.

    From an installed wheel they sit inside the package (``_rules/``); from a source checkout,
    next to it.
    """
    package = Path(__file__).resolve().parent
    installed = package / "_rules"
    return installed if installed.is_dir() else package.parent


_CACHE: dict[tuple[str, int, int], tuple[ast.RuleFile, str]] = {}


def _parse(path: Path) -> tuple[ast.RuleFile, str]:
    """Parse a file once per process (keyed by path, modification time and size)."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _CACHE:
        tree = parse_file(str(path))
        _CACHE[key] = (tree, path.read_text(encoding="utf-8"))
    return _CACHE[key]


def _files(paths: Iterable[str | Path]) -> list[Path]:
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found.extend(sorted(path.rglob(f"*{RULE_SUFFIX}")))
        elif path.is_file():
            found.append(path)
        else:
            raise RulesError(f"no rule file or folder at {str(path)!r}")
    return found


def load_rules(
    expansions: Iterable[str] = (),
    paths: Iterable[str | Path] = (),
) -> Rules:
    """Load the official races and powers, the named expansions, and extra rule files.

    Args:
        expansions: expansion ids: the stems of files in ``expansions/``.
        paths: rule files or folders of them; a file whose id matches a loaded one replaces it.

    Raises:
        RuleFileError: the first mistake of a broken file (path, line, column, hint).
        RulesError: an unknown expansion, a missing path, or two files declaring one piece.
    """
    root = rules_root()
    official = [
        *sorted((root / "races").glob(f"*{RULE_SUFFIX}")),
        *sorted((root / "powers").glob(f"*{RULE_SUFFIX}")),
    ]
    wanted = list(expansions)
    available = {p.stem: p for p in (root / "expansions").glob(f"*{RULE_SUFFIX}")}
    for name in wanted:
        if name not in available:
            known = ", ".join(sorted(available)) or "none"
            raise RulesError(f"unknown expansion {name!r} (available: {known})")
    files = official + [available[name] for name in wanted] + _files(paths)

    parsed = [_parse(path) for path in files]
    declared = {
        st.name for tree, _ in parsed for st in tree.statements if isinstance(st, ast.PieceDecl)
    }
    option_names = set(CORE_OPTIONS) | {
        st.name for tree, _ in parsed for st in tree.statements if isinstance(st, ast.OptionDecl)
    }
    tables: dict[str, dict[str, RuleDef]] = {"race": {}, "power": {}, "expansion": {}}
    for tree, source in parsed:
        errors = check(tree, source, declared, option_names)
        if errors:
            raise errors[0]
        rule = compile_file(tree)
        tables[rule.kind][rule.id] = rule  # a later file with the same id replaces it
    pieces: dict[str, PieceDef] = {}
    for table in tables.values():
        for rule in table.values():
            for piece in rule.pieces:
                other = pieces.get(piece.name)
                if other is not None:
                    raise RulesError(
                        f"piece {piece.name!r} is declared twice: {other.path}:{other.line} "
                        f"and {piece.path}:{piece.line}"
                    )
                pieces[piece.name] = piece
    options = dict(CORE_OPTIONS)
    for table in tables.values():
        for rule in table.values():
            for option in rule.options:
                first = options.get(option.name)
                if first is not None:
                    where = first.path if first.line is None else f"{first.path}:{first.line}"
                    raise RulesError(
                        f"game option {option.name!r} is declared twice: {where} "
                        f"and {option.path}:{option.line}"
                    )
                options[option.name] = option
    return Rules(tables["race"], tables["power"], tables["expansion"], pieces, options)
