"""Rule files are data, and a stranger's file is safe to load.

Proved three ways:
1. by construction: the grammar has no construct that imports, reads a file, calls Python or
   loops, and the loading code never evaluates or imports anything a file says;
2. by hostile files: code of every flavour is refused with a RuleFileError (or, inside a
   string, kept as inert text), and a process-wide audit hook sees nothing run, no file opened
   but the rule files, no file written;
3. by limits: file size, nesting depth, number size, string length, tokens, statements and rule
   files per load are each refused with a clear message, and the worst files the limits still
   accept load within 2 s and 50 MB.
"""

from __future__ import annotations

import ast as pyast
import gc
import io
import re
import sys
import time
import tokenize
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import smallworld_rules as sw
from smallworld_rules import rules as rules_module
from smallworld_rules.dsl import vocabulary
from smallworld_rules.dsl.parser import (
    MAX_DIGITS,
    MAX_NESTING,
    MAX_PARENS,
    MAX_SOURCE_BYTES,
    MAX_STATEMENTS,
    MAX_STRING_CHARS,
    MAX_TOKENS,
    build_parser,
    parse,
)
from smallworld_rules.rules import MAX_RULE_FILES

CORE = Path(sw.__file__).resolve().parent
MAX_SECONDS = 2.0
MAX_MEGABYTES = 50.0
HEADER = 'race hostile "Hostile" {\n    tokens 5\n    box 10\n    text "t"\n'


def hostile(body: str) -> str:
    return HEADER + body + "\n}\n"


