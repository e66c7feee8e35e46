"""Discounts on one conquest: the rule language's effects ``discount N`` and ``conquer less
N``.

An ability aimed at a region with ``discount N`` lowers what the acting race's conquest of
that region costs, this turn, by N tokens (the clamp still holds: at least 1, or the race's
``region_tokens min``). Several discounts on one region add up. The conquest of the region
spends them; those never spent lapse when the race's run of conquests ends. They are kept in
``State.lang`` (key ``discounts``: ``(region, tokens)`` pairs, for the acting race), so a
game whose rule files never say ``discount`` keeps nothing and saves exactly as before.

``conquer less N`` conquers the target at once, at its conquest cost less N (clamped as any
conquest), however far the target is: the ability's target condition says what it reaches,
and the target must still be a region the race could enter were it adjacent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.dsl.bounds import COUNT_LIMIT
from smallworld_rules.language import memory
from smallworld_rules.ruledefs import CompiledEffect
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.context import _Ctx
    from smallworld_rules.engine.core import Engine
    from smallworld_rules.language.events import Occasion


def waiting(s: State) -> dict[int, int]:
    """The discounts waiting for the acting race's conquests, by region."""
    pairs: tuple[tuple[int, int], ...] = memory.get(s, "discounts", ())
    return dict(pairs)


def on(s: State, race: str, region: int) -> int:
    """The tokens ``race``'s conquest of ``region`` costs less now (0 without a discount)."""
    if race != s.acting or not s.lang:
        return 0
    return waiting(s).get(region, 0)


def spend(s: State, region: int) -> None:
    """The conquest of ``region`` uses the discount waiting there."""
    pending = waiting(s)
    if pending.pop(region, None) is not None:
        memory.put(s, "discounts", tuple(sorted(pending.items())))


def problem(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion) -> (
    str | None
):
    if o.target < 0:
        return "a discount needs a target region"
    return None


def do(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log) -> None:
    assert e.amount is not None
    amount = max(0, e.amount(engine.context(s, rs.race, o.target, o)))
    if not amount:
        return
    pending = waiting(s)
    # Kept within COUNT_LIMIT, the most any count stands for (the saved form checks it).
    pending[o.target] = min(COUNT_LIMIT, pending.get(o.target, 0) + amount)
    memory.put(s, "discounts", tuple(sorted(pending.items())))


def discounted_mask(c: _Ctx) -> int:
    """The region property ``discounted``: a discount waits on the region for the race."""
    if c.state.acting != c.race or not c.state.lang:
        return 0
    return sum(1 << r for r in waiting(c.state))


def _far_cost(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion) -> int:
    """What ``conquer less N`` pays: the target's cost less N, clamped as any conquest."""
    assert e.amount is not None
    return cost_less(engine, s, rs, o.target, e.amount(engine.context(s, rs.race, o.target, o)))


def cost_less(engine: Engine, s: State, rs: RaceState, region: int, less: int) -> int:
    """What ``rs``'s conquest of ``region`` costs ``less`` tokens cheaper, clamped as any
    conquest (at least 1, or the race's ``region_tokens min``)."""
    cost = engine.conquest_cost(s, rs.race, region)
    before = cost.value if cost.clamped_from is None else cost.clamped_from
    return max(engine._keep(s, rs.race), before - max(0, less))


def conquer_problem(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion
) -> str | None:
    r = o.target
    if r < 0:
        return "a conquest needs a target region"
    barred = engine.barred(s, rs.race, r)  # all Conquer checks but the distance
    if barred is not None:
        return barred
    cost = _far_cost(engine, s, rs, e, o)
    if rs.hand < cost:
        return f"region {r} costs {cost} tokens this way and you have {rs.hand} in hand"
    return None


def conquer(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    cost = _far_cost(engine, s, rs, e, o)
    engine._take_region(s, rs, o.target, cost, cost, log)
