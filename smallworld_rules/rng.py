"""The game's seeded random generator.

A tiny splitmix64 generator: its whole state is one integer, so it copies, undoes and
serialises to JSON exactly, and it gives the same numbers on every Python version.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import lt as _lt
from operator import mod as _mod
from struct import Struct
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")
#: see _packed
_Packed = tuple[int, int, int, Callable[[bytes], tuple[int, ...]], tuple[int, ...], tuple[int, ...]]


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return ``(new_state, 64 random bits)``."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def randbelow(state: int, n: int) -> tuple[int, int]:
    """Return ``(new_state, k)`` with ``k`` uniform in ``range(n)`` (no modulo bias)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


#: randbelow's ``limit`` for each ``n`` below 128 (a shuffle draws one per item)
_LIMITS = (0, *((1 << 64) - ((1 << 64) % n) for n in range(1, 128)))


def shuffle(state: int, *lists: list[T]) -> int:
    """Shuffle each of ``lists`` in place (Fisher–Yates), one after the other; return the new
    state. ``shuffle(state, a, b)`` is ``shuffle(shuffle(state, a), b)``."""
    sizes = tuple(map(len, lists))
    packed = _PACKS.get(sizes)
    if packed is None:
        if min(sizes, default=0) < _PACKED_FROM or max(sizes) >= 128:
            return _shuffle_drawn(state, *lists)
        packed = _packed(sizes)
    # Every draw at once (a new game shuffles the races and the powers, some 30 draws): draw
    # k uses the state ``seed + k * golden``, so the states of all draws are worked out
    # together, one 64-bit value per 128-bit lane of one integer, and splitmix64's steps
    # applied to every lane at once (a lane's product with a 64-bit constant stays in its
    # lane; the bits a right shift brings in from the next lane are masked off). This assumes
    # no draw is rejected; if one is (a chance of about 1 in 2**58 a draw), the draws are made
    # again one by one, as randbelow makes them.
    ones, ramp, lanes, unpack, bounds, limits = packed
    z = (state * ones + ramp) & lanes
    z = ((z ^ (z >> 30)) & lanes) * 0xBF58476D1CE4E5B9 & lanes
    z = ((z ^ (z >> 27)) & lanes) * 0x94D049BB133111EB & lanes
    xs = unpack(((z ^ (z >> 31)) & lanes).to_bytes(16 * len(bounds), "little"))
    # A draw is rejected only at 2**64 - n or above (the limits for n below 128).
    if max(xs) >= _NEAR_TOP and not all(map(_lt, xs, limits)):
        return _shuffle_drawn(state, *lists)
    # Each list's draws in turn: zip stops at the end of the list's range before drawing
    # from the rest (and a keyword, strict=False, would take a keyword call's slow path).
    draws = map(_mod, xs, bounds)
    for items in lists:
        for i, j in zip(range(len(items) - 1, 0, -1), draws):  # noqa: B905
            items[i], items[j] = items[j], items[i]
    return (state + len(bounds) * 0x9E3779B97F4A7C15) & _MASK


#: shuffles of fewer items draw one by one (packing costs more than it saves)
_PACKED_FROM = 6
#: no draw below this is at or above the rejection limit of a count below 128
_NEAR_TOP = (1 << 64) - 128
#: the constants of a packed shuffle, by the sizes of its lists (see _packed)
_PACKS: dict[tuple[int, ...], _Packed] = {}


def _packed(sizes: tuple[int, ...]) -> _Packed:
    """The constants of a packed shuffle of lists of these sizes (every draw of every list in
    turn, k = 1, 2 …): a 1 in every 128-bit lane, the golden ratio increment times k in lane
    k, the low 64 bits of every lane, the reader of those 64 bits from the lanes' bytes, and
    each draw's range (randbelow's ``n``) and rejection limit."""
    bounds = tuple(n for size in sizes for n in range(size, 1, -1))
    draws = len(bounds)
    found = _PACKS[sizes] = (
        sum(1 << 128 * k for k in range(draws)),
        sum((k + 1) * 0x9E3779B97F4A7C15 << 128 * k for k in range(draws)),
        sum(_MASK << 128 * k for k in range(draws)),
        Struct("<" + "Q8x" * draws).unpack,
        bounds,
        tuple(_LIMITS[n] for n in bounds),
    )
    return found


def _shuffle_drawn(state: int, *lists: list[T]) -> int:
    """:func:`shuffle`, one draw after the other."""
    # randbelow(state, i + 1) and next_u64 written out: two calls per draw otherwise.
    mask, limits = _MASK, _LIMITS
    for items in lists:
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < 128 else (1 << 64) - ((1 << 64) % n)
            while True:
                state = (state + 0x9E3779B97F4A7C15) & mask
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
    return state
