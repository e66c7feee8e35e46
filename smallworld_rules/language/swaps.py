"""A badge swapped as the combo is picked (the flag ``swaps_power_when_picked``).

When a player picks a combo whose race or power raises the flag, the pick waits for one more
decision of that player: ``ChoosePower(p)``, with ``p`` its own badge (kept) or the badge of
another combo of the market as it stands after the pick (the market refilled). The two badges
change places, the race's tokens in hand become those of its banner and its new badge
(the box still caps them), and only then do the pick's triggers fire and the turn go on.
The pending decision is kept in ``State.lang`` (``swap``: the race, the coins it took).
Badges that bring tokens of their own (``own_tokens``) are never swapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import ChoosePower
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import POWER_SWAPPED
from smallworld_rules.language import memory
from smallworld_rules.state import State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine


def offer(engine: Engine, s: State, race: str, collected: int) -> bool:
    """After a pick: whether the race's owner now chooses a badge (the pick waits)."""
    rs = s.own_race(race)
    if rs.power is None or engine.rules.powers[rs.power].own_tokens:
        return False
    if not engine.has_flag(s, race, "swaps_power_when_picked"):
        return False
    memory.put(s, "swap", (race, collected))
    return True


def choices(engine: Engine, s: State) -> list[ChoosePower]:
    """The badges the player may end up with: its own first, then the market's, in order."""
    race, _ = memory.get(s, "swap")
    own = s.races[race].power
    assert own is not None  # offer() waits only for a race with a badge
    out = [ChoosePower(own)]
    for _, power, _ in s.market:
        offered = ChoosePower(power)
        if not engine.rules.powers[power].own_tokens and offered not in out:
            out.append(offered)
    return out


def choose(engine: Engine, s: State, action: ChoosePower, log: Log) -> None:
    """Carry out the choice, then the rest of the pick."""
    if action not in choices(engine, s):
        shown = ", ".join(a.power or "" for a in choices(engine, s))
        raise IllegalAction(f"{action.power!r} is not a badge to choose now ({shown})", action)
    race, collected = memory.get(s, "swap")
    memory.forget(s, "swap")
    rs = s.own_race(race)
    old, new = rs.power, action.power
    assert old is not None and new is not None
    if new != old:
        market = list(s.market)
        j = next(i for i, (_, power, _) in enumerate(market) if power == new)
        market[j] = (market[j][0], old, market[j][2])
        s.market = tuple(market)
        rs.power = new
        banner, badge = engine.race_defs[race], engine.rules.powers[new]
        wanted = banner.tokens + banner.conquest_tokens + badge.tokens + badge.conquest_tokens
        s.to_box(race, rs.hand)
        rs.hand = min(wanted, s.box[race])  # Rule 1.1: the tray is a hard cap
        s.to_box(race, -rs.hand)
    log((POWER_SWAPPED, rs.owner, race, old, new, rs.hand))
    engine._after_pick(s, race, collected, log)
