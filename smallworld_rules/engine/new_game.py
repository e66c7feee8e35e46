"""The position before the first turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from smallworld_rules import rng
from smallworld_rules.engine.basics import _PICK, MARKET_SIZE, STARTING_COINS
from smallworld_rules.state import LOST_TRIBE, PlayerState, State, new_generation, occupant_masks

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine

#: PlayerState has an __init__ (its callers pass the fields): made without it, slot by slot
_new = object.__new__
#: the coins on the combos of a new market
_NO_COINS = (0,) * MARKET_SIZE

#: See start_tables: (occupants, their masks, region tokens, box, piece supply, pile zones,
#: races and powers in id order).
_Start = tuple[
    tuple[str | None, ...],
    Mapping[str, int],
    tuple[int, ...],
    Mapping[str, int],
    Mapping[str, int],
    Mapping[str, tuple[str, ...]],
    tuple[str, ...],
    tuple[str, ...],
]


def start_tables(self: Engine) -> _Start:
    """What every game of the engine starts from (the map's Lost Tribes, full trays and
    supplies, empty piles), made once: the state's tables are replaced, never changed in
    place (copy on write), so every new game may share them."""
    if self._start is None:
        regions = self.map.regions
        occupants = tuple(LOST_TRIBE if r.lost_tribe else None for r in regions)
        self._start = (
            occupants,
            occupant_masks(occupants),
            tuple(1 if r.lost_tribe else 0 for r in regions),
            {rid: rd.box for rid, rd in self.rules.races.items()},
            {name: p.supply for name, p in self.rules.pieces.items()},
            {zone: () for zone in self.pile_zones},
            tuple(sorted(self.rules.races)),
            tuple(sorted(self.rules.powers)),
        )
    return self._start


def new_state(self: Engine, seed: int, combos: list[tuple[str, str]]) -> State:
    """The position before the first turn (rule 1.2)."""
    s = State()  # (no __init__: see State.fork)
    gen = s.gen = new_generation()
    occupants, masks, tokens, box, supply, zones, race_ids, power_ids = start_tables(self)
    races = list(race_ids)
    powers = list(power_ids)
    s.rng = rng.shuffle(rng.seed_state(seed), races, powers)  # the races, then the powers
    if combos:  # the combos asked for come first, in their order
        fixed_races = [r for r, _ in combos]
        fixed_powers = [p for _, p in combos]
        races = fixed_races + [r for r in races if r not in fixed_races]
        powers = fixed_powers + [p for p in powers if p not in fixed_powers]
    # Rule 1.5: the first combos revealed (as _refill_market reveals them, with no badges
    # discarded yet: while banners and badges last)
    shown = min(MARKET_SIZE, len(races), len(powers))
    # (zip(..., strict=True) would take a keyword call's slow path: the lengths are equal)
    s.market = tuple(zip(races[:shown], powers[:shown], _NO_COINS[:shown]))  # noqa: B905
    s.race_stack = tuple(races[shown:])
    s.power_stack = tuple(powers[shown:])
    s.region_race = occupants  # with their masks (set_occupants, worked out once)
    s.race_masks = masks
    s.reach_costs = None
    s.region_tokens = list(tokens)
    s.pieces = {}
    s.box = box
    s.piece_supply = supply
    s.races = {}
    players = []
    for _ in range(self.players):
        player = _new(PlayerState)  # slot by slot, as PlayerState.copy makes one
        player.gen = gen
        player.coins = STARTING_COINS
        player.active = None
        player.declined = ()
        players.append(player)
    s.players = tuple(players)
    s.power_discard = ()
    s.round = 1
    s.active = 0
    s.phase = _PICK
    s.winners = ()
    s.truces = ()
    s.zones = zones
    s.role_powers = ()
    s.role_reserve = ()
    s.lang = {}
    self._reset_turn(s)
    if self.role is not None:
        self._set_up_role(s, self.role)
    return s
