"""Where a race may attack: adjacency, the map's edge, links, water, immunity and truces."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import _Occupied
from smallworld_rules.engine.context import _Combo
from smallworld_rules.language import flow, hidden_pieces, values
from smallworld_rules.state import State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def immune_piece(self: Engine, s: State, region: int) -> str | None:
    """The name of an immunity-giving piece in the region, if any."""
    for name, count in s.pieces.get(region, {}).items():
        if count and self.rules.pieces[name].immune:
            return name
    return None


def _pieces_mask(self: Engine, s: State, wanted: frozenset[str]) -> int:
    """Regions holding at least one piece named in ``wanted``."""
    if not wanted or not s.pieces:
        return 0
    out = 0
    on_map = s.pieces
    for r in on_map:  # keys and look-ups, not items() (see conquest._with_defence)
        held = on_map[r]
        if wanted.isdisjoint(held):  # most regions' pieces: one C call, not a loop
            continue
        for name in held:
            if held[name] and name in wanted:
                out |= 1 << r
                break
    return out


def immune_mask(self: Engine, s: State) -> int:
    """Regions no enemy may conquer or target (an immune piece is there)."""
    if not s.pieces or not self._immune_pieces:
        return 0
    # Every reach asks for it, and pieces move seldom: the last answer is kept with the
    # table of piece tables it was computed from and reused while that is the same object
    # (a table of tables is never changed in place: a change binds a changed copy, which a
    # state's forks share until then; see smallworld_rules.state), or another with equal
    # contents (a load, a position reached two ways), which is then kept in its place.
    kept, mask, _ = self._immune_cache
    on_map = s.pieces
    if kept is not on_map:
        if kept != on_map:
            mask = self._pieces_mask(s, self._immune_pieces)
        # and the regions a reach keeps (open, not immune): _reach reads them from here
        self._immune_cache = (on_map, mask, self.open_mask & ~mask)
    return mask


def guarded_mask(self: Engine, s: State) -> int:
    """Regions holding a piece with the property ``guards``."""
    return self._pieces_mask(s, self._guard_pieces)


def enemy_active_mask(self: Engine, s: State, race: str) -> int:
    """Regions held by the active race of a player other than ``race``'s owner."""
    rs = s.races.get(race)
    owner = -1 if rs is None else rs.owner
    # seen_declined and mask_of, inline (asked per listing of a targeted ability)
    role = self.role_race if self.role is not None and self.role.counts_as_declined else None
    masks, out = s.race_masks, 0
    for p, ps in enumerate(s.players):
        active = ps.active
        if p != owner and active is not None and active != role:
            out |= masks.get(active, 0)
    return out


def link_mask(self: Engine, s: State, race: str) -> int:
    """Regions the race's links make adjacent to one another."""
    return self._combo_of(s, race).link


def truce_mask(self: Engine, s: State, race: str) -> int:
    """Regions the race may not attack because of a truce (only active races are bound)."""
    if not s.truces:  # the common case
        return 0
    rs = s.races.get(race)
    if rs is None or rs.declined or self.seen_declined(race):
        return 0
    out = 0
    for protected, barred in s.truces:
        target = s.players[protected].active
        if barred == rs.owner and target is not None and not self.seen_declined(target):
            out |= self.mask_of(s, target)
    return out


def adjacent_mask(self: Engine, regions: int) -> int:
    """Regions bordering at least one of ``regions``."""
    return self.map.adjacent_mask(regions)


def reach_mask(self: Engine, s: State, race: str) -> int:
    """Every region ``race`` may attack now, tokens aside (rule 1.7, flags, links, immunity)."""
    return self._reach(s, race, self._combo_of(s, race), self._occupied(s, race))


