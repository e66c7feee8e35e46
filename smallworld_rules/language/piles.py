"""A race's own pile of lost tokens (``collect lost_tokens into PILE``) and its exchange.

While a race whose rule files say ``collect lost_tokens into PILE`` is active, every token
lost to a conquest, anyone's (its own and the Lost Tribes' too), goes into its pile instead
of the box or an expansion's zone. The pile is a zone (``game.zone(PILE)``), saved and shown
like any. ``exchange N in PILE`` gives the race one token from its box for each N tokens
there: they go back to their boxes (the race's own kind first, so that an empty box may give
one again; Lost Tribe tokens leave the game). When the race leaves the game, its pile goes
back to the boxes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine.roles import _take_from_pile
from smallworld_rules.events import EXCHANGED
from smallworld_rules.ruledefs import CompiledEffect
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine
    from smallworld_rules.language.events import Occasion


def _holder(engine: Engine, s: State, rule_id: str) -> RaceState | None:
    """The race in play that the rule file belongs to (its race or power), if any."""
    rs = s.races.get(rule_id)
    if rs is not None and rule_id in engine.race_defs:
        return rs
    return next((r for r in s.races.values() if r.power == rule_id), None)


def collecting(engine: Engine, s: State) -> str | None:
    """The pile lost tokens go to now: that of the first collecting race that is active."""
    for rule_id, pile in engine._collectors:
        rs = _holder(engine, s, rule_id)
        if rs is not None and not rs.declined:
            return pile
    return None


def exchange(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    assert e.amount is not None and e.zone is not None
    count = max(1, e.amount(engine.context(s, rs.race, o.target, o)))
    pile = list(s.zones[e.zone])  # the zones are replaced, not changed (copy on write)
    while len(pile) >= count:
        taken = _take_from_pile(pile, count, rs.race)
        for kind in taken:
            if kind in s.box:  # race tokens to their box; Lost Tribe tokens leave the game
                s.to_box(kind, 1)
        gained = min(1, s.box[rs.race])
        s.to_box(rs.race, -gained)
        rs.hand += gained
        s.zones = {**s.zones, e.zone: tuple(pile)}
        log((EXCHANGED, e.zone, tuple(taken), rs.race, gained))
        if not gained:
            break


def empty(engine: Engine, s: State, race: str) -> None:
    """The race leaves the game: the piles of its rule files go back to the boxes."""
    ids = {d.id for d in engine.defs(s, race)}
    for rule_id, pile in engine._collectors:
        if rule_id in ids and s.zones[pile]:
            for kind in s.zones[pile]:
                if kind in s.box:
                    s.to_box(kind, 1)
            s.zones = {**s.zones, pile: ()}
