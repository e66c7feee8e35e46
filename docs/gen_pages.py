"""Generate the parts of the site that come from the code and the rule files.

mkdocs-gen-files runs this script at every build (see ``mkdocs.yml``); nothing it writes is
committed. It produces:

- ``rules/``: one page per race, power and expansion from the parsed rule files
  (``smallworld_rules.load_rules()`` with every expansion found), the index tables, the
  rulings page and the ``SUMMARY.md`` that mkdocs-literate-nav turns into the navigation;
- ``errors.md``: the error catalogue, from ``smallworld_rules.dsl.catalogue.CATALOGUE``, with the
  message the loader gives for each example when the site is built;
- the marked parts of hand-written pages: a line ``<!-- generated: NAME -->`` in
  ``rule-language.md`` or ``options.md`` is replaced by the part called NAME (the grammar, the
  vocabulary tables, the option tables).

The data that is not in the code lives next to this script: ``rulings.toml`` (the rulings, the
ambiguity defaults and how the engine carries them out, our own judgement calls, and which rule
files they concern).

An expansion page shows, besides the hook points, what the file declares for the set-up: its
players and map, its zones, where lost tokens go, and each role statement by statement (as
written, through ``smallworld_rules.dsl.formatter``, with what the core does with it and the
values it takes with the default options, read from a game started for each player count).
"""

from __future__ import annotations

import ast as pyast
import importlib.resources
import io
import logging
import os
import re
import tempfile
import tokenize
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs
import mkdocs_gen_files

import smallworld_rules as sw
from smallworld_rules.dsl import ast as dsl_ast
from smallworld_rules.dsl import formatter, vocabulary
from smallworld_rules.dsl import parser as dsl_parser
from smallworld_rules.dsl.catalogue import CATALOGUE, CatalogueEntry, Repeat, reproduce
from smallworld_rules.rules import available_expansions, rules_root

log = logging.getLogger("mkdocs.plugins.gen_pages")

DOCS = Path(__file__).resolve().parent
PLACEHOLDER = re.compile(r"^<!-- generated: ([a-z_]+) -->$", re.M)
KIND_FOLDERS = {"race": "races", "power": "powers", "expansion": "expansions"}
KIND_TITLES = {"race": "Races", "power": "Powers", "expansion": "Expansions"}


# --------------------------------------------------------------------------- helpers


def md_escape(text: str) -> str:
    """Escape Markdown in plain text (rules text may hold ``*`` or ``_``). Code spans in
    backticks are kept as they are, so that texts may quote code."""
    parts = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(parts), 2):  # the text between code spans
        escaped = re.sub(r"([\\*_\[\]>#])", r"\\\1", parts[i])
        parts[i] = escaped.replace("<", "&lt;").replace("|", "&#124;")
    return "".join(parts)


def code(text: str) -> str:
    """Inline code that survives backticks and table pipes."""
    text = text.replace("|", "\\|")
    return f"``{text}``" if "`" in text else f"`{text}`"


def table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fence(source: str, lang: str, attributes: str = "") -> str:
    """A fenced block long enough that the source cannot close it."""
    ticks = "`" * max(3, max((len(m) for m in re.findall(r"`+", source)), default=0) + 1)
    return f"{ticks}{lang}{(' ' + attributes) if attributes else ''}\n{source.rstrip()}\n{ticks}\n"


def first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.!?])(\s|$)", text)
    return match.group(1) if match else text


def words(name: str) -> str:
    """``REGION_PROPERTIES`` or ``conquest_tokens`` -> ``region properties``, ``conquest
    tokens``; ``RegionProperty`` -> ``region property``."""
    if name.isupper() or name.islower():
        return name.lower().replace("_", " ")
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def write(name: str, text: str, edit: str | None = None) -> None:
    with mkdocs_gen_files.open(name, "w") as handle:
        handle.write(text)
    if edit is not None:
        mkdocs_gen_files.set_edit_path(name, edit)


def _not_a_page(name: str) -> None:
    """Keep a generated file (the literate-nav SUMMARY.md) from being built as a page."""
    from mkdocs.structure.files import InclusionLevel

    generated = mkdocs_gen_files.FilesEditor.current().files.get_file_from_path(name)
    if generated is not None:
        generated.inclusion = InclusionLevel.EXCLUDED


def fill(page: str, parts: Mapping[str, Callable[[], str]]) -> None:
    """Replace the ``<!-- generated: NAME -->`` lines of a hand-written page."""
    source = (DOCS / page).read_text(encoding="utf-8")

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in parts:
            log.warning("%s: unknown generated part %r (known: %s)", page, name, ", ".join(parts))
            return match.group(0)
        return parts[name]().rstrip("\n")

    write(page, PLACEHOLDER.sub(replace, source), edit=page)


# --------------------------------------------------------------------------- loading


RULES = sw.load_rules(expansions=available_expansions())
# The published expansions' races and powers, by box, with the status of each
# (expansions/CATALOGUE.toml): the tables of docs/expansions.md.
EXPANSION_CATALOGUE: dict[str, Any] = tomllib.loads(
    (rules_root() / "expansions" / "CATALOGUE.toml").read_text(encoding="utf-8")
)
DATA = tomllib.loads((DOCS / "rulings.toml").read_text(encoding="utf-8"))
RULINGS: dict[str, str] = DATA.get("rulings", {})
AMBIGUITIES: dict[str, dict[str, str]] = DATA.get("ambiguities", {})
APPLIES: dict[str, dict[str, list[Any]]] = DATA.get("applies", {})
# Rule-file id -> our own judgement calls for it (where neither the rules nor the ambiguities decide).
CALLS: dict[str, list[dict[str, str]]] = DATA.get("calls", {})


def all_rule_defs() -> list[Any]:
    return [
        *sorted(RULES.races.values(), key=lambda r: r.name),
        *sorted(RULES.powers.values(), key=lambda r: r.name),
        *sorted(RULES.expansions.values(), key=lambda r: r.name),
    ]


