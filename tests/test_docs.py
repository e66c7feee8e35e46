"""The documentation's examples work: every ```python block of docs/**/*.md runs, every
```swr block parses, and the generated error catalogue shows every entry of
``smallworld_rules.dsl.catalogue.CATALOGUE`` with the loader's message.

Python blocks run in order, one shared namespace per page, in a scratch working directory. A
```swr block with a ``title="some/path.swr"`` is also written to that path (relative to the
scratch directory) when the page reaches it, so later Python blocks can load it.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import smallworld_rules as sw
from smallworld_rules.dsl import check, parse
from smallworld_rules.dsl.catalogue import CATALOGUE

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n"
    r"(?P<body>.*?)"
    r"^(?P=indent)(?P=fence)[ \t]*$",
    re.M | re.S,
)
_TITLE = re.compile(r"""title=(?P<q>["'])(?P<title>.*?)(?P=q)""")
_KIND = re.compile(r"^\s*(?:#[^\n]*\n\s*)*(race|power|expansion)\b")


@attrs.frozen
class Block:
    page: Path
    line: int
    lang: str
    title: str
    body: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(DOCS.parent)}:{self.line}"


def blocks(page: Path) -> Iterator[Block]:
    """The fenced code blocks of a page, in order (indented ones included, de-indented)."""
    text = page.read_text(encoding="utf-8")
    for match in _FENCE.finditer(text):
        info = match.group("info").strip()
        indent = match.group("indent")
        lines = match.group("body").splitlines()
        body = "\n".join(line.removeprefix(indent) for line in lines) + "\n"
        title = _TITLE.search(info)
        yield Block(
            page=page,
            line=text.count("\n", 0, match.start()) + 2,
            lang=(info.split() or [""])[0].lstrip("{.").rstrip("}"),
            title=title.group("title") if title else "",
            body=body,
        )


def _ids(items: list[Any]) -> list[str]:
    return [str(getattr(item, "where", item)) for item in items]


#: Modules of the optional extras: a page whose example needs a missing one is skipped.
OPTIONAL_MODULES = frozenset({"numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium", "ray"})
PYTHON_PAGES = [p for p in PAGES if any(b.lang in ("python", "py") for b in blocks(p))]
SWR_BLOCKS = [b for p in PAGES for b in blocks(p) if b.lang == "swr"]


def test_the_docs_have_examples() -> None:
    """The collection is not empty by accident (a renamed folder, a broken pattern)."""
    assert len(PYTHON_PAGES) >= 3
    assert len(SWR_BLOCKS) >= 10


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[str(p.relative_to(DOCS)) for p in PYTHON_PAGES])
def test_python_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Python block of the page runs, in order, in one namespace."""
    monkeypatch.chdir(tmp_path)
    # __file__ lets an example such as a pack's __init__.py find "its" folder.
    namespace: dict[str, Any] = {
        "__name__": f"docs.{page.stem}",
        "__file__": str(tmp_path / f"{page.stem}.py"),
    }
    for block in blocks(page):
        if block.lang == "swr" and block.title:
            target = tmp_path / block.title
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
        elif block.lang in ("python", "py"):
            code = compile(block.body, block.where, "exec")
            try:
                exec(code, namespace)  # the docs' own examples
            except ModuleNotFoundError as exc:
                if exc.name not in OPTIONAL_MODULES:
                    raise
                pytest.skip(f"{block.where} needs {exc.name} (an optional extra)")


@pytest.mark.parametrize("block", SWR_BLOCKS, ids=_ids(SWR_BLOCKS))
def test_rule_file_examples_parse(block: Block, official: sw.Rules) -> None:
    """A whole file parses and passes the semantic check; a fragment parses inside a file."""
    if _KIND.match(block.body):
        path = block.title or "<string>"
        tree = parse(block.body, path)
        errors = check(tree, block.body, set(official.pieces), set(official.options))
        assert errors == [], "\n".join(str(e) for e in errors)
    else:
        parse(f'race example "Example" {{\n{block.body}}}\n', block.where)


# --------------------------------------------------------------------------- error catalogue


def _generator() -> ModuleType:
    """docs/gen_pages.py, imported (it builds nothing unless mkdocs-gen-files runs it)."""
    spec = importlib.util.spec_from_file_location("docs_gen_pages", DOCS / "gen_pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_error_catalogue_page_shows_every_entry() -> None:
    """The error catalogue page is generated from ``CATALOGUE`` (tests/test_error_catalogue.py
    checks the entries): a section per label, with the loader's message for its example."""
    pytest.importorskip("mkdocs_gen_files")
    page = _generator().errors_page()
    for entry in CATALOGUE:
        section = page.split(f"{{#{entry.label}}}", 1)[1].split("\n## ", 1)[0]
        assert f"{entry.path}:{entry.line}:{entry.column}: " in section, entry.label


