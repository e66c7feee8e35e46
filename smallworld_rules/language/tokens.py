"""A power's own tokens (``own_tokens N``): given with the combo beside the race's tokens.

They join the race's supply — its box counts them while the race is in play — rather than
coming out of it, and leave with the race when it leaves the game (``memory`` ``extra``: the
tokens each race in play holds beyond its box).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.language import memory
from smallworld_rules.ruledefs import RuleDef
from smallworld_rules.state import State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def extra(s: State, race: str) -> int:
    """The tokens of its own a power brought the race (0 for most)."""
    return int(memory.get(s, "extra", {}).get(race, 0))


def bring(engine: Engine, s: State, race: str, defs: tuple[RuleDef, ...]) -> int:
    """At the pick: the powers' own tokens join the race's box; returns how many."""
    count = sum(d.own_tokens for d in defs)
    if count:
        s.to_box(race, count)
        memory.put(s, "extra", {**memory.get(s, "extra", {}), race: extra(s, race) + count})
    return count


def give_back(s: State, race: str) -> None:
    """The race leaves the game (all its tokens are back in its box): the powers' tokens
    leave its box."""
    count = extra(s, race)
    if count:
        s.to_box(race, -count)
        left = {k: v for k, v in memory.get(s, "extra", {}).items() if k != race}
        memory.put(s, "extra", left)
