"""Connected groups of regions (``count(groups in REGIONS)``).

Two regions of a set are in the same group when a chain of regions of the set joins them,
each bordering the next on the map. The map's borders alone count: a race's ``link`` joins
regions for its conquests, not for the shape of what it holds.
"""

from __future__ import annotations

from collections.abc import Callable


def count(adjacent: Callable[[int], int], regions: int) -> int:
    """The groups ``regions`` (a bitmask) forms, ``adjacent`` giving the regions bordering a
    mask: 0 for no region, 1 when they all hang together.

    >>> line = {0b001: 0b010, 0b010: 0b101, 0b100: 0b010}   # 0 - 1 - 2
    >>> def adjacent(mask: int) -> int:
    ...     return sum(v for k, v in line.items() if k & mask)
    >>> count(adjacent, 0b101), count(adjacent, 0b111), count(adjacent, 0)
    (2, 1, 0)
    """
    groups = 0
    while regions:
        group = regions & -regions  # the lowest region starts a group
        while True:
            grown = group | (adjacent(group) & regions)
            if grown == group:
                break
            group = grown
        regions &= ~group
        groups += 1
    return groups
