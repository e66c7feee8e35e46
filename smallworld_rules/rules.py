"""Loading rule files: the official races and powers, expansions, rule packs and a user's files.

>>> import smallworld_rules as sw
>>> rules = sw.load_rules()
>>> all(race.box >= race.tokens for race in rules.races.values())
True
>>> some = sorted(rules.races)[0]
>>> rules.find_race(some.upper()).id == some
True

Files are loaded in a fixed order: the official races and powers, the official expansions asked
for, the rule packs asked for (:mod:`smallworld_rules.packs`), then the user's ``paths``, each in
the order given. Every rule file has an id (its file stem) that must be unique in the whole
load: a file whose id is already taken is refused with a :class:`RulesError` naming both files,
unless ``override=True`` lets the later file replace the earlier one (a race only by a race, a
power only by a power). The refusal is a :class:`~smallworld_rules.errors.RuleFileError`
labelled ``duplicate-id``, pointing at the id in the later file.

Rule files are data: loading one reads that file and nothing else, runs no code from it, and is
bounded in size and work (see :data:`MAX_RULE_FILES` here and the ``MAX_*`` limits of
:mod:`smallworld_rules.dsl.parser`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import attrs

from smallworld_rules.dsl import ast
from smallworld_rules.dsl.compiler import compile_file
from smallworld_rules.dsl.parser import (
    MAX_SOURCE_BYTES,
    display_source,
    normalize_source,
    parse,
    parse_file,
    suggest,
)
from smallworld_rules.dsl.semantics import check
from smallworld_rules.errors import RuleFileError, RulesError, excerpt
from smallworld_rules.options import CORE_OPTIONS
from smallworld_rules.packs import Pack, find_pack
from smallworld_rules.ruledefs import OptionDef, PieceDef, RoleDef, RuleDef, ZoneDef

__all__ = [
    "MAX_RULE_FILES",
    "RULE_SUFFIX",
    "Rules",
    "available_expansions",
    "find_power",
    "find_race",
    "load_rules",
    "rules_root",
]

RULE_SUFFIX = ".swr"
KIND_FOLDERS = {"race": "races", "power": "powers", "expansion": "expansions"}
#: Most rule files one :func:`load_rules` call reads, official ones included (the base game
#: and its expansion have a few dozen). Folders are not even listed past this many files.
MAX_RULE_FILES = 500
#: Parsed files kept in memory across loads (oldest dropped first).
PARSE_CACHE_SIZE = 1024

# Ignored when names are compared: case, blanks, '_', '-', apostrophes and dots.
_NAME_NOISE = re.compile(r"[\s_\-'’.]+")


def _name_key(name: str) -> str:
    return _NAME_NOISE.sub("", name.casefold())


@attrs.frozen
class Rules:
    """A loaded set of rule files, ready for :meth:`Game.new`.

    Attributes:
        races: race id -> compiled race.
        powers: power id -> compiled power.
        expansions: expansion id -> compiled expansion (only those asked for).
        pieces: piece name -> its declaration (across all files).
        options: game option name -> its declaration (the core's and the files').
        packs: names of the rule packs loaded, in the order given.
        zones: zone id -> its declaration (zones of tokens off the map, by the expansions).
        roles: role id -> its declaration (seats that play without races, by the expansions).
        boxes: ids of the expansion folders loaded (boxes of races and powers), in the order
            asked for.
        option_defaults: option name -> its default, in sorted order (from ``options``).
    """

    races: Mapping[str, RuleDef]
    powers: Mapping[str, RuleDef]
    expansions: Mapping[str, RuleDef] = attrs.field(factory=dict)
    pieces: Mapping[str, PieceDef] = attrs.field(factory=dict)
    options: Mapping[str, OptionDef] = attrs.field(factory=lambda: dict(CORE_OPTIONS))
    packs: tuple[str, ...] = ()
    zones: Mapping[str, ZoneDef] = attrs.field(factory=dict)
    roles: Mapping[str, RoleDef] = attrs.field(factory=dict)
    boxes: tuple[str, ...] = ()
    #: every option's default, by name in sorted order: what a game is played with unless
    #: told otherwise (``options.resolve_options``), worked out once per load, not per game
    option_defaults: Mapping[str, bool | int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        defaults = {name: self.options[name].default for name in sorted(self.options)}
        object.__setattr__(self, "option_defaults", defaults)  # a frozen class

    @property
    def expansion_ids(self) -> tuple[str, ...]:
        """Every expansion id this load was asked for (files and folders), sorted: what a save
        or record names so that the same rules can be loaded again."""
        return tuple(sorted({*self.expansions, *self.boxes}))

    @property
    def lost_tokens_to(self) -> str | None:
        """The zone tokens lost to a conquest go to (``None``: the box), by the expansions."""
        return next((e.lost_tokens_to for e in self.expansions.values() if e.lost_tokens_to), None)

    def get(self, rule_id: str) -> RuleDef:
        """The race, power or expansion with that id.

        Raises:
            RulesError: no such id.
        """
        for table in (self.races, self.powers, self.expansions):
            if rule_id in table:
                return table[rule_id]
        raise RulesError(f"no race, power or expansion with id {rule_id!r}")

    def find_race(self, name: str) -> RuleDef:
        """The race named ``name``: its id, display name or one of its aliases.

        Case, blanks, underscores, hyphens, apostrophes and dots are ignored, so ``"Big Folk"``,
        ``"big-folk"`` and ``"BIGFOLK"`` all find a race ``big_folk``. An exact id wins over a
        display name, which wins over an alias.

        Args:
            name: what to look for.

        Returns:
            The compiled race (``.id`` is what :meth:`Game.new` takes).

        Raises:
            RulesError: no race matches (the message suggests the closest one, or says the
                name is a power's), or several races match equally well.
        """
        return _find(self.races, "race", name, self.powers, "power")

    def find_power(self, name: str) -> RuleDef:
        """The special power named ``name``: its id, display name or one of its aliases.

        Matching works as in :meth:`find_race`.

        Args:
            name: what to look for.

        Returns:
            The compiled power.

        Raises:
            RulesError: no power matches (with a suggestion), or several match equally well.
        """
        return _find(self.powers, "power", name, self.races, "race")


def _find(
    table: Mapping[str, RuleDef],
    kind: str,
    name: str,
    others: Mapping[str, RuleDef],
    other_kind: str,
) -> RuleDef:
    key = _name_key(name)
    if not key:
        raise RulesError(f"no {kind} name given ({name!r})")
    # Three levels of match, best first: ids, display names, aliases.
    levels: list[dict[str, set[str]]] = [{}, {}, {}]
    for rule in table.values():
        for level, names in zip(levels, ((rule.id,), (rule.name,), rule.aliases), strict=True):
            for each in names:
                level.setdefault(_name_key(each), set()).add(rule.id)
    for level in levels:
        found = level.get(key)
        if found and len(found) == 1:
            return table[next(iter(found))]
        if found:
            listed = ", ".join(f"{rid!r} ({table[rid].name})" for rid in sorted(found))
            raise RulesError(f"{name!r} names several {kind}s: {listed}; give the id instead")
    for other in others.values():
        if key in {_name_key(n) for n in (other.id, other.name, *other.aliases)}:
            raise RulesError(
                f"no {kind} is named {name!r}, but the {other_kind} {other.id!r} is: "
                f"use find_{other_kind}()"
            )
    candidates: dict[str, str] = {}
    for level in reversed(levels):  # better levels overwrite worse ones
        candidates.update({k: min(ids) for k, ids in level.items()})
    guess = suggest(key, candidates)
    if guess is not None:
        rule = table[candidates[guess]]
        hint = f"did you mean {rule.id!r} ({rule.name})?"
    else:
        hint = f"the {kind}s are: {', '.join(sorted(table)) or 'none'}"
    raise RulesError(f"no {kind} is named {name!r}; {hint}")


def find_race(name: str, rules: Rules | None = None) -> RuleDef:
    """Find a race by id, display name or alias (see :meth:`Rules.find_race`).

    >>> rules = load_rules()
    >>> race = rules.races[sorted(rules.races)[-1]]
    >>> find_race(race.name.upper(), rules) is race
    True

    Args:
        name: what to look for: an id, or a display name in any case.
        rules: the rules to search; the official ones by default.

    Returns:
        The compiled race.

    Raises:
        RulesError: no race matches (with a "did you mean" suggestion), or several do.
    """
    return (load_rules() if rules is None else rules).find_race(name)


def find_power(name: str, rules: Rules | None = None) -> RuleDef:
    """Find a special power by id, display name or alias (see :meth:`Rules.find_power`).

    Args:
        name: what to look for: an id, or a display name in any case.
        rules: the rules to search; the official ones by default.

    Returns:
        The compiled power.

    Raises:
        RulesError: no power matches (with a "did you mean" suggestion), or several do.
    """
    return (load_rules() if rules is None else rules).find_power(name)


def rules_root() -> Path:
    """The folder holding ``races/``, ``powers/`` and ``expansions/``.

    From an installed wheel they sit inside the package (``_rules/``); from a source checkout,
    next to it.
    """
    package = Path(__file__).resolve().parent
    installed = package / "_rules"
    return installed if installed.is_dir() else package.parent


def _expansion_sources() -> dict[str, Path]:
    """Expansion id -> its file (``expansions/<id>.swr``) or folder (``expansions/<id>/``, a
    box of races and powers, one file each)."""
    folder = rules_root() / "expansions"
    if not folder.is_dir():
        return {}
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix == RULE_SUFFIX:
            found[path.stem] = path
        elif path.is_dir() and any(path.glob(f"*{RULE_SUFFIX}")):
            found[path.name] = path
    return found


def available_expansions() -> tuple[str, ...]:
    """The ids :func:`load_rules` accepts in ``expansions=``, sorted.

    >>> ids = available_expansions()
    >>> len(ids) > 0 and ids == tuple(sorted(ids))
    True
    """
    return tuple(_expansion_sources())


# --------------------------------------------------------------------------- parsing, cached

_CACHE: dict[tuple[str, int, int], tuple[ast.RuleFile, str]] = {}


def _parse(path: Path) -> tuple[ast.RuleFile, str]:
    """Parse a file once per process (keyed by path, modification time and size).

    The file is read once, never past :data:`~smallworld_rules.dsl.parser.MAX_SOURCE_BYTES`;
    whatever cannot be read or decoded goes to ``parse_file`` for its precise error.
    """
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _CACHE:
        source: str | None = None
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_SOURCE_BYTES + 1)
            if len(data) <= MAX_SOURCE_BYTES:
                source = data.decode("utf-8")
        except (OSError, UnicodeError):
            pass
        if source is None:
            parse_file(path)  # raises: unreadable, too large or not UTF-8
            raise RulesError(f"the rule file {str(path)!r} changed while it was read")
        tree = parse(source, str(path))
        while len(_CACHE) >= PARSE_CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = (tree, source)
    return _CACHE[key]


# --------------------------------------------------------------------------- finding the files


@attrs.frozen
class _Source:
    """One rule file to load and where it comes from (for conflict messages)."""

    path: Path
    origin: str  # "official", "pack 'x' from the distribution 'y' 1.0", or "" for a user path


def _too_many_files() -> RulesError:
    return RulesError(
        f"more than {MAX_RULE_FILES} rule files in one load; "
        "point paths= at the folders you need rather than at a large tree"
    )


def _listed(path: Path) -> Iterator[Path]:
    """The rule files in a folder (recursively), or the file itself."""
    if path.is_dir():
        return _in_folder(path)
    if path.is_file():
        return iter((path,))
    if path.exists():  # a FIFO, a device: reading it could wait forever
        raise RulesError(f"{excerpt(str(path))} is neither a regular file nor a folder")
    raise RulesError(f"no rule file or folder at {excerpt(str(path))}")


def _in_folder(folder: Path) -> Iterator[Path]:
    """The regular rule files under ``folder``. A link that leads out of the folder is refused
    unread: a folder from elsewhere could point ``x.swr`` at a secret, and an error message
    would quote its first line."""
    inside = folder.resolve()
    for file in folder.rglob(f"*{RULE_SUFFIX}"):
        if not file.is_file():
            continue
        if file.is_symlink() and not file.resolve().is_relative_to(inside):
            raise RulesError(
                f"{excerpt(str(file))[1:-1]} is a link to a file outside {excerpt(str(folder))}: "
                "a rule folder's files are loaded from the folder only"
            )
        yield file


def _files(path: Path, budget: int) -> list[Path]:
    """The rule files under ``path``, sorted; refused past ``budget`` without listing more."""
    found = list(itertools.islice(_listed(path), budget + 1))
    if len(found) > budget:
        raise _too_many_files()
    return sorted(found)


def rule_files(path: str | Path) -> list[Path]:
    """The rule files a path names: the file itself, or every ``*.swr`` file under a folder,
    sorted (what ``paths=`` of :func:`load_rules` and ``smallworld check DIR`` read).

    Raises:
        RulesError: nothing there, not a regular file nor a folder (a FIFO), a link out of the
            folder, or too many files.
    """
    return _files(Path(path), MAX_RULE_FILES)


def _sources(
    expansions: Iterable[str], packs: Iterable[str | Pack], paths: Iterable[str | Path]
) -> tuple[list[_Source], tuple[str, ...]]:
    root = rules_root()
    sources: list[_Source] = []

    def add(path: Path, origin: str) -> None:
        for file in _files(path, MAX_RULE_FILES - len(sources)):
            sources.append(_Source(file, origin))

    add(root / "races", "official")
    add(root / "powers", "official")
    available = _expansion_sources()
    for name in expansions:
        if name not in available:
            known = ", ".join(sorted(available)) or "none"
            raise RulesError(f"unknown expansion {name!r} (available: {known})")
        add(available[name], "official expansion")
    pack_names: list[str] = []
    for wanted in packs:
        pack = wanted if isinstance(wanted, Pack) else find_pack(wanted)
        if pack.name in pack_names:
            continue
        add(pack.folder(), pack.describe())
        pack_names.append(pack.name)
    for given in paths:
        add(Path(given), "")
    # The same file reached twice (a folder and a file in it, say) is loaded once.
    seen: set[Path] = set()
    unique: list[_Source] = []
    for source in sources:
        resolved = source.path.resolve()
        if resolved not in seen:
            seen.add(resolved)
            unique.append(source)
    return unique, tuple(pack_names)


def _where(source: _Source) -> str:
    return f"{source.path} ({source.origin})" if source.origin else str(source.path)


def _conflict(
    first: _Source, first_kind: str, later: _Source, tree: ast.RuleFile, text: str, override: bool
) -> RuleFileError | None:
    """The error for a file whose id is taken, or ``None`` if it may replace the earlier file.

    The error points at the id in the later file's header (label ``duplicate-id``) and names
    both files, with the pack and distribution of each when they come from packs.
    """
    pos = tree.id_pos or tree.pos
    taken = f"the id {tree.id!r} is already used by {_where(first)}"
    this = f"this file ({later.origin})" if later.origin else "this file"
    if first_kind != tree.kind:
        message = f"{taken}, a {first_kind}; {this} is a {tree.kind}, which cannot replace it"
        hint = "rename this file and the id in its header"
    elif override:
        return None
    else:
        message = f"{taken}; {this} would replace it"
        hint = (
            "to replace it, pass override=True to load_rules(); "
            "otherwise rename this file and the id in its header"
        )
    return RuleFileError(
        message,
        path=str(later.path),
        line=pos.line,
        column=pos.column,
        hint=hint,
        label="duplicate-id",
        source=display_source(normalize_source(text)),
    )


def id_conflict(
    rules: Rules, tree: ast.RuleFile, text: str, override: bool = False
) -> RuleFileError | None:
    """The ``duplicate-id`` error a file would meet if loaded after ``rules`` (``None`` if
    its id is free, the file is the one already loaded, or ``override`` lets it replace it)."""
    try:
        taken = rules.get(tree.id)
    except RulesError:
        return None
    if Path(taken.path).resolve() == Path(tree.path).resolve():
        return None
    origin = "official" if Path(taken.path).is_relative_to(rules_root()) else ""
    first = _Source(Path(taken.path), origin)
    return _conflict(first, taken.kind, _Source(Path(tree.path), ""), tree, text, override)


# --------------------------------------------------------------------------- loading


def _declared_twice(
    what: str, name: str, first: str, tree: ast.RuleFile, text: str
) -> RuleFileError:
    """The error of a piece or game option declared again by ``tree`` (a later file)."""
    kind = ast.PieceDecl if what == "piece" else ast.OptionDecl
    pos = next(st.pos for st in tree.statements if isinstance(st, kind) and st.name == name)
    noun = "piece" if what == "piece" else "game option"
    return RuleFileError(
        f"the {noun} {name!r} is already declared by {first}",
        path=tree.path,
        line=pos.line,
        column=pos.column,
        hint=f"{noun} names are shared by all loaded files: rename this one",
        label="duplicate-piece" if what == "piece" else "duplicate-option",
        source=display_source(normalize_source(text)),
    )


def load_rules(
    expansions: Iterable[str] = (),
    paths: Iterable[str | Path] = (),
    *,
    packs: Iterable[str | Pack] = (),
    override: bool = False,
) -> Rules:
    """Load the official races and powers, the named expansions and packs, and extra files.

    >>> rules = load_rules(override=False)
    >>> rules.packs
    ()

    Args:
        expansions: expansion ids (see :func:`available_expansions`): the stem of a file in
            ``expansions/``, or the name of a folder there holding a box of races and powers
            (every file of the folder is loaded; their banners and badges join the market).
        packs: names of installed rule packs (see
            :func:`~smallworld_rules.packs.available_packs`), or the
            :class:`~smallworld_rules.packs.Pack` records themselves; every rule file of a pack
            is loaded.
        paths: rule files, or folders searched recursively for ``*.swr`` files.
        override: let a file replace an earlier one with the same id (official < expansions
            < packs < paths, each in the order given). Without it, two files with one id are
            refused.

    Returns:
        The compiled rules.

    Raises:
        RuleFileError: the first mistake of a broken file (path, line, column, hint), or a
            file whose id an earlier file already has (label ``duplicate-id``; unless
            ``override``, and always when a race would replace a power or the reverse).
        RulesError: an unknown expansion or pack, a broken pack, a missing path, two files
            declaring one piece or game option, or more than :data:`MAX_RULE_FILES` files.
    """
    expansions = tuple(expansions)
    sources, pack_names = _sources(expansions, packs, paths)
    chosen: dict[str, tuple[_Source, ast.RuleFile, str]] = {}
    for source in sources:
        tree, text = _parse(source.path)
        if tree.id != source.path.stem:
            # Report the misnamed file itself rather than a conflict its wrong id may cause.
            mismatch = [e for e in check(tree, text) if e.label == "id-mismatch"]
            if mismatch:
                raise mismatch[0]
        earlier = chosen.get(tree.id)
        if earlier is not None:
            error = _conflict(earlier[0], earlier[1].kind, source, tree, text, override)
            if error is not None:
                raise error
            del chosen[tree.id]  # re-inserted last: the load order stays the file order
        chosen[tree.id] = (source, tree, text)

    parsed = [(tree, text) for _, tree, text in chosen.values()]
    declared = {
        st.name for tree, _ in parsed for st in tree.statements if isinstance(st, ast.PieceDecl)
    }
    option_names = set(CORE_OPTIONS) | {
        st.name for tree, _ in parsed for st in tree.statements if isinstance(st, ast.OptionDecl)
    }
    tables: dict[str, dict[str, RuleDef]] = {"race": {}, "power": {}, "expansion": {}}
    # Piece and option names are global: a second declaration is an error of the file loaded
    # later (files are compiled in load order).
    pieces: dict[str, PieceDef] = {}
    options = dict(CORE_OPTIONS)
    for tree, source_text in parsed:
        errors = check(tree, source_text, declared, option_names)
        if errors:
            raise errors[0]
        rule = compile_file(tree)
        tables[rule.kind][rule.id] = rule
        for piece in rule.pieces:
            other = pieces.get(piece.name)
            if other is not None:
                raise _declared_twice(
                    "piece", piece.name, f"{other.path}:{other.line}", tree, source_text
                )
            pieces[piece.name] = piece
        for option in rule.options:
            first = options.get(option.name)
            if first is not None:
                where = first.path if first.line is None else f"{first.path}:{first.line}"
                raise _declared_twice("option", option.name, where, tree, source_text)
            options[option.name] = option
    zones: dict[str, ZoneDef] = {}
    roles: dict[str, RoleDef] = {}
    piled = [d for kind in ("race", "power") for d in tables[kind].values() if d.zones]
    for expansion in (*tables["expansion"].values(), *piled):  # piles: collect lost_tokens
        for zone in expansion.zones:
            if zone.id in zones:
                raise RulesError(
                    f"{zone.path}:{zone.line}: the zone {zone.id!r} is declared twice "
                    f"(first in {zones[zone.id].path}:{zones[zone.id].line})"
                )
            zones[zone.id] = zone
        for role in expansion.roles:
            if roles:
                known = next(iter(roles.values()))
                raise RulesError(
                    f"{role.path}:{role.line}: a game has at most one role, and "
                    f"{known.path}:{known.line} declares {known.id!r} already"
                )
            if role.race.id in tables["race"]:
                raise RulesError(
                    f"{role.path}:{role.line}: the token {role.race.id!r} of the role "
                    f"{role.id!r} has the id of a race"
                )
            roles[role.id] = role
    sources_by_id = _expansion_sources() if expansions else {}
    boxes = tuple(e for e in dict.fromkeys(expansions) if sources_by_id[e].is_dir())
    destinations = {e.lost_tokens_to for e in tables["expansion"].values() if e.lost_tokens_to}
    if len(destinations) > 1:
        raise RulesError(
            f"the expansions send lost tokens to different zones: {sorted(destinations)}"
        )
    return Rules(
        tables["race"],
        tables["power"],
        tables["expansion"],
        pieces,
        options,
        pack_names,
        zones,
        roles,
        boxes,
    )
