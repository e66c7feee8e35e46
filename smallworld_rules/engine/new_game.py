"""The position before the first turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules import rng
from smallworld_rules.engine.basics import _PICK, STARTING_COINS
from smallworld_rules.state import LOST_TRIBE, PlayerState, State, new_generation

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def new_state(self: Engine, seed: int, combos: list[tuple[str, str]]) -> State:
    """The position before the first turn (rule 1.2)."""
    s = State.__new__(State)
    s.gen = new_generation()
    state = rng.seed_state(seed)
    races = sorted(self.rules.races)
    powers = sorted(self.rules.powers)
    state = rng.shuffle(state, races)
    state = rng.shuffle(state, powers)
    fixed_races = [r for r, _ in combos]
    fixed_powers = [p for _, p in combos]
    race_order = fixed_races + [r for r in races if r not in fixed_races]
    power_order = fixed_powers + [p for p in powers if p not in fixed_powers]
    s.set_occupants(tuple(LOST_TRIBE if r.lost_tribe else None for r in self.map.regions))
    s.reach_costs = None
    s.region_tokens = [1 if r.lost_tribe else 0 for r in self.map.regions]
    s.pieces = {}
    s.box = {rid: rd.box for rid, rd in self.rules.races.items()}
    s.piece_supply = {name: p.supply for name, p in self.rules.pieces.items()}
    s.races = {}
    s.players = tuple(
        PlayerState(STARTING_COINS, None, (), s.gen) for _ in range(self.players)
    )
    s.market = ()
    s.race_stack = tuple(race_order)
    s.power_stack = tuple(power_order)
    s.power_discard = ()
    s.round = 1
    s.active = 0
    s.phase = _PICK
    s.rng = state
    s.winners = ()
    s.truces = ()
    s.zones = {zone: () for zone in self.pile_zones}
    s.role_powers = ()
    s.role_reserve = ()
    s.lang = {}
    self._reset_turn(s)
    self._refill_market(s)
    if self.role is not None:
        self._set_up_role(s, self.role)
    return s
