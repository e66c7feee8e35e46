"""Tokens put on a skipped combo's banner (``skip_tokens N``), taken by whoever picks it.

When a player picks a combo, each combo above it whose race or power says ``skip_tokens N``
gets N tokens of its race on the banner (the larger N if both say it), besides the coin. They
are kept as a claim on the race's box (``State.lang`` ``banner``: race -> tokens), at most
the box: a race in the market is not in play, so nothing else takes from its box, and the
player who picks the combo takes the banner's and badge's tokens and the claim, all capped
by the box — exactly what the tokens set aside would leave.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.language import memory
from smallworld_rules.state import State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def skipped(engine: Engine, s: State, combos: tuple[tuple[str, str, int], ...]) -> None:
    """A pick below these combos: their banners get their tokens."""
    claims = dict(memory.get(s, "banner", {}))
    for race, power, _ in combos:
        n = max(engine.race_defs[race].skip_tokens, engine.rules.powers[power].skip_tokens)
        if n:
            claims[race] = min(claims.get(race, 0) + n, s.box[race])
    memory.put(s, "banner", claims)


def take(s: State, race: str) -> int:
    """The tokens lying on the race's banner, taken off it."""
    claims = memory.get(s, "banner", {})
    if race not in claims:
        return 0
    rest = dict(claims)
    tokens: int = rest.pop(race)
    memory.put(s, "banner", rest)
    return tokens