def page_of(rule: Any) -> str:
    return f"rules/{KIND_FOLDERS.get(rule.kind, rule.kind + 's')}/{rule.id}.md"


def box_of(rule: Any) -> str | None:
    """The expansion box (folder of ``expansions/``) a race or power comes from, if any."""
    parent = Path(rule.path).resolve().parent
    return parent.name if parent.parent == (rules_root() / "expansions").resolve() else None


def box_name(box: str) -> str:
    return str(EXPANSION_CATALOGUE["boxes"].get(box, {}).get("name", box))


def shown_path(path: str) -> str:
    try:
        return Path(path).resolve().relative_to(rules_root().resolve()).as_posix()
    except ValueError:
        return Path(path).name


# --------------------------------------------------------------------------- vocabulary


def _comments(source: str) -> dict[int, str]:
    found: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            found[tok.start[0]] = tok.string.lstrip("#").lstrip(":").strip()
    return found


@attrs.frozen
class VocabularyTable:
    """One public table of ``smallworld_rules.dsl.vocabulary``, with its comments."""

    name: str
    doc: str
    value: Any
    entry_comments: Mapping[str, str]


def vocabulary_tables() -> list[VocabularyTable]:
    """Every public table of the vocabulary module in source order, with its ``#:`` comment and
    the comment written on each entry's line."""
    path = Path(vocabulary.__file__)
    source = path.read_text(encoding="utf-8")
    comments = _comments(source)
    tables: list[VocabularyTable] = []
    for node in pyast.parse(source).body:
        target = None
        if isinstance(node, pyast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        elif isinstance(node, pyast.AnnAssign):
            target = node.target
        if not isinstance(target, pyast.Name) or not target.id.isupper():
            continue
        doc_lines: list[str] = []
        line = node.lineno - 1
        while line in comments and source.splitlines()[line - 1].lstrip().startswith("#:"):
            doc_lines.insert(0, comments[line])
            line -= 1
        entry_comments: dict[str, str] = {}
        value_node = node.value
        if isinstance(value_node, pyast.Dict):
            for key, value in zip(value_node.keys, value_node.values, strict=True):
                if isinstance(key, pyast.Constant) and isinstance(key.value, str):
                    for n in range(key.lineno, (value.end_lineno or value.lineno) + 1):
                        if n in comments:
                            entry_comments[key.value] = comments[n]
                            break
        tables.append(
            VocabularyTable(
                target.id, " ".join(doc_lines), getattr(vocabulary, target.id), entry_comments
            )
        )
    return tables


# Column titles of the known tables; a table added later gets generic ones.
VOCABULARY_COLUMNS = {
    "HOOKS": ("hook", "has a target region"),
    "FLAGS": ("flag",),
    "PIECE_PROPERTIES": ("property", "takes a number"),
    "REGION_PROPERTIES": ("property",),
    "CONTEXT_PROPERTIES": ("property",),
    "PLAYER_PROPERTIES": ("property",),
    "PHASES": ("phase",),
    "EVENTS": ("event",),
    "LIMITS": ("limit",),
    "EFFECTS": ("effect", "target"),
}


# Which vocabulary table explains the names of a RuleDef field (for the rule pages).
FIELD_TABLES = {
    "modifiers": "HOOKS",
    "flags": "FLAGS",
    "conditional_flags": "FLAGS",
    "triggers": "EVENTS",
}


def vocabulary_meanings() -> dict[str, dict[str, str]]:
    """table name -> (name -> meaning), over every table of the vocabulary."""
    meanings: dict[str, dict[str, str]] = {}
    for t in vocabulary_tables():
        if isinstance(t.value, Mapping):
            meanings[t.name] = {
                key: _meaning(value, t.entry_comments.get(key, ""))
                for key, value in t.value.items()
            }
    return meanings


def _meaning(value: Any, comment: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and value and isinstance(value[-1], str):
        return value[-1]
    return comment


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value in ("", None):
        return "—"
    return md_escape(str(value))


VOCABULARY_TITLES = {"OPS": "Operators", "REGION_SET_BASES": "Region sets"}


def vocabulary_markdown() -> str:
    out: list[str] = []
    for t in vocabulary_tables():
        title = VOCABULARY_TITLES.get(t.name, words(t.name).capitalize())
        out.append(f"### {title} {{#vocabulary-{t.name.lower()}}}\n")
        if t.doc:
            out.append(md_escape(t.doc) + f" (`{t.name}`)\n")
        value = t.value
        if isinstance(value, Mapping):
            columns = VOCABULARY_COLUMNS.get(t.name, ("name",))
            rows = []
            extra = 0
            for key, item in value.items():
                details: list[Any] = []
                if isinstance(item, bool | int):
                    details = [item]
                elif isinstance(item, tuple):
                    details = list(item[:-1]) if item and isinstance(item[-1], str) else list(item)
                extra = max(extra, len(details))
                rows.append((key, details, _meaning(item, t.entry_comments.get(key, ""))))
            header = [columns[0]]
            header += [columns[i + 1] if i + 1 < len(columns) else "value" for i in range(extra)]
            header.append("meaning")
            out.append(
                table(
                    header,
                    (
                        [
                            code(key),
                            *(_cell(d) for d in details + [""] * (extra - len(details))),
                            md_escape(meaning) or "—",
                        ]
                        for key, details, meaning in rows
                    ),
                )
            )
        elif isinstance(value, Iterable) and not isinstance(value, str):
            out.append(", ".join(code(str(v)) for v in value) + "\n")
        else:
            out.append(code(repr(value)) + "\n")
    return "\n".join(out)


def grammar_markdown() -> str:
    grammar = importlib.resources.files("smallworld_rules.dsl").joinpath("grammar.lark")
    return fence(grammar.read_text(encoding="utf-8"), "text", 'title="grammar.lark"')


# --------------------------------------------------------------------------- rule pages


HEADER_STATEMENTS = {"Tokens", "Box", "ConquestTokens", "Text", "Alias"}
NAME_ATTRIBUTES = ("name", "hook", "event", "verb", "kind")


def construct_label(statement: Any) -> str:
    """How a statement reads in the table of constructs, for any statement class."""
    cls = type(statement).__name__
    if cls == "Modifier":
        return f"{code(statement.hook)} modifier ({statement.op}, {statement.status})"
    if cls == "Flag":
        return f"flag {code(statement.name)}" + (" (conditional)" if statement.condition else "")
    if cls == "PieceDecl":
        return f"piece {code(statement.name)}"
    if cls == "OptionDecl":
        return f"game option {code(statement.name)}"
    if cls == "Trigger":
        return f"trigger on {code(statement.event)}"
    label = words(cls)
    for attribute in NAME_ATTRIBUTES:
        value = getattr(statement, attribute, None)
        if isinstance(value, str):
            return f"{label} {code(value)}"
    return label


def statement_source(lines: list[str], start: int, end: int) -> str:
    """The source of a statement: lines ``start`` to ``end`` (1-based), comments dropped,
    blanks collapsed, cut at 160 characters."""
    text = " ".join(
        line.split("#", 1)[0].strip() for line in lines[start - 1 : end] if line.strip()
    )
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= 160 else text[:159] + "…"


def _line(statement: Any) -> int:
    """The line a statement starts on (0 if it carries no position)."""
    return int(getattr(getattr(statement, "pos", None), "line", 0) or 0)


def constructs_markdown(rule: Any, source: str) -> str:
    tree = getattr(rule, "ast", None) or dsl_parser.parse(source, rule.path)
    statements = [s for s in tree.statements if type(s).__name__ not in HEADER_STATEMENTS]
    if not statements:
        return "None: this file only sets its tokens and rules text.\n"
    lines = source.splitlines()
    closing = max((n for n, line in enumerate(lines, 1) if line.strip() == "}"), default=len(lines))
    ordered = sorted(tree.statements, key=_line)
    rows: list[tuple[str, int | str, str]] = []
    for statement in statements:
        start = _line(statement)
        later = [_line(s) for s in ordered if _line(s) > start]
        end = min([*later, closing]) - 1
        end = max(end, start)
        inner = getattr(statement, "statements", None)
        if inner is not None and start:
            # A block of statements (a role): its header line, then a row per statement.
            header = statement_source(lines, start, start).split("{", 1)[0].strip()
            rows.append((construct_label(statement), start, code(header + " { … }")))
            for part in inner:
                written = formatter.role_statement(part)
                rows.append(
                    (
                        f"{construct_label(statement)} › {code(written.split()[0])}",
                        _line(part) or "—",
                        code(written),
                    )
                )
            continue
        rows.append(
            (
                construct_label(statement),
                start or "—",
                code(statement_source(lines, start, end)) if start else "—",
            )
        )
    return table(["construct", "line", "source"], rows)


# RuleDef fields that the page header shows; every other non-empty field is a hook point.
HEADER_FIELDS = {
    "kind",
    "id",
    "name",
    "tokens",
    "box",
    "text",
    "aliases",
    "path",
    "ast",
    "works_in_decline",
    "label",
}


def _item_name(item: Any) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, tuple) and item and isinstance(item[0], str):
        return item[0]
    if isinstance(getattr(item, "id", None), str):  # zones, roles: the id the API uses
        return str(item.id)
    for attribute in NAME_ATTRIBUTES:
        value = getattr(item, attribute, None)
        if isinstance(value, str):
            return value
    return ""


def hook_points(rule: Any) -> list[tuple[str, str, list[str]]]:
    """(field, what, names) for every non-empty field of the compiled rule beyond its header, read
    generically so that fields added to ``RuleDef`` later show up too."""
    found: list[tuple[str, str, list[str]]] = []
    for field in attrs.fields(type(rule)):
        if field.name in HEADER_FIELDS:
            continue
        value = getattr(rule, field.name)
        if isinstance(value, Mapping):
            names = sorted(str(k) for k, v in value.items() if v)
        elif isinstance(value, Iterable) and not isinstance(value, str):
            items = list(value)
            if items and all(isinstance(i, int) for i in items):  # a range, e.g. of players
                found.append((field.name, words(field.name), ["–".join(str(i) for i in items)]))
                continue
            names = [_item_name(i) for i in items]
            names = sorted({n for n in names if n}) or ([f"×{len(items)}"] if items else [])
        else:
            names = [str(value)] if value else []
        if names:
            found.append((field.name, words(field.name), names))
    return found


def _name_cell(name: str) -> str:
    """A name as code; an anonymous count (``×2``) as text."""
    return name if name.startswith("×") else code(name)


def hook_summary(rule: Any) -> str:
    parts = []
    for _, what, names in hook_points(rule):
        parts.append(f"{what}: " + ", ".join(_name_cell(n) for n in names))
    return "; ".join(parts) or "—"


# --------------------------------------------------------------------------- expansion pages
#
# What an expansion declares beyond hook points (players, map, zones, lost tokens, roles) is
# read from the compiled RuleDef and its syntax tree; expressions and predicates are shown as
# written, through the formatter. The explanations are those of the statements (what the core
# does with any file that writes them), never of one expansion.

ROLE_IMPLIED = (
    "A role takes the last seat (to the right of the start player), so it plays last in every "
    "round. It never picks a race and power combo and never declines: its token kind is its "
    "only race, and every power it activates works for it at once, always. It readies, "
    "conquers, rolls the final die and redeploys like any race, but may end its turn with "
    "tokens in hand: they rest in its hand zone until its next turn."
)


def _zone_link(name: str) -> str:
    return f"[{code(name)}](#zone-{name})"


def _power_refs(ids: Iterable[str], page: str) -> str:
    depth = "../" * page.count("/")
    refs = []
    for power in ids:
        rule = RULES.powers.get(power)
        if rule is None:
            refs.append(f"{code(power)} (not loaded here)")
        else:
            refs.append(f"[{md_escape(rule.name)}]({depth}{page_of(rule)})")
    return ", ".join(refs)


def _role_facts(rule: Any, role: Any) -> dict[int, dict[str, Any]]:
    """Player count -> what the role gets with the default options on that count's map (from
    a game started for it), for every count the expansion allows. Empty if none can start."""
    low, high = rule.players or (2, 5)
    facts: dict[int, dict[str, Any]] = {}
    for players in range(low, high + 1):
        try:
            game = sw.Game.new(players=players, seed=0, rules=RULES)
        except sw.RulesError:
            continue
        engine = game._engine
        played = getattr(engine, "role", None)
        if played is None or played.id != role.id:
            continue
        facts[players] = {
            "map": game.map_name,
            "seat": engine.role_seat,
            "supply": engine.role_supply,
            "coins": engine.role_coins,
            "purchases": engine.role_purchases,
            "enter": [r for r in range(engine.n) if engine.role_enter >> r & 1],
        }
    return facts


def _same(facts: Mapping[int, Mapping[str, Any]], key: str) -> Any:
    values = {repr(f[key]) for f in facts.values()}
    return next(iter(facts.values()))[key] if len(values) == 1 else None


def role_statement_meaning(
    part: Any, role: Any, facts: Mapping[int, Mapping[str, Any]], page: str
) -> str:
    """What the core does with one statement of a role block."""
    name = md_escape(role.race.name)
    defaults = ""
    if isinstance(part, dsl_ast.RoleSetting) and facts:
        key = {"supply": "supply", "coins": "coins", "purchases_per_turn": "purchases"}[part.word]
        value = _same(facts, key)
        if value is not None:
            defaults = f" With the default options: **{value}**."
    if isinstance(part, dsl_ast.RoleToken):
        return (
            f"Its tokens are {md_escape(part.title)} tokens; {code(part.name)} is their race id "
            "(`game.region(r).race`, `game.active_race(seat)`)."
        )
    if isinstance(part, dsl_ast.RoleSetting) and part.word == "supply":
        return (
            f"How many {name} tokens it has, worked out once when the game starts. Those not "
            "in its hand zone at the start are its reserve (`count(tokens in reserve)`); "
            "nothing can make it more." + defaults
        )
    if isinstance(part, dsl_ast.RoleSetting) and part.word == "coins":
        return "The coins it starts with (without this statement, the standard 5)." + defaults
    if isinstance(part, dsl_ast.RoleSetting):
        return "At most this many purchases a turn; 0 means any number." + defaults
    if isinstance(part, dsl_ast.HandZone):
        return (
            f"Its tokens in hand rest in the zone {_zone_link(part.name)} between turns: "
            f'`game.zone("{part.name}")`. The zone is off the map and cannot be conquered.'
        )
    if isinstance(part, dsl_ast.StartHand):
        return f"{part.count} {name} token(s) start in its hand zone; the rest in its reserve."
    if isinstance(part, dsl_ast.Enter):
        where = ""
        if facts:
            where = (
                " "
                + "; ".join(
                    f"{players} players ({f['map']} map): regions "
                    + ", ".join(str(r) for r in f["enter"])
                    for players, f in facts.items()
                )
                + "."
            )
        return (
            "Its first conquest, and any conquest while it holds no region, must be a region "
            "matching this predicate (instead of a border region)." + where
        )
    if isinstance(part, dsl_ast.Draft):
        excluded = ""
        if part.excluded:
            excluded = " Never drawn: " + _power_refs(part.excluded, page) + "."
        return (
            f"When the game is set up, once the market is dealt, the first {part.count} badges "
            f"of the power stack are drawn for it. Before the first turn it activates "
            f"{part.choose} of them with `ChoosePower(power)`; the others are its reserve, "
            f"private (the other players' observations show only how many).{excluded}"
        )
    if isinstance(part, dsl_ast.Buy) and part.item == "token":
        return (
            'In its turn, before its first conquest: `Purchase("token")` moves a token from '
            "its reserve into its hand zone for this price, worked out again at each purchase."
        )
    if isinstance(part, dsl_ast.Buy):
        return (
            'In its turn, before its first conquest: `Purchase("power", power)` activates '
            "one of its reserved powers for this price, worked out again at each purchase."
        )
    if isinstance(part, dsl_ast.Harvest):
        return (
            f"After it scores its own turn, this many anonymous tokens (`#soul`) go into "
            f"{_zone_link(part.zone)}; no race's box gives them."
        )
    if isinstance(part, dsl_ast.Exchange):
        return (
            f"After every turn, everyone's: while {_zone_link(part.zone)} holds at least "
            f"{part.count} tokens, {part.count} leave it — {name} tokens first, then "
            f"anonymous ones, then the oldest — and {part.gain} {name} token(s) go from its "
            f"reserve into its hand zone. {name} tokens go back to its reserve, race tokens to "
            "their box, anonymous ones vanish."
        )
    if isinstance(part, dsl_ast.Win):
        return (
            "Checked after every turn, after the exchange: when the two sides are equal, its "
            "player wins at once and the game ends."
        )
    return (
        "Every other race and power sees its tokens as a race in decline (effects that "
        "concern only active races leave them alone); its own powers still all work."
    )


def zones_markdown(rule: Any) -> str:
    rows = []
    for zone in sorted(rule.zones, key=lambda z: z.line):
        if zone.role is None:
            what = "shared pile, kept in order of arrival"
            read = f'`game.zone("{zone.id}")`, `game.zone_pile("{zone.id}")`'
        else:
            role = next((r for r in rule.roles if r.id == zone.role), None)
            role_name = md_escape(role.name) if role is not None else code(zone.role)
            what = f"hand zone of the {role_name}: its tokens in hand"
            read = f'`game.zone("{zone.id}")`'
        if zone.id == rule.lost_tokens_to:
            what += "; tokens lost to a conquest go here"
        rows.append(
            (
                f'<a id="zone-{zone.id}"></a>{code(zone.id)}',
                md_escape(zone.name),
                what,
                read,
                zone.line,
            )
        )
    return table(["zone", "name", "holds", "read with", "line"], rows)


def _flag_raisers(flag: str, page: str) -> list[str]:
    depth = "../" * page.count("/")
    return [
        f"[{md_escape(r.name)}]({depth}{page_of(r)})"
        for r in all_rule_defs()
        if flag in getattr(r, "flags", ())
    ]


def role_markdown(rule: Any, role: Any, page: str) -> str:
    tree = getattr(rule, "ast", None)
    node = None
    if tree is not None:
        node = next(
            (st for st in tree.statements if isinstance(st, dsl_ast.Role) and st.name == role.id),
            None,
        )
    facts = _role_facts(rule, role)
    out = [f"### {md_escape(role.name)} (`{role.id}`) {{#role-{role.id}}}\n", ROLE_IMPLIED + "\n"]
    if facts:
        out.append(
            "Its seat: "
            + ", ".join(f"player {f['seat']} of {n}" for n, f in facts.items())
            + " (seats count from 0).\n"
        )
    if node is not None:
        rows = [
            (
                code(formatter.role_statement(part).split()[0]),
                code(formatter.role_statement(part)),
                _line(part) or "—",
                role_statement_meaning(part, role, facts, page),
            )
            for part in node.statements
        ]
        out.append(table(["statement", "as written", "line", "what the core does"], rows))
    missing = []
    if role.hand_zone is None:
        missing.append("no hand zone: its tokens in hand are simply in its hand")
    if role.enter is None:
        missing.append("it enters by the border regions")
    if role.coins is None:
        missing.append("it starts with the standard 5 coins")
    if not role.buys:
        missing.append("it buys nothing")
    if missing:
        out.append("Without a statement for it: " + "; ".join(missing) + ".\n")
    actions = []
    if role.draft is not None:
        actions.append("`ChoosePower(power)` before the first turn (event `PowerChosen`, price 0)")
    if "token" in role.buys:
        actions.append('`Purchase("token")` (event `TokenBought`)')
    if "power" in role.buys:
        actions.append('`Purchase("power", power)` (event `PowerChosen` with its price)')
    if role.harvest is not None:
        actions.append("its harvest logs `TokensToZone`")
    if role.exchange is not None:
        actions.append("each exchange logs `Exchanged`")
    if actions:
        depth = "../" * page.count("/")
        out.append(
            "Its own actions and events: "
            + "; ".join(actions)
            + f" — see the [actions]({depth}api/actions.md) and [events]({depth}api/events.md)."
            "\n"
        )
    return "\n".join(out)


def expansion_markdown(rule: Any, page: str) -> str:
    """Set-up, zones and roles of a rule file that declares any (an expansion)."""
    players = getattr(rule, "players", None)
    minus = getattr(rule, "map_minus", 0)
    zones = getattr(rule, "zones", ())
    roles = getattr(rule, "roles", ())
    lost = getattr(rule, "lost_tokens_to", None)
    if not (players or minus or zones or roles or lost):
        return ""
    out = ["## Set-up\n"]
    facts = []
    if players:
        facts.append(("players", f"{players[0]} to {players[1]}"))
    if minus:
        low, high = players or (2 + minus, 5 + minus)
        maps = ", ".join(f"{n} players: {n - minus}p" for n in range(low, high + 1))
        facts.append(("map", f"the map for {minus} player(s) fewer ({maps})"))
    if lost:
        into = f"into the zone {_zone_link(lost)}, not the box"
        facts.append(("tokens lost to a conquest", into))
        raisers = _flag_raisers("decline_surplus_is_lost", page)
        if raisers:
            facts.append(
                (
                    "tokens taken off the map on declining",
                    f"into {_zone_link(lost)} too for "
                    + ", ".join(raisers)
                    + " (flag `decline_surplus_is_lost`); the box for every other race",
                )
            )
        facts.append(
            (
                "read with",
                f'`game.zone("{lost}")` (by kind), `game.zone_pile("{lost}")` (in order); '
                "kinds are race ids, `#lost_tribe` and `#soul` (anonymous tokens)",
            )
        )
    for role in roles:
        facts.append(("role", f"[{md_escape(role.name)}](#role-{role.id}), the last seat"))
    out.append(table(["fact", "value"], facts))
    if zones:
        out.append("## Zones\n")
        out.append(
            "Zones hold tokens off the map; nobody conquers them. Each is declared once for the "
            "game (not per player).\n"
        )
        out.append(zones_markdown(rule))
    if roles:
        out.append("## Roles\n")
        out.extend(role_markdown(rule, role, page) for role in roles)
    return "\n".join(out)


def calls_for(rule_id: str) -> list[dict[str, str]]:
    return list(CALLS.get(rule_id, []))


def rulings_for(rule_id: str) -> tuple[list[str], list[str]]:
    entry = APPLIES.get(rule_id, {})
    rulings = [str(n) for n in entry.get("rulings", []) if str(n) in RULINGS]
    ambiguities = [a for a in entry.get("ambiguities", []) if a in AMBIGUITIES]
    return rulings, ambiguities


def option_link(option: Any, from_page: str) -> str:
    depth = from_page.count("/")
    return f"[{code(option.name)}]({'../' * depth}options.md#option-{option.name})"


def rule_page(rule: Any) -> str:
    path = Path(rule.path)
    source = path.read_text(encoding="utf-8")
    page = page_of(rule)
    meanings = vocabulary_meanings()
    out = [f"# {md_escape(rule.name)}\n"]
    facts = [("kind", rule.kind), ("id", code(rule.id))]
    if rule.kind != "expansion":
        facts.append(("tokens", str(rule.tokens)))
    if rule.kind == "race":
        facts.append(("box maximum", str(rule.box)))
    if getattr(rule, "conquest_tokens", 0):
        facts.append(("conquest-only tokens", str(rule.conquest_tokens)))
    if rule.aliases:
        facts.append(("aliases", ", ".join(code(a) for a in rule.aliases)))
    if rule.kind == "power":
        facts.append(("badge kept in decline", "yes" if rule.works_in_decline else "no"))
    facts.append(("rule file", code(shown_path(rule.path))))
    box = box_of(rule)
    if box is not None:
        facts.append(("expansion", f"[{md_escape(box_name(box))}]({'../' * page.count('/')}"
                      f"expansions.md#{box}) (`expansions=[\"{box}\"]`)"))
    out.append(table([k for k, _ in facts], [[v for _, v in facts]]))
    out.append('!!! quote "Rules text"\n')
    out.append("    " + md_escape(rule.text or "(no rules text)") + "\n")
    expansion = expansion_markdown(rule, page)
    if expansion:
        out.append(expansion)

    out.append("## Hook points\n")
    points = hook_points(rule)
    if points:
        for field, what, names in points:
            explained = meanings.get(FIELD_TABLES.get(field, ""), {})
            described = []
            for name in names:
                meaning = md_escape(explained.get(name, ""))
                if field == "abilities":
                    meaning = "offered as " + code(f'UseAbility("{name}", target)')
                described.append(_name_cell(name) + (f" — {meaning}" if meaning else ""))
            out.append(f"- **{what.capitalize()}**: " + "; ".join(described))
        out.append("")
    else:
        out.append("None: the core's base rules apply unchanged.\n")
    out.append("### Statements\n")
    out.append(constructs_markdown(rule, source))
    if getattr(rule, "options", ()):
        out.append("### Game options\n")
        out.append(
            table(
                ["option", "default", "decides"],
                (
                    (option_link(o, page), code(str(o.default).lower()), md_escape(o.text))
                    for o in rule.options
                ),
            )
        )

    rulings, ambiguities = rulings_for(rule.id)
    calls = calls_for(rule.id)
    out.append("## Rulings\n")
    if not rulings and not ambiguities and not calls:
        out.append("No particular ruling: the rules text says it all.\n")
    depth = "../" * page.count("/")
    for number in rulings:
        out.append(
            f"- [**Ruling {number}**]({depth}rules/rulings.md#ruling-{number}): "
            f"{md_escape(RULINGS[number])}"
        )
    for key in ambiguities:
        item = AMBIGUITIES[key]
        options = [o for o in RULES.options.values() if re.search(rf"\b{key}\b", o.text)]
        changed = (
            " Changed by " + ", ".join(option_link(o, page) for o in options) + "."
            if options
            else ""
        )
        how = f" *In the engine:* {md_escape(item['implemented'])}" if "implemented" in item else ""
        out.append(
            f"- [**{key}**]({depth}options.md#{key.lower()}) {md_escape(item['question'])} "
            f"*Our default:* {md_escape(item['default'])}{how}{changed}"
        )
    for call in calls:
        out.append(
            f"- [**Our call: {md_escape(call['title'])}**]({depth}options.md#call-{call['key']}) "
            f"{md_escape(call['call'])}"
        )
    out.append("")
    out.append("## Rule file\n")
    out.append(fence(source, "swr", f'title="{shown_path(rule.path)}" linenums="1"'))
    return "\n".join(out)


def rules_index() -> str:
    out = [
        "# Rules reference\n",
        "Every page of this section is generated, at each build of the site, from the rule "
        "files the library loads: `smallworld_rules.load_rules()` with every expansion. A "
        "changed rule file changes its page. Each page gives the numbers printed on the "
        "banner or badge, the rules text, the hook points of the core the file uses, the "
        "rulings that concern it and the file itself.\n",
        "The core rules (the turn, the market, conquest, decline, scoring) are those of the "
        "base game, numbered on the [core rules](core.md) page (\"rule 1.7\" is its section "
        "1.7, Conquest); the [rulings](rulings.md) page lists every ruling the engine follows.\n",
    ]
    groups = [
        ("race", RULES.races, ["race", "id", "tokens", "box", "hook points", "ability"]),
        ("power", RULES.powers, ["power", "id", "tokens", "hook points", "effect"]),
        ("expansion", RULES.expansions, ["expansion", "id", "hook points", "summary"]),
    ]
    for kind, table_rules, header in groups:
        if not table_rules:
            continue
        out.append(f"## {KIND_TITLES[kind]}\n")
        rows = []
        for rule in sorted(table_rules.values(), key=lambda r: r.name):
            link = f"[{md_escape(rule.name)}]({page_of(rule).removeprefix('rules/')})"
            row = [link, code(rule.id)]
            if kind != "expansion":
                row.append(str(rule.tokens))
            if kind == "race":
                row.append(str(rule.box))
            row += [hook_summary(rule), md_escape(first_sentence(rule.text))]
            rows.append(row)
        out.append(table(header, rows))
    return "\n".join(out)


def rulings_page() -> str:
    by_ruling: dict[str, list[Any]] = {}
    for rule in all_rule_defs():
        for number in rulings_for(rule.id)[0]:
            by_ruling.setdefault(number, []).append(rule)
    out = [
        "# Rulings\n",
        "The official rulings and edge cases the engine follows, numbered as in the project's "
        "rules reference. Each names the rule files it concerns; the others are rules of the "
        "core. The open questions the rules leave, with the default chosen and the game option "
        "that changes it, are on the [game options](../options.md) page.\n",
    ]
    for number in sorted(RULINGS, key=int):
        concerned = by_ruling.get(number, [])
        where = ""
        if concerned:
            where = " — " + ", ".join(
                f"[{md_escape(r.name)}]({page_of(r).removeprefix('rules/')})" for r in concerned
            )
        out.append(f"**{number}.** {md_escape(RULINGS[number])}{where}\n{{: #ruling-{number} }}\n")
    return "\n".join(out)


def rules_summary() -> str:
    lines = ["* [Overview](index.md)", "* [Core rules](core.md)"]
    for kind, table_rules in (
        ("race", RULES.races),
        ("power", RULES.powers),
        ("expansion", RULES.expansions),
    ):
        if not table_rules:
            continue
        lines.append(f"* {KIND_TITLES[kind]}")
        for rule in sorted(table_rules.values(), key=lambda r: r.name):
            lines.append(f"    * [{rule.name}]({page_of(rule).removeprefix('rules/')})")
    lines.append("* [Rulings](rulings.md)")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- expansion boxes


def expansion_counts_markdown() -> str:
    """One row per box: its items, how many have a rule file, how many wait for a construct
    of the language or for sources that agree, and how many the Underground booklet takes
    out of a game on the base maps."""
    rows = []
    totals = [0, 0, 0, 0, 0]
    for box, data in EXPANSION_CATALOGUE["boxes"].items():
        items = data["items"]
        counts = [
            len(items),
            sum(1 for i in items if i["status"] == "rule file"),
            sum(1 for i in items if i["status"] == "needs construct"),
            sum(1 for i in items if i["status"] == "unconfirmed"),
            sum(1 for i in items if i["status"] == "not on the base maps"),
        ]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        loads = code(box) if (rules_root() / "expansions" / box).is_dir() else "—"
        races = sum(1 for i in items if i["kind"] == "race")
        rows.append(
            [f"[{md_escape(data['name'])}](#{box})", str(data["year"]), loads,
             f"{races} + {len(items) - races}", *map(str, counts)]
        )
    rows.append(["**all**", "", "", "", *(f"**{n}**" for n in totals)])
    return table(
        ["box", "year", "id", "races + powers", "items", "rule file", "needs a construct",
         "unconfirmed", "not on the base maps"],
        rows,
    )


def expansion_catalogue_markdown() -> str:
    """A section per box: its sources, then each item with its tokens, rule and status."""
    out = []
    for box, data in EXPANSION_CATALOGUE["boxes"].items():
        out.append(f"### {md_escape(data['name'])} {{: #{box} }}\n")
        if (rules_root() / "expansions" / box).is_dir():
            out.append(f"Loaded with `sw.load_rules(expansions=[\"{box}\"])`.\n")
        else:
            out.append("No item of this box has a rule file yet, so it has no id to load.\n")
        out.append("Sources: " + "; ".join(md_escape(s) for s in data["sources"]) + ".\n")
        rows = []
        for item in data["items"]:
            tokens = str(item["tokens"]) if "tokens" in item else f"? ({md_escape(item['tokens_note'])})"
            rule_id = item["id"]
            table_rules = RULES.races if item["kind"] == "race" else RULES.powers
            if item["status"] == "rule file" and rule_id in table_rules:
                page = page_of(table_rules[rule_id]).removeprefix("rules/")
                status = f"**rule file**: [{code(rule_id)}](rules/{page})"
            elif item["status"] == "needs construct":
                status = f"needs: {md_escape(item['needs'])}"
            elif item["status"] == "not on the base maps":
                status = f"not on the base maps: {md_escape(item['excluded'])}"
            else:
                status = f"unconfirmed: {md_escape(item['unconfirmed'])}"
            rule = md_escape(item["rule"])
            if "note" in item:
                rule += f" *{md_escape(item['note'])}*"
            rows.append([md_escape(item["name"]), item["kind"], tokens, rule, status])
        out.append(table(["item", "kind", "tokens", "rule (our words)", "status"], rows))
    return "\n".join(out)


# --------------------------------------------------------------------------- options


def options_markdown() -> str:
    rows = []
    for name, option in sorted(RULES.options.items()):
        declared = "the core"
        if option.path != "<core>":
            owner = next(
                (r for r in all_rule_defs() if any(o.name == name for o in r.options)), None
            )
            declared = (
                f"[{md_escape(owner.name)}]({page_of(owner)})"
                if owner is not None
                else code(shown_path(option.path))
            )
        rows.append(
            (
                f'<a id="option-{name}"></a>{code(name)}',
                code(str(option.default).lower()),
                md_escape(option.text),
                declared,
            )
        )
    return table(["option", "default", "decides", "declared by"], rows)


def ambiguities_markdown() -> str:
    rows = []
    for key in sorted(AMBIGUITIES, key=lambda k: int(k[1:])):
        item = AMBIGUITIES[key]
        options = [o for o in RULES.options.values() if re.search(rf"\b{key}\b", o.text)]
        concerned = [r for r in all_rule_defs() if key in rulings_for(r.id)[1]]
        rows.append(
            (
                f'<a id="{key.lower()}"></a>**{key}**',
                md_escape(item["question"]),
                md_escape(item["default"]),
                ", ".join(f"[{code(o.name)}](#option-{o.name})" for o in options) or "fixed",
                ", ".join(f"[{md_escape(r.name)}]({page_of(r)})" for r in concerned) or "core",
            )
        )
    return table(["ambiguity", "question", "our default", "option", "concerns"], rows)


def implementations_markdown() -> str:
    """The defaults whose implementation rulings.toml describes, with the rule files concerned."""
    rows = []
    for key in sorted(AMBIGUITIES, key=lambda k: int(k[1:])):
        item = AMBIGUITIES[key]
        if "implemented" not in item:
            continue
        options = [o for o in RULES.options.values() if re.search(rf"\b{key}\b", o.text)]
        rows.append(
            (
                f"[**{key}**](#{key.lower()})",
                md_escape(item["default"]),
                md_escape(item["implemented"]),
                ", ".join(f"[{code(o.name)}](#option-{o.name})" for o in options) or "fixed",
            )
        )
    if not rows:
        return "None.\n"
    return table(["ambiguity", "our default", "how the engine does it", "option"], rows)


def calls_markdown() -> str:
    """Our own judgement calls, by the rule file they concern."""
    rows = []
    for rule_id, calls in sorted(CALLS.items()):
        owner = next((r for r in all_rule_defs() if r.id == rule_id), None)
        if owner is None:
            continue
        for call in calls:
            rows.append(
                (
                    f'<a id="call-{call["key"]}"></a>**{md_escape(call["title"])}**',
                    md_escape(call["call"]),
                    f"[{md_escape(owner.name)}]({page_of(owner)})",
                )
            )
    if not rows:
        return "None.\n"
    return table(["our call", "what the engine does", "concerns"], rows)


# --------------------------------------------------------------------------- error catalogue


ERRORS_INTRO = """\
Every mistake in a rule file is reported as a `RuleFileError` with the file, line and column,
the offending line with a caret under the mistake, and a hint; `smallworld check FILE…` prints
every error of every file at once. Each error has a short, stable **label**
(`error.label`), listed here with an example file and the message the loader gives for it,
produced by running the loader on the example when this site was built.

The examples are the entries of `smallworld_rules.dsl.catalogue.CATALOGUE`; the test suite
checks that each one gives its label at its line and column. Each example is saved in a
scratch folder and loaded next to the official rules with `sw.load_rules(paths=[...])`.
"""


def loader_message(entry: CatalogueEntry) -> str:
    """Make the entry's mistake in a scratch folder and return what the loader says, paths
    shown relative to that folder. A build whose example gives another label (or none) fails:
    the warning stops ``mkdocs build --strict``."""
    with tempfile.TemporaryDirectory() as scratch:
        error = reproduce(entry, Path(scratch), sw.load_rules)
    if error is None or error.label != entry.label:
        got = "no error" if error is None else f"the label {error.label!r}"
        log.warning("error catalogue: the example of %r gives %s", entry.label, got)
    if error is None:
        return "(the loader accepts this example)"
    return str(error).replace(str(Path(scratch)) + os.sep, "")


def _repeat_note(repeat: Repeat) -> str:
    what = "line" if repeat.text.endswith("\n") else "text"
    return (
        f"The file the loader reads has the {what} {code(repeat.text.strip())} "
        f"{repeat.times:,} times where this shows it twice and `…`.\n"
    )


def error_section(entry: CatalogueEntry) -> str:
    """One label: what it means, the example file(s) and the loader's message."""
    out = [f"## `{entry.label}` {{#{entry.label}}}\n", md_escape(entry.explain) + "\n"]
    out.append(f"*Example:* {md_escape(entry.title)}.\n")
    if entry.earlier:
        names = [name for name, _ in entry.earlier] + [entry.path]
        out.append("Loaded with " + code(f"sw.load_rules(paths={names!r})") + ":\n")
    for name, text in entry.earlier:
        out.append(fence(text, "swr", f'title="{name}"'))
    if entry.missing:
        out.append(
            f"`smallworld check {entry.path}` (or `parse_file`) reads {code(entry.path)}, "
            "which does not exist.\n"
        )
    else:
        attributes = f'title="{entry.path}"'
        if entry.repeat is None:
            attributes += f' hl_lines="{entry.line}"'
        out.append(fence(entry.shown, "swr", attributes))
        if entry.repeat is not None:
            out.append(_repeat_note(entry.repeat))
        if entry.encoding != "utf-8":
            out.append(f"The file is saved as {entry.encoding}, not UTF-8.\n")
    out.append(fence(loader_message(entry), "text"))
    return "\n".join(out)


def errors_page() -> str:
    entries = sorted(CATALOGUE, key=lambda entry: entry.label)
    out = ["# Error catalogue\n", ERRORS_INTRO]
    out.append(
        table(
            ["label", "what is wrong"],
            ((f"[{code(e.label)}](#{e.label})", md_escape(e.explain)) for e in entries),
        )
    )
    out.extend(error_section(entry) for entry in entries)
    return "\n".join(out)


# --------------------------------------------------------------------------- maps


def maps_markdown() -> str:
    """Each official board: its picture (written beside the page) and its region key."""
    from smallworld_rules import svg
    from smallworld_rules.maps import MAP_NAMES

    out = []
    for name in MAP_NAMES:
        board = sw.load_map(name)
        write(f"images/map-{name}.svg", svg.board(name))
        out.append(f"## The {name} map\n")
        out.append(
            f"For {board.players} players, {board.turns} turns, {len(board)} regions. "
            f"`smallworld show map --players {board.players} --svg {name}.svg` prints this "
            "key and writes the picture.\n"
        )
        out.append(f"![The {name} map](images/map-{name}.svg){{ .board }}\n")
        rows = [
            (
                r.id,
                r.terrain,
                ", ".join(sorted(r.features)) or "–",
                "edge" if r.edge else "",
                "Lost Tribe" if r.lost_tribe else "",
                ", ".join(map(str, r.adjacent)),
            )
            for r in board.regions
        ]
        key = table(["region", "terrain", "symbols", "edge", "at setup", "borders"], rows)
        out.append(f'??? info "Region key of the {name} map"\n')
        out.append("\n".join("    " + line for line in key.splitlines()) + "\n")
    return "\n".join(out)


def tutorial_pictures() -> None:
    """The tutorial's positions, played as it plays them."""
    from smallworld_rules import svg

    game = sw.Game.new(
        players=2, seed=1, combos=[("ratmen", "forest"), ("giants", "commando")]
    )
    game.apply(sw.PickCombo(0))
    targets = [a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)]
    write("images/tutorial-targets.svg", svg.board(game, highlight=targets))
    for region in (2, 6, 12):
        game.apply(sw.Conquer(region))
    write("images/tutorial-conquests.svg", svg.board(game))


# --------------------------------------------------------------------------- main


def main() -> None:
    for rule in all_rule_defs():
        write(page_of(rule), rule_page(rule))
    write("rules/index.md", rules_index())
    write("rules/rulings.md", rulings_page())
    write("rules/SUMMARY.md", rules_summary())
    _not_a_page("rules/SUMMARY.md")
    write("errors.md", errors_page())
    fill(
        "rule-language.md",
        {"grammar": grammar_markdown, "vocabulary": vocabulary_markdown},
    )
    fill("maps.md", {"maps": maps_markdown})
    tutorial_pictures()
    fill(
        "expansions.md",
        {"expansion_counts": expansion_counts_markdown, "expansion_catalogue": expansion_catalogue_markdown},
    )
    fill(
        "options.md",
        {
            "options": options_markdown,
            "ambiguities": ambiguities_markdown,
            "implementations": implementations_markdown,
            "calls": calls_markdown,
        },
    )


# mkdocs-gen-files runs this file with runpy.run_path (as "<run_path>"). Run directly, it would
# write into docs/ itself, so it does nothing then; tests import it to check the pages.
if __name__ == "<run_path>":
    main()
