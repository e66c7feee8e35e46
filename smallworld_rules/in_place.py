"""Moves carried out on the current position itself, with a small undo record.

``Game.apply`` normally forks the position (:meth:`State.fork`: 39 fields, the token list
and the races table copied) and keeps the position it played from for ``undo``. A Deploy of
the redeployment phase changes almost nothing: the acting race's banner (replaced, copy on
write), one region's token count and one event. When nothing but the game holds its current
position, ``apply`` carries such a move out on that position and keeps what it changed
instead (a :data:`Record`): no fork, and three objects fewer for the cyclic collector to walk
for as long as the history keeps the move.

*Nothing but the game holds it* is asked of the interpreter: the position's reference count.
A clone (which shares the position), a :class:`~smallworld_rules.game.LegalActions` view
still alive (it answers ``in`` from its position), another game's history, a caller's
variable: each holds a reference, and any of them sends the move down the forking path.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.conquest import ListedCosts

#: What an in-place move changed, as it was before: (the acting race's id, its banner, the
#: region, its token count, the position's conquest costs). A tuple: the undo history keeps
#: one per such move (a State is every other move's entry, told apart by its type).
Record = tuple[str, RaceState, int, int, "ListedCosts | None"]


class _Holder:
    __slots__ = ("_state",)
    _state: object


def _calibrated() -> tuple[Callable[[Any], int], int]:
    """``sys.getrefcount`` and the count it gives for an object held by one attribute and
    one local variable, as in ``Game.apply`` (``old = self._state``): measured, not assumed,
    so that an interpreter counting its stack references otherwise still answers right.
    Where the count is unknown or does not rise by one per holder, no move is made in place
    (the count -1 is never given)."""
    count = getattr(sys, "getrefcount", None)
    if count is None or sys.implementation.name != "cpython":  # pragma: no cover
        return len, -1
    holder = _Holder()
    holder._state = object()
    old = holder._state
    alone = count(old)
    other = old
    if count(old) != alone + 1:  # pragma: no cover - every reference-counting CPython
        return count, -1
    del other
    return count, alone


#: ``sys.getrefcount``, and its answer for a position nothing but its game holds
refcount, ALONE = _calibrated()


def undone(s: State, record: Record, alone: bool) -> State:
    """The position before the move ``record`` was kept for, ``s`` being the position
    after it: ``s`` itself changed back if nothing else holds it (``alone``), else a fork
    of it (``s`` may be another game's position, or a view's)."""
    if not alone:
        s = s.fork()
    acting, rs, region, tokens, costs = record
    s.races[acting] = rs
    s.region_tokens[region] = tokens
    s.reach_costs = costs
    return s


def history_states(entries: list[Any], last: State) -> list[State]:
    """The positions before each move of an undo history (``entries``: a State, or a
    :data:`Record` for a move made in place), ``last`` being the position after the last
    move: each record's position rebuilt as a fork of the position after it."""
    states: list[Any] = list(entries)
    after = last
    for i in range(len(states) - 1, -1, -1):
        entry = states[i]
        if type(entry) is tuple:
            entry = states[i] = undone(after, entry, False)
        after = entry
    return states
