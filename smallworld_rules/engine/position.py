"""Set-up edits of a position (``Game.put`` / ``Game.clear``) and the invariants every
position keeps."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from smallworld_rules.engine.basics import _PICK, LOST_TRIBE_TOKENS, Log
from smallworld_rules.errors import RulesError
from smallworld_rules.language import banners
from smallworld_rules.language import tokens as tokens_of
from smallworld_rules.state import LOST_TRIBE, RaceState, State, occupant_masks, without

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def check_invariants(self: Engine, s: State, fresh_masks: bool = False) -> None:
    """Raise :class:`RulesError` if the state breaks a rule that always holds.

    ``fresh_masks``: the occupants' masks were just worked out from the occupants (a loaded
    position, ``State.set_occupants``), so they are not compared with them again.
    """
    # Every load and set-up edit asks this of a position that is almost always sound: the
    # answer is looked for in a few whole-state tests first, entry by entry only when one
    # fails, so that a refusal names the first problem as it always has.
    if not _looks_sound(self, s, fresh_masks):
        _check_closely(self, s)


_coins = attrgetter("coins")


def _looks_sound(self: Engine, s: State, fresh_masks: bool = False) -> bool:
    """True only if :func:`_check_closely` finds nothing in ``s`` (False: look closer). The
    regions are tested as whole lists, and every race's tokens (tray, hand, held back, map,
    zones) and every piece (supply, placed) are added up in one table each, compared with
    the full ones at once."""
    tokens, occupants, n = s.region_tokens, s.region_race, self.n
    if len(tokens) != n or len(occupants) != n:
        return False
    # The masks are each occupant's regions (``occupant_masks``) if each names only regions
    # of its occupant and together they cover every occupied region: masks that agree with
    # the occupants cannot overlap, so their sizes add up to the regions occupied. Occupied
    # regions holding a token each, as many empty regions as tokenless ones: a region holds
    # tokens exactly when it has an occupant, and none holds fewer than none.
    empty = occupants.count(None)
    if tokens.count(0) != empty:
        return False
    races, box = s.races, s.box
    counted = dict(box)  # each race's tokens: its tray's, then those elsewhere added
    regions_in = self.regions_in
    covered = tribe = 0
    for race, mask in s.race_masks.items():
        if fresh_masks:  # ``occupant_masks(occupants)``: the occupied regions, once each
            regions = regions_in(mask)
        else:
            if mask <= 0 or mask >> n:
                return False
            regions = regions_in(mask)
            if set(map(occupants.__getitem__, regions)) != {race}:
                return False
            covered += len(regions)
        held = list(map(tokens.__getitem__, regions))
        if min(held) < 1:
            return False
        if race == LOST_TRIBE:
            tribe = sum(held)
        elif race not in races:
            return False
        elif race in counted:
            counted[race] += sum(held)
    if (covered != n - empty and not fresh_masks) or tribe > LOST_TRIBE_TOKENS:
        return False
    for race, rs in races.items():
        if race in counted:
            hand, held_back = rs.hand, rs.held
            if hand < 0 or held_back < 0:
                return False
            counted[race] += hand + held_back
    for pile in s.zones.values():
        for kind in pile:
            if kind in counted:
                counted[kind] += 1
    if box and min(box.values()) < 0:
        return False
    full = self._full_tokens
    if self._own_tokens:  # a power's own tokens join its race's
        full = {race: count + tokens_of.extra(s, race) for race, count in full.items()}
    if counted != full:
        return False
    stock = s.piece_supply
    if stock and min(stock.values()) < 0:
        return False
    pieces = dict(stock)  # each piece: the supply's, then those placed added
    for held_pieces in s.pieces.values():
        for name, count in held_pieces.items():
            if name in pieces:
                pieces[name] += count
    if pieces != self._full_pieces:
        return False
    return not s.players or min(map(_coins, s.players)) >= 0


def _check_closely(self: Engine, s: State) -> None:
    """``check_invariants`` entry by entry: raises on the first problem found."""
    on_map: dict[str | None, int] = {}  # each occupant's tokens on the map, summed once
    for r in range(self.n):
        race, tokens = s.region_race[r], s.region_tokens[r]
        if (race is None) != (tokens == 0):
            raise RulesError(f"region {r}: {tokens} tokens but occupant {race!r}")
        if tokens < 0:
            raise RulesError(f"region {r}: negative tokens")
        if race is not None and race != LOST_TRIBE and race not in s.races:
            raise RulesError(f"region {r}: race {race!r} is not in play")
        on_map[race] = on_map.get(race, 0) + tokens
    masks = occupant_masks(s.region_race)
    if masks != s.race_masks:
        raise RulesError(f"the occupants' masks {dict(s.race_masks)} are not {masks}")
    tribes = on_map.get(LOST_TRIBE, 0)
    if tribes > LOST_TRIBE_TOKENS:
        raise RulesError(f"{tribes} Lost Tribe tokens on the map, more than the box's")
    in_zones: dict[str, int] = {}
    for pile in s.zones.values():
        for kind in pile:
            in_zones[kind] = in_zones.get(kind, 0) + 1
    for race, rd in self.race_defs.items():
        mapped = on_map.get(race, 0)
        rs = s.races.get(race)
        hand, held = (rs.hand, rs.held) if rs else (0, 0)
        zoned = in_zones.get(race, 0)
        supply = self.role_supply if race == self.role_race else rd.box
        if self._own_tokens:
            supply += tokens_of.extra(s, race)
        total = s.box[race] + hand + held + mapped + zoned
        if min(s.box[race], hand, held) < 0 or total != supply:
            raise RulesError(
                f"{race}: box {s.box[race]} + hand {hand} + held {held} + map {mapped} "
                f"+ zones {zoned} != supply {supply}"
            )
    for name, piece in self.rules.pieces.items():
        placed = sum(p.get(name, 0) for p in s.pieces.values())
        if s.piece_supply[name] < 0 or s.piece_supply[name] + placed != piece.supply:
            raise RulesError(f"piece {name}: supply and placed pieces do not add up")
    if any(p.coins < 0 for p in s.players):
        raise RulesError("negative coins")


def clear_region(self: Engine, s: State, r: int) -> None:
    """Empty a region: its tokens and pieces go back to their supply.

    Tokens readied from it at the start of this turn stay in hand: a decline turn puts
    readied tokens back where they were, and the region set up again is no longer that.
    """
    race = s.region_race[r]
    if race is not None and race != LOST_TRIBE:
        s.to_box(race, s.region_tokens[r])
    self._empty_region(s, r)
    self._remove_pieces(s, r, keep_survivors=False, everything=True)
    if s.readied:
        s.readied = tuple(entry for entry in s.readied if entry[0] != r)


def race_for_put(self: Engine, s: State, player: int, declined: bool, race: str | None) -> str:
    """The race whose tokens :meth:`Game.put` places (bringing ``race`` into play)."""
    if player == self.role_seat and race not in (None, self.role_race):
        raise RulesError(f"player {player} plays a role: only {self.role_race} tokens")
    ps = s.own_player(player)
    if race is not None:
        if race not in self.race_defs:
            raise RulesError(f"unknown race {race!r}")
        rs = s.races.get(race)
        if rs is not None:
            if rs.owner != player or rs.declined != declined:
                raise RulesError(f"{race} are already in play in another role")
            return race
        if not declined and ps.active is not None:
            raise RulesError(f"player {player} already has an active race ({ps.active})")
        if declined and any(not self._exempt(s, old) for old in ps.declined):
            raise RulesError(f"player {player} already has a race in decline (rule 1.12)")
        if self._banner_tokens:  # the tokens on its banner go back with it
            banners.take(s, race)
        for i, (market_race, power, _) in enumerate(s.market):
            if market_race == race:
                s.market = s.market[:i] + s.market[i + 1 :]
                s.power_discard = (*s.power_discard, power)
                break
        else:
            s.race_stack = without(s.race_stack, race)
        s.races[race] = RaceState(race, None, player, declined, 0, 1, gen=s.gen)
        if declined:
            ps.declined = (*ps.declined, race)
        else:
            ps.active = race
        self._refill_market(s)
        return race
    chosen = ps.declined[-1] if declined and ps.declined else None if declined else ps.active
    if chosen is None:
        kind = "race in decline" if declined else "active race"
        raise RulesError(f"player {player} has no {kind} (give race=...)")
    return chosen


def after_edit(self: Engine, s: State, log: Log) -> None:
    """A position set up in the pick phase that gave the player an active race: the
    race starts acting (its turn begins)."""
    drafting = s.active == self.role_seat  # a role choosing its powers stays at that
    if s.phase is _PICK and s.players[s.active].active is not None and not drafting:
        self._begin_cycle(s, self._acting_order(s)[0], log, announce=False)


def put_piece(self: Engine, s: State, r: int, name: str, count: int) -> None:
    """Place pieces from their supply (set-up only)."""
    piece = self.rules.pieces.get(name)
    if piece is None:
        known = ", ".join(sorted(self.rules.pieces)) or "none in these rules"
        raise RulesError(f"unknown piece {name!r} (known: {known})")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise RulesError(f"piece counts are whole numbers ≥ 1, not {count!r}")
    held = s.pieces.get(r, {}).get(name, 0)
    if piece.one_per_region and held + count > 1:
        raise RulesError(f"a region holds at most one {name}")
    if s.piece_supply[name] < count:
        raise RulesError(f"only {s.piece_supply[name]} {name} piece(s) left in the supply")
    s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] - count}
    table = dict(s.pieces.get(r, {}))  # replaced, not changed (copy on write)
    table[name] = held + count
    s.set_pieces(r, table)
