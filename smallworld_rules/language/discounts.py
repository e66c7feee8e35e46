"""Discounts on one conquest: the rule language's effect ``discount N``.

An ability aimed at a region with ``discount N`` lowers what the acting race's conquest of
that region costs, this turn, by N tokens (the clamp still holds: at least 1, or the race's
``region_tokens min``). Several discounts on one region add up. The conquest of the region
spends them; those never spent lapse when the race's run of conquests ends. They are kept in
``State.lang`` (key ``discounts``: ``(region, tokens)`` pairs, for the acting race), so a
game whose rule files never say ``discount`` keeps nothing and saves exactly as before.
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
