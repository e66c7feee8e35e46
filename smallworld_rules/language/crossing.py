"""Crossing water (the flag ``crosses_water``): a race whose conquests pass through the Seas
and the Lake, as Underground's River-walkers do on the base maps.

The water regions bordering the race's regions, and any water bordering those, lend their
borders: the land beyond counts as adjacent. The water itself is neither held nor entered
(unless the race may also enter water, ``enter_water``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def across_water(engine: Engine, own: int) -> int:
    """The regions bordering the water (and the water beyond it) that borders ``own``."""
    water = engine.map.water_mask
    wet = engine.adjacent_mask(own) & water
    while True:
        more = engine.adjacent_mask(wet) & water & ~wet
        if not more:
            return engine.adjacent_mask(wet)
        wet |= more
