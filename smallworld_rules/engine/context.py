"""The contexts compiled rules are evaluated in, and what a race/badge pairing brings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from smallworld_rules.dsl.bounds import COUNT_LIMIT
from smallworld_rules.dsl.vocabulary import HOOKS
from smallworld_rules.hooks import IntFn
from smallworld_rules.language import values
from smallworld_rules.maps import GameMap
from smallworld_rules.ruledefs import CompiledAbility, CompiledModifier, CompiledTrigger, RuleDef
from smallworld_rules.state import State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


#: No modifier on any hook: what each pairing's tables start from (copied before a part's
#: modifiers are added; a pairing none of whose files has any keeps this very table, never
#: changed: a pairing's tables are read, not written, once it is made)
_NO_MODIFIERS: dict[str, tuple[CompiledModifier, ...]] = dict.fromkeys(HOOKS, ())
#: No trigger: the table of a pairing none of whose files has any (shared, never changed)
_NO_TRIGGERS: dict[str, tuple[CompiledTrigger, ...]] = {}
#: The flags that let a conquest reach beyond the land bordering the race's regions.
_NOT_NEAR = frozenset({"conquer_anywhere", "enter_water"})


class _Part:
    """What one rule file brings to any pairing it is part of (see _Combo), worked out
    once per file of an engine (its flags and links follow the game's options)."""

    __slots__ = (
        "abilities",
        "active_modifiers",
        "conquest_abilities",
        "declined_abilities",
        "declined_modifiers",
        "flags",
        "lifts_pieces",
        "link",
        "redeploy_abilities",
        "triggers",
    )

    def __init__(self, engine: Engine, d: RuleDef) -> None:
        key = d.kind, d.id
        self.flags: frozenset[str] = engine.flags[key]
        link = 0
        for mask in engine.links[key]:
            link |= mask
        self.link = link
        self.abilities = tuple(a for a in d.abilities if a.status != "declined")
        self.declined_abilities = tuple(a for a in d.abilities if a.status != "active")
        #: those of ``abilities`` listed in the conquests and in the redeployment (_Combo's)
        self.conquest_abilities = tuple(
            a for a in self.abilities if "conquest" in a.phases or "turn_start" in a.phases
        )
        self.redeploy_abilities = tuple(a for a in self.abilities if "redeploy" in a.phases)
        triggers: dict[str, tuple[CompiledTrigger, ...]] = {}
        for trigger in d.triggers:  # by event, in file order
            triggers[trigger.event] = (*triggers.get(trigger.event, ()), trigger)
        self.triggers = tuple(triggers.items())
        #: it holds pieces that go back to the supply when its race redeploys
        self.lifts_pieces = any(
            p.lifted_at_redeploy and p.holder == d.id for p in engine.rules.pieces.values()
        )
        # each hook's modifiers while active and once in decline, only the hooks it has
        active: list[tuple[str, tuple[CompiledModifier, ...]]] = []
        declined: list[tuple[str, tuple[CompiledModifier, ...]]] = []
        for hook in HOOKS:
            mods = d.modifiers[hook]
            on = tuple(m for m in mods if m.applies_to(False))
            off = tuple(m for m in mods if m.applies_to(True))
            if on:
                active.append((hook, on))
            if off:
                declined.append((hook, off))
        self.active_modifiers = tuple(active)
        self.declined_modifiers = tuple(declined)


def _part(engine: Engine, d: RuleDef) -> _Part:
    """The file's part, made on first use (kept by the file's id, with the file)."""
    kept = engine._parts.get(id(d))
    if kept is not None and kept[0] is d:
        return kept[1]
    part = _Part(engine, d)
    engine._parts[id(d)] = (d, part)
    return part


class _Combo:
    """What a race/badge pairing brings, gathered from its rule files once per game."""

    __slots__ = (
        "abilities",
        "active_modifiers",
        "conquest_abilities",
        "conquest_tokens",
        "declined_abilities",
        "declined_modifiers",
        "defs",
        "far",
        "flags",
        "floor",
        "lifts_pieces",
        "link",
        "near",
        "reach",
        "redeploy_abilities",
        "region_max",
        "triggers",
    )

    def __init__(self, engine: Engine, defs: tuple[RuleDef, ...]) -> None:
        # The parts of its files joined in file order (a pairing is built afresh for each
        # new race/badge pairing a game meets, a role's for each order of its powers):
        # each attribute as its comment says.
        self.defs = defs  #: the race's rule file, then its power's
        flags: frozenset[str] = frozenset()
        link = conquest_tokens = region_max = 0
        reach = floor = 1
        abilities: tuple[CompiledAbility, ...] = ()
        declined_abilities: tuple[CompiledAbility, ...] = ()
        conquest_abilities: tuple[CompiledAbility, ...] = ()
        redeploy_abilities: tuple[CompiledAbility, ...] = ()
        parts = engine._parts
        lifts = False
        # the tables shared until a part brings something (a new pairing is a dozen objects
        # the collector walks for good: three fewer for most)
        triggers = _NO_TRIGGERS
        active = declined = _NO_MODIFIERS
        first = True
        for d in defs:
            kept = parts.get(id(d))  # _part's look-up, without its frame
            part = kept[1] if kept is not None and kept[0] is d else _part(engine, d)
            if part.flags:  # (a union only where both have flags: each is a new set)
                flags = flags | part.flags if flags else part.flags
            link |= part.link
            conquest_tokens += d.conquest_tokens
            if first:
                reach, first = d.reach, False
            elif d.reach > reach:
                reach = d.reach
            if d.region_min > floor:
                floor = d.region_min
            if d.region_max and (not region_max or d.region_max < region_max):
                region_max = d.region_max
            abilities += part.abilities
            declined_abilities += part.declined_abilities
            conquest_abilities += part.conquest_abilities
            redeploy_abilities += part.redeploy_abilities
            if part.triggers:
                if triggers is _NO_TRIGGERS:
                    triggers = {}
                for event, these in part.triggers:
                    triggers[event] = triggers.get(event, ()) + these
            lifts = lifts or part.lifts_pieces
            if part.active_modifiers:
                if active is _NO_MODIFIERS:
                    active = dict(_NO_MODIFIERS)
                for hook, mods in part.active_modifiers:
                    active[hook] += mods
            if part.declined_modifiers:
                if declined is _NO_MODIFIERS:
                    declined = dict(_NO_MODIFIERS)
                for hook, mods in part.declined_modifiers:
                    declined[hook] += mods
        #: the triggers of each event, in file order
        self.triggers = triggers
        self.flags = flags
        #: the regions its links make adjacent to one another
        self.link = link
        self.conquest_tokens = conquest_tokens
        #: how many steps its conquests reach (``reach N``), the least a conquest costs
        self.reach = reach
        self.far = reach > 1 or "crosses_water" in flags  # see values.far_reach
        #: its conquests reach only the land bordering its regions (see reach._reach)
        self.near = not self.far and not flags & _NOT_NEAR
        self.floor = floor
        #: the most tokens a region may hold after redeployment (0: no limit)
        self.region_max = region_max
        #: while active, and in decline (``while declined``, ``always``)
        self.abilities = abilities
        self.declined_abilities = declined_abilities
        #: those of ``abilities`` that may be listed in the conquests (``during conquest``
        #: or ``turn_start``) and in the redeployment: the listing skips the others at once
        self.conquest_abilities = conquest_abilities
        self.redeploy_abilities = redeploy_abilities
        #: whether it holds pieces that go back to the supply when it redeploys
        self.lifts_pieces = lifts
        #: the modifiers that apply on each hook, while active and once in decline (the
        #: race's, then its powers', each file's in its order)
        self.active_modifiers, self.declined_modifiers = active, declined


#: ``bytes.translate`` tables from a region's token count (one byte) to the digit of its
#: bit in a mask: 1 where the region holds tokens, or exactly one
_NON_EMPTY = bytes([48] + [49] * 255)
_LONE = bytes([48, 49] + [48] * 254)


def _tokens_mask(tokens: list[int], table: bytes) -> int:
    """The mask of the regions whose token count ``table`` marks: the counts as bytes,
    translated to binary digits, read as one number (region 0 the lowest bit), in C calls
    rather than a Python loop over the regions (asked per target of an ability)."""
    try:
        return int(bytes(tokens)[::-1].translate(table), 2)
    except ValueError:  # a count above 255 (no byte): region by region
        mask = 0
        for r, count in enumerate(tokens):
            if table[min(count, 255)] == 49:
                mask |= 1 << r
        return mask


class _Ctx:
    """The :class:`~smallworld_rules.hooks.EvalContext` compiled rules are evaluated in."""

    __slots__ = ("all_mask", "engine", "race", "state", "target")

    #: the event a trigger is evaluated for (smallworld_rules.language.events.Occasion);
    #: only the contexts of triggers (_EventCtx) have one, the many others none
    occasion: Any = None
    #: the race's reach, known already (only _ReachCtx has one): ``reachable`` reads it
    reach: int | None = None

    def __init__(self, engine: Engine, state: State, race: str, target: int = -1) -> None:
        self.engine = engine
        self.state = state
        self.race = race
        self.target = target
        self.all_mask = engine.map.all_mask  # read by most rules: no property frame

    def terrain_mask(self, name: str) -> int:
        return self.engine.map.terrain_masks[name]

    def feature_mask(self, name: str) -> int:
        return self.engine.map.feature_masks[name]

    def property_mask(self, name: str) -> int:
        s, engine = self.state, self.engine
        if name == "reachable":
            reach = self.reach
            return engine.reach_mask(s, self.race) if reach is None else reach
        if name == "non_empty":
            return _tokens_mask(s.region_tokens, _NON_EMPTY)
        if name == "lone":
            return _tokens_mask(s.region_tokens, _LONE)
        if name == "first_turn":
            rs = s.races.get(self.race)
            return self.all_mask if rs is not None and rs.turns == 0 else 0
        if name == "on_map":
            return self.all_mask if engine.mask_of(s, self.race) else 0
        if name == "enemy_active":
            return engine.enemy_active_mask(s, self.race)
        if name == "guarded":
            return engine.guarded_mask(s)
        language = values.REGION_PROPERTIES.get(name)
        if language is not None:
            return language(self)
        return engine.property_masks[name]

    def piece_mask(self, name: str) -> int:
        mask = 0
        for r, pieces in self.state.pieces.items():  # only regions with pieces are listed
            if pieces.get(name):
                mask |= 1 << r
        return mask

    def own_mask(self) -> int:
        return self.state.race_masks.get(self.race, 0)  # mask_of, without its frame

    def conquests_mask(self, non_empty_only: bool) -> int:
        s = self.state
        if s.acting != self.race:
            return 0
        if non_empty_only:
            return s.conquered_nonempty
        return sum(1 << r for r in s.conquered)

    def option(self, name: str) -> bool | int:
        return self.engine.options[name]

    def adjacent_mask(self, regions: int) -> int:
        return self.engine.adjacent_mask(regions)

    def conquest_adjacent_mask(self, regions: int) -> int:
        out = self.engine.adjacent_mask(regions)
        joined = regions & self.engine.link_mask(self.state, self.race)
        if joined:  # every linked region is next to the others, not to itself
            link = self.engine.link_mask(self.state, self.race)
            out |= link if joined & (joined - 1) else link & ~joined
        return out

    def powers_count(self) -> int:
        engine = self.engine
        if self.race == engine.role_race:  # _powers' first case: all the role activated
            return len(self.state.role_powers)
        return len(engine._powers(self.state, self.race))

    def tokens_in(self, place: str) -> int:
        """The race's tokens on the map, in its reserve (box), or in a zone (worked out here,
        not through the engine: a frame fewer, several times per turn of a role)."""
        s, race = self.state, self.race
        if place == "map":  # the race's regions from its occupant mask, not a scan of the map
            engine = self.engine
            entry = engine._by_mask.get(s.race_masks.get(race, 0))  # regions_of's table, here
            tokens = s.region_tokens
            total = 0
            for r in engine.regions_of(s, race) if entry is None else entry[0]:
                total += tokens[r]
            return total
        if place == "reserve":
            return s.box.get(race, 0)
        pile = s.zones.get(place)
        if pile is not None:
            return pile.count(race)
        engine = self.engine
        zone = engine.rules.zones.get(place)
        rs = s.races.get(race)
        if zone is None or rs is None or engine.role is None or zone.role != engine.role.id:
            return 0
        return rs.hand + rs.held if race == engine.role_race else 0

    # The rule language's values of version 3 (smallworld_rules.language.values).

    def value(self, name: str) -> int:
        return values.VALUES[name](self)

    def counter(self, key: str, per_turn: bool) -> int:
        return values.counter(self, key, per_turn)

    def tokens_on(self, regions: int) -> int:
        return values.tokens_on(self, regions)

    def past_mask(self, name: str) -> int:
        return values.past_mask(self, name)

    def past_piece_mask(self, name: str) -> int:
        return values.past_piece_mask(self, name)

    def past_tokens(self, regions: int) -> int:
        return values.past_tokens(self, regions)

    def holding_mask(self, test: Callable[[int], bool], past: bool) -> int:
        return values.holding_mask(self, test, past)


class _Made(_Ctx):
    """A :class:`_Ctx` made by :func:`new_context`: the class's call runs no ``__init__``."""

    __slots__ = ()
    __init__ = object.__init__


def new_context(engine: Engine, state: State, race: str, target: int = -1) -> _Ctx:
    """``_Ctx(engine, state, race, target)`` without its ``__init__`` frame (the class call
    of a Python ``__init__`` re-enters the interpreter: a fifth of what making one costs)."""
    ctx: _Ctx = _Made()
    ctx.engine = engine
    ctx.state = state
    ctx.race = race
    ctx.target = target
    ctx.all_mask = engine.map.all_mask
    return ctx


class _ReachCtx(_Ctx):
    """A context that knows the race's reach already (the legal actions of a position work
    it out once): ``reachable`` reads it (_Ctx.property_mask) instead of working it out
    again."""

    __slots__ = ("reach",)

    def __init__(self, engine: Engine, state: State, race: str, reach: int) -> None:
        self.engine = engine
        self.state = state
        self.race = race
        self.target = -1
        self.all_mask = engine.map.all_mask
        self.reach = reach  #: ``engine.reach_mask(state, race)``


class _EventCtx(_Ctx):
    """The context of a trigger's condition and amounts: knows the event."""

    __slots__ = ("occasion",)


class _Static:
    """The context of what never changes in a game: the map and the options (a flag's
    condition, a link's regions)."""

    target = -1

    def __init__(self, game_map: GameMap, options: Mapping[str, bool | int]) -> None:
        self.map = game_map
        self.options = options
        self.all_mask = game_map.all_mask
        self.properties = {
            "coastal": game_map.coastal_mask,
            "border": game_map.entry_mask,
            "water": game_map.water_mask,
        }

    def option(self, name: str) -> bool | int:
        return self.options[name]

    def terrain_mask(self, name: str) -> int:
        return self.map.terrain_masks[name]

    def feature_mask(self, name: str) -> int:
        return self.map.feature_masks[name]

    def property_mask(self, name: str) -> int:
        return self.properties.get(name, 0)

    def piece_mask(self, name: str) -> int:
        return 0

    def own_mask(self) -> int:
        return 0

    def conquests_mask(self, non_empty_only: bool) -> int:
        return 0

    def adjacent_mask(self, regions: int) -> int:
        return self.map.adjacent_mask(regions)

    def conquest_adjacent_mask(self, regions: int) -> int:
        return self.map.adjacent_mask(regions)  # no race, no link

    def powers_count(self) -> int:
        return 0

    def tokens_in(self, place: str) -> int:
        return 0

    # Nothing of the moment is known before the game starts.

    def value(self, name: str) -> int:
        return 0

    def counter(self, key: str, per_turn: bool) -> int:
        return 0

    def tokens_on(self, regions: int) -> int:
        return 0

    def past_mask(self, name: str) -> int:
        return 0

    def past_piece_mask(self, name: str) -> int:
        return 0

    def past_tokens(self, regions: int) -> int:
        return 0

    def holding_mask(self, test: Callable[[int], bool], past: bool) -> int:
        return 0


class _PlayerCtx(_Static):
    """The context a ``target player`` condition is evaluated in: masks are sets of players,
    ``all_mask`` the acting player's opponents. With ``about`` (one of them, see
    :func:`players_matching`) the values of the moment are the game's, for the race the
    rule belongs to, and ``count(coins)`` is that player's coins."""

    def __init__(
        self, engine: Engine, state: State, player: int, race: str | None = None,
        about: int = -1,
    ) -> None:
        # _Static's map and options, not its map properties (property_mask is this class's)
        self.map = engine.map
        self.options = engine.options
        self.engine = engine
        self.state = state
        self.race = race
        self.about = about
        self.all_mask = ((1 << engine.players) - 1) & ~(1 << player)

    def property_mask(self, name: str) -> int:
        if name == "attacked":
            return self.state.attacked
        if name == "neighbour" and self.race is not None:
            return values.neighbours(self.engine, self.state, self.race)
        return 0

    def value(self, name: str) -> int:
        if name == "coins" and self.about >= 0:
            return min(self.state.players[self.about].coins, COUNT_LIMIT)
        if self.race is None or self.race not in self.state.races:
            return 0
        return new_context(self.engine, self.state, self.race).value(name)

    def counter(self, key: str, per_turn: bool) -> int:
        if self.race is None:
            return 0
        return new_context(self.engine, self.state, self.race).counter(key, per_turn)

    terrain_mask = feature_mask = property_mask


def players_matching(
    engine: Engine, state: State, owner: int, race: str, condition: IntFn, players: int
) -> int:
    """The players of the mask ``players`` for whom a player condition holds, each tested
    in a context of its own (so ``count(coins)`` is that player's coins)."""
    out = 0
    for p in range(engine.players):
        if (players >> p) & 1 and (
            condition(_PlayerCtx(engine, state, owner, race, p)) >> p
        ) & 1:
            out |= 1 << p
    return out
