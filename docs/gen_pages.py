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

The data that is not in the code lives next to this script: ``rulings.toml`` (the rulings and
the ambiguity defaults, and which rule files they concern).
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
from smallworld_rules.dsl import parser as dsl_parser
from smallworld_rules.dsl import vocabulary
from smallworld_rules.dsl.catalogue import CATALOGUE, CatalogueEntry, Repeat, reproduce
from smallworld_rules.rules import rules_root

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


def available_expansions() -> list[str]:
    folder = rules_root() / "expansions"
    return sorted(p.stem for p in folder.glob("*.swr"))


RULES = sw.load_rules(expansions=available_expansions())
DATA = tomllib.loads((DOCS / "rulings.toml").read_text(encoding="utf-8"))
RULINGS: dict[str, str] = DATA.get("rulings", {})
AMBIGUITIES: dict[str, dict[str, str]] = DATA.get("ambiguities", {})
APPLIES: dict[str, dict[str, list[Any]]] = DATA.get("applies", {})


def all_rule_defs() -> list[Any]:
    return [
        *sorted(RULES.races.values(), key=lambda r: r.name),
        *sorted(RULES.powers.values(), key=lambda r: r.name),
        *sorted(RULES.expansions.values(), key=lambda r: r.name),
    ]


def page_of(rule: Any) -> str:
    return f"rules/{KIND_FOLDERS.get(rule.kind, rule.kind + 's')}/{rule.id}.md"


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
    rows = []
    for statement in statements:
        start = _line(statement)
        later = [_line(s) for s in ordered if _line(s) > start]
        end = min([*later, closing]) - 1
        end = max(end, start)
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
    for attribute in NAME_ATTRIBUTES:
        value = getattr(item, attribute, None)
        if isinstance(value, str):
            return value
    return ""


def hook_points(rule: Any) -> list[tuple[str, str, list[str]]]:
    """(field, what, names) for every non-empty field of the compiled rule beyond its header, read
    generically so that fields added to ``RuleDef`` later show up too."""
    found: list[tuple[str, list[str]]] = []
    for field in attrs.fields(type(rule)):
        if field.name in HEADER_FIELDS:
            continue
        value = getattr(rule, field.name)
        if isinstance(value, Mapping):
            names = sorted(str(k) for k, v in value.items() if v)
        elif isinstance(value, Iterable) and not isinstance(value, str):
            items = list(value)
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
    out.append(table([k for k, _ in facts], [[v for _, v in facts]]))
    out.append('!!! quote "Rules text"\n')
    out.append("    " + md_escape(rule.text or "(no rules text)") + "\n")

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
    out.append("## Rulings\n")
    if not rulings and not ambiguities:
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
        out.append(
            f"- [**{key}**]({depth}options.md#{key.lower()}) {md_escape(item['question'])} "
            f"*Our default:* {md_escape(item['default'])}{changed}"
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
        "base game; the [rulings](rulings.md) page lists every ruling the engine follows.\n",
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
    lines = ["* [Overview](index.md)"]
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
    return table(["", "question", "our default", "option", "concerns"], rows)


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
        error = reproduce(entry, Path(scratch))
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
    fill(
        "options.md",
        {"options": options_markdown, "ambiguities": ambiguities_markdown},
    )


# mkdocs-gen-files runs this file with runpy.run_path (as "<run_path>"). Run directly, it would
# write into docs/ itself, so it does nothing then; tests import it to check the pages.
if __name__ == "<run_path>":
    main()
