"""The game's seeded random generator.

A tiny splitmix64 generator: its whole state is one integer, so it copies, undoes and
serialises to JSON exactly, and it gives the same numbers on every Python version.
"""

from __future__ import annotations

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
    # randbelow(state, i + 1) and next_u64 written out: every new game shuffles the races
    # and the powers (some 30 draws), two calls per draw otherwise.
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
