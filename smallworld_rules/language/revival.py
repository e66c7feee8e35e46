"""The flag ``revives_previous_decline``: a race that, as it goes into decline, brings its
owner's previous race in decline back to life instead of sending it out of the game.

The previous race in decline stays on the map as the decline happens (the player has two
races in decline until its next turn, as with an exempt race) and is remembered in
``State.lang["reviving"]``; when its owner's next turn starts, before anything else, it is
the player's active race again: its banner's tokens, less those it has on the map, come
from its box into hand (its badge, discarded when it declined, does not come back), and the
turn goes on as any active race's turn, its troops readied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import Log
from smallworld_rules.events import TOKENS_GAINED
from smallworld_rules.language import memory
from smallworld_rules.state import RaceState, State, without

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def spared(self: Engine, s: State, rs: RaceState) -> str | None:
    """As ``rs`` declines: the previous race in decline it revives (kept on the map and
    remembered until its owner's next turn), if it raises the flag and there is one."""
    if not self.has_flag(s, rs.race, "revives_previous_decline"):
        return None
    previous = [
        old for old in s.players[rs.owner].declined if not self._exempt(s, old)
    ]
    if not previous:
        return None
    memory.put(s, "reviving", (*memory.get(s, "reviving", ()), previous[-1]))
    return previous[-1]


def revive(self: Engine, s: State, log: Log) -> None:
    """The active player's turn starts: a race of his waiting to be revived becomes his
    active race, with its banner's tokens less those on the map in hand."""
    waiting: tuple[str, ...] = memory.get(s, "reviving", ())
    mine = [
        race for race in waiting
        if race in s.races and s.races[race].owner == s.active and s.races[race].declined
    ]
    memory.put(s, "reviving", tuple(
        race for race in waiting if race in s.races and s.races[race].owner != s.active
    ))
    if not mine or s.players[s.active].active is not None:
        return
    race = mine[-1]
    player = s.own_player(s.active)
    player.declined = without(player.declined, race)
    player.active = race
    rs = s.own_race(race)
    rs.declined = False
    on_map = sum(s.region_tokens[r] for r in self.regions_of(s, race))
    taken = max(0, min(self.race_defs[race].tokens - on_map, s.box.get(race, 0)))
    s.to_box(race, -taken)
    rs.hand += taken
    log((TOKENS_GAINED, s.active, race, taken))
