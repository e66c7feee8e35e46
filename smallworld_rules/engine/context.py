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


class _Combo:
    """What a race/badge pairing brings, gathered from its rule files once per game."""

    __slots__ = (
        "abilities",
        "active_modifiers",
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
        "region_max",
        "triggers",
    )

    def __init__(self, engine: Engine, defs: tuple[RuleDef, ...]) -> None:
        # One pass over the files (a pairing is built afresh for each new race/badge
        # pairing a game meets): each attribute as its comment says, in file order.
        self.defs = defs  #: the race's rule file, then its power's
        flags: frozenset[str] = frozenset()
        link = conquest_tokens = region_max = 0
        reach = floor = 1
        abilities: list[CompiledAbility] = []
        declined_abilities: list[CompiledAbility] = []
        #: the triggers of each event, in file order
        self.triggers: dict[str, tuple[CompiledTrigger, ...]] = {}
        for i, d in enumerate(defs):
            key = d.kind, d.id
            flags |= engine.flags[key]
            for mask in engine.links[key]:
                link |= mask
            conquest_tokens += d.conquest_tokens
            reach = d.reach if i == 0 else max(reach, d.reach)
            floor = max(floor, d.region_min)
            if d.region_max and (not region_max or d.region_max < region_max):
                region_max = d.region_max
            for a in d.abilities:
                if a.status != "declined":
                    abilities.append(a)
                if a.status != "active":
                    declined_abilities.append(a)
            for trigger in d.triggers:
                self.triggers[trigger.event] = (*self.triggers.get(trigger.event, ()), trigger)
        self.flags = flags
        #: the regions its links make adjacent to one another
        self.link = link
        self.conquest_tokens = conquest_tokens
        #: how many steps its conquests reach (``reach N``), the least a conquest costs
        self.reach = reach
        self.far = reach > 1 or "crosses_water" in flags  # see values.far_reach
        #: its conquests reach only the land bordering its regions (see reach._reach)
        self.near = not self.far and not flags & {"conquer_anywhere", "enter_water"}
        self.floor = floor
        #: the most tokens a region may hold after redeployment (0: no limit)
        self.region_max = region_max
        #: while active, and in decline (``while declined``, ``always``)
        self.abilities = tuple(abilities)
        self.declined_abilities = tuple(declined_abilities)
        #: whether it holds pieces that go back to the supply when it redeploys
        self.lifts_pieces = False
        ids = {d.id for d in defs}
        for p in engine.rules.pieces.values():
            if p.lifted_at_redeploy and p.holder in ids:
                self.lifts_pieces = True
                break
        #: the modifiers that apply on each hook, while active and once in decline
        self.active_modifiers, self.declined_modifiers = self._modifiers()

    def _modifiers(
        self,
    ) -> tuple[dict[str, tuple[CompiledModifier, ...]], dict[str, tuple[CompiledModifier, ...]]]:
        """Each hook's modifiers in file order (the race's, then its powers'), while active
        and once in decline; in one pass over the few the files have (a pairing is built
        afresh for each new race/badge pairing of a game)."""
        active: dict[str, tuple[CompiledModifier, ...]] = dict.fromkeys(HOOKS, ())
        declined = dict(active)
        for d in self.defs:
            for hook in HOOKS:
                for m in d.modifiers[hook]:
                    if m.applies_to(False):
                        active[hook] += (m,)
                    if m.applies_to(True):
                        declined[hook] += (m,)
        return active, declined


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
        if name == "reachable":
            return engine.reach_mask(s, self.race)
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


class _ReachCtx(_Ctx):
    """A context that knows the race's reach already (the legal actions of a position work
    it out once): ``reachable`` reads it instead of working it out again."""

    __slots__ = ("reach",)

    def __init__(self, engine: Engine, state: State, race: str, reach: int) -> None:
        self.engine = engine
        self.state = state
        self.race = race
        self.target = -1
        self.all_mask = engine.map.all_mask
        self.reach = reach  #: ``engine.reach_mask(state, race)``

    def property_mask(self, name: str) -> int:
        if name == "reachable":
            return self.reach
        return _Ctx.property_mask(self, name)


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
        return _Ctx(self.engine, self.state, self.race).value(name)

    def counter(self, key: str, per_turn: bool) -> int:
        if self.race is None:
            return 0
        return _Ctx(self.engine, self.state, self.race).counter(key, per_turn)

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
