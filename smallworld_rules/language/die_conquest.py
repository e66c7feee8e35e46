"""A conquest with the reinforcement die: the rule language's effects ``conquer with die``
and ``conquer with die not final``.

An ability aimed at a region with ``conquer with die`` names the region first, then rolls
the reinforcement die for it: the region costs the face less (clamped as any conquest, so
at least 1 token, or the race's ``region_tokens min``). If the tokens in hand pay that, the
race conquers the region at once with them, whatever it rolled, and its conquests go on; if
they do not, the attempt failed and the race's conquests end, as after a final die attempt
that falls short. With ``conquer with die not final`` a roll that falls short takes nothing
and the conquests go on, so the die may be rolled again. The ability is offered only for a
region the race may conquer now and could pay with the die's best face.

The roll comes from the game's seeded generator, or as a chance node (``RollDie``) with
``chance="explicit"``; while it waits, ``State.lang`` holds what a roll that falls short
does (key ``die_conquest``: ``end`` or ``again``), so a game saved then resumes with the
same roll. A game whose rule files
never say ``conquer with die`` keeps nothing and saves exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import _CONQUEST, DIE_FACES
from smallworld_rules.events import DIE_ROLLED
from smallworld_rules.language import discounts, memory
from smallworld_rules.ruledefs import CompiledEffect
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine
    from smallworld_rules.language.events import Occasion

#: The key of ``State.lang`` that marks a pending roll as a conquest with the die.
KEY = "die_conquest"


def problem(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion) -> (
    str | None
):
    r = o.target
    if r < 0:
        return "a conquest with the die needs a target region"
    if s.phase is not _CONQUEST:
        return "the die is rolled for a conquest only during the conquests"
    if s.die_bonus >= 0:
        return "a roll already waits for the next conquest"
    barred = engine.target_problem(s, rs.race, r)
    if barred is not None:
        return barred
    least = max(1, engine._keep(s, rs.race))
    if rs.hand < least:
        return f"a conquest needs at least {least} token(s) in hand (ruling 4)"
    best = discounts.cost_less(engine, s, rs, r, max(DIE_FACES))
    if best > rs.hand:
        return (
            f"even the die's best face leaves region {r} costing {best} tokens, and you "
            f"have {rs.hand} in hand"
        )
    return None


def do(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log) -> None:
    memory.put(s, KEY, "again" if e.verb == "conquer_with_die_not_final" else "end")
    engine._roll_die(s, o.target, log)


def pending(s: State) -> bool:
    """The die being resolved was rolled by ``conquer with die`` (not a final attempt)."""
    return bool(s.lang) and KEY in s.lang


def resolve(
    engine: Engine, s: State, rs: RaceState, r: int, face: int, log: Log,
    rolled: Callable[[], None],
) -> None:
    """The face is known: conquer ``r`` at its cost less the face, or end the conquests
    (``rolled``: what a roll of the reinforcement die sets off, once it is logged)."""
    again = memory.get(s, KEY) == "again"
    memory.forget(s, KEY)
    pay = discounts.cost_less(engine, s, rs, r, face)
    success = pay <= rs.hand
    cost = engine.conquest_cost_value(s, rs.race, r)
    log((DIE_ROLLED, s.active, r, face, cost, rs.hand, success))
    rolled()
    if success:
        engine._take_region(s, rs, r, pay, pay, log)
    elif not again:
        engine._enter_redeploy(s, rs, log)  # the attempt fell short: conquests end