def write(folder: Path, stem: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.swr"
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- 1. by construction

# Words that would give a rule file a way out of being data: imports and includes, files,
# evaluation of code, loops. (`while` is allowed only as the status `while active|declined`.)
FORBIDDEN_WORDS = {
    "import", "include", "require", "load", "source", "use", "from",
    "open", "read", "write", "file", "path", "url", "fetch", "env",
    "exec", "eval", "execute", "compile", "call", "python", "lambda", "def", "function",
    "module", "system", "shell", "run", "spawn",
    "loop", "repeat", "until", "forever", "for", "foreach", "goto", "jump", "recurse", "again",
}  # fmt: skip


def test_the_grammar_has_no_keyword_to_import_read_execute_or_loop() -> None:
    parser = build_parser()
    keywords = {t.pattern.value for t in parser.terminals if t.pattern.type == "str"}
    assert keywords, "no keywords found: has the grammar changed shape?"
    assert not keywords & FORBIDDEN_WORDS
    assert not any(word.startswith("_") for word in keywords)  # no dunders, no private names


def test_while_is_only_a_status_never_a_loop() -> None:
    parser = build_parser()
    literal = {t.name: t.pattern.value for t in parser.terminals if t.pattern.type == "str"}
    uses = [
        [literal.get(symbol.name, symbol.name) for symbol in rule.expansion]
        for rule in parser.rules
        if any(literal.get(symbol.name) == "while" for symbol in rule.expansion)
    ]
    assert uses
    for expansion in uses:
        after = expansion[expansion.index("while") + 1]
        assert after in ("active", "declined"), expansion


def test_the_only_free_form_terminals_are_names_numbers_strings_and_comments() -> None:
    """Every terminal besides the fixed keywords and punctuation is one of these five; a new
    pattern terminal must be reviewed here for safety."""
    parser = build_parser()
    patterns = {t.name: t.pattern.value for t in parser.terminals if t.pattern.type == "re"}
    assert set(patterns) == {"ID", "INT", "STRING", "COMMENT", "WS"}
    assert patterns["ID"] == "[a-z][a-z0-9_]*"  # no dots, no dunders, no quotes
    assert patterns["INT"] == "[0-9]+"  # digits only; length bounded by MAX_DIGITS


def test_strings_are_only_names_texts_and_descriptions() -> None:
    """A string literal can only be the display name, the rules text, an alias, an option's
    description, or the display name of an expansion's zone, role or role token or of a
    race's pile (collect lost_tokens into): data shown to people, never a path, a module or
    code."""
    parser = build_parser()
    holders = {
        rule.origin.name.strip("_").split("_")[0]
        for rule in parser.rules
        if any(symbol.name == "STRING" for symbol in rule.expansion)
    }
    assert holders <= {
        "start", "text", "alias", "option", "zone", "hand", "role", "collect"
    }, holders


# The modules that turn a file into compiled rules: none of them may evaluate code, import a
# module by name, start a process, or open anything but the rule file itself.
LOADER_FILES = [*sorted((CORE / "dsl").glob("*.py")), CORE / "rules.py"]
EVALUATING_CALLS = {"eval", "exec", "compile", "__import__", "execfile", "breakpoint", "input"}
DANGEROUS_MODULES = {
    "os", "subprocess", "pickle", "marshal", "shelve", "ctypes", "socket", "runpy", "code",
    "codeop", "builtins", "shutil", "urllib", "http", "importlib.util", "importlib.machinery",
    "importlib.import_module", "multiprocessing", "threading", "asyncio", "tempfile",
}  # fmt: skip


def _dotted(node: pyast.expr) -> str:
    if isinstance(node, pyast.Name):
        return node.id
    if isinstance(node, pyast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return "?"


def _calls(path: Path) -> Iterator[tuple[int, str, pyast.Call]]:
    for node in pyast.walk(pyast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, pyast.Call):
            yield node.lineno, _dotted(node.func), node


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    for node in pyast.walk(pyast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, pyast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, pyast.ImportFrom) and node.module:
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)


def _dangerous(name: str) -> bool:
    return any(name == module or name.startswith(module + ".") for module in DANGEROUS_MODULES)


#: The one place that compiles: the rules' generated functions (dsl/codegen.py), whose source
#: is written from the module's own templates (see test_generated_source_is_only_templates).
GENERATING = {("codegen.py", "compile"), ("codegen.py", "exec")}


@pytest.mark.parametrize("path", LOADER_FILES, ids=[p.name for p in LOADER_FILES])
def test_the_loader_never_evaluates_imports_or_runs_anything(path: Path) -> None:
    hits = [f"{path.name}:{line}: import {name}" for line, name in _imports(path)
            if _dangerous(name)]
    generating = []
    for line, name, call in _calls(path):
        if (path.name, name) in GENERATING:
            generating.append(name)
        elif name in EVALUATING_CALLS or _dangerous(name):
            hits.append(f"{path.name}:{line}: {name}()")
        if name in ("getattr", "setattr", "delattr") and not (
            len(call.args) >= 2 and isinstance(call.args[1], pyast.Constant)
        ):
            hits.append(f"{path.name}:{line}: {name}() with a computed name")
        if name == "open" and path.name not in ("parser.py", "rules.py"):
            hits.append(f"{path.name}:{line}: open()")
    assert hits == []
    assert sorted(generating) == sorted(n for f, n in GENERATING if f == path.name)  # once each


#: Every word a generated function's source may hold: its maker, the context's methods and
#: the few helpers it is given, Python's keywords of an expression; ``k0``, ``k1`` … are the
#: values a rule file gives (names, words), passed to the maker, never written.
TEMPLATE_WORDS = {
    "def", "make", "return", "lambda", "c", "held", "if", "else", "True", "False",
    "_at_distance", "_bool", "_bounded", "_divide", "_groups", "_int", "_max", "_min",
    "adjacent_mask", "all_mask", "bit_count", "conquest_adjacent_mask", "conquests_mask",
    "counter", "feature_mask", "holding_mask", "option", "own_mask", "past_mask",
    "past_piece_mask", "past_tokens", "piece_mask", "powers_count", "property_mask", "target",
    "terrain_mask", "tokens_in", "tokens_on", "value",
}  # fmt: skip
TEMPLATE_OPERATORS = set("()&|~+-*,.:<>") | {"!=", "==", "<=", ">=", ">>", "<<"}


def _template_only(source: str) -> bool:
    """Whether ``source`` holds only template words, ``k`` constants, decimal integers and
    operators: no string, no other name, nothing a rule file wrote."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        kind, text = token.type, token.string
        if kind == tokenize.NAME:
            if text not in TEMPLATE_WORDS and not re.fullmatch(r"k[0-9]+", text):
                return False
        elif kind == tokenize.NUMBER:
            if not re.fullmatch(r"[0-9]+", text):
                return False
        elif kind == tokenize.OP:
            if text not in TEMPLATE_OPERATORS:
                return False
        elif kind not in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT,
                          tokenize.ENDMARKER):
            return False
    return True


def test_generated_source_is_only_templates(tmp_path: Path) -> None:
    """The source of every generated function, for every shipped rule file, every test rule
    file and a stranger's sound file, holds nothing a rule file wrote."""
    from smallworld_rules.dsl import codegen

    sly = write(tmp_path, "hostile", hostile(
        "    score add count(own regions with terrain forest) * 2 - count(tokens in map)\n"
        "    conquest_cost sub 1 when target adjacent_to own region with feature magic"
    ))
    sw.load_rules(expansions=list(sw.available_expansions()))
    for folder in sorted(CORE.parent.joinpath("tests").glob("rules*")):
        sw.load_rules(paths=[folder])
    sw.load_rules(paths=[sly])
    assert codegen._makers
    for source in codegen._makers:
        assert _template_only(source), source
    assert not _template_only("def make():\n    return lambda c: __import__('os')\n")
    assert not _template_only("def make():\n    return lambda c: c.value('x')\n")


def test_only_the_rule_file_itself_is_opened_and_only_to_read() -> None:
    """The two places that open a file open the path they were given, read-only."""
    for path in (CORE / "dsl" / "parser.py", CORE / "rules.py"):
        for _, name, call in _calls(path):
            if name == "open":
                mode = call.args[1] if len(call.args) > 1 else None
                assert isinstance(mode, pyast.Constant) and mode.value == "rb", path


def test_triggers_cannot_cascade() -> None:
    """A trigger fires on an event; if one could conquer, a conquest trigger could fire itself
    forever. Triggers may only place pieces or gain tokens (bounded by the supply and box)."""
    effects = getattr(vocabulary, "TRIGGER_EFFECTS", None)
    if effects is None:
        pytest.skip("this version of the language has no triggers")
    assert not set(effects) & {"conquer", "convert", "move", "roll_die"}


# --------------------------------------------------------------------------- 2. by hostile files

# Everything a process can do that a rule file must never make it do.
FORBIDDEN_EVENTS = (
    "exec", "compile", "import", "code.__new__", "function.__new__",
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "subprocess.Popen", "ctypes.", "socket.", "urllib.", "http.", "ftplib.", "webbrowser.",
    "builtins.input", "pickle.", "marshal.", "shelve.", "sqlite3.",
    "os.remove", "os.unlink", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown",
    "os.truncate", "os.putenv", "os.unsetenv", "os.symlink", "os.link", "shutil.",
    "os.kill", "signal.", "sys.settrace", "sys.setprofile",
)  # fmt: skip


class _Audit:
    """Records the audit events of this process while active (audit hooks cannot be removed)."""

    def __init__(self) -> None:
        self.active = False
        self.events: list[tuple[str, tuple[Any, ...]]] = []
        sys.addaudithook(self)

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if self.active:
            self.events.append((event, args))

    @contextmanager
    def watching(self) -> Iterator[list[tuple[str, tuple[Any, ...]]]]:
        self.events = []
        self.active = True
        try:
            yield self.events
        finally:
            self.active = False


_AUDIT: _Audit | None = None


@pytest.fixture
def audit() -> _Audit:
    global _AUDIT
    if _AUDIT is None:
        _AUDIT = _Audit()
    sw.load_rules()  # warm up: every module the loader needs is imported by now
    return _AUDIT


def assert_harmless(
    events: list[tuple[str, tuple[Any, ...]]], allowed_files: set[Path], marker: Path
) -> None:
    for event, args in events:
        if event == "compile" and args[1] == "<compiled rule>":  # a rule's generated function
            assert _template_only(args[0] if isinstance(args[0], str) else "?"), args
            continue
        if event == "exec" and getattr(args[0], "co_filename", "") == "<compiled rule>":
            continue  # its maker, compiled just before from template_only source
        assert not event.startswith(FORBIDDEN_EVENTS), (event, args)
        if event == "open":
            path, mode = args[0], args[1]
            assert isinstance(path, str | bytes | Path) and Path(str(path)).resolve() in (
                allowed_files
            ), f"opened {path!r}"
            assert mode in (None, "r", "rb"), f"opened {path!r} with mode {mode!r}"
    assert not marker.exists(), "a payload ran"


def payloads(marker: Path) -> list[tuple[str, str]]:
    """(name, source) of files trying to run code, read files or include others."""
    shell = f"touch {marker}"
    py = f"__import__('os').system('{shell}')"
    return [
        ("python-import", f"import os\nos.system('{shell}')\n"),
        ("python-file", f"race hostile \"Hostile\" {{ }}\nimport os; os.system('{shell}')\n"),
        ("import-statement", hostile("    import os")),
        ("from-import", hostile("    from os import system")),
        ("dunder-import", hostile(f"    tokens {py}")),
        ("dunder-import-in-expression", hostile(f"    score add {py}")),
        ("eval", hostile("    score add eval(\"__import__('os').getcwd()\")")),
        ("exec", hostile(f'    exec("{py}")')),
        ("open", hostile("    text open(\"/etc/passwd\").read()")),
        ("open-in-count", hostile('    score add count(open("/etc/passwd"))')),
        ("include", hostile('    include "../../secrets.swr"')),
        ("lark-directive", "%import common.WS\n" + hostile("")),
        ("attribute-access", hostile("    score add count(own regions).__class__")),
        ("dunder-name", hostile("    score add count(own regions with __class__)")),
        ("dunder-flag", hostile("    flag __builtins__")),
        ("dunder-option", hostile("    score add option __globals__")),
        ("template", hostile("    score add {{ 7 * 7 }}")),
        ("shell-substitution", hostile(f"    score add $({shell})")),
        ("backticks", hostile(f"    score add `{shell}`")),
        ("yaml-tag", hostile("    text !!python/object/apply:os.system ['id']")),
        ("lambda", hostile("    score add lambda: 1")),
        ("loop", hostile("    while true { score add 1 }")),
        ("for-loop", hostile("    for region in all regions { score add 1 }")),
        ("repeat", hostile("    repeat 999999 score add 1")),
        ("recursion", hostile("    score add score")),
        ("semicolon", hostile(f"    tokens 5; {py}")),
        ("null-byte", hostile("    tokens 5\x00 " + py)),
        ("python-string-escape", hostile('    text "\\x41\\u0041\\N{BULLET}"')),
        ("unknown-property", hostile("    score add count(own regions with python)")),
    ]


def test_every_payload_is_refused_and_nothing_runs(audit: _Audit, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    files = {name: write(tmp_path / name, "hostile", text) for name, text in payloads(marker)}
    allowed = {path.resolve() for path in files.values()}
    with audit.watching() as events:
        for name, path in files.items():
            with pytest.raises(sw.RuleFileError) as info:
                sw.load_rules(paths=[path])
            assert Path(info.value.path).resolve() == path.resolve(), name
            assert info.value.line >= 1 and info.value.label, name
    assert_harmless(events, allowed, marker)


def test_code_in_strings_and_comments_is_inert_text(audit: _Audit, tmp_path: Path) -> None:
    """A sound file may *say* anything in its text, aliases and comments: it is kept as text and
    never run, read or followed, even while a game evaluates the file's rules."""
    marker = tmp_path / "pwned"
    py = f"__import__('os').system('touch {marker}')"
    source = (
        f"# import os; {py}\n"
        f'#include "/etc/passwd"\n'
        f'race inert "Inert \\"{{{{7*7}}}}\\" $(id)" {{\n'
        f"    tokens 5\n    box 10\n"
        f'    alias "{py}"\n'
        f'    alias "/etc/passwd"\n'
        f'    text "{py}" "open(\'/etc/passwd\').read()" "${{HOME}} `id` {{{{ config }}}}"\n'
        f"    score add count(own regions with terrain forest)  # eval('1')\n"
        f"}}\n"
    )
    path = write(tmp_path, "inert", source)
    maps = {p.resolve() for p in (CORE / "maps").glob("*.json")}
    with audit.watching() as events:
        rules = sw.load_rules(paths=[path])
        game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("inert", "commando")])
        game.apply(sw.PickCombo(0))
        for region in range(len(game.map.regions)):
            game.explain_conquest_cost(region)
        game.apply(sw.Conquer(next(a.region for a in game.legal_actions()
                                   if isinstance(a, sw.Conquer))))
    assert_harmless(events, {path.resolve()} | maps, marker)
    inert = rules.races["inert"]
    assert py in inert.text and py in inert.aliases and "/etc/passwd" in inert.aliases
    assert inert.name == 'Inert "{{7*7}}" $(id)'


