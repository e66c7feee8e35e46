"""The front end of the rule language: text to :class:`~smallworld_rules.dsl.ast.RuleFile`.

:func:`parse` runs a cheap pre-scan (size, token count, parenthesis depth, number length), the
LALR parser built from ``grammar.lark``, a bound on the depth of the parse tree, and a
non-recursive transformer to the frozen AST. Every failure, whatever the input, comes
out as a :class:`~smallworld_rules.errors.RuleFileError` with a position, a stable label and a
hint; syntax errors are labelled with Lark's ``match_examples`` over the snippets in
:data:`SYNTAX_EXAMPLES`, then by what the parser expected at the point of failure.
"""

from __future__ import annotations

import difflib
import functools
import importlib.resources
import re
import stat
import sys
import typing
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs
from lark import Lark, Token, Transformer_NonRecursive, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.lark import PostLex
from lark.tree import Meta

from smallworld_rules.dsl import ast, parser_data
from smallworld_rules.dsl.vocabulary import CONTEXT_PROPERTIES, HOOKS, OPS, REGION_PROPERTIES
from smallworld_rules.errors import RuleFileError

__all__ = [
    "MAX_DIGITS",
    "MAX_NESTING",
    "MAX_PARENS",
    "MAX_SOURCE_BYTES",
    "MAX_STATEMENTS",
    "MAX_STRING_CHARS",
    "MAX_TOKENS",
    "SYNTAX_EXAMPLES",
    "build_parser",
    "display_source",
    "normalize_source",
    "parse",
    "parse_file",
]

#: Largest accepted rule file, in bytes of UTF-8.
MAX_SOURCE_BYTES = 1024 * 1024
#: Deepest accepted nesting of parentheses.
MAX_PARENS = 32
#: Deepest accepted syntax tree: bounds chains such as ``not not not …`` or ``1+1+1+…`` that
#: need no parentheses, so that nothing downstream (equality, repr, the semantic pass, the
#: compiler) can hit Python's recursion limit.
MAX_NESTING = 160
#: Most tokens a file may have: real rule files have well under a thousand, and the parser
#: reads only some tens of thousands a second.
MAX_TOKENS = 10_000
#: Most digits an integer literal may have.
MAX_DIGITS = 6
#: Most characters a string literal may hold (a whole race's rules text is under a thousand).
MAX_STRING_CHARS = 10_000
#: Most statements a file may hold (an official file has a few dozen).
MAX_STATEMENTS = 500

_KINDS = ("race", "power", "expansion")
_STATEMENT_WORDS = (
    "tokens", "conquest_tokens", "box", "text", "alias", "flag", "option", "piece", "link", "on",
    "ability", "players", "map", "zone", "lost_tokens", "role", "immune", "reach",
    "region_tokens", "counter", "skip_coins", "own_tokens", "collect", "skip_tokens",
)
_STATUS_WORDS = ("active", "declined")
_PREDICATE_WORDS = ("terrain", "feature", "piece", "option", "adjacent_to")
_PROPERTY_WORDS = frozenset(REGION_PROPERTIES) | frozenset(CONTEXT_PROPERTIES)

