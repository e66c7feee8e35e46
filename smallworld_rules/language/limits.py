"""Per-region limits of the rule language: ``region_tokens max N``.

Once a race with ``region_tokens max N`` has redeployed (or placed the tokens it kept after
losing a region), none of its regions holds more than N of its tokens. It may place a token
only where there is room; the tokens it cannot place wait off the map until its next turn,
like conquest-only tokens (``RaceState.held``). Its conquests may still use more tokens: the
end of its conquests takes every token but one per region back into hand, as for any race.
(``region_tokens min N`` is the least a conquest of the race costs: see ``conquest_costs``.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import Action, Deploy
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def cap(engine: Engine, s: State, race: str) -> int:
    """The most tokens a region of the race may hold after redeployment (0: no limit)."""
    if not engine._capping or engine._none_of(race, s.races.get(race), engine._capping):
        return 0
    return engine._combo_of(s, race).region_max


def room(engine: Engine, s: State, race: str, limit: int, lifted: bool) -> dict[int, int]:
    """Tokens each region of the race may still take (``lifted``: as it will hold one token
    once its conquests end)."""
    tokens = s.region_tokens
    out = {}
    for r in engine.regions_of(s, race):
        free = limit - (1 if lifted else tokens[r])
        if free > 0:
            out[r] = free
    return out


def deploys(engine: Engine, s: State, race: str, limit: int, available: int, lifted: bool) -> list[
    Action
]:
    """The legal Deploy actions of a capped race: 1 token, or as many as fit, per region."""
    acts: list[Action] = []
    if available < 1:
        return acts
    for r, free in room(engine, s, race, limit, lifted).items():
        acts.append(engine._single_deploys[r])
        most = min(free, available)
        if most > 1:
            acts.append(Deploy(r, most))
    return acts


def fits(engine: Engine, s: State, race: str, region: int, count: int, lifted: bool) -> str | None:
    """Why ``count`` tokens may not go to ``region`` (``None``: they fit)."""
    limit = cap(engine, s, race)
    if not limit:
        return None
    now = 1 if lifted else s.region_tokens[region]
    if now + count > limit:
        return (
            f"a region of your {engine.race_defs[race].name} holds at most {limit} tokens "
            f"(region {region} has {now})"
        )
    return None


def within(engine: Engine, s: State, race: str) -> bool:
    """Whether every region of the race holds no more than its limit."""
    limit = cap(engine, s, race)
    tokens = s.region_tokens
    return not limit or all(tokens[r] <= limit for r in engine.regions_of(s, race))


def full(engine: Engine, s: State, race: str) -> bool:
    """Whether the race is capped and none of its regions has room left."""
    limit = cap(engine, s, race)
    return bool(limit) and not room(engine, s, race, limit, lifted=False)


def set_aside(rs: RaceState, count: int) -> None:
    """Tokens that fit nowhere wait off the map until the race's next turn."""
    rs.hand -= count
    rs.held += count
