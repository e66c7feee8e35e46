"""What the rule language keeps in a :class:`~smallworld_rules.state.State` (``State.lang``).

``State.lang`` is empty, and then not saved, unless a rule file of the game needs it, so that
games with rules that do not use these constructs are saved exactly as before. It is a value
never changed in place: :func:`put` binds a changed copy. Its keys:

* ``facts``: this race's conquests of this turn, as they were when conquered: tuples
  ``(region, occupant, owner, tokens, pieces)`` with ``occupant`` one of ``empty``,
  ``active``, ``declined``, ``tribe`` and ``pieces`` the names of the pieces there;
* ``die``: the face of the last die roll of this turn;
* ``counters``: per-turn counters, by ``race|file#name``;
* ``queue``: triggers and abilities waiting for a roll of the die, each ``(race, source,
  name, first effect, target, other player, tokens lost)`` (``source``: trigger or ability);
* ``extra``: the tokens of their own that powers brought each race in play (``own_tokens``);
* ``resume``, ``roller``: the phase a roll of the die interrupted, the race rolling;
* ``banner``: tokens lying on banners of the market, by race (``skip_tokens``);
* ``swap``: a race just picked whose owner now chooses its badge, and the coins it took
  (the flag ``swaps_power_when_picked``);
* ``declining``: the race redeploying before it goes into decline
  (``redeploys_before_decline``), declined when its player ends the turn;
* ``choosing``: the race just declined whose abilities ``during decline`` are offered
  before the turn is scored;
* ``abandoned``: the regions each race that may not conquer them again abandoned this turn
  (flag ``no_return_to_abandoned``), as bitmasks;
* ``second_round``: the race in its second round of conquests (``second_conquest_round``);
* ``discounts``: ``(region, tokens)`` pairs, what the acting race's conquest of each region
  costs less this turn (``discount N``; see :mod:`~smallworld_rules.language.discounts`);
* ``die_conquest``: ``end`` or ``again``, while a roll of ``conquer with die`` (``again``:
  ``conquer with die not final``) waits (see :mod:`~smallworld_rules.language.die_conquest`);
* ``reviving``: the races in decline that become active again when their owner's next turn
  starts (``revives_previous_decline``);
* ``repelled``: the regions a face-down piece (``repels N``) stopped each race from
  conquering this turn, as bitmasks (see :mod:`~smallworld_rules.language.hidden_pieces`);
* ``drawing``: the region a face-down piece is being drawn for, while its chance node waits
  (``draw`` with ``chance="explicit"``; see :mod:`~smallworld_rules.language.hidden_pieces`);
* ``borrowed``: the badge of the market each race plays by as well as its own, by race
  (``borrow power``; see :mod:`~smallworld_rules.language.borrowing`).
"""

from __future__ import annotations

from typing import Any

from smallworld_rules.dsl.bounds import COUNT_LIMIT
from smallworld_rules.errors import RulesError
from smallworld_rules.state import Phase, State

_OCCUPANTS = ("empty", "active", "declined", "tribe")
#: The key of a race's ``uses`` that holds the players it marked (``mark WHOM``), one bit each.
MARKS = "@marked"


def get(s: State, key: str, default: Any = None) -> Any:
    """``s.lang[key]``, or ``default``."""
    return s.lang.get(key, default) if s.lang else default


def put(s: State, key: str, value: Any) -> None:
    """Set ``s.lang[key]`` (an empty value removes the key: nothing left is saved)."""
    new = dict(s.lang)
    if value in ((), {}, None):
        new.pop(key, None)
    else:
        new[key] = value
    s.lang = new


def forget(s: State, *keys: str) -> None:
    """Drop keys (what lasts one turn, or one race's run of conquests)."""
    if s.lang and any(k in s.lang for k in keys):
        s.lang = {k: v for k, v in s.lang.items() if k not in keys}


def _bad(what: str) -> RulesError:
    return RulesError(f"corrupt save: state.lang {what}")


