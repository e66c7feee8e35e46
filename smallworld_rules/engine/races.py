"""The races in play: the rule files of each race/badge pairing (its flags, modifiers,
abilities, links), the regions and tokens it has."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import _MASKS_KEPT, _bits, _Occupied
from smallworld_rules.engine.context import _Combo, _Ctx
from smallworld_rules.hooks import Contribution
from smallworld_rules.language import borrowing, flow
from smallworld_rules.ruledefs import CompiledAbility, CompiledModifier, RuleDef
from smallworld_rules.state import LOST_TRIBE, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def defs(self: Engine, s: State, race: str) -> tuple[RuleDef, ...]:
    """The race's rule file, then its power's (while the badge is attached)."""
    return self._combo_of(s, race).defs


def _powers(self: Engine, s: State, race: str) -> tuple[str, ...]:
    """The powers working for the race: its attached badge (and the badge it borrows), or
    all a role activated."""
    if race == self.role_race:
        return tuple(s.role_powers)  # A20: a role's powers all work, always
    rs = s.races.get(race)
    if rs is None or rs.power is None:
        return ()
    if self._borrowers and rs.power in self._borrowers:  # borrow power: and the borrowed
        lent = borrowing.borrowed(s, race)
        if lent is not None:
            return (rs.power, lent)
    return (rs.power,)


def _combo(self: Engine, race: str, powers: tuple[str, ...]) -> _Combo:
    """The rule files of a race/badge pairing, its flags and links, built once per
    pairing: the engine asks for them several times per legal action."""
    key = (race, powers)
    combo = self._combos.get(key)
    if combo is None:
        defs: tuple[RuleDef, ...] = ()
        if race != LOST_TRIBE:
            defs = (self.race_defs[race], *(self.rules.powers[p] for p in powers))
        combo = self._combos[key] = _Combo(self, defs)
    return combo


def _combo_of(self: Engine, s: State, race: str) -> _Combo:
    """``_combo(race, _powers(s, race))``; a race with at most its own badge (all but a
    role's tokens) is looked up by (race, badge) directly: this is asked for many times per
    legal action."""
    role = self.role_race  # a role's tokens first: they are never kept by badge (below)
    if role is not None and race == role:  # by its powers (a tuple, replaced on change)
        powers = s.role_powers
        last, combo = self._role_last  # the same tuple as last time: no hash of it
        if last is powers and combo is not None:
            return combo
        combo = self._role_combos.get(powers)
        if combo is None:
            combo = self._role_combos[powers] = self._combo(race, powers)
        self._role_last = (powers, combo)
        return combo
    rs = s.races.get(race)
    if rs is not None:  # the common case: a race in play whose pairing is known
        by_race = self._badge_combos.get(rs.power)  # by badge, then race: no key tuple
        if by_race is not None:
            combo = by_race.get(race)
            if combo is not None:
                return combo
    badge = None if rs is None else rs.power
    if self._borrowers and badge in self._borrowers:  # by what it borrows now: not kept here
        return self._combo(race, self._powers(s, race))
    by_race = self._badge_combos.get(badge)
    if by_race is None:
        by_race = self._badge_combos[badge] = {}
    combo = by_race.get(race)
    if combo is None:
        combo = by_race[race] = self._combo(race, self._powers(s, race))
    return combo


def has_flag(self: Engine, s: State, race: str, flag: str) -> bool:
    """Whether the race or its attached power raises ``flag``."""
    raising = self._raising.get(flag)
    if raising is None or self._none_of(race, s.races.get(race), raising):
        return False
    return flag in self._combo_of(s, race).flags


def _exempt(self: Engine, s: State, race: str) -> bool:
    return self.has_flag(s, race, "exempt_from_decline_limit")


def _none_of(self: Engine, race: str, rs: RaceState | None, ids: frozenset[str]) -> bool:
    """Whether neither the race nor its badge (``rs``: its banner, if in play) is among
    the rule files ``ids`` (a role, whose powers are no badge, never is): a quick answer,
    before the pairing is looked up, for what few rule files have."""
    return (
        race not in ids and (rs is None or rs.power not in ids) and race != self.role_race
    )


def regions_of(self: Engine, s: State, race: str) -> tuple[int, ...]:
    """Regions holding the race's tokens, in id order."""
    entry = self._by_mask.get(s.race_masks.get(race, 0))  # _occupied's table, read here
    return (self._occupied(s, race) if entry is None else entry)[0]


def mask_of(self: Engine, s: State, race: str) -> int:
    """Bitmask of the regions holding the race's tokens."""
    return s.race_masks.get(race, 0)


def _occupied(self: Engine, s: State, race: str) -> _Occupied:
    """``(regions, mask, bordering, frontier)``: the race's regions, their mask, the mask of
    the regions bordering them, and of those of them neither its own nor water.

    The state keeps each occupant's mask up to date (``State.occupy``); the regions and
    the bordering mask of a mask are worked out once and kept, since the engine asks for
    them several times per action and a race keeps its regions over many actions.
    """
    mask = s.race_masks.get(race, 0)
    entry = self._by_mask.get(mask)
    if entry is None:
        if len(self._by_mask) >= _MASKS_KEPT:  # a long-lived engine: start afresh
            self._by_mask.clear()
        regions = _bits(mask)
        bordering = 0
        adjacency = self.map.adjacency
        for r in regions:
            bordering |= adjacency[r]
        # and the common reach from them (see _reach): bordering, not own, not water
        frontier = bordering & ~(mask | self.map.water_mask)
        entry = self._by_mask[mask] = (regions, mask, bordering, frontier)
    return entry


def regions_in(self: Engine, mask: int) -> tuple[int, ...]:
    """The regions of ``mask``, in id order (kept per mask: the reach of a race and the
    regions a modifier applies to recur from one position to the next)."""
    found = self._mask_regions.get(mask)
    if found is None:
        if len(self._mask_regions) >= _MASKS_KEPT:  # a long-lived engine: start afresh
            self._mask_regions.clear()
        found = self._mask_regions[mask] = _bits(mask)
    return found


def powers_count(self: Engine, s: State, race: str) -> int:
    """Special powers working for the race: ``count(powers)``."""
    return len(self._powers(s, race))


def tokens_in(self: Engine, s: State, race: str, place: str) -> int:
    """The race's tokens on the map, in its reserve (box), or in a zone."""
    return _Ctx(self, s, race).tokens_in(place)


def seen_declined(self: Engine, race: str) -> bool:
    """Whether other races and powers treat the race as in decline although it acts (a
    role's tokens that count as declined)."""
    return race == self.role_race and self.role is not None and self.role.counts_as_declined


def _modifiers(self: Engine, s: State, race: str, hook: str) -> tuple[CompiledModifier, ...]:
    """The race's modifiers on ``hook`` that apply in its present status."""
    rs = s.races.get(race)
    if rs is None:
        return self._combo_of(s, race).active_modifiers[hook]
    # _combo_of's first look-up, with the banner in hand (asked for per conquest cost and
    # per score): the pairing by badge, then race, if it is kept there
    by_race = self._badge_combos.get(rs.power)
    combo = None if by_race is None else by_race.get(race)
    if combo is None:
        combo = self._combo_of(s, race)
    return (combo.declined_modifiers if rs.declined else combo.active_modifiers)[hook]


def _contributions(
    self: Engine, s: State, race: str, hook: str, target: int = -1
) -> list[Contribution]:
    modifiers = self._modifiers(s, race, hook)
    if not modifiers:  # the common case: no context to build
        return []
    ctx = _Ctx(self, s, race, target)
    out: list[Contribution] = []
    for m in modifiers:
        if m.condition(ctx):
            out.append(Contribution(m.label, m.op, m.value(ctx), m.path, m.line))
    return out

def abilities(self: Engine, s: State, race: str) -> tuple[CompiledAbility, ...]:
    """The abilities a race may use now: an active race's own and its power's; a race in
    decline's that work in decline, and those used as it declines."""
    rs = s.races.get(race)
    if rs is None:
        return ()
    if rs.declined:  # only those used as it declines, while it does (``during decline``)
        return flow.decline_abilities(self, s, race)
    return self._combo_of(s, race).abilities
