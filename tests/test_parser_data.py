"""The shipped parser data (``smallworld_rules/dsl/parser_data.json``, see
``smallworld_rules.dsl.parser_data``).

* It matches ``grammar.lark`` (regenerate it after a grammar change: the module doc says how)
  and is not damaged.
* A parser loaded from such data parses every rule file of the repository to the same trees
  as a freshly built parser, and every malformed snippet of ``SYNTAX_EXAMPLES`` (and some more)
  to the same error: label, message, position and hint.
* Data that does not match (another grammar, another Lark, another format) or is damaged in
  any way is ignored, and the runtime parser is built from the grammar instead.
* Loading it never unpickles.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import lark
import pytest
from lark import Lark

import smallworld_rules as sw
from smallworld_rules.dsl import parser as parser_module
from smallworld_rules.dsl import parser_data
from smallworld_rules.dsl.parser import SYNTAX_EXAMPLES, build_parser, parse

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = Path(parser_data.__file__).with_name(parser_data.DATA_FILE)


def rule_files() -> list[Path]:
    folders = ["races", "powers", "expansions", "tests/rules", "examples"]
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.swr"))


def fresh_text() -> str:
    """Data built in this process (any Lark version)."""
    return parser_data.serialize(build_parser(validate=False), parser_data.grammar_text())


def load(text: str) -> Lark | None:
    return parser_data.load_parser(
        text, parser_data.grammar_text(), postlex=parser_module._AcceptIdEverywhere()
    )


def test_the_shipped_data_matches_the_grammar_and_is_whole() -> None:
    head_line, _, body = SHIPPED.read_text("utf-8").partition("\n")
    head = json.loads(head_line)
    assert head["grammar_sha256"] == parser_data.header(parser_data.grammar_text())[
        "grammar_sha256"
    ], (
        "grammar.lark changed: regenerate the parser data with "
        "`python -m smallworld_rules.dsl.make_parser_data > smallworld_rules/dsl/parser_data.json`"
    )
    assert head["format"] == parser_data.FORMAT
    assert head["data_sha256"] == parser_data._sha256(body.rstrip("\n"))


def test_the_runtime_parser_is_the_shipped_one_when_lark_matches() -> None:
    head = json.loads(SHIPPED.read_text("utf-8").partition("\n")[0])
    if head["lark"] != lark.__version__:
        pytest.skip(f"the data is for Lark {head['lark']}, {lark.__version__} is installed")
    assert parser_data.load_shipped_parser(postlex=parser_module._AcceptIdEverywhere())
    assert parser_module._runtime_parser().source_path == "<deserialized>"


def loaded_parsers() -> Iterator[tuple[str, Lark]]:
    shipped = parser_data.load_shipped_parser(postlex=parser_module._AcceptIdEverywhere())
    if shipped is not None:
        yield "shipped", shipped
    fresh = load(fresh_text())
    assert fresh is not None
    yield "fresh data", fresh


def test_loaded_parsers_give_the_same_trees_as_a_built_one() -> None:
    built = build_parser(validate=False)
    files = rule_files()
    assert len(files) > 30
    for name, loaded in loaded_parsers():
        for path in files:
            text = parser_module.normalize_source(path.read_text("utf-8"))
            assert loaded.parse(text) == built.parse(text), (name, path)


def error_of(source: str) -> tuple[object, ...]:
    try:
        parse(source, "snippet.swr")
    except sw.RuleFileError as exc:
        return (exc.label, str(exc), exc.line, exc.column, exc.hint)
    return ("parsed",)


def test_loaded_parsers_give_the_same_syntax_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    snippets = [s for group in SYNTAX_EXAMPLES.values() for s in group]
    snippets += [
        'race x "X" { tokens }',
        'race x "X" { on conquest do gain 1 times }',
        'race x "X" { flag }',
        'race x "X" { tokens 1 + }',
        'power p "P" { ability a { when conquest } }',
        "",
        "}",
    ]
    built = build_parser(validate=False)
    monkeypatch.setattr(parser_module, "_runtime_parser", lambda: built)
    want = [error_of(s) for s in snippets]
    assert sum(w != ("parsed",) for w in want) > len(snippets) // 2
    for name, loaded in loaded_parsers():
        monkeypatch.setattr(parser_module, "_runtime_parser", lambda p=loaded: p)
        assert [error_of(s) for s in snippets] == want, name


def damaged_versions(text: str) -> Iterator[tuple[str, str]]:
    head_line, _, body = text.partition("\n")
    head = json.loads(head_line)
    yield "empty", ""
    yield "not json", "{" + text
    yield "header only", head_line + "\n"
    yield "body changed", head_line + "\n" + body.replace('"ID"', '"IX"', 1)
    yield "body truncated", head_line + "\n" + body[: len(body) // 2]
    for key, value in (
        ("lark", "0.0.1"),
        ("format", parser_data.FORMAT + 1),
        ("grammar_sha256", "0" * 64),
        ("data_sha256", "0" * 64),
    ):
        yield f"other {key}", json.dumps(dict(head, **{key: value})) + "\n" + body
    # A body that matches its (recomputed) checksum but is not Lark's data.
    for bad in ('{"d":[["data",1]]}', '{"x":1}', '{"d":[[["k"],1]]}', "[1,2,3]"):
        new_head = dict(head, data_sha256=parser_data._sha256(bad))
        yield f"bad body {bad}", json.dumps(new_head) + "\n" + bad + "\n"


def test_mismatched_or_damaged_data_is_ignored() -> None:
    text = fresh_text()
    assert load(text) is not None
    for name, damaged in damaged_versions(text):
        assert load(damaged) is None, name


def test_without_usable_data_the_parser_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    source = (ROOT / "races" / "amazons.swr").read_text("utf-8")
    want = parse(source)
    monkeypatch.setattr(parser_data, "DATA_FILE", "no_such_file.json")
    assert parser_data.load_shipped_parser() is None
    parser_module._runtime_parser.cache_clear()
    try:
        rebuilt = parser_module._runtime_parser()
        assert rebuilt.source_path != "<deserialized>"
        assert parse(source) == want
    finally:  # leave the runtime parser made as usual (other tests audit what a parse opens)
        monkeypatch.undo()
        parser_module._runtime_parser.cache_clear()
        parser_module._runtime_parser()


def test_loading_never_unpickles(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("unpickled")

    for name in ("load", "loads", "Unpickler"):
        monkeypatch.setattr(pickle, name, refuse)
    text = fresh_text()
    assert load(text) is not None
    assert parser_data.load_shipped_parser(postlex=parser_module._AcceptIdEverywhere()) or (
        json.loads(SHIPPED.read_text("utf-8").partition("\n")[0])["lark"] != lark.__version__
    )
