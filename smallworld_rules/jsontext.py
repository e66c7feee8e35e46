"""The JSON text of saved values, as the encoder writes it, with the texts a save repeats kept.

A save is ``json.dumps(doc, sort_keys=True, separators=(",", ":"))``; ``Game.to_json`` writes
its log and its state as text itself (quicker than the encoder, which sorts the keys of every
object and makes a new string for every number and name). These tables give the encoder's
text of the values a save holds most, looked up instead of made:

>>> NUMBER_TEXT[12], NUMBER_TEXT[None], NUMBER_TEXT[10**20]
('12', 'null', '100000000000000000000')
>>> STRING_TEXT["trolls"], STRING_TEXT[None], STRING_TEXT['say "hi"']
('"trolls"', 'null', '"say \\\\"hi\\\\""')
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

#: the JSON text of any value as a save writes it (``json.dumps`` with these settings)
encode_json: Callable[[Any], str] = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
#: the text of a string as ``encode_json`` writes it (the function the encoder itself calls)
escape: Callable[[str], str] = json.encoder.encode_basestring_ascii

#: how many strings :data:`STRING_TEXT` keeps (the ids of the rules loaded are a few hundred;
#: past this, a string's text is made each time, never kept)
_KEPT = 4096


class _NumberText(dict[Any, str]):
    def __missing__(self, key: Any) -> str:
        if type(key) is int:
            return int.__repr__(key)  # a large number: made, not kept
        raise KeyError(key)


class _StringText(dict[Any, str]):
    def __missing__(self, key: Any) -> str:
        if not isinstance(key, str):
            raise KeyError(key)
        text = escape(key)
        if len(self) < _KEPT:
            self[key] = text
        return text


#: ``NUMBER_TEXT[v]`` is ``encode_json(v)`` for an ``int`` (exactly: look ``True`` up and you
#: get ``"1"``, the text of the equal key 1, so test ``type(v) is int`` first) or ``None``
NUMBER_TEXT: dict[Any, str] = _NumberText({n: str(n) for n in range(-3, 1000)})
NUMBER_TEXT[None] = "null"
#: ``STRING_TEXT[v]`` is ``encode_json(v)`` for a string or ``None``, and a KeyError for
#: anything else (the table holds only strings and ``None``, and only a string equals a
#: string): safe for a value of any type. Strings are kept as they are first written.
STRING_TEXT: dict[Any, str] = _StringText({None: "null"})
