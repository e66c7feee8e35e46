"""What every part of the engine shares: the game's constants, the phases, the shared action
instances legal_actions hands out, and small helpers on region bitmasks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smallworld_rules.actions import (
    Abandon,
    Action,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    EndTurn,
    action_problem,
)
from smallworld_rules.events import Event
from smallworld_rules.state import Phase

# The phases as module constants: ``Phase.X`` goes through the enum's metaclass (≈ 140 ns on
# CPython 3.11, a global ≈ 15 ns), and the engine tests the phase several times per action.
_PICK, _CONQUEST, _DIE_ROLL = Phase.PICK, Phase.CONQUEST, Phase.DIE_ROLL
_REDEPLOY, _WITHDRAWAL, _OVER = Phase.REDEPLOY, Phase.WITHDRAWAL, Phase.OVER
#: Each phase's name as rule files write it (``phase.value`` is an enum property, as slow).
_PHASE_NAMES = {phase: phase.value for phase in Phase}

#: Faces of the reinforcement die (rule 1.1).
DIE_FACES = (0, 0, 0, 1, 2, 3)
#: Coins each player starts with (rule 1.2).
STARTING_COINS = 5
#: Combos visible in the market (rule 1.2).
MARKET_SIZE = 6
#: How many tokens short a final die attempt may be (rule 1.9).
DIE_REACH = 3
BASE_COST = 2
#: Lost Tribe tokens in the box (rule 1.1).
LOST_TRIBE_TOKENS = 18


#: what the engine logs: an event, or ``(cls._code, *fields)`` for one made when read
Log = Callable[[Event | tuple[Any, ...]], None]


#: Actions are immutable values, so legal_actions hands out shared instances instead of making
#: new ones for every position (making a frozen attrs instance costs about a microsecond).
_SHARED: dict[tuple[Any, ...], Action] = {}
#: ``id()`` of the shared instances that are well-formed (all, by construction; checked once):
#: ``Engine.apply`` need not check their fields again. They stay in ``_SHARED`` for good, so
#: their ids are never reused.
_WELL_FORMED: set[int] = set()


def _shared(cls: type[Action], *fields: Any) -> Action:
    """The shared instance of ``cls(*fields)``."""
    key = (cls, *fields)
    action = _SHARED.get(key)
    if action is None:
        action = _SHARED[key] = cls(*fields)
        if action_problem(action) is None:
            _WELL_FORMED.add(id(action))
    return action


#: See _region_actions: region count -> the four lists.
_ByRegion = tuple[Action, ...]
#: See Engine._applying: ((regions, signed amount) of add/sub, (regions, amount) of set).
_Applying = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
_NOTHING_APPLIES: _Applying = ((), ())
#: See Engine._occupied: (regions, mask, the mask bordering them, that less own and water).
_Occupied = tuple[tuple[int, ...], int, int, int]
#: How many masks Engine._occupied keeps the regions of before it starts afresh.
_MASKS_KEPT = 1 << 14
_REGION_ACTIONS: dict[int, tuple[_ByRegion, _ByRegion, _ByRegion, _ByRegion]] = {}


def _region_actions(n: int) -> tuple[_ByRegion, _ByRegion, _ByRegion, _ByRegion]:
    """The shared Abandon, Conquer, ConquerWithDie and Deploy(r, 1) of regions 0 … n-1, by
    region (made once per region count, not per engine: Game.new and from_json make one)."""
    found = _REGION_ACTIONS.get(n)
    if found is None:
        regions = range(n)
        found = _REGION_ACTIONS[n] = (
            tuple(_shared(Abandon, r) for r in regions),
            tuple(_shared(Conquer, r) for r in regions),
            tuple(_shared(ConquerWithDie, r) for r in regions),
            tuple(_shared(Deploy, r, 1) for r in regions),
        )
    return found


_END_TURN = _shared(EndTurn)
_DECLINE = _shared(Decline)


def _region_deploys(n: int, count: int) -> _ByRegion:
    """The shared ``Deploy(r, count)`` of regions 0 … n-1, by region (an integer
    ``count``). _shared's look-up inline, and each new one known well formed without
    action_problem (two integers): a new count on the 48 regions of the 5-player map
    makes 48 actions at once."""
    row: list[Action] = []
    for r in range(n):
        key = (Deploy, r, count)
        action = _SHARED.get(key)
        if action is None:
            action = _SHARED[key] = Deploy(r, count)
            _WELL_FORMED.add(id(action))
        row.append(action)
    return tuple(row)


#: How many bits of a mask one look-up in _CHUNK_BITS covers: 12 (a table of 4,096 per
#: 12 regions; two look-ups on a 23-region map, four on 48, where bytes took three and six)
_CHUNK = 12
#: ``_CHUNK_BITS[k][c]``: the set bits of the chunk ``c`` at chunk ``k`` of a mask
#: (12k + i), lowest first; a table per chunk is added when a mask first reaches it
_CHUNK_BITS: list[tuple[tuple[int, ...], ...]] = []


def _bits(mask: int) -> tuple[int, ...]:
    """The indices of the set bits of ``mask`` (not negative), lowest first.

    A chunk of 12 bits at a time from tables: a generator resumed once per bit costs
    several times more (a region mask's regions are looked up by the thousand per game).
    Up to 48 regions (every map of the game) the chunks are read without a loop, and a
    mask of more than 24 bits (two digits of a CPython int once bit 30 is set) is split
    into two halves of one digit first: each operation on a wider int makes a new one.
    """
    tables = _CHUNK_BITS
    try:  # (a table not made yet: IndexError, below; costs nothing when not raised)
        if mask < 16777216:  # 1 << 24: two chunks (the constants as literals: no globals)
            return tables[0][mask & 4095] + tables[1][mask >> 12]
        if mask < 281474976710656:  # 1 << 48: two halves of two chunks
            low, high = mask & 16777215, mask >> 24
            if not low:  # a race or reach wholly in the upper half
                return tables[2][high & 4095] + tables[3][high >> 12]
            return (
                tables[0][low & 4095] + tables[1][low >> 12] + tables[2][high & 4095]
                + tables[3][high >> 12]
            )
    except IndexError:
        _tables_for(max(mask, 1 << 47) if mask >= 16777216 else 1 << 23)
        return _bits(mask)
    _tables_for(mask)
    found: tuple[int, ...] = ()
    for table in tables:
        if not mask:
            break
        found += table[mask & 4095]
        mask >>= 12
    return found


def _tables_for(mask: int) -> None:
    """The tables of _CHUNK_BITS up to the highest chunk of ``mask``, made if missing."""
    tables = _CHUNK_BITS
    while mask >> _CHUNK * len(tables):
        base = _CHUNK * len(tables)
        made: list[tuple[int, ...]] = [()]
        for c in range(1, 1 << _CHUNK):  # c's lowest bit, then the bits above it
            made.append((base + (c & -c).bit_length() - 1, *made[c & (c - 1)]))
        tables.append(tuple(made))