def _reach(self: Engine, s: State, race: str, combo: _Combo, occupied: _Occupied) -> int:
    """``reach_mask`` from the race's pairing and regions, when the caller has them."""
    own = occupied[1]
    flags = combo.flags
    if own and combo.near and not own & combo.link:
        # the common reach: the regions bordering its own, less those and water (kept)
        reach = occupied[3]
    elif own:
        reach = occupied[2]
        if combo.far:  # `reach N`: N steps through any regions; `crosses_water`
            reach = values.far_reach(self, combo.reach, flags, own, reach)
        if own & combo.link:
            reach |= combo.link
        if "conquer_anywhere" in flags:
            reach |= self.land_mask
        reach &= ~own
        if "enter_water" not in flags:
            reach &= ~self.map.water_mask
    else:
        reach = self.role_enter if race == self.role_race else self.map.entry_mask
        if "enter_anywhere" in flags:
            reach |= self.land_mask
        if "enter_water" not in flags:
            reach &= ~self.map.water_mask
    if self._reach_barred:  # few rule files: one test for the three
        if self._immunizing:
            reach &= ~values.immune_regions(self, s)
        if self.keeps_out and "no_return_to_abandoned" in flags:
            reach &= ~flow.abandoned(s, race)
        if self._hiding:  # regions a face-down piece stopped it from taking this turn
            reach &= ~hidden_pieces.repelled(s, race)
    if s.pieces and self._immune_pieces:  # immune_mask, asked only when it may be more than 0
        kept = self._immune_cache  # its answer for these very pieces, if it is the last
        if kept[0] is not s.pieces:
            self.immune_mask(s)
            kept = self._immune_cache
        reach &= kept[2]  # the open regions less the immune ones, kept with the answer
    else:
        reach &= self.open_mask
    if s.truces:  # truce_mask, likewise (a frame per listing)
        reach &= ~self.truce_mask(s, race)
    return reach


def target_problem(self: Engine, s: State, race: str, region: int) -> str | None:
    """Why ``race`` may not conquer ``region`` now (tokens aside), or ``None``."""
    if not 0 <= region < self.n:
        return f"there is no region {region} on the {self.map.name} map"
    if (self.reach_mask(s, race) >> region) & 1:
        return None
    barred = self.barred(s, race, region)
    if barred is not None:
        return barred
    if not self.mask_of(s, race) and race == self.role_race:
        name = self.race_defs[race].name
        return f"region {region} is not a region where the {name} tokens enter the map"
    if not self.mask_of(s, race):
        return (
            f"region {region} is not a border region: a race with no region on the map "
            "must enter at the edge or on the shore of an edge Sea (rule 1.7)"
        )
    return f"region {region} is not adjacent to a region your race holds"


def barred(self: Engine, s: State, race: str, region: int) -> str | None:
    """Why ``race`` may not conquer ``region`` however near it were (its own, covered,
    water, immune, under a truce), or ``None``."""
    if s.region_race[region] == race:
        return f"your {self.race_defs[race].name} already hold region {region}"
    if not (self.open_mask >> region) & 1:
        return f"region {region} lies under the {self.cover_name}: nobody may conquer it"
    if (self.map.water_mask >> region) & 1 and not self.has_flag(s, race, "enter_water"):
        return f"region {region} is water: only a race that may enter water can conquer it"
    piece = self.immune_piece(s, region)
    if piece is not None:
        return f"region {region} is immune (a {piece} is there)"
    if self._immunizing and (values.immune_regions(self, s) >> region) & 1:
        return f"region {region} is immune (its race's rules say so)"
    if (self.truce_mask(s, race) >> region) & 1:
        return (
            f"region {region} belongs to a player who made a truce with you: your active "
            "race may not attack theirs until their next turn"
        )
    if self.keeps_out and (flow.abandoned(s, race) >> region) & 1:
        return (
            f"your {self.race_defs[race].name} abandoned region {region} this turn: they may "
            "not conquer it again before their next turn"
        )
    if self._hiding and (hidden_pieces.repelled(s, race) >> region) & 1:
        return (
            f"a face-down marker stopped your {self.race_defs[race].name} at region {region} "
            "this turn: they may not try it again before their next turn"
        )
    return None
