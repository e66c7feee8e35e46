"""Conquests: what a region costs, abandoning regions, taking a region and what its
defender loses."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from smallworld_rules.actions import Abandon, Conquer, ConquerWithDie
from smallworld_rules.dsl import ast
from smallworld_rules.dsl.semantics import reads_only_the_map
from smallworld_rules.engine.basics import (
    _CONQUEST,
    _NOTHING_APPLIES,
    _REDEPLOY,
    BASE_COST,
    Log,
    _Applying,
    _bits,
)
from smallworld_rules.engine.context import _Combo, _Ctx
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import ABANDONED, CONQUERED, TOKENS_TO_ZONE
from smallworld_rules.hooks import CORE, Breakdown, Contribution, fold
from smallworld_rules.language import discounts, events, flow, hidden_pieces, piles, values
from smallworld_rules.ruledefs import CompiledModifier, RuleDef
from smallworld_rules.state import LOST_TRIBE, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def conquest_cost(self: Engine, s: State, race: str, region: int) -> Breakdown:
    """Tokens ``race`` needs to conquer ``region`` (rule 1.7), with every contribution."""
    parts: list[Contribution] = []
    occupant, tokens = s.region_race[region], s.region_tokens[region]
    if occupant is not None and tokens:
        label = "Lost Tribe" if occupant == LOST_TRIBE else self.race_defs[occupant].name
        parts.append(Contribution(f"{label} tokens", "add", tokens, CORE))
    if (self.mountain_mask >> region) & 1:
        parts.append(Contribution("Mountain", "add", 1, CORE))
    for name, count in sorted(s.pieces.get(region, {}).items()):
        piece = self.rules.pieces[name]
        if piece.defence:
            amount = piece.defence * count
            parts.append(Contribution(name, "add", amount, piece.path, piece.line))
    if occupant is not None and occupant in s.races:
        parts += self._contributions(s, occupant, "defence", region)
    # immune to powers: the conqueror's modifiers, rolled die and discounts do not count
    if not (self._shielding and (values.shielded_regions(self, s, race) >> region) & 1):
        parts += self._contributions(s, race, "conquest_cost", region)
        if s.die_bonus >= 0 and race == s.acting:
            parts.append(Contribution("die roll", "sub", s.die_bonus, CORE))
        if self._discounting and discounts.on(s, race, region):
            parts.append(Contribution("discount", "sub", discounts.on(s, race, region), CORE))
    # At least 1 token, or the race's `region_tokens min N`.
    floor = self._combo_of(s, race).floor if self._floors else 1
    return fold(BASE_COST, parts, minimum=floor)


def conquest_cost_value(self: Engine, s: State, race: str, region: int) -> int:
    """``conquest_cost(s, race, region).value``, without building the breakdown."""
    return self.conquest_costs(s, race, 1 << region)[region]


def conquest_costs(
    self: Engine, s: State, race: str, regions: int, combo: _Combo | None = None
) -> dict[int, int]:
    """``{region: conquest_cost(s, race, region).value}`` for each region of the mask,
    lowest first, without building breakdowns (``combo``: the race's pairing, if the caller
    has it).

    legal_actions asks the cost of every reachable region, and only the number matters
    there, so this folds the same contributions as :meth:`conquest_cost` straight into an
    int: adds and subs summed, then the lowest ``set``, then the clamp at 1 (see
    :func:`~smallworld_rules.hooks.fold`); each modifier is worked out once for all regions
    (``_applying``). The two must stay in step: a test compares them on many positions.
    """
    if combo is None:
        combo = self._combo_of(s, race)
    floor = combo.floor if self._floors else 1
    base = BASE_COST - (s.die_bonus if s.die_bonus >= 0 and race == s.acting else 0)
    if self._costs_by_region:
        # defenders' modifiers, regions immune to powers, discounts: region by region
        own = self._applying(s, race, "conquest_cost")
        return _costs_defended(self, s, race, regions, base, floor, own)
    rs = s.races.get(race)  # _modifiers(s, race, "conquest_cost"), from the pairing here
    declined = rs is not None and rs.declined
    modifiers = (combo.declined_modifiers if declined else combo.active_modifiers)[
        "conquest_cost"
    ]
    fixed = self._fixed_costs.get(id(modifiers))
    if fixed is None or fixed[0] is not modifiers:  # kept with it: its id is not reused
        table = _fixed_costs(self, s, race, modifiers)
        least = _NO_LEAST
        if table is not None and all(p.defence >= 0 for p in self.rules.pieces.values()):
            least = min(table)
        fixed = self._fixed_costs[id(modifiers)] = (modifiers, table, least)
    # Region by region only what differs per region; each piece table and each modifier
    # is then applied to the regions it concerns (the same sums, in the same region order).
    tokens, (_, mountains, least) = s.region_tokens, fixed
    order = self.regions_in(regions)
    applying: _Applying | None = None  # the modifiers, when the table is not fixed
    if mountains is None:
        applying = self._applying(s, race, "conquest_cost")
        mountains = self.mountain_bonus
    # a loop, not a comprehension: no function made and called per listing, and no cells
    # for the names it would share
    out: dict[int, int] = {}
    for r in order:
        out[r] = base + tokens[r] + mountains[r]
    on_map = s.pieces
    if on_map:
        pieces = self.rules.pieces
        for r, held in on_map.items():
            if (regions >> r) & 1:
                value = out[r]
                for name, count in held.items():
                    value += pieces[name].defence * count
                out[r] = value
    if applying is not None:
        adds, sets = applying
        for applies, amount in adds:
            for r in self.regions_in(applies & regions):
                out[r] += amount
        if sets:
            for r in order:  # loops, not comprehensions: no cells for this function's names
                lowest = None
                for applies, amount in sets:
                    if (applies >> r) & 1 and (lowest is None or amount < lowest):
                        lowest = amount
                if lowest is not None:
                    out[r] = lowest
    # With a fixed table no cost is below base + its least entry (tokens and, in such a
    # game, the pieces' defence add nothing negative): the clamp is then not looked for.
    if out and (applying is not None or base + least < floor) and min(out.values()) < floor:
        for r, value in out.items():
            if value < floor:
                out[r] = floor
    return out


#: the least entry of a fixed table when it bounds no cost (see conquest_costs)
_NO_LEAST = -(1 << 62)

#: See cost_table: (the modifiers, their fixed table with the base cost added or None,
#: the piece tables the last entry was made with, that table with the pieces' defence,
#: the modifiers left out of the table: worked out at each listing)
_CostTable = tuple[
    tuple[CompiledModifier, ...], tuple[int, ...] | None, Mapping[int, Mapping[str, int]],
    Sequence[int], tuple[CompiledModifier, ...],
]


def cost_table(
    self: Engine, modifiers: tuple[CompiledModifier, ...], s: State, race: str
) -> _CostTable:
    """What the conquest listing costs a region with, for a pairing's ``conquest_cost``
    modifiers (in one status), once conquest_costs has kept their fixed table: the base
    cost, the Mountain and the modifiers' amounts by region; a cost is then that plus the
    region's tokens and its pieces' defence (:func:`_with_defence`), at least 1 (the
    clamp, applied by ``ReachCosts.get``; the listing needs none: it lists a conquest
    with a token in hand, which a cost below 1 never exceeds). The modifiers that may
    change from move to move (a condition on the race's regions, an amount counted; no
    ``set``) are left out of the table and added at each listing, where they apply then.
    None in its place when conquest_costs must work them out each time: a ``set`` that
    may change, a defence or discount from another rule file, or a game where a race
    costs its conquests more (``region_tokens min``: pairings with the same modifiers
    share the table). ``s`` and ``race``: a position and race to evaluate the fixed
    modifiers with (they read only the map)."""
    fixed = self._fixed_costs.get(id(modifiers))
    if self._costs_by_region or self._floors or fixed is None or fixed[0] is not modifiers:
        return (modifiers, None, {}, (), ())
    table = fixed[1]
    varying: tuple[CompiledModifier, ...] = ()
    if table is None:  # some may change: the table of the others, and these apart
        known = self._fixed_modifiers
        varying = tuple([m for m in modifiers if id(m) not in known])
        if any(m.op == "set" for m in varying):
            return (modifiers, None, {}, (), ())
        table = _fixed_costs(self, s, race, tuple([m for m in modifiers if id(m) in known]))
        assert table is not None  # (every one of them is fixed)
    based = tuple([BASE_COST + extra for extra in table])
    return (modifiers, based, {}, based, varying)


def _with_defence(
    self: Engine, kept: _CostTable, on_map: Mapping[int, Mapping[str, int]]
) -> _CostTable:
    """``kept`` with the defence of the pieces now on the map (``on_map``) added, kept with
    that very table of piece tables: it is never changed in place (a change binds a changed
    copy, shared by a state's forks until then; see smallworld_rules.state), so the listing
    tests it by identity. Another table with the same contents (a load, a position reached
    two ways) keeps the sums."""
    if kept[2] == on_map:
        return (kept[0], kept[1], on_map, kept[3], kept[4])
    based = kept[1]
    assert based is not None
    table = list(based)
    pieces = self.rules.pieces
    # keys and look-ups, not items(): each items() makes a view, an iterator and a pair
    # per entry, and most regions hold one kind of piece
    for r in on_map:
        held = on_map[r]
        for name in held:
            table[r] += pieces[name].defence * held[name]
    return (kept[0], based, on_map, table, kept[4])


class ListedCosts(Mapping[int, int]):
    """``{region: cost}``: the conquest costs the listing worked out for a position, left on
    it (``State.reach_costs``) for the conquest that follows, with the engine and the race
    they were listed for. One object, not a tuple of the engine, the race and the costs:
    every listed conquest position in the undo history keeps it, and the collector walks
    what is kept. Made by calling the class and setting its fields: it has no
    ``__init__`` (keep it so: no frame per listing), and such a call is cheaper than
    ``object.__new__(cls)``."""

    __slots__ = ("engine", "race")
    engine: Engine  #: the engine that listed them
    race: str  #: the race they are the costs of


class ReachCosts(ListedCosts):
    """The costs of a reach, each worked out when asked from the tokens and the cost table
    the conquest listing summed it from (see cost_table). The token list is the listed
    position's, which no action changes (an action changes a fork of it)."""

    __slots__ = ("reach", "table", "tokens")
    reach: int
    table: Sequence[int]
    tokens: Sequence[int]

    def get(self, region: int, default: Any = None) -> Any:
        if region >= 0 and (self.reach >> region) & 1:
            cost = self.tokens[region] + self.table[region]
            return cost if cost >= 1 else 1  # the clamp: a conquest costs at least 1
        return default

    def __getitem__(self, region: int) -> int:
        cost: int | None = self.get(region)
        if cost is None:
            raise KeyError(region)
        return cost

    def __iter__(self) -> Iterator[int]:
        return iter(_bits(self.reach))

    def __len__(self) -> int:
        return self.reach.bit_count()


class KeptCosts(ListedCosts):
    """The costs conquest_costs worked out in full, where no fixed table sums them."""

    __slots__ = ("costs",)
    costs: Mapping[int, int]

    def get(self, region: int, default: Any = None) -> Any:
        return self.costs.get(region, default)

    def __getitem__(self, region: int) -> int:
        return self.costs[region]

    def __iter__(self) -> Iterator[int]:
        return iter(self.costs)

    def __len__(self) -> int:
        return len(self.costs)


def _fixed_costs(
    self: Engine, s: State, race: str, modifiers: tuple[CompiledModifier, ...]
) -> tuple[int, ...] | None:
    """What a Mountain and the race's ``conquest_cost`` modifiers add to each region's
    cost, when that is the same throughout the game: every modifier adds or subtracts a
    number where a condition that reads only the map holds (``fixed_modifiers``). ``None``
    when one of them may change from move to move: conquest_costs then works them out
    each time."""
    fixed = self._fixed_modifiers
    if not all(id(m) in fixed for m in modifiers):
        return None
    out = list(self.mountain_bonus)
    for applies, amount in self._applying(s, race, "conquest_cost", modifiers)[0]:
        for r in self.regions_in(applies & self.map.all_mask):
            out[r] += amount
    return tuple(out)


def fixed_modifiers(defs: Iterable[RuleDef]) -> frozenset[int]:
    """The ``id()`` of each modifier of ``defs`` known, from its rule file, to give the same
    regions and amount throughout a game: it adds or subtracts a number written in it, and
    its condition, if any, reads only the map (``reads_only_the_map``). A modifier of a rule
    file with no parsed source, or not told apart from another in it, is not among them."""
    out: set[int] = set()
    for d in defs:
        if d.ast is None:
            continue
        written: dict[tuple[int, str, str], list[ast.Modifier]] = {}
        for st in d.ast.statements:  # where the compiler finds them (compile_file)
            if isinstance(st, ast.Modifier):
                written.setdefault((st.pos.line, st.hook, st.op), []).append(st)
        for mods in d.modifiers.values():
            for m in mods:
                found = written.get((m.line, m.hook, m.op), [])
                if len(found) == 1 and m.op != "set" and _fixed(found[0]):
                    out.add(id(m))
    return frozenset(out)


def _fixed(st: ast.Modifier) -> bool:
    return isinstance(st.value, ast.Number) and (
        st.condition is None or reads_only_the_map(st.condition)
    )


def _costs_defended(
    self: Engine, s: State, race: str, regions: int, base: int, floor: int, own: _Applying
) -> dict[int, int]:
    """conquest_costs when some rule file of the game modifies ``defence``."""
    race_of, tokens, mountains = s.region_race, s.region_tokens, self.mountain_mask
    pieces, on_map, races = self.rules.pieces, s.pieces, s.races
    # with each defender's defence modifiers, by defender
    with_defence: dict[str, _Applying] = {}
    out = {}  # one dict rather than a tuple per region: fewer objects for the collector
    # the discounts of `discount N` waiting for the acting race (few rule files say it)
    cheaper = discounts.waiting(s) if self._discounting and race == s.acting else None
    # immune to powers: those regions are costed in full, without the race's modifiers
    shielded = values.shielded_regions(self, s, race) & regions if self._shielding else 0
    regions &= ~shielded
    while regions:
        low = regions & -regions
        regions ^= low
        region = low.bit_length() - 1
        value = base + tokens[region] + ((mountains >> region) & 1)
        if on_map:
            held = on_map.get(region)
            if held:
                for name, count in held.items():
                    value += pieces[name].defence * count
        adds, sets = own
        occupant = race_of[region]
        if occupant is not None and occupant in races:
            both = with_defence.get(occupant)
            if both is None:
                defence = self._applying(s, occupant, "defence")
                both = with_defence[occupant] = (adds + defence[0], sets + defence[1])
            adds, sets = both
        for applies, amount in adds:
            if (applies >> region) & 1:
                value += amount
        if cheaper:
            value -= cheaper.get(region, 0)
        if sets:  # loops, not comprehensions: `region` would be a cell
            lowest = None
            for applies, amount in sets:
                if (applies >> region) & 1 and (lowest is None or amount < lowest):
                    lowest = amount
            if lowest is not None:
                value = lowest
        out[region] = value if value >= floor else floor
    if shielded:
        for region in range(self.n):
            if (shielded >> region) & 1:
                out[region] = self.conquest_cost(s, race, region).value
        out = dict(sorted(out.items()))
    return out


def _applying(
    self: Engine,
    s: State,
    race: str,
    hook: str,
    modifiers: tuple[CompiledModifier, ...] | None = None,
) -> _Applying:
    """The race's modifiers on a targeted hook (or those given), each as the regions where
    it applies and its amount: ``(add/sub with signed amounts, set)``. Neither the regions
    nor the amount depends on the target (``CompiledModifier.where``), so they are worked
    out once for every region a caller asks about."""
    if modifiers is None:
        modifiers = self._modifiers(s, race, hook)
    if not modifiers:
        return _NOTHING_APPLIES
    ctx = _Ctx(self, s, race)
    adds: list[tuple[int, int]] = []
    sets: list[tuple[int, int]] = []
    for m in modifiers:
        if m.where is not None:
            applies = m.where(ctx)
        else:  # no condition, or one on the context alone: everywhere or nowhere
            applies = self.map.all_mask if m.condition(ctx) else 0
        if applies:
            amount = m.value(ctx)
            if m.op == "set":
                sets.append((applies, amount))
            else:
                adds.append((applies, amount if m.op == "add" else -amount))
    return tuple(adds), tuple(sets)


def losses(self: Engine, s: State, race: str, region: int) -> Breakdown:
    """Tokens ``race`` loses for good when ``region`` is conquered from it (rule 1.8)."""
    parts = self._contributions(s, race, "losses", region)
    if not parts and s.region_tokens[region]:  # the common case: one token, no fold
        return Breakdown(1, 1)
    return fold(1, parts, minimum=0, maximum=s.region_tokens[region])


def losses_value(self: Engine, s: State, race: str, region: int) -> int:
    """``losses(s, race, region).value`` (``race`` in play); a race none of whose rule
    files has ``losses`` modifiers (most) is answered without its pairing's look-up and
    the breakdown: one token, none from an empty region."""
    losing = self._losing  # _none_of, without its frame (asked at every conquest of a race)
    if race not in losing and s.races[race].power not in losing and race != self.role_race:
        return 1 if s.region_tokens[region] else 0
    return self.losses(s, race, region).value


def _may_abandon(self: Engine, s: State) -> bool:
    return not s.conquered or bool(self.options["abandon_mid_conquest"])


def _abandon(self: Engine, s: State, action: Abandon, log: Log) -> None:
    self._need_phase(s, action, _CONQUEST, _REDEPLOY)
    rs = self._acting_race(s, action)
    r = action.region
    if not 0 <= r < self.n or s.region_race[r] != rs.race:
        raise IllegalAction(f"region {r} is not held by your acting race", action)
    if s.phase is _REDEPLOY:
        if rs.hand >= self._hold(s, rs):
            raise IllegalAction(
                "in redeployment a region is abandoned only to free tokens that must be "
                "held back (ruling 13)",
                action,
            )
    elif not self._may_abandon(s):
        raise IllegalAction("regions are abandoned before the first conquest (rule 1.6)", action)
    tokens = s.region_tokens[r]
    rs.hand += tokens
    self._empty_region(s, r)
    s.acted = True
    log((ABANDONED, s.active, rs.race, r, tokens))
    if self.keeps_out and self.has_flag(s, rs.race, "no_return_to_abandoned"):
        flow.remember_abandoned(s, rs.race, r)
    if "abandon" in self.trigger_events:
        events.fire(self, s, rs, "abandon", log, events.Occasion("abandon", r))


def _attempt(self: Engine, s: State, action: Conquer | ConquerWithDie) -> tuple[RaceState, int]:
    """Checks shared by every conquest attempt; returns the race and the cost."""
    if s.phase is not _CONQUEST:
        self._need_phase(s, action, _CONQUEST)  # raises
    # the acting race, as _acting_race gives it (which raises when there is none)
    rs = self._acting_race(s, action) if s.acting is None else s.own_race(s.acting)
    known = s.reach_costs  # legal_actions' costs of this position, if it was asked
    if known is not None and known.engine is self and known.race == rs.race:
        cost = known.get(action.region)
        if cost is not None:  # a region it could reach, with tokens in hand (ruling 4)
            return rs, cost
    problem = self.target_problem(s, rs.race, action.region)
    if problem:
        raise IllegalAction(problem, action)
    if rs.hand < 1:
        raise IllegalAction("a conquest needs at least one token in hand (ruling 4)", action)
    return rs, self.conquest_cost_value(s, rs.race, action.region)


def _conquer(self: Engine, s: State, action: Conquer, log: Log) -> None:
    rs, cost = self._attempt(s, action)
    r = action.region
    if cost > rs.hand:
        raise IllegalAction(
            f"region {r} costs {cost} tokens and you have {rs.hand} in hand", action
        )
    s.die_bonus = -1  # a rolled bonus is spent on this conquest
    # _take_region(s, rs, r, cost, cost, log), one frame fewer (every Conquer)
    occupant = s.region_race[r]
    if (
        (occupant is None or (occupant == LOST_TRIBE and self._lost_to_box))
        and self._quick_seize
        and not s.pieces.get(r)
    ):
        # _seize for a region no race defends and no piece holds (3 conquests in 4), without
        # its frame and its tests of what expansions add: a Lost Tribe is simply discarded
        # (where no zone takes lost tokens)
        held = s.region_tokens[r]
        if occupant is not None and held:
            s.conquered_nonempty |= 1 << r
        race = rs.race
        s.occupy(r, race, cost)
        rs.hand -= cost
        s.conquered = (*s.conquered, r)
        s.acted = True
        log((CONQUERED, s.active, race, r, cost, cost, None, occupant, held, 0))
        triggering = self._triggering
        if race in triggering or rs.power in triggering or race == self.role_race:
            self._fire(s, rs, "conquest", r, log, None, occupant)
        return
    lost = self.losses_value(s, occupant, r) if occupant in s.races else s.region_tokens[r]
    self._seize(s, rs, r, lost, cost, cost, log)


def _take_region(
    self: Engine, s: State, rs: RaceState, r: int, cost: int, tokens: int, log: Log
) -> None:
    """Move ``tokens`` from hand into ``r``; the defender loses and withdraws (rule 1.8)."""
    occupant, held = s.region_race[r], s.region_tokens[r]
    lost = self.losses_value(s, occupant, r) if occupant in s.races else held
    self._seize(s, rs, r, lost, tokens, cost, log)


def _seize(
    self: Engine,
    s: State,
    rs: RaceState,
    r: int,
    lost: int,
    tokens: int,
    cost: int,
    log: Log,
    to_box: bool = False,
) -> None:
    """``rs`` takes ``r`` with ``tokens`` from hand; the occupant loses ``lost`` tokens to
    its box and takes the rest into hand (every conquest, whatever its form, ends here, but
    a Conquer of a region nobody defends: _conquer carries that out itself).
    The lost tokens go where lost tokens go (``_lose``), or to the box if ``to_box``."""
    if self._hiding and s.pieces.get(r) and hidden_pieces.reveal(self, s, rs, r, log):
        return  # a face-down piece stopped the conquest: nothing changed hands
    occupant, held = s.region_race[r], s.region_tokens[r]
    defender: int | None = None
    returned = 0
    if self.records_facts:  # what the region held, for rules that read it afterwards
        events.record_conquest(self, s, r, rs)
    if self._discounting and rs.race == s.acting:
        discounts.spend(s, r)
    boxed = self._lost_to_box  # then _lose's answer, without its frame: the box
    if occupant == LOST_TRIBE:
        lost = held  # ruling 10: Lost Tribes are simply discarded
        if not boxed:
            self._lose(s, occupant, lost, log)
    elif occupant is not None:
        drs = s.races[occupant]  # copied (own_race) only where it changes
        defender = drs.owner
        returned = held - lost
        if to_box or (boxed and lost):
            s.to_box(occupant, lost)
        elif not boxed:
            self._lose(s, occupant, lost, log)  # ruling 7: exactly the losses leave
        role = occupant == self.role_race
        if role:
            # Rule 4.2.4: only the returned tokens are placed at the withdrawal; those in the
            # hand zone wait aside (held) until the turn ends.
            drs = s.own_race(occupant)
            drs.held += drs.hand
            drs.hand = 0
        if returned:
            drs = s.own_race(occupant)
            drs.hand += returned
        if (
            not drs.declined
            and rs.race == s.players[s.active].active
            and not (role and self.seen_declined(occupant))
        ):
            s.attacked |= 1 << drs.owner
    if occupant is not None and held:
        s.conquered_nonempty |= 1 << r  # ruling 17: non-empty = a race or Lost Tribe token
    if self._looting and s.pieces.get(r):  # pieces with `loot N`: coins for the conqueror
        pieces = self.rules.pieces
        loot = 0
        for n, k in s.pieces[r].items():  # (a loop: a generator would make `pieces` a cell)
            if not pieces[n].hidden:
                loot += pieces[n].loot * k
        s.own_player(rs.owner).coins += loot
    # _remove_pieces returns {} at once for a region without pieces: no frame for most
    kept = self._remove_pieces(s, r, keep_survivors=False) if s.pieces.get(r) else {}
    for name, count in kept.items():  # ruling 25: placed again at the end of this turn
        s.regained = {**s.regained, name: s.regained.get(name, 0) + count}
    s.occupy(r, rs.race, tokens)
    rs.hand -= tokens
    s.conquered = (*s.conquered, r)
    s.acted = True
    log((CONQUERED, s.active, rs.race, r, cost, tokens, defender, occupant, lost, returned))
    retiring = None
    if occupant is not None and occupant != LOST_TRIBE:
        drs = s.races[occupant]
        if (drs.hand or kept) and occupant not in s.withdrawals:
            s.withdrawals = (*s.withdrawals, occupant)
        if drs.declined and not self.mask_of(s, occupant):
            # a declined race cannot re-enter the map; with rule files that act on a loss,
            # it leaves once its own triggers on this one have run (its last region counts)
            if self.defender_events:
                retiring = occupant
            else:
                self._retire(s, occupant, log)
    triggering = self._triggering  # _fire's quick test first, without its frames
    if rs.race in triggering or rs.power in triggering or rs.race == self.role_race:
        self._fire(s, rs, "conquest", r, log, defender, occupant)
    if defender is not None and occupant in s.races and self.defender_events:
        attacker = s.races[rs.race].owner
        if events.triggers(self, s, occupant, "lost"):
            occasion = events.Occasion("lost", r, attacker, rs.race)
            events.fire(self, s, s.own_race(occupant), "lost", log, occasion)
        if lost and occupant in s.races and events.triggers(self, s, occupant, "tokens_lost"):
            occasion = events.Occasion("tokens_lost", r, attacker, rs.race, lost)
            events.fire(self, s, s.own_race(occupant), "tokens_lost", log, occasion)
        if "any_lost" in self.trigger_events:
            occasion = events.Occasion("any_lost", r, attacker, rs.race)
            events.fire_player(self, s, defender, "any_lost", log, occasion)
    if retiring is not None and retiring in s.races and not self.mask_of(s, retiring):
        self._retire(s, retiring, log)


def _lose(self: Engine, s: State, race: str, count: int, log: Log) -> None:
    """Tokens lost to a conquest: to the zone an expansion names, else to the box."""
    if not count:
        return
    zone = self.lost_zone
    if self._collectors:  # a race's own pile, while it is active (collect lost_tokens)
        zone = piles.collecting(self, s) or zone
    if zone is not None:
        s.zones = {**s.zones, zone: s.zones[zone] + (race,) * count}
        log((TOKENS_TO_ZONE, zone, (race,) * count))
    elif race != LOST_TRIBE:
        s.to_box(race, count)
