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


def shuffle(state: int, items: list[T]) -> int:
    """Shuffle ``items`` in place (Fisher–Yates); return the new state."""
    size = len(items)
    if size < _PACKED_FROM or size >= 128:
        return _shuffle_drawn(state, items)
    # Every draw of a shuffle at once (a new game shuffles the races and the powers, some 30
    # draws): draw k uses the state ``seed + k * golden``, so the states of all draws are
    # worked out together, one 64-bit value per 128-bit lane of one integer, and splitmix64's
    # steps applied to every lane at once (a lane's product with a 64-bit constant stays in
    # its lane; the bits a right shift brings in from the next lane are masked off). This
    # assumes no draw is rejected; if one is (a chance of about 1 in 2**58), the draws are
    # made again one by one, as randbelow makes them.
    ones, ramp, lanes, unpack = _packed(size - 1)
    z = (state * ones + ramp) & lanes
    z = ((z ^ (z >> 30)) & lanes) * 0xBF58476D1CE4E5B9 & lanes
    z = ((z ^ (z >> 27)) & lanes) * 0x94D049BB133111EB & lanes
    xs = unpack(((z ^ (z >> 31)) & lanes).to_bytes(16 * (size - 1), "little"))
    # A draw is rejected only at 2**64 - n or above (the limits for n below 128).
    if max(xs) >= _NEAR_TOP and not all(map(_lt, xs, _LIMITS[size:1:-1])):
        return _shuffle_drawn(state, items)
    for i, j in zip(range(size - 1, 0, -1), map(_mod, xs, range(size, 1, -1)), strict=True):
        items[i], items[j] = items[j], items[i]
    return (state + (size - 1) * 0x9E3779B97F4A7C15) & _MASK


#: shuffles of fewer items draw one by one (packing costs more than it saves)
_PACKED_FROM = 6
#: no draw below this is at or above the rejection limit of a count below 128
_NEAR_TOP = (1 << 64) - 128
_PACKS: dict[int, tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]] = {}


def _packed(draws: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]:
    """The constants of a packed shuffle of ``draws`` draws: a 1 in every 128-bit lane, the
    golden ratio increment times the draw's number (1, 2 …) in each, the low 64 bits of
    every lane, and the reader of those 64 bits from the lanes' bytes."""
    found = _PACKS.get(draws)
    if found is None:
        found = _PACKS[draws] = (
            sum(1 << 128 * k for k in range(draws)),
            sum((k + 1) * 0x9E3779B97F4A7C15 << 128 * k for k in range(draws)),
            sum(_MASK << 128 * k for k in range(draws)),
            Struct("<" + "Q8x" * draws).unpack,
        )
    return found


def _shuffle_drawn(state: int, items: list[T]) -> int:
    """:func:`shuffle`, one draw after the other."""
    # randbelow(state, i + 1) and next_u64 written out: two calls per draw otherwise.
    mask, limits = _MASK, _LIMITS
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