def test_loading_reads_no_file_a_rule_file_names(audit: _Audit, tmp_path: Path) -> None:
    """Only the given files (and folders) are read; a path inside a file is just text."""
    secret = tmp_path / "secret.swr"
    secret.write_text(hostile("    tokens 99"), encoding="utf-8")
    path = write(tmp_path / "pack", "namer", (
        f'race namer "{secret}" {{\n    tokens 5\n    box 10\n    text "{secret}"\n'
        f'    alias "{secret}"\n}}\n'
    ))
    with audit.watching() as events:
        sw.load_rules(paths=[path.parent])
    opened = {Path(str(args[0])).resolve() for event, args in events if event == "open"}
    assert opened <= {path.resolve()}
    assert secret.resolve() not in opened


# --------------------------------------------------------------------------- 3. by limits


def refusal(source: str) -> sw.RuleFileError:
    with pytest.raises(sw.RuleFileError) as info:
        parse(source, "<hostile>")
    return info.value


LIMITS: list[tuple[str, Callable[[], str], str, str]] = [
    # (label, a file just over the limit, words its message must contain, what may pass)
    (
        "file-too-large",
        lambda: hostile("#" + "x" * MAX_SOURCE_BYTES),
        f"larger than {MAX_SOURCE_BYTES // 1024} KiB",
        hostile("#" + "x" * (MAX_SOURCE_BYTES - len(hostile("")) - 2)),
    ),
    (
        "too-deep",
        lambda: hostile("    score add " + "(" * (MAX_PARENS + 1) + "1" + ")" * (MAX_PARENS + 1)),
        f"nest more than {MAX_PARENS} deep",
        hostile("    score add " + "(" * MAX_PARENS + "1" + ")" * MAX_PARENS),
    ),
    (
        "too-deep",
        lambda: hostile("    score add 1 when " + "not " * MAX_NESTING + "first_turn"),
        f"more than {MAX_NESTING} levels deep",
        hostile("    score add 1 when " + "not " * (MAX_NESTING - 5) + "first_turn"),
    ),
    (
        "number-too-large",
        lambda: hostile("    score add " + "9" * (MAX_DIGITS + 1)),
        f"more than {MAX_DIGITS} digits",
        hostile("    score add " + "9" * MAX_DIGITS),
    ),
    (
        "string-too-long",
        lambda: hostile('    alias "' + "a" * (MAX_STRING_CHARS + 1) + '"'),
        f"longer than {MAX_STRING_CHARS} characters",
        hostile('    alias "' + "a" * MAX_STRING_CHARS + '"'),
    ),
    (
        "unterminated-string",
        lambda: hostile('    alias "' + "a" * (MAX_SOURCE_BYTES // 2)),
        "never closed",
        hostile('    alias "a"'),
    ),
    (
        "too-many-tokens",
        lambda: hostile("    score add 1" * (MAX_TOKENS // 3 + 1)),
        f"more than {MAX_TOKENS} tokens",
        hostile("    score add " + " + ".join(["(1 + 1)"] * 10)),
    ),
    (
        "too-many-statements",
        lambda: hostile("    score add 1" * (MAX_STATEMENTS - 2)),  # header has 3 already
        f"more than {MAX_STATEMENTS} statements",
        hostile("    score add 1" * (MAX_STATEMENTS - 3)),
    ),
]


@pytest.mark.parametrize(
    ("label", "make", "words", "fine"), LIMITS, ids=[f"{i}-{c[0]}" for i, c in enumerate(LIMITS)]
)
def test_each_limit_is_refused_with_a_clear_message(
    label: str, make: Callable[[], str], words: str, fine: str
) -> None:
    start = time.perf_counter()
    error = refusal(make())
    assert time.perf_counter() - start < MAX_SECONDS
    assert error.label == label
    assert words in error.message and error.hint
    assert str(error).startswith(f"<hostile>:{error.line}:{error.column}: ")
    parse(fine)  # just within the limit is fine


def test_the_statement_limit_points_at_the_first_statement_too_many() -> None:
    error = refusal(hostile("    score add 1\n" * MAX_STATEMENTS))
    assert (error.line, error.column) == (4 + MAX_STATEMENTS - 2, 5)


def test_too_many_rule_files_are_refused_before_any_is_read(tmp_path: Path) -> None:
    for i in range(MAX_RULE_FILES + 1):
        write(tmp_path, f"r{i}", "this is not even a rule file")
    start = time.perf_counter()
    with pytest.raises(sw.RulesError, match=f"more than {MAX_RULE_FILES} rule files"):
        sw.load_rules(paths=[tmp_path])
    assert time.perf_counter() - start < MAX_SECONDS
    assert not any(str(tmp_path) in key[0] for key in rules_module._CACHE)


def test_the_limits_are_small_named_constants() -> None:
    """Documented at module level, generous for real files, small for hostile ones."""
    assert MAX_SOURCE_BYTES <= 1024 * 1024 and MAX_TOKENS <= 10_000
    assert MAX_PARENS <= 64 and MAX_NESTING <= 200 and MAX_DIGITS <= 6
    assert MAX_STRING_CHARS <= 10_000 and MAX_STATEMENTS <= 500 and MAX_RULE_FILES <= 500


# ---- bounded time and memory


def biggest_file() -> str:
    """As many tokens as allowed, in as few and as many statements as allowed."""
    statement = "    score add count(all regions with terrain forest or terrain hill) + 1 * 2\n"
    per = len(statement.split()) + 6  # count ( ) + punctuation, roughly
    return hostile(statement * min(MAX_STATEMENTS - 3, (MAX_TOKENS - 100) // per))


def deepest_file() -> str:
    parens = "(" * MAX_PARENS + "1" + ")" * MAX_PARENS
    nots = "not " * (MAX_NESTING - 5)
    adjacent = "adjacent_to all regions with " * (MAX_NESTING // 3)
    return hostile(
        f"    score add {parens}\n"
        f"    score add 1 when {nots}first_turn\n"
        f"    conquest_cost add count(all regions with {adjacent}coastal)\n"
        f"    defence add 1 when target {adjacent}terrain hill\n"
    )


def huge_numbers_file(product: str = "") -> str:
    """The largest numbers a file may hold, in the longest product the value bound
    (``smallworld_rules.dsl.bounds``) still accepts; or ``product`` as the score."""
    nine = "9" * MAX_DIGITS
    product = product or " * ".join(["1"] * (MAX_NESTING // 2 - 1) + [nine])
    return (
        f'race hostile "Hostile" {{\n    tokens {nine}\n    box {nine}\n    text "t"\n'
        f"    piece heap supply {nine} {{ defence {nine} }}\n"
        f"    score add {product}\n"
        f"    conquest_cost add {nine} * 1 * 1\n}}\n"
    )


def test_a_product_of_the_largest_numbers_is_refused(tmp_path: Path) -> None:
    """The largest numbers multiplied together are refused by the value bound: no value a
    rule file computes may exceed ±1,000,000, so a game can always explain its numbers."""
    product = " * ".join(["9" * MAX_DIGITS] * (MAX_NESTING // 2))
    with pytest.raises(sw.RuleFileError, match="can exceed 1,000,000"):
        sw.load_rules(paths=[write(tmp_path, "hostile", huge_numbers_file(product))])


def long_lines_file() -> str:
    """Just under the size limit in long lines: twenty of the longest strings, hundreds of
    statements side by side, and a comment filling the rest."""
    aliases = "".join(f'    alias "{chr(97 + i) * MAX_STRING_CHARS}"\n' for i in range(20))
    statements = " ".join(["score add count(own regions with terrain hill)"] * 400)
    comment = "x" * (MAX_SOURCE_BYTES - len(aliases) - len(statements) - 1000)
    return hostile(f"{aliases}    {statements}\n#{comment}")


HOSTILE_LOADS: dict[str, Callable[[Path], list[Path]]] = {
    "biggest accepted file": lambda d: [write(d, "hostile", biggest_file())],
    "deepest accepted nesting": lambda d: [write(d, "hostile", deepest_file())],
    "huge numbers and counts": lambda d: [write(d, "hostile", huge_numbers_file())],
    "long lines": lambda d: [write(d, "hostile", long_lines_file())],
    "many files": lambda d: [
        write(d, f"r{i}", hostile("    score add count(own regions with coastal)").replace(
            "hostile", f"r{i}", 1))
        for i in range(MAX_RULE_FILES - 40)
    ],
}


def _load(paths: list[Path]) -> None:
    rules = sw.load_rules(paths=paths)  # each of these is accepted: the limits are not the cost
    assert {Path(r.path).stem for r in rules.races.values()} >= {p.stem for p in paths}


@pytest.mark.parametrize("case", list(HOSTILE_LOADS))
def test_a_hostile_load_is_bounded_in_time_and_memory(case: str, tmp_path: Path) -> None:
    """Measured twice, the parse cache emptied in between: once for time, once under
    tracemalloc (which slows everything down) for memory."""
    sw.load_rules()  # the parser and the official files are ready
    paths = HOSTILE_LOADS[case](tmp_path)
    gc.collect()
    start = time.perf_counter()
    _load(paths)
    elapsed = time.perf_counter() - start

    rules_module._CACHE.clear()
    gc.collect()
    tracemalloc.start()
    try:
        _load(paths)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < MAX_SECONDS, f"{case}: {elapsed:.2f} s"
    assert peak / 1e6 < MAX_MEGABYTES, f"{case}: {peak / 1e6:.1f} MB"


def test_accepted_hostile_files_play_in_bounded_time(tmp_path: Path) -> None:
    """Evaluating the deepest and the biggest numbers a file may hold stays cheap: every
    predicate is a bitmask operation, every count a popcount, whatever the nesting."""
    deep = sw.load_rules(paths=[write(tmp_path / "deep", "hostile", deepest_file())])
    huge = sw.load_rules(paths=[write(tmp_path / "huge", "hostile", huge_numbers_file())])
    for rules in (deep, huge):
        start = time.perf_counter()
        game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("hostile", "commando")])
        game.apply(sw.PickCombo(0))
        for region in range(len(game.map.regions)):
            game.explain_conquest_cost(region)
        conquests = [a for a in game.legal_actions() if isinstance(a, sw.Conquer)]
        if conquests:
            game.apply(conquests[0])
        while sw.EndTurn() not in game.legal_actions():
            deploys = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
            game.apply(max(deploys, key=lambda a: a.count))
        game.apply(sw.EndTurn())
        assert time.perf_counter() - start < MAX_SECONDS