# --------------------------------------------------------------------------- expansions


GRAMMAR = Path(sw.__file__).resolve().parent / "dsl" / "grammar.lark"
_RULE = re.compile(r"^[!?]?(?P<name>[a-z_]+)\s*:\s*(?P<body>.*)$")
_SECTION = re.compile(r"^// -+ (?P<title>\w+)")


def _grammar_rules() -> tuple[dict[str, str], dict[str, str]]:
    """The grammar's rules (name -> body, continuation lines joined) and the section each is
    defined in (name -> the word of its ``// ---- section`` header)."""
    bodies: dict[str, str] = {}
    sections: dict[str, str] = {}
    section, current = "", None
    for raw in GRAMMAR.read_text(encoding="utf-8").splitlines():
        header = _SECTION.match(raw)
        if header:
            section = header.group("title")
            continue
        line = raw.split("//", 1)[0].rstrip()
        rule = _RULE.match(line)
        if rule:
            current = rule.group("name")
            bodies[current] = rule.group("body")
            sections[current] = section
        elif current is not None and line.strip().startswith("|"):
            bodies[current] += " " + line.strip()
        elif not line.strip():
            current = None
    return bodies, sections


def _keyword(body: str) -> str | None:
    """The keyword a statement rule starts with (``None`` if it starts with another rule)."""
    match = re.match(r'\s*"([a-z_]+)"', body)
    return match.group(1) if match else None


def _statement_keywords() -> dict[str, str]:
    """keyword -> grammar section, for every statement and role statement of the grammar."""
    bodies, sections = _grammar_rules()
    found: dict[str, str] = {}
    for group in ("_statement", "_role_statement"):
        for name in (n.strip() for n in bodies[group].split("|")):
            keyword = _keyword(bodies.get(name, ""))
            if keyword is not None:
                found[keyword] = sections[name]
    return found


def _count_forms() -> list[str]:
    """The written start of each ``count(…)`` form that names no other rule right after the
    parenthesis: ``count(powers)``, ``count(tokens on map)``, ``count(tokens in``."""
    bodies, _ = _grammar_rules()
    forms = []
    # Since version 3 of the language the plain factors are the rule `simple`.
    for alternative in (bodies["factor"] + "|" + bodies.get("simple", "")).split("|"):
        parts = re.findall(r'"[^"]*"|[A-Za-z_]+', alternative.split("->")[0])
        if parts[:2] != ['"count"', '"("'] or len(parts) < 3 or not parts[2].startswith('"'):
            continue
        words = []
        for part in parts[2:]:
            if not part.startswith('"'):
                break
            words.append(part.strip('"'))
        text = " ".join(w for w in words if w != ")")
        forms.append("count(" + text + (")" if words[-1] == ")" else ""))
    return forms


def test_the_grammar_helpers_find_the_statements() -> None:
    """The helpers below read the grammar as intended (not an empty list by accident)."""
    keywords = _statement_keywords()
    assert {"tokens", "ability", "role", "zone", "draft", "win"} <= set(keywords)
    assert keywords["role"] == keywords["draft"] == "expansions"
    assert "count(powers)" in _count_forms()


def test_the_rule_language_page_documents_every_statement() -> None:
    """Every statement keyword of the grammar is written, as code, on the rule-language page;
    those of the grammar's expansion section in its Expansions section, with the count()
    forms."""
    page = (DOCS / "rule-language.md").read_text(encoding="utf-8")
    expansions = page.split("\n## Expansions\n", 1)[1].split("\n## ", 1)[0]
    for keyword, section in _statement_keywords().items():
        where = expansions if section == "expansions" else page
        assert re.search(rf"`{keyword}[ `]", where), f"`{keyword}` is not documented"
    for form in _count_forms():
        assert f"`{form}" in expansions, f"`{form}` is not documented"