_DIGITS_RE = re.compile(r"[0-9]+")
_ID_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
_WORD_RE = re.compile(r"\w+")
# Strings are matched "unrolled" (runs of plain characters between escapes): the naive
# `(?:[^"\\]|\\.)*` costs the regex engine memory for every character of a long string.
_STRING_BODY_RE = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"', re.S)
_ESCAPE_RE = re.compile(r'\\(["\\])')
# The tokens of the pre-scan: strings and comments whole (parentheses inside them do not
# count), words and numbers whole, any other character alone.
_PRESCAN_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|#[^\n]*|\w+|\S', re.S)
# Characters str.splitlines() breaks at besides \n; blanked in the copy used for caret context so
# that its line numbers agree with the lexer's, which counts \n only.
_EXTRA_LINE_BREAKS = {ord(c): " " for c in "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}

_TERMINAL_DESCRIPTIONS = {
    "ID": "a name",
    "INT": "a number",
    "STRING": 'a "string"',
    "$END": "the end of the file",
}


# --------------------------------------------------------------------------- labelled examples

_HEADER = 'race x "X" {'


def _in_body(*bodies: str) -> list[str]:
    """Place statement snippets first in a body and after a statement.

    Lark compares the parser state *and* its stack depth, and the stack is one entry deeper once
    a statement has been read, so each snippet is needed in both places.
    """
    return [f"{_HEADER} {prefix}{body}" for body in bodies for prefix in ("", "tokens 1 ")]


#: Malformed snippets per label, matched against a failing parse by parser state (Lark's
#: ``UnexpectedInput.match_examples``). States no snippet reaches fall back to a classification
#: by the set of terminals the parser expected.
SYNTAX_EXAMPLES: dict[str, list[str]] = {
    "bad-header": [
        "name",
        '"Name"',
        "{",
        "race {",
        'race "Name"',
        "race name {",
        "race name name",
    ],
    "unknown-hook": [
        *_in_body(
            "conquest_cots sub 1",
            'text "a" conquest_cots',
            "flag x conquest_cots",
            "score add 1 conquest_cots",
            "score add count(own regions) conquest_cots",
            "score add 1 when coastal conquest_cots",
            "score add 1 while active conquest_cots",
            "score add 1 always conquest_cots",
            "piece p supply 1 { } conquest_cots",
        ),
        f"{_HEADER} box 1 conquest_cots",
        f'{_HEADER} alias "a" conquest_cots',
    ],
    "unknown-operator": _in_body("score plus 1", "score +"),
    "unknown-status": _in_body("score add 1 while act"),
    "missing-value": _in_body(
        "tokens }",
        "conquest_tokens }",
        "box }",
        "piece p supply }",
        "score add }",
        "score add 1 + }",
        "score add 1 * }",
    ),
    "missing-name": _in_body("flag }", "piece }", "score add 1 when terrain }"),
    "missing-brace": _in_body("piece p supply 1 }", "piece p supply 1 { immune"),
    "trailing-input": [f"{_HEADER} }} x", f'{_HEADER} }} "x"', f"{_HEADER} }} }}"],
}

# Labels an example may give only to an offending token of one of these types; otherwise the
# example matched the parser state by accident and the fallback classification decides.
_LABEL_TOKEN_TYPES: dict[str, frozenset[str]] = {
    "unknown-hook": frozenset({"ID"}),
    "unknown-status": frozenset({"ID"}),
    "missing-brace": frozenset({"$END"}),
}


# --------------------------------------------------------------------------- building the parser


class _AcceptIdEverywhere(PostLex):
    """Let every state of the contextual lexer lex an ID (the token stream is left unchanged).

    A state lexer that knows only keywords would read ``conquest_costs`` as the keyword
    ``conquest_cost`` plus a stray ``s``; with ID always present the whole word is read, and
    Lark's keyword check turns it into a keyword only when it is one the parser can accept here.
    """

    always_accept = ("ID",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """Return the token stream unchanged."""
        return stream


class _ValidatedGrammarLark(Lark):
    """A :class:`lark.Lark` that skips the lexer's validation of the terminals.

    That validation (every terminal compiles and matches something and, when ``interegular``
    is installed, no two terminals collide) costs most of the build, about 0.4 s, and only
    logs collisions unless ``strict``. The grammar is fixed and the tests build it with
    ``strict=True``, which runs every check and refuses any collision; Lark itself skips the
    same validation when it loads a cached parser.
    """

    def _build_parser(self) -> Any:
        self.lexer_conf.skip_validation = True
        return super()._build_parser()


def build_parser(strict: bool = False, validate: bool = True) -> Lark:
    """Build the LALR parser of the rule language from ``grammar.lark``.

    Args:
        strict: build with Lark's ``strict=True``, which refuses any grammar conflict or
            terminal collision (needs ``interegular``); the tests use it.
        validate: let Lark validate the terminals (``False`` only for the runtime parser:
            see :class:`_ValidatedGrammarLark`; ignored when ``strict``).

    Returns:
        A fresh :class:`lark.Lark` instance producing parse trees (not yet the AST).
    """
    grammar = importlib.resources.files(__package__).joinpath("grammar.lark").read_text("utf-8")
    return (Lark if validate or strict else _ValidatedGrammarLark)(
        grammar,
        parser="lalr",
        lexer="contextual",
        postlex=_AcceptIdEverywhere(),
        propagate_positions=True,
        maybe_placeholders=True,
        strict=strict,
    )


@functools.cache
def _runtime_parser() -> Lark:
    """Return the parser used by :func:`parse`, made once per process: loaded from the
    package's parser data when it matches this grammar and Lark (see
    :mod:`~smallworld_rules.dsl.parser_data`), else built (a few hundred milliseconds)."""
    shipped = parser_data.load_shipped_parser(postlex=_AcceptIdEverywhere())
    return shipped if shipped is not None else build_parser(validate=False)


# --------------------------------------------------------------------------- public functions


def parse(source: str, path: str = "<string>") -> ast.RuleFile:
    """Parse the text of one rule file into its syntax tree.

    Only the syntax is checked here; run :func:`smallworld_rules.dsl.semantics.check` on the
    result for everything else.

    Args:
        source: the text of the file.
        path: where the text came from, for messages and :attr:`ast.RuleFile.path`.

    Returns:
        The parsed file.

    Raises:
        RuleFileError: on any syntax error or hostile input (too large, too many tokens, too
            deep, huge numbers); no other exception escapes, whatever the text.
    """
    source = normalize_source(source)
    _check_limits(source, path)
    parser = _runtime_parser()
    try:
        tree = parser.parse(source)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source, path, parser) from None
    _check_nesting(tree, source, path)
    try:
        rule_file: ast.RuleFile = _ToAst(source, path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RuleFileError):
            raise exc.orig_exc from None
        raise
    _check_statement_count(rule_file, source, path)
    _check_conditions(rule_file, source, path)
    return rule_file


def parse_file(path: str | Path) -> ast.RuleFile:
    """Read and parse one rule file (UTF-8; a leading byte-order mark is ignored).

    Args:
        path: the file to read.

    Returns:
        The parsed file, with :attr:`ast.RuleFile.path` set to ``path``.

    Raises:
        RuleFileError: if the file cannot be read, is not UTF-8, is too large, or does not parse.
    """
    name = str(path)
    try:
        if not stat.S_ISREG(Path(path).stat().st_mode):  # a FIFO or a device could block forever
            raise RuleFileError(
                "cannot read the file: not a regular file",
                path=name,
                label="unreadable-file",
                hint="give a rule file (or, to the command line, a folder of them)",
            )
        with open(path, "rb") as handle:
            # Read one byte past the limit: enough to refuse a huge file without loading it.
            data = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        raise RuleFileError(
            f"cannot read the file: {exc.strerror or exc}",
            path=name,
            label="unreadable-file",
            hint="check that the path exists and is a readable file",
        ) from None
    if len(data) > MAX_SOURCE_BYTES:
        raise _too_large(name)
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Count lines as the lexer does (\r\n and \r break lines too), in the text as read.
        before = normalize_source(data[: exc.start].decode("utf-8", "replace"))
        raise RuleFileError(
            f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
            path=name,
            line=before.count("\n") + 1,
            column=len(before) - (before.rfind("\n") + 1) + 1,
            label="bad-encoding",
            hint="save the file as UTF-8",
            source=display_source(normalize_source(data.decode("utf-8", "replace"))),
        ) from None
    return parse(source, name)


# --------------------------------------------------------------------------- hostile input


def _too_large(path: str) -> RuleFileError:
    return RuleFileError(
        f"the file is larger than {MAX_SOURCE_BYTES // 1024} KiB",
        path=path,
        label="file-too-large",
        hint="a rule file describes one race or power; this cannot be one",
    )


def _check_limits(source: str, path: str) -> None:
    """Refuse oversized input, too many tokens and deep parentheses before Lark sees them.

    One linear regex scan, stopped at the first refusal, so hostile input costs little.
    """
    # Every character takes at least one byte, at most four: encode only when it could matter.
    if len(source) > MAX_SOURCE_BYTES or (
        4 * len(source) > MAX_SOURCE_BYTES
        and len(source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES
    ):
        raise _too_large(path)
    depth = 0
    count = 0
    for match in _PRESCAN_RE.finditer(source):
        token = match.group()
        if token[0] == "#":
            continue  # comments are no tokens
        if token == '"':
            # An unterminated string: the lexer reports it before reaching anything after it.
            # Stopping also keeps the scan linear (retrying at every later quote would not be).
            if len(source) - match.start() > MAX_STRING_CHARS:
                # ... but spare the lexer a scan of a huge unclosed string.
                raise _limit_error(
                    source,
                    path,
                    match.start(),
                    "unterminated-string",
                    "this string is never closed",
                    "add the closing '\"'; write \\\" for a quote inside a string",
                )
            return
        if token[0] == '"' and len(token) - 2 > MAX_STRING_CHARS:
            raise _limit_error(
                source,
                path,
                match.start(),
                "string-too-long",
                f"this string is longer than {MAX_STRING_CHARS} characters",
                "split the text into several strings: text \"…\" \"…\" joins them",
            )
        count += 1
        if count > MAX_TOKENS:
            raise _limit_error(
                source,
                path,
                match.start(),
                "too-many-tokens",
                f"the file has more than {MAX_TOKENS} tokens",
                "a rule file describes one race or power; this cannot be one",
            )
        digits = _DIGITS_RE.match(token)
        if digits is not None and len(digits.group()) > MAX_DIGITS:
            # Refused here so that neither the lexer nor int() ever handles a huge number.
            raise _number_too_large(source, path, match.start(), digits.group())
        if token == "(":
            depth += 1
            if depth > MAX_PARENS:
                raise _limit_error(
                    source,
                    path,
                    match.start(),
                    "too-deep",
                    f"parentheses nest more than {MAX_PARENS} deep",
                    "split the expression or drop redundant parentheses",
                )
        elif token == ")":
            depth = max(depth - 1, 0)


def _check_statement_count(rule_file: ast.RuleFile, source: str, path: str) -> None:
    """Refuse a file with more than :data:`MAX_STATEMENTS` statements, at the first extra one."""
    if len(rule_file.statements) <= MAX_STATEMENTS:
        return
    extra = rule_file.statements[MAX_STATEMENTS]
    pos = getattr(extra, "pos", rule_file.pos)
    raise RuleFileError(
        f"the file has more than {MAX_STATEMENTS} statements",
        path=path,
        line=pos.line,
        column=pos.column,
        label="too-many-statements",
        hint="a rule file describes one race, power or expansion; split it or simplify it",
        source=display_source(source),
    )


def _check_conditions(rule_file: ast.RuleFile, source: str, path: str) -> None:
    """Refuse a number left where a condition belongs (``when count(own regions)``): the
    parser keeps it as a :class:`_Value` until here (walked without recursion)."""
    stack: list[Any] = [rule_file]
    while stack:
        node = stack.pop()
        if isinstance(node, _Value):
            raise _ToAst(source, path)._not_a(node.pos, "a number is not a condition",
                                              "not-a-condition")
        if isinstance(node, tuple | list):
            stack.extend(reversed(node))
        elif attrs.has(type(node)):
            stack.extend(reversed(attrs.astuple(node, recurse=False)))


def _number_too_large(source: str, path: str, offset: int, digits: str) -> RuleFileError:
    shown = digits if len(digits) <= 12 else digits[:12] + "…"
    return _limit_error(
        source,
        path,
        offset,
        "number-too-large",
        f"the number {shown} has more than {MAX_DIGITS} digits",
        f"numbers in rule files have at most {MAX_DIGITS} digits",
    )


def _limit_error(
    source: str, path: str, offset: int, label: str, message: str, hint: str
) -> RuleFileError:
    line, column = _line_column(source, offset)
    return RuleFileError(
        message,
        path=path,
        line=line,
        column=column,
        label=label,
        hint=hint,
        source=display_source(source),
    )


def _check_nesting(tree: Tree[Token], source: str, path: str) -> None:
    """Refuse a parse tree deeper than :data:`MAX_NESTING` (walked without recursion)."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            line, column = _meta_line_column(node.meta)
            raise RuleFileError(
                f"this expression nests more than {MAX_NESTING} levels deep",
                path=path,
                line=line,
                column=column,
                label="too-deep",
                hint="split long chains of 'not', 'and', 'or' or arithmetic into simpler rules",
                source=display_source(source),
            )
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


# --------------------------------------------------------------------------- parse tree to AST


def _meta_line_column(meta: Meta) -> tuple[int, int]:
    # An empty meta has no attributes at all; only the root of an empty body could have one.
    return getattr(meta, "line", 1), getattr(meta, "column", 1)


def _pos(meta: Meta) -> ast.Pos:
    return ast.Pos(*_meta_line_column(meta))


def _token_pos(token: Token) -> ast.Pos:
    return ast.Pos(token.line or 1, token.column or 1)


def _word(token: Token) -> str:
    """A name or word of the file as an interned string: the engine compares the names it
    meets (a phase, a flag, a piece, a zone) with its own and looks them up in tables many
    times per action, and equal interned strings compare by identity."""
    return sys.intern(str(token))


def _unquote(token: Token) -> str:
    """Return the value of a STRING token without its quotes and escapes."""
    return _ESCAPE_RE.sub(r"\1", str(token)[1:-1])


@attrs.frozen
class _Value:
    """A number standing where a condition belongs, until its context says which it is."""

    expr: ast.Expr
    pos: ast.Pos


_EXPRESSIONS = typing.get_args(ast.Expr)


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive[Token, Any]):
    """Turn the Lark parse tree into :mod:`~smallworld_rules.dsl.ast` nodes.

    Non-recursive, so that tree depth costs no Python stack. Names (terrain, feature, piece,
    flag, property) carry the position of the name itself, where semantic errors point.
    """

    def __init__(self, source: str, path: str) -> None:
        super().__init__()
        self._source = source
        self._path = path

    def _int(self, token: Token) -> int:
        text = str(token)
        if len(text) > MAX_DIGITS:  # the pre-scan refuses these already; never call int() on one
            raise _number_too_large(self._source, self._path, token.start_pos or 0, text)
        return int(text)

    # ---- file and statements

    def start(self, meta: Meta, children: list[Any]) -> ast.RuleFile:
        kind, ident, name, *statements = children
        return ast.RuleFile(
            kind=kind,
            id=_word(ident),
            name=_unquote(name),
            statements=tuple(statements),
            path=self._path,
            pos=_pos(meta),
            id_pos=_token_pos(ident),
        )

    def kind(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def tokens(self, meta: Meta, children: list[Token]) -> ast.Tokens:
        return ast.Tokens(self._int(children[0]), _pos(meta))

    def conquest_tokens(self, meta: Meta, children: list[Token]) -> ast.ConquestTokens:
        return ast.ConquestTokens(self._int(children[0]), _pos(meta))

    def box(self, meta: Meta, children: list[Token]) -> ast.Box:
        return ast.Box(self._int(children[0]), _pos(meta))

    def text(self, meta: Meta, children: list[Token]) -> ast.Text:
        joined = " ".join(_unquote(token) for token in children)
        return ast.Text(" ".join(joined.split()), _pos(meta))

    def alias(self, meta: Meta, children: list[Token]) -> ast.Alias:
        return ast.Alias(_unquote(children[0]), _pos(meta))

    def flag(self, meta: Meta, children: list[Any]) -> ast.Flag:
        name, condition = children
        return ast.Flag(_word(name), _token_pos(name), condition)

    def flag_condition(self, meta: Meta, children: list[ast.Pred]) -> ast.Pred:
        return children[0]

    def option_decl(self, meta: Meta, children: list[Any]) -> ast.OptionDecl:
        name, value, text = children
        return ast.OptionDecl(_word(name), value, _unquote(text), _token_pos(name))

    def option_value(self, meta: Meta, children: list[Token]) -> bool | int:
        word = _word(children[0])
        return word == "true" if word in ("true", "false") else self._int(children[0])

    def option_value_ref(self, meta: Meta, children: list[Token]) -> ast.OptionValue:
        return ast.OptionValue(_word(children[0]), _token_pos(children[0]))

    def option_is(self, meta: Meta, children: list[Token]) -> ast.OptionIs:
        return ast.OptionIs(_word(children[0]), _token_pos(children[0]))

    def piece_decl(self, meta: Meta, children: list[Any]) -> ast.PieceDecl:
        name, supply, *properties = children
        return ast.PieceDecl(_word(name), self._int(supply), tuple(properties), _pos(meta))

    def piece_property(self, meta: Meta, children: list[Token | None]) -> ast.PieceProperty:
        name, value = children
        assert name is not None  # the grammar requires the name
        return ast.PieceProperty(
            _word(name), None if value is None else self._int(value), _token_pos(name)
        )

    def modifier(self, meta: Meta, children: list[Any]) -> ast.Modifier:
        hook, op, value, condition, status = children
        pred, target = condition if condition is not None else (None, None)
        return ast.Modifier(
            hook=hook,
            op=op,
            value=value,
            condition=pred,
            status="active" if status is None else status,
            pos=_pos(meta),
            target=target,
        )

    def hook(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def op(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def condition(self, meta: Meta, children: list[Any]) -> tuple[ast.Pred, ast.Pos | None]:
        target, pred = children
        return pred, None if target is None else _token_pos(target)

    def status_active(self, meta: Meta, children: list[Any]) -> str:
        return "active"

    def status_declined(self, meta: Meta, children: list[Any]) -> str:
        return "declined"

    def status_always(self, meta: Meta, children: list[Any]) -> str:
        return "always"

    def link(self, meta: Meta, children: list[ast.Pred]) -> ast.Link:
        return ast.Link(children[0], _pos(meta))

    # ---- triggers and abilities

    def trigger(self, meta: Meta, children: list[Any]) -> ast.Trigger:
        event, limit, condition, effect, *rest = children
        status = rest.pop() if rest and isinstance(rest[-1], str | None) else None
        pred = None if condition is None else condition[0]
        return ast.Trigger(
            event, limit, effect, _pos(meta), pred, tuple(rest), status or "active"
        )

    # ---- statements of version 3

    def immune(self, meta: Meta, children: list[Any]) -> ast.Immune:
        condition, status = children
        pred = None if condition is None else condition[0]
        return ast.Immune(pred, status or "active", _pos(meta))

    def immune_to_powers(self, meta: Meta, children: list[Any]) -> ast.Immune:
        condition, status = children
        pred = None if condition is None else condition[0]
        return ast.Immune(pred, status or "active", _pos(meta), to="powers")

    def reach(self, meta: Meta, children: list[Token]) -> ast.Reach:
        return ast.Reach(self._int(children[0]), _pos(meta))

    def region_tokens(self, meta: Meta, children: list[Any]) -> ast.RegionTokens:
        return ast.RegionTokens(_word(children[0]), self._int(children[1]), _pos(meta))

    def minmax(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def counter_decl(self, meta: Meta, children: list[Any]) -> ast.CounterDecl:
        return ast.CounterDecl(_word(children[0]), _word(children[1]), _token_pos(children[0]))

    def counter_span(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def own_tokens(self, meta: Meta, children: list[Token]) -> ast.OwnTokens:
        return ast.OwnTokens(self._int(children[0]), _pos(meta))

    def skip_coins(self, meta: Meta, children: list[Token]) -> ast.SkipCoins:
        return ast.SkipCoins(self._int(children[0]), _pos(meta))

    def skip_tokens(self, meta: Meta, children: list[Token]) -> ast.SkipTokens:
        return ast.SkipTokens(self._int(children[0]), _pos(meta))

    def collect_lost(self, meta: Meta, children: list[Token]) -> ast.CollectLost:
        return ast.CollectLost(_word(children[0]), _unquote(children[1]), _pos(meta))

    def price(self, meta: Meta, children: list[ast.Expr]) -> ast.Price:
        return ast.Price(children[0], _pos(meta))

    def gain_coins(self, meta: Meta, children: list[ast.Expr]) -> ast.Effect:
        return ast.Effect("gain_coins", _pos(meta), amount=children[0])

    def pay_coins(self, meta: Meta, children: list[ast.Expr]) -> ast.Effect:
        return ast.Effect("pay", _pos(meta), amount=children[0])

    def take_coins(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("take_coins", _pos(meta), amount=children[1], whom=children[0])

    def take_coins_from(self, meta: Meta, children: list[Any]) -> ast.Effect:
        players, amount = children
        return ast.Effect("take_coins", _pos(meta), amount=amount, whom="opponents",
                          players=players)

    def give_tokens(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("give_tokens", _pos(meta), amount=children[0], whom=children[1])

    def whom(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def remove_piece(self, meta: Meta, children: list[Token]) -> ast.Effect:
        return ast.Effect("remove", _pos(meta), piece=_word(children[0]))

    def roll(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("roll", _pos(meta))

    def draw_hidden(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("draw", _pos(meta))

    def gather(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("gather", _pos(meta))

    def hand_over(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("hand_over", _pos(meta))

    def hand_over_new(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("hand_over_new", _pos(meta))

    def borrow_power(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("borrow_power", _pos(meta))

    def ability_active(self, meta: Meta, children: list[Any]) -> ast.AbilityStatus:
        return ast.AbilityStatus("active", _pos(meta))

    def ability_declined(self, meta: Meta, children: list[Any]) -> ast.AbilityStatus:
        return ast.AbilityStatus("declined", _pos(meta))

    def ability_always(self, meta: Meta, children: list[Any]) -> ast.AbilityStatus:
        return ast.AbilityStatus("always", _pos(meta))

    def add_counter(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("add", _pos(meta), amount=children[0], counter=_word(children[1]))

    def mark_player(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("mark", _pos(meta), whom=children[0])

    def evict(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("evict", _pos(meta))

    def unmark_player(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("unmark", _pos(meta), whom=children[0])

    def exchange_pile(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("exchange", _pos(meta), amount=children[0], zone=_word(children[1]))
    def conquer_less(self, meta: Meta, children: list[ast.Expr]) -> ast.Effect:
        return ast.Effect("conquer_less", _pos(meta), amount=children[0])

    def conquer_with_die(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("conquer_with_die", _pos(meta))

    def conquer_with_die_not_final(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("conquer_with_die_not_final", _pos(meta))

    def discount(self, meta: Meta, children: list[ast.Expr]) -> ast.Effect:
        return ast.Effect("discount", _pos(meta), amount=children[0])

    def event(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def ability(self, meta: Meta, children: list[Any]) -> ast.Ability:
        name, *parts = children
        return ast.Ability(_word(name), tuple(parts), _token_pos(name))

    def during(self, meta: Meta, children: list[str]) -> ast.During:
        return ast.During(tuple(children), _pos(meta))

    def phase(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def once_per_turn(self, meta: Meta, children: list[Token]) -> ast.Limit:
        return ast.Limit("once_per_turn", None, _pos(meta))

    def once_per_player_per_turn(self, meta: Meta, children: list[Token]) -> ast.Limit:
        return ast.Limit("once_per_player_per_turn", None, _pos(meta))

    def limit_times(self, meta: Meta, children: list[Token]) -> ast.Limit:
        return ast.Limit("times", self._int(children[0]), _pos(meta))

    def ability_target(self, meta: Meta, children: list[Any]) -> ast.AbilityTarget:
        _, kind, condition = children
        return ast.AbilityTarget(kind, condition, _pos(meta))

    def target_kind(self, meta: Meta, children: list[Token]) -> str:
        return sys.intern(" ".join(str(token) for token in children))

    def place(self, meta: Meta, children: list[Token]) -> ast.Effect:
        return ast.Effect("place", _pos(meta), piece=_word(children[0]))

    def move(self, meta: Meta, children: list[Token]) -> ast.Effect:
        return ast.Effect("move", _pos(meta), piece=_word(children[0]))

    def conquer(self, meta: Meta, children: list[ast.Expr]) -> ast.Effect:
        return ast.Effect("conquer", _pos(meta), amount=children[0])

    def convert(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("convert", _pos(meta))

    def roll_die(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("roll_die", _pos(meta))

    def truce(self, meta: Meta, children: list[Any]) -> ast.Effect:
        return ast.Effect("truce", _pos(meta))

    def gain(self, meta: Meta, children: list[ast.Expr]) -> ast.Effect:
        return ast.Effect("gain", _pos(meta), amount=children[0])

    # ---- expansions

    def players(self, meta: Meta, children: list[Token]) -> ast.Players:
        return ast.Players(self._int(children[0]), self._int(children[1]), _pos(meta))

    def map_for(self, meta: Meta, children: list[Token]) -> ast.MapFor:
        return ast.MapFor(self._int(children[0]), _pos(meta))

    def zone(self, meta: Meta, children: list[Token]) -> ast.Zone:
        return ast.Zone(_word(children[0]), _unquote(children[1]), _token_pos(children[0]))

    def lost_tokens(self, meta: Meta, children: list[Token]) -> ast.LostTokens:
        return ast.LostTokens(_word(children[0]), _token_pos(children[0]))

    def role(self, meta: Meta, children: list[Any]) -> ast.Role:
        name, title, *statements = children
        return ast.Role(_word(name), _unquote(title), tuple(statements), _token_pos(name))

    def role_token(self, meta: Meta, children: list[Token]) -> ast.RoleToken:
        return ast.RoleToken(_word(children[0]), _unquote(children[1]), _token_pos(children[0]))

    def _setting(self, word: str, meta: Meta, children: list[ast.Expr]) -> ast.RoleSetting:
        return ast.RoleSetting(word, children[0], _pos(meta))

    def supply(self, meta: Meta, children: list[ast.Expr]) -> ast.RoleSetting:
        return self._setting("supply", meta, children)

    def coins(self, meta: Meta, children: list[ast.Expr]) -> ast.RoleSetting:
        return self._setting("coins", meta, children)

    def purchases_per_turn(self, meta: Meta, children: list[ast.Expr]) -> ast.RoleSetting:
        return self._setting("purchases_per_turn", meta, children)

    def hand_zone(self, meta: Meta, children: list[Any]) -> ast.HandZone:
        name, title, on = children
        return ast.HandZone(_word(name), _unquote(title), _token_pos(name), on=on)

    def start_hand(self, meta: Meta, children: list[Token]) -> ast.StartHand:
        return ast.StartHand(self._int(children[0]), _pos(meta))

    def enter(self, meta: Meta, children: list[ast.Pred]) -> ast.Enter:
        return ast.Enter(children[0], _pos(meta))

    def draft(self, meta: Meta, children: list[Token | None]) -> ast.Draft:
        count, choose, *excluded = children
        assert count is not None and choose is not None
        names = tuple(_word(token) for token in excluded if token is not None)
        return ast.Draft(self._int(count), self._int(choose), names, _pos(meta))

    def buy(self, meta: Meta, children: list[Any]) -> ast.Buy:
        return ast.Buy(children[0], children[1], _pos(meta))

    def buy_item(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def harvest(self, meta: Meta, children: list[Any]) -> ast.Harvest:
        return ast.Harvest(children[0], _word(children[1]), _pos(meta))

    def exchange(self, meta: Meta, children: list[Token]) -> ast.Exchange:
        count, zone, gain = children
        return ast.Exchange(self._int(count), _word(zone), self._int(gain), _pos(meta))

    def win(self, meta: Meta, children: list[ast.Expr]) -> ast.Win:
        return ast.Win(children[0], children[1], _pos(meta))

    def counts_as(self, meta: Meta, children: list[Token]) -> ast.CountsAs:
        return ast.CountsAs("declined", _pos(meta))

    # ---- expressions

    def number(self, meta: Meta, children: list[Token]) -> ast.Number:
        return ast.Number(self._int(children[0]), _pos(meta))

    def count(self, meta: Meta, children: list[ast.RegionSet]) -> ast.Count:
        return ast.Count(children[0], _pos(meta))

    def count_powers(self, meta: Meta, children: list[Token]) -> ast.CountPowers:
        return ast.CountPowers(_pos(meta))

    def count_tokens_on_map(self, meta: Meta, children: list[Token]) -> ast.CountTokens:
        return ast.CountTokens("map", _pos(meta))

    def count_tokens_in(self, meta: Meta, children: list[Token]) -> ast.CountTokens:
        return ast.CountTokens(_word(children[0]), _token_pos(children[0]))

    def count_tokens_regions(self, meta: Meta, children: list[ast.RegionSet]) -> ast.TokensIn:
        return ast.TokensIn(children[0], _pos(meta))

    def count_groups(self, meta: Meta, children: list[ast.RegionSet]) -> ast.Count:
        return ast.Count(children[0], _pos(meta), groups=True)

    def _value(self, name: str, meta: Meta) -> ast.Value:
        return ast.Value(name, _pos(meta))

    def count_tokens_target(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("target_tokens", meta)

    def count_tokens_lost(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("tokens_lost", meta)

    def count_coins(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("coins", meta)

    def count_coins_taken(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("coins_taken", meta)

    def count_declined(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("declined_races", meta)

    def count_players(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("players", meta)

    def value_round(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("round", meta)

    def value_rounds_left(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("rounds_left", meta)

    def value_die(self, meta: Meta, children: list[Token]) -> ast.Value:
        return self._value("die", meta)

    def counter_ref(self, meta: Meta, children: list[Token]) -> ast.CounterRef:
        return ast.CounterRef(_word(children[0]), _token_pos(children[0]))

    def call_min(self, meta: Meta, children: list[ast.Expr]) -> ast.Call:
        return ast.Call("min", tuple(children), _pos(meta))

    def call_max(self, meta: Meta, children: list[ast.Expr]) -> ast.Call:
        return ast.Call("max", tuple(children), _pos(meta))

    def compare(self, meta: Meta, children: list[Any]) -> ast.Compare:
        left, op, right = children
        return ast.Compare(_word(op), self._number(left), right, _pos(meta))

    # A parenthesised group is a predicate or a number (see `group` in the grammar): a
    # number standing alone where a condition belongs is kept as a _Value until its
    # parentheses show whether it is compared (then it is a number) or not (refused).

    def group(self, meta: Meta, children: list[Any]) -> Any:
        return children[0]

    def bare(self, meta: Meta, children: list[Any]) -> Any:
        value = children[0]
        if isinstance(value, ast.OptionValue):  # `option NAME` alone: is the option on?
            return ast.OptionIs(value.name, value.pos)
        if isinstance(value, _Value) or not isinstance(value, _EXPRESSIONS):
            return value  # a parenthesised predicate, or a number in parentheses
        return _Value(value, _pos(meta))

    def _number(self, value: Any) -> ast.Expr:
        """An operand of arithmetic or of a comparison's left side."""
        if isinstance(value, _Value):
            return value.expr
        if not isinstance(value, _EXPRESSIONS):
            pos = getattr(value, "pos", ast.Pos(1, 1))
            raise self._not_a(pos, "a condition is not a number", "not-a-number")
        number: ast.Expr = value
        return number

    def _condition(self, value: Any) -> ast.Pred:
        if isinstance(value, _Value):
            raise self._not_a(value.pos, "a number is not a condition", "not-a-condition")
        pred: ast.Pred = value
        return pred

    def _not_a(self, pos: ast.Pos, message: str, label: str) -> RuleFileError:
        hint = (
            "compare it: e.g. 'count(own regions) >= 3'" if label == "not-a-condition"
            else "a condition in parentheses cannot be counted or compared"
        )
        return RuleFileError(
            message, path=self._path, line=pos.line, column=pos.column, label=label,
            hint=hint, source=display_source(self._source),
        )

    def compare_op(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    def _binop(self, op: str, meta: Meta, children: list[ast.Expr]) -> ast.BinOp:
        left, right = self._number(children[0]), self._number(children[1])
        return ast.BinOp(op, left, right, _pos(meta))

    def plus(self, meta: Meta, children: list[ast.Expr]) -> ast.BinOp:
        return self._binop("+", meta, children)

    def minus(self, meta: Meta, children: list[ast.Expr]) -> ast.BinOp:
        return self._binop("-", meta, children)

    def times(self, meta: Meta, children: list[ast.Expr]) -> ast.BinOp:
        return self._binop("*", meta, children)

    def divide(self, meta: Meta, children: list[ast.Expr]) -> ast.BinOp:
        return self._binop("/", meta, children)

    # ---- region sets

    def region_set(self, meta: Meta, children: list[Any]) -> ast.RegionSet:
        base, condition = children
        return ast.RegionSet(base, condition, _pos(meta))

    tight_region_set = region_set

    def region_base(self, meta: Meta, children: list[Token]) -> str:
        return _word(children[0])

    # ---- predicates

    def disjunction(self, meta: Meta, children: list[ast.Pred]) -> ast.Or:
        left, right = self._condition(children[0]), self._condition(children[1])
        return ast.Or(left, right, _pos(meta))

    def conjunction(self, meta: Meta, children: list[ast.Pred]) -> ast.And:
        left, right = self._condition(children[0]), self._condition(children[1])
        return ast.And(left, right, _pos(meta))

    def negation(self, meta: Meta, children: list[ast.Pred]) -> ast.Not:
        return ast.Not(self._condition(children[0]), _pos(meta))

    def terrain(self, meta: Meta, children: list[Token]) -> ast.Terrain:
        return ast.Terrain(_word(children[0]), _token_pos(children[0]))

    def feature(self, meta: Meta, children: list[Token]) -> ast.Feature:
        return ast.Feature(_word(children[0]), _token_pos(children[0]))

    def has_piece(self, meta: Meta, children: list[Token]) -> ast.HasPiece:
        return ast.HasPiece(_word(children[0]), _token_pos(children[0]))

    def holds_tokens(self, meta: Meta, children: list[Any]) -> ast.HoldsTokens:
        op, amount = children
        return ast.HoldsTokens(_word(op), amount, _pos(meta))

    def adjacent_to(self, meta: Meta, children: list[ast.RegionSet]) -> ast.AdjacentTo:
        return ast.AdjacentTo(children[0], _pos(meta))

    def conquest_adjacent_to(
        self, meta: Meta, children: list[ast.RegionSet]
    ) -> ast.AdjacentTo:
        return ast.AdjacentTo(children[0], _pos(meta), links=True)
    def distance(self, meta: Meta, children: list[Any]) -> ast.Distance:
        return ast.Distance(self._int(children[0]), children[1], _pos(meta))

    def property(self, meta: Meta, children: list[Token]) -> ast.Property:
        return ast.Property(_word(children[0]), _token_pos(children[0]))


# --------------------------------------------------------------------------- syntax errors


def _line_column(source: str, offset: int) -> tuple[int, int]:
    """Return the 1-based line and column of a character offset."""
    line_start = source.rfind("\n", 0, offset) + 1
    return source.count("\n", 0, offset) + 1, offset - line_start + 1


def normalize_source(source: str) -> str:
    """Return ``source`` as the lexer reads it (positions refer to this text).

    Every line break becomes ``\\n``, the only one the lexer counts, so that line numbers agree
    with the caret context; a leading byte-order mark, left by some editors, is dropped.
    """
    return source.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def display_source(source: str) -> str:
    """Return ``source`` as shown in caret context, where only ``\\n`` breaks lines.

    ``str.splitlines`` (used by the caret context) also breaks at form feeds, ``\\u2028`` and
    others; blanking them keeps its line numbers equal to the lexer's.
    """
    return source.translate(_EXTRA_LINE_BREAKS)


def _quote(text: str) -> str:
    """Quote a piece of the input for a message, shortened if it is long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _describe(token: Token) -> str:
    """Name a token for a message: ``'foo'``, ``number 3``, ``string "…"``, ``end of file``."""
    if token.type == "$END":
        return "end of file"
    if token.type == "STRING":
        return f"string {_quote(_unquote(token))}"
    if token.type == "INT":
        return f"number {token}"
    return _quote(str(token))


@attrs.frozen
class _Failure:
    """What the parser knew when it failed, gathered from a Lark exception."""

    expected: frozenset[str]  # terminal names the parser state could shift or reduce on
    stack: tuple[Any, ...]  # the parser's value stack: tokens and subtrees read so far
    literals: dict[str, str]  # terminal name -> its keyword or punctuation

    def describe_expected(self) -> str:
        """List the expected terminals for a message, keywords quoted, in a stable order."""
        items = sorted(
            _TERMINAL_DESCRIPTIONS.get(name) or repr(self.literals.get(name, name))
            for name in self.expected
        )
        if len(items) > 14:
            items = [*items[:14], "…"]
        return ", ".join(items)

    def keywords(self) -> list[str]:
        """Return the expected keywords (words, not punctuation)."""
        words = (self.literals.get(name, "") for name in self.expected)
        return sorted(word for word in words if _ID_RE.match(word))

    def in_header(self) -> bool:
        """Tell whether the failure is before the ``{`` that opens the declaration."""
        return not any(_is_token(item, "LBRACE") for item in self.stack)

    def last_token(self) -> Token | None:
        """Return the last token read, if it is still on the stack (not reduced yet)."""
        if self.stack and isinstance(self.stack[-1], Token):
            return self.stack[-1]
        return None

    def open_brace(self) -> Token | None:
        """Return the innermost ``{`` not closed yet."""
        for item in reversed(self.stack):
            if _is_token(item, "LBRACE"):
                return item  # type: ignore[no-any-return]
        return None


def _is_token(item: object, type_: str) -> bool:
    return isinstance(item, Token) and item.type == type_


def _failure(exc: UnexpectedInput, parser: Lark) -> _Failure:
    literals = {
        terminal.name: terminal.pattern.value
        for terminal in parser.terminals
        if terminal.pattern.type == "str"
    }
    # Lark documents `state` as opaque, but with the LALR parser it is the ParserState, whose
    # parse table gives the exact expected terminals (the contextual lexer's `allowed` set also
    # holds ID, which every lexer state accepts). Fall back to that set if it ever changes.
    state = exc.state
    try:
        actions = state.parse_conf.parse_table.states[state.position]
        expected = frozenset(name for name in actions if name.isupper() or name == "$END")
        stack = tuple(state.value_stack)
    except (AttributeError, KeyError, TypeError):
        allowed = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
        expected = frozenset(allowed) - {"ID", "WS", "COMMENT"}
        stack = ()
    return _Failure(expected, stack, literals)


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """Return the candidate closest to ``word``, if any is close."""
    if len(word) > 64:  # a long word is nothing misspelt; spare difflib the work
        return None
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def _did_you_mean(suggestion: str | None, otherwise: str = "") -> str:
    return f"did you mean {suggestion!r}?" if suggestion else otherwise


def _syntax_error(exc: UnexpectedInput, source: str, path: str, parser: Lark) -> RuleFileError:
    """Turn a Lark parse failure into a labelled :class:`RuleFileError`."""
    failure = _failure(exc, parser)
    line, column = exc.line, exc.column
    if isinstance(exc, UnexpectedCharacters):
        label, message, hint, line, column = _bad_characters(exc, source, failure)
    elif isinstance(exc, UnexpectedToken):
        label, message, hint, line, column = _bad_token(exc, parser, failure)
    else:  # UnexpectedEOF: Lark's LALR parser reports the end as a token instead, but be safe
        label, message, hint = "unexpected-eof", "the file ends too early", ""
    return RuleFileError(
        message,
        path=path,
        line=line if isinstance(line, int) and line > 0 else 1,
        column=column if isinstance(column, int) and column > 0 else 1,
        hint=hint,
        label=label,
        source=display_source(source),
    )


_ErrorParts = tuple[str, str, str, int, int]  # label, message, hint, line, column


def _bad_characters(exc: UnexpectedCharacters, source: str, failure: _Failure) -> _ErrorParts:
    """Classify text that no terminal of the grammar matches."""
    offset = exc.pos_in_stream or 0
    line, column = exc.line, exc.column
    if failure.expected == {"$END"}:
        return (
            "trailing-input",
            "unexpected text after the closing '}'",
            "a file holds exactly one declaration; remove what follows the '}'",
            line,
            column,
        )
    char = source[offset] if offset < len(source) else ""
    if char == '"':
        return _bad_string(source, offset, line, column)
    word_match = _WORD_RE.match(source, offset)
    if word_match is not None and not char.isdigit():
        word = word_match.group()
        lower = word.lower()
        if "ID" in failure.expected:
            fixed = lower if _ID_RE.match(lower) else None
            return (
                "bad-id",
                f"{_quote(word)} is not a valid name",
                "names are lowercase letters, digits and '_', starting with a letter"
                + (f": write {fixed!r}" if fixed else ""),
                line,
                column,
            )
        suggestion = lower if lower in failure.keywords() else suggest(lower, failure.keywords())
        label = _label_for_word(suggestion, failure)
        if label == "syntax-error" and failure.in_header():
            label = "bad-header"
        hint = (
            f"did you mean {suggestion!r}? (keywords are lowercase)"
            if suggestion
            else f"expected {failure.describe_expected()}"
        )
        return (label, f"unexpected word {_quote(word)}", hint, line, column)
    return (
        "unexpected-character",
        f"unexpected character {char!r}",
        f"expected {failure.describe_expected()}",
        line,
        column,
    )


def _bad_string(source: str, offset: int, line: int, column: int) -> _ErrorParts:
    """Explain why the string starting at ``offset`` did not lex."""
    match = _STRING_BODY_RE.match(source, offset)
    if match is not None:
        escape = re.search(r'\\[^"\\]|\\\Z', match.group(1), re.S)
        if escape is not None:
            line, column = _line_column(source, match.start(1) + escape.start())
            return (
                "bad-escape",
                f"unknown escape {escape.group()!r} in a string",
                'the only escapes are \\" (a quote) and \\\\ (a backslash)',
                line,
                column,
            )
    return (
        "unterminated-string",
        "this string is never closed",
        "add the closing '\"'; write \\\" for a quote inside a string",
        line,
        column,
    )


# Keyword families: a misspelt word is labelled by the family of the keyword it resembles.
_WORD_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bad-header", _KINDS),
    ("unknown-hook", (*HOOKS, *_STATEMENT_WORDS)),
    ("unknown-operator", OPS),
    ("unknown-status", (*_STATUS_WORDS, "while", "always")),
)
_WORD_LABELS = frozenset(
    {"unknown-keyword", "syntax-error"} | {label for label, _ in _WORD_FAMILIES}
)


def _label_for_word(suggestion: str | None, failure: _Failure) -> str:
    """Choose the label of a wrong word by what it resembles, else by what was expected."""
    if suggestion is not None:
        for label, words in _WORD_FAMILIES:
            if suggestion in words:
                return label
        return "unknown-keyword"
    keywords = set(failure.keywords())
    for label, words in _WORD_FAMILIES:
        if keywords & set(words):
            return label
    return "syntax-error"


def _bad_token(exc: UnexpectedToken, parser: Lark, failure: _Failure) -> _ErrorParts:
    """Classify a token the parser cannot accept where it stands."""
    token: Token = exc.token
    if failure.expected == {"$END"}:
        return (
            "trailing-input",
            f"unexpected {_describe(token)} after the closing '}}'",
            "a file holds exactly one declaration; remove what follows the '}'",
            token.line or 1,
            token.column or 1,
        )
    if token.type == "$END":
        return _bad_end(token, failure)
    label = _example_label(exc, parser, token) or _label_by_expectation(token, failure)
    return _special_case(token, failure) or _explain(label, token, failure)


def _example_label(exc: UnexpectedToken, parser: Lark, token: Token) -> str | None:
    """Return the label of the example snippet failing in the same parser state, if any."""
    try:
        label: str | None = exc.match_examples(
            parser.parse, SYNTAX_EXAMPLES, token_type_match_fallback=True
        )
    except TypeError:
        # Lark 1.3 formats a debug message with "%d" of a ParserState when an example fails in
        # the same state with other accepted terminals; treat that as "no example matches" and
        # let the classification by expected terminals decide.
        return None
    if label is not None and token.type not in _LABEL_TOKEN_TYPES.get(label, {token.type}):
        return None
    return label


_REGION_SET_WORDS = {
    "OWN", "ALL", "CONQUESTS", "POWERS", "TOKENS", "COINS", "DECLINED", "PLAYERS", "GROUPS"
}


def _label_by_expectation(token: Token, failure: _Failure) -> str:
    """Label a failure by the terminals the parser expected (states no example covers)."""
    expected = failure.expected
    if failure.in_header():
        return "missing-brace" if expected == {"LBRACE"} else "bad-header"
    if expected == {"LBRACE"}:
        return "missing-brace"
    if expected <= {
        "INT", "COUNT", "LPAR", "ROUND", "ROUNDS_LEFT", "DIE", "COUNTER", "MIN", "MAX", "OPTION"
    }:
        return "missing-value"
    if expected == {"ID"}:
        return "missing-name"
    if expected <= {"ADD", "SUB", "SET"}:
        return "unknown-operator"
    if expected <= _REGION_SET_WORDS or expected <= {
        "REGION",
        "REGIONS",
    }:
        return "bad-region-set"
    if token.type == "ID":
        return _label_for_word(suggest(str(token), failure.keywords()), failure)
    return "syntax-error"


def _special_case(token: Token, failure: _Failure) -> _ErrorParts | None:
    """Recognise slips whose real position or nature differs from what the parser saw."""
    previous = failure.last_token()
    if previous is None:
        return None
    glued = previous.end_pos == token.start_pos
    # `race my-race`: the name ends at the '-', which is then unexpected; blame the name.
    if previous.type == "ID" and token.type == "MINUS" and glued:
        return (
            "bad-id",
            f"a name cannot contain '-' ({_quote(str(previous))} is followed by '-')",
            "names are lowercase letters, digits and '_', starting with a letter; "
            "write '_' instead of '-'",
            previous.line or 1,
            previous.column or 1,
        )
    if token.type != "ID":
        return None
    word = str(token)
    # A misspelt predicate keyword (`terain forest`) parses as a property name, so the parser
    # only fails on the word after it; point at the misspelling instead.
    if previous.type == "ID":
        predicate = suggest(str(previous), _PREDICATE_WORDS)
        # Spelt right, the keyword stood where only a name fits (`piece piece x`): no slip.
        if predicate is not None and predicate != str(previous):
            return (
                "unknown-property",
                f"unknown word {_quote(str(previous))} before {_quote(word)}",
                _did_you_mean(predicate),
                previous.line or 1,
                previous.column or 1,
            )
    # `score add 1 first_turn`: a condition without its `when`.
    if "WHEN" in failure.expected and (word in _PROPERTY_WORDS or word in _PREDICATE_WORDS):
        return (
            "missing-when",
            f"{_quote(word)} starts a condition, but 'when' is missing",
            f"write 'when {word} …'",
            token.line or 1,
            token.column or 1,
        )
    return None


def _explain(label: str, token: Token, failure: _Failure) -> _ErrorParts:
    """Write the message and hint of a syntax error already labelled."""
    line, column = token.line or 1, token.column or 1
    word = str(token) if token.type == "ID" else None
    suggestion = suggest(word, failure.keywords()) if word is not None else None
    if word is not None and label in _WORD_LABELS and suggestion is not None:
        # The parser state gives the family; the closest keyword may name a better one
        # (`wen` after an expression is a misspelt `when`, not an unknown hook).
        label = _label_for_word(suggestion, failure)
    # A keyword of the language in the wrong place is no unknown word (`{ with … }`).
    if (
        word is not None
        and word in failure.literals.values()
        and suggestion is None
        and label in ("unknown-hook", "unknown-keyword", "syntax-error")
    ):
        label = "misplaced-keyword"
    expected = f"expected {failure.describe_expected()}"
    previous = failure.last_token()
    after = f" after {str(previous)!r}" if previous is not None else ""
    found = _describe(token)

    if label == "bad-header":
        message, hint = _header_problem(token, failure)
    elif label == "unknown-hook" and word is not None:
        statements = [w for w in failure.keywords() if w in HOOKS or w in _STATEMENT_WORDS]
        message = f"unknown hook or statement {_quote(word)}"
        hint = _did_you_mean(suggestion, "a statement starts with " + ", ".join(statements))
    elif label == "misplaced-keyword" and word is not None:
        statements = [w for w in failure.keywords() if w in HOOKS or w in _STATEMENT_WORDS]
        message = f"the keyword {word!r} cannot stand here{after}"
        hint = (
            "a statement starts with " + ", ".join(statements)
            if "RBRACE" in failure.expected and statements
            else expected
        )
    elif label == "unknown-keyword" and word is not None:
        message, hint = f"unknown keyword {_quote(word)}", _did_you_mean(suggestion, expected)
    elif label == "unknown-operator":
        message = f"unknown operator {found}{after}"
        hint = _did_you_mean(suggestion, "the operators are 'add', 'sub' and 'set'")
    elif label == "unknown-status" and word is not None:
        message = f"unknown status {_quote(word)}"
        hint = _did_you_mean(suggestion, "write 'while active', 'while declined' or 'always'")
    elif label == "missing-value" and "COUNT" in failure.expected:
        # An expression: a number, or one of the words of the moment (`max(`, `round` …).
        message = f"expected a value{after}, found {found}"
        words = ("min", "max", "round", "rounds_left", "die", "counter", "count", "option")
        close = suggest(word, words) if word is not None else None
        hint = _did_you_mean(
            close,
            "a value is a number in digits (e.g. 5), count(…), min(A, B), max(A, B), round, "
            "rounds_left, die, counter NAME or option NAME",
        )
    elif label == "missing-value":
        message = f"expected a number{after}, found {found}"
        hint = "numbers are whole numbers written in digits, e.g. 'tokens 5'"
    elif label == "missing-name":
        message = f"expected a name{after}, found {found}"
        hint = "names are lowercase letters, digits and '_', starting with a letter"
    elif label == "missing-brace":
        message, hint = f"expected '{{'{after}, found {found}", expected
    elif label == "bad-region-set":
        message = f"expected a region set{after}, found {found}"
        hint = (
            "region sets are 'own regions', 'all regions' and 'conquests' (count() also "
            "takes 'powers', 'players', 'coins', 'declined races', 'tokens on map', "
            "'tokens lost', 'tokens in ZONE|REGIONS|target' and 'groups in REGIONS')"
        )
    else:
        label = label if label in SYNTAX_EXAMPLES else "syntax-error"
        message, hint = f"unexpected {found}{after}", _did_you_mean(suggestion, expected)
    return label, message, hint, line, column


def _header_problem(token: Token, failure: _Failure) -> tuple[str, str]:
    """Return the message and hint of a malformed header."""
    example = 'e.g. race my_race "My Race" { … }'
    found = _describe(token)
    if not failure.stack:
        suggestion = suggest(str(token), _KINDS) if token.type == "ID" else None
        return (
            f"a rule file starts with 'race', 'power' or 'expansion', not {found}",
            _did_you_mean(suggestion, example),
        )
    if "ID" in failure.expected:
        return f"expected the id after the kind, found {found}", example
    if "STRING" in failure.expected:
        return f"expected the display name in double quotes, found {found}", example
    return f"unexpected {found} in the header", example


def _bad_end(token: Token, failure: _Failure) -> _ErrorParts:
    """Explain a file that ends too early."""
    # Lark gives the end token the position of the last token; point just past that token.
    line = token.end_line or token.line or 1
    column = token.end_column or token.column or 1
    if not failure.stack:
        return (
            "bad-header",
            "the file is empty",
            "a rule file holds one declaration, " + 'e.g. race my_race "My Race" { … }',
            1,
            1,
        )
    if failure.in_header():
        return (
            "bad-header",
            "the file ends inside the header",
            f"expected {failure.describe_expected()}",
            line,
            column,
        )
    if "RBRACE" in failure.expected:
        brace = failure.open_brace()
        where = f" opened at line {brace.line}, column {brace.column}" if brace else ""
        return (
            "missing-brace",
            "the file ends before the closing '}'",
            f"close the '{{'{where} with '}}'",
            line,
            column,
        )
    if failure.expected <= {"INT", "COUNT", "LPAR"}:
        previous = failure.last_token()
        after = f" after {str(previous)!r}" if previous is not None else ""
        return (
            "missing-value",
            f"expected a number{after}, found the end of the file",
            "",
            line,
            column,
        )
    return (
        "unexpected-eof",
        "the file ends in the middle of a statement",
        f"expected {failure.describe_expected()}",
        line,
        column,
    )
