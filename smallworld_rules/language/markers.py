"""Pieces that stay with their region (``stays``) and pieces that cost the holder of their
region coins (``toll N``).

A piece with ``stays`` is not lifted when its region is conquered or abandoned: it stays on
the region, whoever holds it, and goes back to its supply only when its holder — the race of
the rule file that declares it — declines (unless it ``survives_decline``) or leaves the
game, wherever it lies then. A piece with ``toll N`` makes the race holding its region score
N coins fewer for it, unless that race is its holder (one contribution per piece kind,
shown in the score's breakdown). A piece ``lifted_at_turn_start`` goes back to its supply,
wherever it lies, when its holder's owner begins a turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.events import PIECE_MOVED
from smallworld_rules.hooks import Contribution
from smallworld_rules.state import State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine


def leave(engine: Engine, s: State, race: str, in_decline: bool) -> None:
    """The race declines (``in_decline``) or leaves: its staying pieces go back to their
    supply from every region."""
    names = {
        name for name in engine._staying
        if not (in_decline and engine.rules.pieces[name].survives_decline)
    }
    _take_back(engine, s, race, names, None)


def lift_at_turn_start(engine: Engine, s: State, player: int, log: Log) -> None:
    """The player's turn begins: the pieces ``lifted_at_turn_start`` of his races go back
    to their supply from every region."""
    ps = s.players[player]
    for race in ((ps.active,) if ps.active else ()) + ps.declined:
        if race in s.races:
            _take_back(engine, s, race, engine._turn_lifted, log)


def _take_back(
    engine: Engine,
    s: State,
    race: str,
    names: frozenset[str] | set[str],
    log: Log | None,
    holders: set[str] | None = None,
) -> None:
    """The race's pieces among ``names`` go back to their supply, wherever they lie (each
    move logged, with a ``log``); ``holders``: the rule files whose pieces they are, if
    not the race's own (a badge it borrowed)."""
    if holders is None:
        holders = {d.id for d in engine.defs(s, race)}
    for r in sorted(s.pieces):
        held = s.pieces[r]
        gone = [
            name for name in held
            if name in names and engine.rules.pieces[name].holder in holders
        ]
        if not gone:
            continue
        left = dict(held)  # piece tables are replaced, not changed (copy on write)
        for name in gone:
            s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] + left.pop(name)}
            if log is not None:
                log((PIECE_MOVED, name, -1, r))
        s.set_pieces(r, left)


def tolls(engine: Engine, s: State, race: str) -> list[Contribution]:
    """What the pieces with a toll on the race's regions cost it."""
    holders = {d.id for d in engine.defs(s, race)}
    mask = s.race_masks.get(race, 0)
    owed: dict[str, int] = {}
    for r, held in s.pieces.items():
        if not (mask >> r) & 1:
            continue
        for name, count in held.items():
            piece = engine.rules.pieces[name]
            if name in engine._tolling and piece.holder not in holders:
                owed[name] = owed.get(name, 0) + piece.toll * count
    return [
        Contribution(name, "sub", amount, engine.rules.pieces[name].path,
                     engine.rules.pieces[name].line)
        for name, amount in sorted(owed.items())
    ]


