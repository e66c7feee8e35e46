"""A badge of the market borrowed for a while (the effect ``borrow power``).

An ability aimed at a combo of the market (``target combo``: its place, 0 at the top) with
the effect ``borrow power`` makes the race play by that combo's badge as well as its own:
the badge's modifiers, flags, triggers and abilities join the race's pairing (the engine's
``_combo(race, (own badge, borrowed badge))``, built once per such pairing), its tokens do
not. The borrowing lasts until the owner's next turn starts, and ends as soon as the badge
is no longer in the market (its combo picked, or the badge swapped away); it ends too when
the race loses its own badge (which is what lends it the ability).

It is kept in ``State.lang`` (``borrowed``: race -> badge), so it is saved and observed.
Badges that borrow themselves, that bring tokens of their own or conquest-only tokens, or
that collect lost tokens into a pile are never borrowed: what they bring is tokens, which the
borrowing race does not get. When a borrowing ends, the borrowed badge's pieces go back to
their supply from wherever they lie (whoever picks the badge next finds them there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from smallworld_rules.language import markers, memory
from smallworld_rules.state import State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine
    from smallworld_rules.language.events import Occasion
    from smallworld_rules.ruledefs import CompiledEffect, RuleDef
    from smallworld_rules.state import RaceState


def lends(d: RuleDef) -> bool:
    """Whether the rule file has an ability that borrows a badge."""
    return any(e.verb == "borrow_power" for a in d.abilities for e in a.effects)


def borrowed(s: State, race: str) -> str | None:
    """The badge the race borrows now: one still in the market, else ``None``."""
    power: str | None = memory.get(s, "borrowed", {}).get(race)
    if power is None or not any(p == power for _, p, _ in s.market):
        return None
    return power


def problem(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion
) -> str | None:
    if not 0 <= o.target < len(s.market):
        return f"there is no combo {o.target} in the market"
    power = s.market[o.target][1]
    badge = engine.rules.powers[power]
    if lends(badge):
        return f"the {badge.name} badge borrows badges itself: it cannot be borrowed"
    if badge.own_tokens or badge.conquest_tokens or badge.collects:
        return f"the {badge.name} badge brings tokens of its own: it cannot be borrowed"
    if borrowed(s, rs.race) == power:
        return f"your race already plays by the {badge.name} badge"
    return None


def borrow(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    table = dict(memory.get(s, "borrowed", {}))
    table[rs.race] = s.market[o.target][1]
    memory.put(s, "borrowed", table)


def end_for(engine: Engine, s: State, player: int, log: Log) -> None:
    """The player's turn starts: what his races borrowed is given back (and what races no
    longer in play borrowed)."""
    table = memory.get(s, "borrowed")
    if table:
        _give_back(engine, s, table, lambda race: race not in s.races
                   or s.races[race].owner == player, log)


def tidy(engine: Engine, s: State, log: Log) -> None:
    """After a pick or a swap: the borrowings whose badge left the market end."""
    table = memory.get(s, "borrowed")
    if table:
        market = {p for _, p, _ in s.market}
        _give_back(engine, s, table, lambda race: table[race] not in market, log)


def _give_back(
    engine: Engine, s: State, table: dict[str, str], ends: Callable[[str], bool], log: Log
) -> None:
    """End the borrowings ``ends`` picks: the pieces of each badge go back to their supply
    from wherever they lie (on the race's regions or next to them)."""
    left = {}
    for race, power in table.items():
        if not ends(race):
            left[race] = power
            continue
        names = {n for n, p in engine.rules.pieces.items() if p.holder == power}
        if names and race in s.races:
            markers._take_back(engine, s, race, names, log, holders={power})
    if left != table:
        memory.put(s, "borrowed", left)