def _necromancer(generator: ModuleType) -> Any:
    rule = generator.RULES.expansions.get("necromancer_island")
    assert rule is not None, "the generator loads every official expansion"
    return rule


def test_the_expansion_page_shows_its_role_zones_and_rulings() -> None:
    """The generated Necromancer Island page shows the role statement by statement (as the
    formatter writes it), every zone with the hand zone marked, where lost tokens go, and the
    A15–A20 defaults with how the engine carries them out, and our own calls."""
    pytest.importorskip("mkdocs_gen_files")
    from smallworld_rules.dsl import ast as dsl_ast
    from smallworld_rules.dsl.formatter import role_statement

    generator = _generator()
    rule = _necromancer(generator)
    page = generator.rule_page(rule)
    assert rule.roles and rule.zones and rule.lost_tokens_to
    for role in rule.roles:
        assert f"{{#role-{role.id}}}" in page
        assert f"### {role.name} (`{role.id}`)" in page
    for node in (s for s in rule.ast.statements if isinstance(s, dsl_ast.Role)):
        for part in node.statements:
            assert f"`{role_statement(part)}`" in page, role_statement(part)
    for zone in rule.zones:
        row = page.split(f'<a id="zone-{zone.id}"></a>', 1)[1].split("\n", 1)[0]
        assert zone.name in row
        if zone.role is not None:
            owner = next(r for r in rule.roles if r.id == zone.role)
            assert f"hand zone of the {owner.name}" in row
    assert f"into the zone [`{rule.lost_tokens_to}`](#zone-{rule.lost_tokens_to})" in page
    assert f"{rule.players[0]} to {rule.players[1]}" in page
    for option in rule.options:
        assert f"options.md#option-{option.name}" in page
    rulings = page.split("\n## Rulings\n", 1)[1].split("\n## ", 1)[0]
    applied = generator.rulings_for(rule.id)[1]
    assert {f"A{n}" for n in range(15, 21)} <= set(applied)
    for key in applied:
        assert f"[**{key}**](../../options.md#{key.lower()})" in rulings
        assert generator.AMBIGUITIES[key]["implemented"] in rulings.replace("\\", "")
    for call in generator.CALLS[rule.id]:
        assert f"options.md#call-{call['key']})" in rulings


def test_the_options_page_explains_the_expansion_defaults() -> None:
    """The options page's generated parts list the expansion's options, how A15–A20 are
    carried out and our own calls, each with an anchor the rule pages link to."""
    pytest.importorskip("mkdocs_gen_files")
    generator = _generator()
    rule = _necromancer(generator)
    options = generator.options_markdown()
    for option in rule.options:
        assert f'<a id="option-{option.name}"></a>' in options
    implementations = generator.implementations_markdown()
    for n in range(15, 21):
        assert f"[**A{n}**](#a{n})" in implementations
    calls = generator.calls_markdown()
    for call in generator.CALLS[rule.id]:
        assert f'<a id="call-{call["key"]}"></a>' in calls
    hand_written = (DOCS / "options.md").read_text(encoding="utf-8")
    for part in ("options", "ambiguities", "implementations", "calls"):
        assert f"<!-- generated: {part} -->" in hand_written


def test_the_api_reference_lists_the_expansion_names() -> None:
    """The new public names are in the API reference: the actions page lists its members by
    name; the game and events pages document whole objects, which must hold them."""
    actions = (DOCS / "api" / "actions.md").read_text(encoding="utf-8")
    for name in ("ChoosePower", "Purchase"):
        assert f"        - {name}\n" in actions
        assert name in sw.__all__
    rules_page = (DOCS / "api" / "rules.md").read_text(encoding="utf-8")
    for name in ("ZoneDef", "RoleDef"):
        assert f"::: smallworld_rules.ruledefs.{name}" in rules_page
    from smallworld_rules import events

    for name in ("PowerChosen", "TokenBought", "TokensToZone", "Exchanged"):
        assert name in events.EVENT_TYPES
    assert callable(sw.Game.zone) and callable(sw.Game.zone_pile)
