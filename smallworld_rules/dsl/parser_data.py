"""The built rule-language parser, shipped as JSON data so that a process need not build it.

Building the LALR parser from ``grammar.lark`` costs most of the first :func:`load_rules` of a
process (Lark first builds the parser of its own ``.lark`` meta-grammar, then the tables of
ours). Lark can save a built parser, but only as a pickle, and the loader never unpickles
(``tests/test_safety.py``). So the package ships ``parser_data.json``: Lark's own serialization
of the built parser (``Lark.memo_serialize``, the data Lark's standalone tool embeds), written
as JSON with dicts and tuples tagged (it has int keys and tuples). Reading it instantiates only
Lark's parser classes from plain data, and it is package data next to ``grammar.lark``, read
the same way.

The file is used only when its header matches: the format, the Lark version installed and
the SHA-256 of ``grammar.lark`` it was built from, and the SHA-256 of its data part. Anything
else (another Lark version, an edited grammar, a damaged or missing file) makes
:func:`load_parser` return ``None`` and the parser is built from the grammar as before.

Regenerate the file after changing the grammar (a test fails until then)::

    python -m smallworld_rules.dsl.make_parser_data > smallworld_rules/dsl/parser_data.json
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

#: Bumped when the layout of the file changes.
FORMAT = 1
DATA_FILE = "parser_data.json"


def grammar_text() -> str:
    return importlib.resources.files(__package__).joinpath("grammar.lark").read_text("utf-8")


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _encode(value: Any) -> Any:
    """JSON-ready data: a dict as ``{"d": [[key, value], ...]}``, a tuple as ``{"t": [...]}``
    (so every JSON object in the file is one of those two tags)."""
    if isinstance(value, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, str | int | float):  # bool is an int
        return value
    raise TypeError(f"cannot store a {type(value).__name__} in the parser data")


def _decode_object(obj: dict[str, Any]) -> Any:
    """``json.loads`` object hook: undo :func:`_encode` (inner objects come first)."""
    if len(obj) == 1:
        if "d" in obj:
            return {k: v for k, v in obj["d"]}
        if "t" in obj:
            return tuple(obj["t"])
    raise ValueError("not a tagged dict or tuple")


def header(grammar: str) -> dict[str, Any]:
    """What the data must have been built from to be used now."""
    return {"format": FORMAT, "lark": lark.__version__, "grammar_sha256": _sha256(grammar)}


def serialize(parser: Lark, grammar: str) -> str:
    """The text of the data file for ``parser``, built from ``grammar``: a header line, then
    the data line (whose SHA-256 the header holds)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    # The post-lexer is an object of ours, given again when the parser is loaded.
    data["options"] = dict(data["options"], postlex=None)
    body = json.dumps(_encode({"data": data, "memo": memo}), separators=(",", ":"))
    head = dict(header(grammar), data_sha256=_sha256(body))
    return json.dumps(head, sort_keys=True) + "\n" + body + "\n"


def load_parser(text: str, grammar: str, **options: Any) -> Lark | None:
    """The parser stored in ``text`` (a data file), or ``None`` if the file does not match
    ``grammar`` and the installed Lark, or is damaged. ``options``: the options Lark takes
    again when loading (the post-lexer)."""
    head_line, _, body = text.partition("\n")
    body = body.rstrip("\n")
    try:
        head = json.loads(head_line)
        if head != dict(header(grammar), data_sha256=_sha256(body)):
            return None
        stored = json.loads(body, object_hook=_decode_object)
        # Lark's own loader of serialized data (what its standalone parsers use); untyped.
        parser: Lark = Lark._load_from_dict(  # type: ignore[no-untyped-call]
            stored["data"], stored["memo"], **options
        )
    except Exception:  # a damaged file, whatever the damage: build the parser instead
        return None
    return parser


def load_shipped_parser(**options: Any) -> Lark | None:
    """The parser in the package's data file, if it matches (see :func:`load_parser`)."""
    try:
        text = importlib.resources.files(__package__).joinpath(DATA_FILE).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return load_parser(text, grammar_text(), **options)
