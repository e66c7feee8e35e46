"""The JSON text of saved values, as the encoder writes it, with the texts a save repeats kept.

A save is ``json.dumps(doc, sort_keys=True, separators=(",", ":"))``; ``Game.to_json`` writes
its log and its state as text itself (quicker than the encoder, which sorts the keys of every
object and makes a new string for every number and name). These tables give the encoder's
text of the values a save holds most, looked up instead of made (a KeyError for any other:
the writer then takes the encoder's way, and :func:`remember` keeps the names it met):

>>> NUMBER_TEXT[12], NUMBER_TEXT[None]
('12', 'null')
>>> remember({"zone": ['say "hi"']})
>>> STRING_TEXT["zone"], KEY_TEXT["zone"], STRING_TEXT['say "hi"']
('"zone"', '"zone":', '"say \\\\"hi\\\\""')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

#: the JSON text of any value as a save writes it (``json.dumps`` with these settings)
encode_json: Callable[[Any], str] = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
#: the text of a string as ``encode_json`` writes it (the function the encoder itself calls)
escape: Callable[[str], str] = json.encoder.encode_basestring_ascii

#: ``NUMBER_TEXT[v]`` is ``encode_json(v)`` for an ``int`` from -3 to 999 or ``None`` (exactly
#: an int: look ``True`` up and you get ``"1"``, the text of the equal key 1, so test
#: ``type(v) is int`` first); a KeyError for any other number
NUMBER_TEXT: dict[Any, str] = {n: str(n) for n in range(-3, 1000)}
NUMBER_TEXT[None] = "null"
#: ``STRING_TEXT[v]`` is ``encode_json(v)`` for a string :func:`remember` kept, or ``None``,
#: and a KeyError for anything else: safe for a value of any type (only strings and ``None``
#: are keys, and only a string equals a string; an unhashable value: a TypeError)
STRING_TEXT: dict[Any, str] = {None: "null"}
#: ``KEY_TEXT[name]``: the text of ``name`` as a key, its colon included (``'"zone":'``)
KEY_TEXT: dict[Any, str] = {}
#: how many strings the tables keep (the ids of the rules loaded are a few hundred; past
#: this, a string's text is made each time, never kept)
_KEPT = 4096


#: a string of a JSON text the encoder wrote that needs no escape (printable ASCII but
#: quotes and backslashes: the encoder escapes everything else)
_PLAIN = re.compile(r'"([ !#-\[\]-~]*)"')


def remember_text(text: str) -> None:
    """Keep the text of every string of ``text``, a JSON text ``encode_json`` wrote, that needs
    no escape: a quick way to :func:`remember` a state's names. (Whatever stands between two
    quotes there with no quote or backslash is printable ASCII, so its text is itself quoted,
    even where the two quotes do not belong to one string.)"""
    for name in set(_PLAIN.findall(text)).difference(STRING_TEXT):
        if len(STRING_TEXT) >= _KEPT:
            break
        STRING_TEXT[name] = f'"{name}"'
        KEY_TEXT[name] = f'"{name}":'


def remember(data: Any) -> None:
    """Keep the text of every string in ``data`` (JSON-ready data: dicts, lists and tuples
    searched, keys and values), so that the next save holding them can look them up."""
    todo, seen = [data], set()
    while todo and len(STRING_TEXT) < _KEPT:
        value = todo.pop()
        if isinstance(value, str):
            text = STRING_TEXT[value] = escape(value)
            KEY_TEXT[value] = text + ":"
        elif isinstance(value, (dict, list, tuple)) and id(value) not in seen:
            seen.add(id(value))  # (each container once: a cycle ends)
            todo += value
            if isinstance(value, dict):
                todo += value.values()