def _int(value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"{what} must be a whole number from {low} to {high}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise _bad(f"{what} must be a short string")
    return value


_KNOWN = frozenset((
    "facts", "die", "counters", "queue", "resume", "roller", "extra", "swap", "banner",
    "declining", "choosing", "abandoned", "second_round", "discounts",
    "die_conquest", "reviving", "repelled", "borrowed", "drawing",
))


def from_saved(data: Any, regions: int, players: int) -> dict[str, Any]:
    """Check and rebuild ``State.lang`` from its JSON form.

    Raises:
        RulesError: naming what is wrong.
    """
    if not isinstance(data, dict):
        raise _bad("must be an object")
    if not data:
        return {}  # what a game whose rule files keep nothing saves
    unknown = set(data) - _KNOWN
    if unknown:
        raise _bad(f"has unknown fields {sorted(unknown)}")
    out: dict[str, Any] = {}
    if "facts" in data:
        facts = []
        for fact in _list(data["facts"], "facts"):
            if not isinstance(fact, list) or len(fact) != 5:
                raise _bad("facts must be [region, occupant, owner, tokens, pieces]")
            r, occupant, owner, tokens, pieces = fact
            if occupant not in _OCCUPANTS:
                raise _bad(f"facts: occupant must be one of {', '.join(_OCCUPANTS)}")
            names = tuple(_str(p, "facts: a piece") for p in _list(pieces, "facts: pieces"))
            facts.append((
                _int(r, 0, regions - 1, "facts: region"), occupant,
                _int(owner, -1, players - 1, "facts: owner"),
                _int(tokens, 0, 10**6, "facts: tokens"), names,
            ))
        out["facts"] = tuple(facts)
    if "die" in data:
        out["die"] = _int(data["die"], 0, 6, "die")
    _int_map(data, out, "counters", "a name", "a value", COUNT_LIMIT)
    _int_map(data, out, "abandoned", "a race", "regions", (1 << regions) - 1)
    _int_map(data, out, "repelled", "a race", "regions", (1 << regions) - 1)
    _int_map(data, out, "extra", "a race", "tokens", 10**4)
    if "queue" in data:
        queue = []
        for item in _list(data["queue"], "queue"):
            if not isinstance(item, list) or len(item) != 7:
                raise _bad("queue entries must have 7 fields")
            race, source, name, first, target, other, lost = item
            if source not in ("trigger", "ability"):
                raise _bad("queue: source must be trigger or ability")
            queue.append((
                _str(race, "queue: race"), source, _str(name, "queue: name"),
                _int(first, 0, 1000, "queue: effect"), _int(target, -1, regions - 1, "target"),
                _int(other, -1, players - 1, "queue: player"), _int(lost, 0, 10**6, "lost"),
            ))
        out["queue"] = tuple(queue)
    _int_map(data, out, "banner", "a race", "tokens", 10**4)
    if "swap" in data:
        swap = data["swap"]
        if not isinstance(swap, list) or len(swap) != 2:
            raise _bad("swap must be [race, coins taken]")
        out["swap"] = (_str(swap[0], "swap: race"), _int(swap[1], 0, 10**6, "swap: coins"))
    if "discounts" in data:
        pairs = []
        for pair in _list(data["discounts"], "discounts"):
            if not isinstance(pair, list) or len(pair) != 2:
                raise _bad("discounts must be [region, tokens] pairs")
            pairs.append((
                _int(pair[0], 0, regions - 1, "discounts: region"),
                _int(pair[1], 1, COUNT_LIMIT, "discounts: tokens"),
            ))
        out["discounts"] = tuple(sorted(dict(pairs).items()))
    if "reviving" in data:
        out["reviving"] = tuple(
            _str(race, "reviving: a race") for race in _list(data["reviving"], "reviving")
        )
    if "borrowed" in data:
        borrowed = data["borrowed"]
        if not isinstance(borrowed, dict) or len(borrowed) > 100:
            raise _bad("borrowed must be an object")
        out["borrowed"] = {
            _str(k, "borrowed: a race"): _str(v, "borrowed: a badge") for k, v in borrowed.items()
        }
    if "drawing" in data:
        out["drawing"] = _int(data["drawing"], 0, regions - 1, "drawing")
    for key in ("resume", "roller", "declining", "choosing", "second_round", "die_conquest"):
        if key in data:
            out[key] = _str(data[key], key)
    if out.get("die_conquest", "end") not in ("end", "again"):
        raise _bad("die_conquest must be end or again")
    if "resume" in out and out["resume"] not in {p.value for p in Phase}:
        raise _bad("resume must be a phase")
    return out


def _int_map(
    data: dict[str, Any], out: dict[str, Any], key: str, keys: str, values: str, high: int
) -> None:
    """``data[key]``, if there, as an object of short strings to whole numbers 1..``high``
    (``keys`` and ``values`` name them in a refusal)."""
    if key not in data:
        return
    found = data[key]
    if not isinstance(found, dict):
        raise _bad(f"{key} must be an object")
    out[key] = {
        _str(k, f"{key}: {keys}"): _int(v, 1, high, f"{key}: {values}") for k, v in found.items()
    }


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) > 10_000:
        raise _bad(f"{what} must be a list")
    return value
