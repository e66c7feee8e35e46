"""The rules of play: which actions are legal and what they do to a :class:`State`.

The engine knows no race or power by name. It reads what a race or power changes from its
compiled rule file: modifiers folded into the hook points (conquest cost, defence, losses,
score), flags, and pieces. Rule numbers in comments ("rule 1.7") point at the Core rules page of
the docs for the rule implemented.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from smallworld_rules import rng
from smallworld_rules.actions import (
    Abandon,
    Action,
    ChoosePower,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    EndTurn,
    PickCombo,
    Purchase,
    RollDie,
    UseAbility,
    action_problem,
)
from smallworld_rules.dsl.vocabulary import HOOKS
from smallworld_rules.errors import IllegalAction, RulesError
from smallworld_rules.events import (
    Abandoned,
    AbilityUsed,
    ComboPicked,
    Conquered,
    Declined,
    Deployed,
    DieRolled,
    Event,
    Exchanged,
    GameOver,
    PieceMoved,
    PowerChosen,
    RaceActs,
    RaceRemoved,
    Scored,
    TokenBought,
    TokensGained,
    TokensToZone,
    TurnEnded,
    TurnStarted,
)
from smallworld_rules.hooks import CORE, Breakdown, Contribution, EvalContext, fold
from smallworld_rules.maps import GameMap
from smallworld_rules.ruledefs import (
    CompiledAbility,
    CompiledEffect,
    CompiledModifier,
    CompiledTrigger,
    RoleDef,
    RuleDef,
)
from smallworld_rules.rules import Rules
from smallworld_rules.state import (
    ABILITY_ROLL,
    LOST_TRIBE,
    SOUL,
    Phase,
    PlayerState,
    RaceState,
    State,
    new_generation,
    occupant_masks,
    without,
)

# The phases as module constants: ``Phase.X`` goes through the enum's metaclass (≈ 140 ns on
# CPython 3.11, a global ≈ 15 ns), and the engine tests the phase several times per action.
_PICK, _CONQUEST, _DIE_ROLL = Phase.PICK, Phase.CONQUEST, Phase.DIE_ROLL
_REDEPLOY, _WITHDRAWAL, _OVER = Phase.REDEPLOY, Phase.WITHDRAWAL, Phase.OVER
#: Each phase's name as rule files write it (``phase.value`` is an enum property, as slow).
_PHASE_NAMES = {phase: phase.value for phase in Phase}

#: Faces of the reinforcement die (rule 1.1).
DIE_FACES = (0, 0, 0, 1, 2, 3)
#: Coins each player starts with (rule 1.2).
STARTING_COINS = 5
#: Combos visible in the market (rule 1.2).
MARKET_SIZE = 6
#: How many tokens short a final die attempt may be (rule 1.9).
DIE_REACH = 3
BASE_COST = 2
#: Lost Tribe tokens in the box (rule 1.1).
LOST_TRIBE_TOKENS = 18


Log = Callable[[Event], None]


class _Combo:
    """What a race/badge pairing brings, gathered from its rule files once per game."""

    __slots__ = (
        "abilities",
        "active_modifiers",
        "conquest_tokens",
        "declined_modifiers",
        "defs",
        "flags",
        "lifts_pieces",
        "link",
        "triggers",
    )

    def __init__(self, engine: Engine, defs: tuple[RuleDef, ...]) -> None:
        self.defs = defs  #: the race's rule file, then its power's
        self.flags = frozenset().union(*(engine.flags[d.kind, d.id] for d in defs))
        #: the regions its links make adjacent to one another
        self.link = 0
        for d in defs:
            for mask in engine.links[d.kind, d.id]:
                self.link |= mask
        self.conquest_tokens = sum(d.conquest_tokens for d in defs)
        self.abilities = tuple(a for d in defs for a in d.abilities)  #: while active
        #: whether it holds pieces that go back to the supply when it redeploys
        ids = {d.id for d in defs}
        self.lifts_pieces = any(
            p.lifted_at_redeploy and p.holder in ids for p in engine.rules.pieces.values()
        )
        #: the modifiers that apply on each hook, while active and once in decline
        self.active_modifiers = self._modifiers(False)
        self.declined_modifiers = self._modifiers(True)
        #: the triggers of each event, in file order
        self.triggers: dict[str, tuple[CompiledTrigger, ...]] = {}
        for d in defs:
            for trigger in d.triggers:
                self.triggers[trigger.event] = (*self.triggers.get(trigger.event, ()), trigger)

    def _modifiers(self, declined: bool) -> dict[str, tuple[CompiledModifier, ...]]:
        return {
            hook: tuple(m for d in self.defs for m in d.modifiers[hook] if m.applies_to(declined))
            for hook in HOOKS
        }


class _Ctx:
    """The :class:`~smallworld_rules.hooks.EvalContext` compiled rules are evaluated in."""

    __slots__ = ("engine", "race", "state", "target")

    def __init__(self, engine: Engine, state: State, race: str, target: int = -1) -> None:
        self.engine = engine
        self.state = state
        self.race = race
        self.target = target

    @property
    def all_mask(self) -> int:
        return self.engine.map.all_mask

    def terrain_mask(self, name: str) -> int:
        return self.engine.map.terrain_masks[name]

    def feature_mask(self, name: str) -> int:
        return self.engine.map.feature_masks[name]

    def property_mask(self, name: str) -> int:
        s, engine = self.state, self.engine
        if name == "non_empty":
            tokens = s.region_tokens
            return sum(1 << r for r in range(len(tokens)) if tokens[r])
        if name == "lone":
            tokens = s.region_tokens
            return sum(1 << r for r in range(len(tokens)) if tokens[r] == 1)
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
        return engine.property_masks[name]

    def piece_mask(self, name: str) -> int:
        return sum(1 << r for r, p in self.state.pieces.items() if p.get(name))

    def own_mask(self) -> int:
        return self.engine.mask_of(self.state, self.race)

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

    def powers_count(self) -> int:
        return self.engine.powers_count(self.state, self.race)

    def tokens_in(self, place: str) -> int:
        return self.engine.tokens_in(self.state, self.race, place)


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

    def powers_count(self) -> int:
        return 0

    def tokens_in(self, place: str) -> int:
        return 0


class _PlayerCtx(_Static):
    """The context a ``target player`` condition is evaluated in: masks are sets of players,
    ``all_mask`` the acting player's opponents."""

    def __init__(self, engine: Engine, state: State, player: int) -> None:
        super().__init__(engine.map, engine.options)
        self.state = state
        self.all_mask = ((1 << engine.players) - 1) & ~(1 << player)

    def property_mask(self, name: str) -> int:
        if name == "attacked":
            return self.state.attacked
        return 0

    terrain_mask = feature_mask = property_mask


#: Actions are immutable values, so legal_actions hands out shared instances instead of making
#: new ones for every position (making a frozen attrs instance costs about a microsecond).
_SHARED: dict[tuple[Any, ...], Action] = {}
#: ``id()`` of the shared instances that are well-formed (all, by construction; checked once):
#: ``Engine.apply`` need not check their fields again. They stay in ``_SHARED`` for good, so
#: their ids are never reused.
_WELL_FORMED: set[int] = set()


def _shared(cls: type[Action], *fields: Any) -> Action:
    """The shared instance of ``cls(*fields)``."""
    key = (cls, *fields)
    action = _SHARED.get(key)
    if action is None:
        action = _SHARED[key] = cls(*fields)
        if action_problem(action) is None:
            _WELL_FORMED.add(id(action))
    return action


#: See _region_actions: region count -> the four lists.
_ByRegion = tuple[Action, ...]
#: See Engine._applying: ((regions, signed amount) of add/sub, (regions, amount) of set).
_Applying = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
_NOTHING_APPLIES: _Applying = ((), ())
#: See Engine._occupied: (regions, mask, mask of the regions bordering them).
_Occupied = tuple[tuple[int, ...], int, int]
#: How many masks Engine._occupied keeps the regions of before it starts afresh.
_MASKS_KEPT = 1 << 14
_REGION_ACTIONS: dict[int, tuple[_ByRegion, _ByRegion, _ByRegion, _ByRegion]] = {}


def _region_actions(n: int) -> tuple[_ByRegion, _ByRegion, _ByRegion, _ByRegion]:
    """The shared Abandon, Conquer, ConquerWithDie and Deploy(r, 1) of regions 0 … n-1, by
    region (made once per region count, not per engine: Game.new and from_json make one)."""
    found = _REGION_ACTIONS.get(n)
    if found is None:
        regions = range(n)
        found = _REGION_ACTIONS[n] = (
            tuple(_shared(Abandon, r) for r in regions),
            tuple(_shared(Conquer, r) for r in regions),
            tuple(_shared(ConquerWithDie, r) for r in regions),
            tuple(_shared(Deploy, r, 1) for r in regions),
        )
    return found


_END_TURN = _shared(EndTurn)
_DECLINE = _shared(Decline)


def _region_deploys(n: int, count: int) -> _ByRegion:
    """The shared ``Deploy(r, count)`` of regions 0 … n-1, by region."""
    return tuple(_shared(Deploy, r, count) for r in range(n))


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


#: Engines by what they are made of (see Engine.shared); the oldest is dropped past the limit.
_ENGINES: dict[tuple[Any, ...], Engine] = {}
_ENGINES_KEPT = 8


class Engine:
    """Rules + map + options: everything about a game that never changes while it is played."""

    @classmethod
    def shared(
        cls,
        rules: Rules,
        game_map: GameMap,
        players: int,
        options: Mapping[str, bool | int],
        explicit_chance: bool,
    ) -> Engine:
        """The engine for these rules, map, player count, options and chance mode: the one
        made for an earlier game if it is still kept, else a new one.

        Nothing a game does changes its engine: the tables it fills on first use depend on
        the rules and options alone (per race/badge pairing, see ``_combo``) or on what they
        are asked (the regions of a mask, see ``_occupied``), and the immune mask it keeps is
        checked against the state it is asked about. Sharing it spares every new game (a
        playout) the building of those tables.
        """
        key = (id(rules), id(game_map), players, tuple(sorted(options.items())), explicit_chance)
        engine = _ENGINES.get(key)
        # The kept engine holds its rules and map, so their ids cannot have been reused.
        if engine is None or engine.rules is not rules or engine.map is not game_map:
            if len(_ENGINES) >= _ENGINES_KEPT:
                del _ENGINES[next(iter(_ENGINES))]
            engine = _ENGINES[key] = cls(rules, game_map, players, options, explicit_chance)
        return engine

    def __init__(
        self,
        rules: Rules,
        game_map: GameMap,
        players: int,
        options: Mapping[str, bool | int],
        explicit_chance: bool,
    ) -> None:
        self.rules = rules
        self.map = game_map
        self.players = players
        self.options = dict(options)
        # Flags and links hold for the whole game, so they are settled now.
        context = _Static(game_map, self.options)
        #: the role played by the last seat, if an expansion declares one
        self.role: RoleDef | None = next(iter(rules.roles.values()), None)
        #: every race definition by id, the role's token kind included
        self.race_defs: dict[str, RuleDef] = dict(rules.races)
        self.role_race: str | None = None
        self.role_seat = -1
        self.role_supply = self.role_enter = self.role_coins = self.role_purchases = 0
        if self.role is not None:
            role = self.role
            self.role_race = role.race.id
            self.race_defs[role.race.id] = role.race
            self.role_seat = players - 1  # to the right of the start player: plays last
            static = _Static(game_map, self.options)
            self.role_supply = role.supply(static)
            if self.role_supply < max(1, role.start_hand):
                raise RulesError(
                    f"the {role.name} would have {self.role_supply} {role.race.name} tokens: "
                    f"at least {max(1, role.start_hand)} are needed"
                )
            self.role_enter = game_map.entry_mask if role.enter is None else role.enter(static)
            self.role_coins = STARTING_COINS if role.coins is None else role.coins(static)
            if self.role_coins < 0:
                raise RulesError(f"the {role.name} cannot start with {self.role_coins} coins")
            limit = role.purchases_per_turn
            self.role_purchases = 0 if limit is None else max(0, limit(static))
        #: where tokens lost to a conquest go (a zone), or None for the box
        self.lost_zone = rules.lost_tokens_to
        self.pile_zones = sorted(z.id for z in rules.zones.values() if z.role is None)
        every = [
            d for table in (rules.races, rules.powers, rules.expansions) for d in table.values()
        ] + [role.race for role in rules.roles.values()]
        self.flags = {
            (d.kind, d.id): d.flags
            | {flag for flag, condition in d.conditional_flags if condition(context)}
            for d in every
        }
        self.links = {(d.kind, d.id): [link(context) for link in d.links] for d in every}
        #: the rule files with conquest-only tokens, and those with triggers (see _none_of)
        self._holding = frozenset(d.id for d in every if d.conquest_tokens)
        self._triggering = frozenset(d.id for d in every if d.triggers)
        #: flag -> the rule files that raise it in this game (see has_flag)
        self._raising: dict[str, frozenset[str]] = {}
        for (_, rule_id), raised in self.flags.items():
            for flag in raised:
                self._raising[flag] = self._raising.get(flag, frozenset()) | {rule_id}
        #: the hooks some rule file of this game modifies
        self.hooks_used = frozenset(
            hook for d in every for hook, mods in d.modifiers.items() if mods
        )
        self.explicit_chance = explicit_chance
        self.n = len(game_map.regions)
        self.mountain_mask = game_map.terrain_masks["mountain"]
        self.land_mask = game_map.all_mask & ~game_map.water_mask
        self.property_masks = {
            "coastal": game_map.coastal_mask,
            "border": game_map.entry_mask,
            "water": game_map.water_mask,
        }
        # The names of the pieces with a property the reach of every race depends on.
        self._immune_pieces = frozenset(n for n, p in rules.pieces.items() if p.immune)
        self._guard_pieces = frozenset(n for n, p in rules.pieces.items() if p.guards)
        # Filled lazily (see _combo); they depend only on the rules and options.
        self._combos: dict[tuple[str, tuple[str, ...]], _Combo] = {}
        #: The shared actions naming one region, by region: legal_actions lists them for many
        #: regions per position, and indexing a list is cheaper than a _shared look-up.
        self._abandons, self._conquers, self._die_conquers, self._single_deploys = (
            _region_actions(self.n)
        )
        #: see _deploys: token count -> the shared Deploy(r, count) of every region
        self._all_deploys: dict[int, _ByRegion] = {}
        #: see _combo_of: attached badge or None -> race -> its pairing
        self._badge_combos: dict[str | None, dict[str, _Combo]] = {}
        #: see immune_mask: (the piece tables it was computed from, the mask)
        self._immune_cache: tuple[dict[int, Mapping[str, int]], int] = ({}, 0)
        #: see _occupied: mask -> (regions, mask, bordering mask)
        self._by_mask: dict[int, _Occupied] = {}

    # ------------------------------------------------------------------ set-up

    def new_state(self, seed: int, combos: list[tuple[str, str]]) -> State:
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
        self._reset_turn(s)
        self._refill_market(s)
        if self.role is not None:
            self._set_up_role(s, self.role)
        return s

    def _set_up_role(self, s: State, role: RoleDef) -> None:
        """The role's seat: its tokens (the rest in reserve), coins, and drafted powers, of
        which it chooses at once (rule 4.1)."""
        race = role.race.id
        hand = role.start_hand
        s.box = {**s.box, race: self.role_supply - hand}
        s.races[race] = RaceState(race, None, self.role_seat, False, hand, 0, gen=s.gen)
        player = s.own_player(self.role_seat)
        player.active = race
        player.coins = self.role_coins
        if role.draft is None:
            return
        count, _, excluded = role.draft
        # Drawn from the badge stack once the market is out; excluded badges stay there.
        drawn = [p for p in s.power_stack if p not in excluded][:count]
        s.power_stack = tuple(p for p in s.power_stack if p not in drawn)
        s.role_reserve = tuple(drawn)
        if drawn:
            s.active = self.role_seat  # the choice comes before the first turn

    @staticmethod
    def _reset_turn(s: State) -> None:
        s.acted = False
        s.picked = False
        s.withdrawals = ()
        s.acting = None
        s.used = ()
        s.attacked = 0
        s.decline_at_end = False
        s.regained = {}
        s.purchases = 0
        Engine._reset_cycle(s)

    @staticmethod
    def _reset_cycle(s: State) -> None:
        """What belongs to one race's run of conquests within a turn."""
        s.conquered = ()
        s.conquered_nonempty = 0
        s.readied = ()
        s.die_target = -1
        s.die_bonus = -1

    def _refill_market(self, s: State) -> None:
        """Slide combos up and reveal new ones while banners and badges last (rules 1.5
        and 1.13)."""
        while len(s.market) < MARKET_SIZE and s.race_stack:
            if not s.power_stack and s.power_discard:
                # Ruling 38: the badges ran out, so the discards are shuffled into a new stack.
                stack = list(s.power_discard)  # rng.shuffle shuffles a list in place
                s.power_discard = ()
                s.rng = rng.shuffle(s.rng, stack)
                s.power_stack = tuple(stack)
            if not s.power_stack:
                break
            s.market = (*s.market, (s.race_stack[0], s.power_stack[0], 0))
            s.race_stack, s.power_stack = s.race_stack[1:], s.power_stack[1:]

    # ------------------------------------------------------------------ queries

    def to_move(self, s: State) -> int | None:
        """The player who must act, ``-1`` for a chance node, ``None`` once the game is over."""
        if s.phase is _OVER:
            return None
        if s.phase is _DIE_ROLL:
            return -1
        if s.phase is _WITHDRAWAL:
            return s.races[s.withdrawals[0]].owner
        return s.active

    def defs(self, s: State, race: str) -> tuple[RuleDef, ...]:
        """The race's rule file, then its power's (while the badge is attached)."""
        return self._combo(race, self._powers(s, race)).defs

    def _powers(self, s: State, race: str) -> tuple[str, ...]:
        """The powers working for the race: its attached badge, or all a role activated."""
        if race == self.role_race:
            return tuple(s.role_powers)  # A20: a role's powers all work, always
        rs = s.races.get(race)
        return () if rs is None or rs.power is None else (rs.power,)

    def _combo(self, race: str, powers: tuple[str, ...]) -> _Combo:
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

    def _combo_of(self, s: State, race: str) -> _Combo:
        """``_combo(race, _powers(s, race))``; a race with at most its own badge (all but a
        role's tokens) is looked up by (race, badge) directly: this is asked for many times per
        legal action."""
        if race == self.role_race:
            return self._combo(race, tuple(s.role_powers))
        rs = s.races.get(race)
        badge = None if rs is None else rs.power
        by_race = self._badge_combos.get(badge)  # by badge, then race: no key tuple to build
        if by_race is None:
            by_race = self._badge_combos[badge] = {}
        combo = by_race.get(race)
        if combo is None:
            combo = by_race[race] = self._combo(race, self._powers(s, race))
        return combo

    def has_flag(self, s: State, race: str, flag: str) -> bool:
        """Whether the race or its attached power raises ``flag``."""
        raising = self._raising.get(flag)
        if raising is None or self._none_of(race, s.races.get(race), raising):
            return False
        return flag in self._combo_of(s, race).flags

    def _exempt(self, s: State, race: str) -> bool:
        return self.has_flag(s, race, "exempt_from_decline_limit")

    def regions_of(self, s: State, race: str) -> tuple[int, ...]:
        """Regions holding the race's tokens, in id order."""
        return self._occupied(s, race)[0]

    def mask_of(self, s: State, race: str) -> int:
        """Bitmask of the regions holding the race's tokens."""
        return s.race_masks.get(race, 0)

    def _occupied(self, s: State, race: str) -> _Occupied:
        """``(regions, mask, bordering)``: the race's regions, their mask and the mask of the
        regions bordering them.

        The state keeps each occupant's mask up to date (``State.occupy``); the regions and
        the bordering mask of a mask are worked out once and kept, since the engine asks for
        them several times per action and a race keeps its regions over many actions.
        """
        mask = s.race_masks.get(race, 0)
        entry = self._by_mask.get(mask)
        if entry is None:
            if len(self._by_mask) >= _MASKS_KEPT:  # a long-lived engine: start afresh
                self._by_mask.clear()
            regions = tuple(_bits(mask))
            bordering = 0
            adjacency = self.map.adjacency
            for r in regions:
                bordering |= adjacency[r]
            entry = self._by_mask[mask] = (regions, mask, bordering)
        return entry

    def powers_count(self, s: State, race: str) -> int:
        """Special powers working for the race: ``count(powers)``."""
        return len(self._powers(s, race))

    def tokens_in(self, s: State, race: str, place: str) -> int:
        """The race's tokens on the map, in its reserve (box), or in a zone."""
        if place == "map":
            rr, tokens = s.region_race, s.region_tokens
            return sum(tokens[r] for r in range(self.n) if rr[r] == race)
        if place == "reserve":
            return s.box.get(race, 0)
        pile = s.zones.get(place)
        if pile is not None:
            return pile.count(race)
        zone = self.rules.zones.get(place)
        rs = s.races.get(race)
        if zone is None or rs is None or self.role is None or zone.role != self.role.id:
            return 0
        return rs.hand + rs.held if race == self.role_race else 0

    def seen_declined(self, race: str) -> bool:
        """Whether other races and powers treat the race as in decline although it acts (a
        role's tokens that count as declined)."""
        return race == self.role_race and self.role is not None and self.role.counts_as_declined

    def _modifiers(self, s: State, race: str, hook: str) -> tuple[CompiledModifier, ...]:
        """The race's modifiers on ``hook`` that apply in its present status."""
        rs = s.races.get(race)
        combo = self._combo_of(s, race)
        if rs is not None and rs.declined:
            return combo.declined_modifiers[hook]
        return combo.active_modifiers[hook]

    def _contributions(
        self, s: State, race: str, hook: str, target: int = -1
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

    def conquest_cost(self, s: State, race: str, region: int) -> Breakdown:
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
        parts += self._contributions(s, race, "conquest_cost", region)
        if s.die_bonus >= 0 and race == s.acting:
            parts.append(Contribution("die roll", "sub", s.die_bonus, CORE))
        return fold(BASE_COST, parts, minimum=1)

    def conquest_cost_value(self, s: State, race: str, region: int) -> int:
        """``conquest_cost(s, race, region).value``, without building the breakdown."""
        return self.conquest_costs(s, race, 1 << region)[region]

    def conquest_costs(self, s: State, race: str, regions: int) -> dict[int, int]:
        """``{region: conquest_cost(s, race, region).value}`` for each region of the mask,
        lowest first, without building breakdowns.

        legal_actions asks the cost of every reachable region, and only the number matters
        there, so this folds the same contributions as :meth:`conquest_cost` straight into an
        int: adds and subs summed, then the lowest ``set``, then the clamp at 1 (see
        :func:`~smallworld_rules.hooks.fold`); each modifier is worked out once for all regions
        (``_applying``). The two must stay in step: a test compares them on many positions.
        """
        race_of, tokens, mountains = s.region_race, s.region_tokens, self.mountain_mask
        pieces, on_map, races = self.rules.pieces, s.pieces, s.races
        base = BASE_COST - (s.die_bonus if s.die_bonus >= 0 and race == s.acting else 0)
        own = self._applying(s, race, "conquest_cost")
        # with each defender's defence modifiers (no official file has one), by defender
        with_defence: dict[str, _Applying] = {}
        defended = "defence" in self.hooks_used
        out = {}  # one dict rather than a tuple per region: fewer objects for the collector
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
            if defended and occupant is not None and occupant in races:
                both = with_defence.get(occupant)
                if both is None:
                    defence = self._applying(s, occupant, "defence")
                    both = with_defence[occupant] = (adds + defence[0], sets + defence[1])
                adds, sets = both
            for applies, amount in adds:
                if (applies >> region) & 1:
                    value += amount
            if sets:
                lowest = [amount for applies, amount in sets if (applies >> region) & 1]
                if lowest:
                    value = min(lowest)
            out[region] = value if value >= 1 else 1
        return out

    def _applying(self, s: State, race: str, hook: str) -> _Applying:
        """The race's modifiers on a targeted hook, each as the regions where it applies and
        its amount: ``(add/sub with signed amounts, set)``. Neither the regions nor the amount
        depends on the target (``CompiledModifier.where``), so they are worked out once for
        every region a caller asks about."""
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

    def losses(self, s: State, race: str, region: int) -> Breakdown:
        """Tokens ``race`` loses for good when ``region`` is conquered from it (rule 1.8)."""
        parts = self._contributions(s, race, "losses", region)
        if not parts and s.region_tokens[region]:  # the common case: one token, no fold
            return Breakdown(1, 1)
        return fold(1, parts, minimum=0, maximum=s.region_tokens[region])

    def score(self, s: State, race: str) -> Breakdown:
        """Coins a race scores at the end of its owner's turn (rule 1.11)."""
        regions = s.race_masks.get(race, 0).bit_count()
        parts = self._contributions(s, race, "score")
        if not parts:  # most races: the regions held, nothing to fold or clamp
            return Breakdown(regions, regions)
        return fold(regions, parts, minimum=0)

    def immune_piece(self, s: State, region: int) -> str | None:
        """The name of an immunity-giving piece in the region, if any."""
        for name, count in s.pieces.get(region, {}).items():
            if count and self.rules.pieces[name].immune:
                return name
        return None

    def _pieces_mask(self, s: State, wanted: frozenset[str]) -> int:
        """Regions holding at least one piece named in ``wanted``."""
        if not wanted or not s.pieces:
            return 0
        out = 0
        for r, held in s.pieces.items():
            for name, count in held.items():
                if count and name in wanted:
                    out |= 1 << r
                    break
        return out

    def immune_mask(self, s: State) -> int:
        """Regions no enemy may conquer or target (an immune piece is there)."""
        if not s.pieces or not self._immune_pieces:
            return 0
        # Every reach asks for it, and pieces move seldom: the last answer is kept with the
        # piece tables it was computed from and reused while they are equal. The tables are
        # shared between a state and its forks (copy on write), so the check is mostly
        # identity tests; it compares contents, so nothing has to invalidate it.
        kept, mask = self._immune_cache
        if kept != s.pieces:
            mask = self._pieces_mask(s, self._immune_pieces)
            self._immune_cache = (dict(s.pieces), mask)
        return mask

    def guarded_mask(self, s: State) -> int:
        """Regions holding a piece with the property ``guards``."""
        return self._pieces_mask(s, self._guard_pieces)

    def enemy_active_mask(self, s: State, race: str) -> int:
        """Regions held by the active race of a player other than ``race``'s owner."""
        rs = s.races.get(race)
        owner = -1 if rs is None else rs.owner
        out = 0
        for p, ps in enumerate(s.players):
            if p != owner and ps.active is not None and not self.seen_declined(ps.active):
                out |= self.mask_of(s, ps.active)
        return out

    def link_mask(self, s: State, race: str) -> int:
        """Regions the race's links make adjacent to one another."""
        return self._combo_of(s, race).link

    def truce_mask(self, s: State, race: str) -> int:
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

    def adjacent_mask(self, regions: int) -> int:
        """Regions bordering at least one of ``regions``."""
        return self.map.adjacent_mask(regions)

    def reach_mask(self, s: State, race: str) -> int:
        """Every region ``race`` may attack now, tokens aside (rule 1.7, flags, links, immunity)."""
        return self._reach(s, race, self._combo_of(s, race), self._occupied(s, race))

    def _reach(self, s: State, race: str, combo: _Combo, occupied: _Occupied) -> int:
        """``reach_mask`` from the race's pairing and regions, when the caller has them."""
        own = occupied[1]
        if own:
            reach = occupied[2]
            if own & combo.link:
                reach |= combo.link
            if "conquer_anywhere" in combo.flags:
                reach |= self.land_mask
        else:
            reach = self.role_enter if race == self.role_race else self.map.entry_mask
            if "enter_anywhere" in combo.flags:
                reach |= self.land_mask
        reach &= ~own
        if "enter_water" not in combo.flags:
            reach &= ~self.map.water_mask
        return reach & ~self.immune_mask(s) & ~self.truce_mask(s, race)

    def target_problem(self, s: State, race: str, region: int) -> str | None:
        """Why ``race`` may not conquer ``region`` now (tokens aside), or ``None``."""
        if not 0 <= region < self.n:
            return f"there is no region {region} on the {self.map.name} map"
        if (self.reach_mask(s, race) >> region) & 1:
            return None
        if s.region_race[region] == race:
            return f"your {self.race_defs[race].name} already hold region {region}"
        if (self.map.water_mask >> region) & 1 and not self.has_flag(s, race, "enter_water"):
            return f"region {region} is water: only a race that may enter water can conquer it"
        piece = self.immune_piece(s, region)
        if piece is not None:
            return f"region {region} is immune (a {piece} is there)"
        if (self.truce_mask(s, race) >> region) & 1:
            return (
                f"region {region} belongs to a player who made a truce with you: your active "
                "race may not attack theirs until their next turn"
            )
        if not self.mask_of(s, race) and race == self.role_race:
            name = self.race_defs[race].name
            return f"region {region} is not a region where the {name} tokens enter the map"
        if not self.mask_of(s, race):
            return (
                f"region {region} is not a border region: a race with no region on the map "
                "must enter at the edge or on the shore of an edge Sea (rule 1.7)"
            )
        return f"region {region} is not adjacent to a region your race holds"

    @staticmethod
    def _surplus(s: State, regions: tuple[int, ...]) -> int:
        """Tokens on ``regions`` beyond one per region (what ending the conquests lifts)."""
        tokens = s.region_tokens
        return sum([tokens[r] for r in regions]) - len(regions)

    def _hold(self, s: State, rs: RaceState) -> int:
        """Conquest-only tokens the race must hold off the map when its turn ends (ruling 13):
        all of them, or every token it has if it has fewer."""
        if self._none_of(rs.race, rs, self._holding):
            return 0
        wanted = self._combo_of(s, rs.race).conquest_tokens
        if not wanted:
            return 0
        return self._held_back(s, rs, wanted, self.regions_of(s, rs.race))

    def _none_of(self, race: str, rs: RaceState | None, ids: frozenset[str]) -> bool:
        """Whether neither the race nor its badge (``rs``: its banner, if in play) is among
        the rule files ``ids`` (a role, whose powers are no badge, never is): a quick answer,
        before the pairing is looked up, for what few rule files have."""
        return (
            race not in ids and (rs is None or rs.power not in ids) and race != self.role_race
        )

    @staticmethod
    def _held_back(s: State, rs: RaceState, wanted: int, own: tuple[int, ...]) -> int:
        """``_hold`` for a race that has conquest-only tokens (``wanted``) on ``own``."""
        tokens = s.region_tokens
        return min(wanted, rs.hand + sum([tokens[r] for r in own]))

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, s: State) -> list[Action]:
        """Every legal action for whoever must act now (Deploy: 1 or all per region)."""
        phase = s.phase
        if phase is _PICK:
            if s.active == self.role_seat:
                return [ChoosePower(p) for p in s.role_reserve]
            coins = s.players[s.active].coins
            picks = [_shared(PickCombo, i) for i in range(len(s.market)) if i <= coins]
            return picks or [_END_TURN]
        if phase is _DIE_ROLL:
            return [_shared(RollDie, face) for face in sorted(set(DIE_FACES))]
        if phase is _OVER:
            return []
        if phase is _WITHDRAWAL:
            wrs = s.races[s.withdrawals[0]]
            acts = self._deploys(self.regions_of(s, wrs.race), wrs.hand)
            acts += self._ability_actions(s, wrs, phase)
            if not wrs.hand:
                acts.append(_END_TURN)
            return acts
        assert s.acting is not None
        rs = s.races[s.acting]
        race = rs.race
        combo = self._combo_of(s, race)
        occupied = self._occupied(s, race)
        own = occupied[0]
        wanted = combo.conquest_tokens
        hold = self._held_back(s, rs, wanted, own) if wanted else 0  # _hold, from what is here
        hand = rs.hand
        role = race == self.role_race
        if phase is _REDEPLOY:
            acts = self._deploys(own, hand - hold)
            if hand < hold:
                acts.extend([self._abandons[r] for r in own])  # ruling 13: forced abandonment
            if combo.abilities:
                acts += self._ability_actions(s, rs, phase)
            if hand == hold or not own or role:
                acts.append(_END_TURN)
                if self._may_decline_at_end(s, rs):
                    acts.append(_DECLINE)
            return acts
        acts = self._purchases(s) if role else []
        may_decline = self._may_decline(s)
        if may_decline:
            acts.append(_DECLINE)
        if self._may_abandon(s):
            acts.extend([self._abandons[r] for r in own])
        if hand >= 1:
            die = s.die_bonus < 0 and "no_final_die" not in combo.flags
            conquers, die_conquers = self._conquers, self._die_conquers
            costs = self.conquest_costs(s, race, self._reach(s, race, combo, occupied))
            s.reach_costs = (self, race, costs)  # derived: a conquest attempt reuses them
            for r, cost in costs.items():
                if cost <= hand:
                    acts.append(conquers[r])
                elif die and cost - hand <= DIE_REACH:
                    acts.append(die_conquers[r])
        if combo.abilities:
            acts += self._ability_actions(s, rs, phase)
        surplus = self._surplus(s, own)
        acts.extend(self._deploys(own, hand + surplus - hold))
        if role or self._may_end_conquest(rs, hold, surplus, own):
            acts.append(_END_TURN)
            # Decline at the end of the turn, unless Decline already means a decline turn.
            if not may_decline and self._may_decline_at_end(s, rs):
                acts.append(_DECLINE)
        return acts

    # ------------------------------------------------------------------ roles

    def price(self, s: State, item: str) -> int | None:
        """What the role pays now for a purchase of ``item`` (``None``: it cannot buy one)."""
        if self.role is None or self.role_race is None or item not in self.role.buys:
            return None
        return max(0, self.role.buys[item](_Ctx(self, s, self.role_race)))

    def purchase_problem(self, s: State, item: str, power: str | None) -> str | None:
        """Why the role may not make that purchase now, or ``None``."""
        role = self.role
        if role is None or not role.buys:
            return "no role of this game makes purchases"
        if s.active != self.role_seat or s.phase is not _CONQUEST:
            return f"the {role.name} buys in his turn, before conquering"
        if s.acting != self.role_race or s.conquered:
            return "purchases come before the first conquest of the turn (rule 4.3)"
        if self.role_purchases and s.purchases >= self.role_purchases:
            return f"at most {self.role_purchases} purchase(s) a turn (option)"
        price = self.price(s, item)
        if price is None:
            return f"the {role.name} buys {', '.join(sorted(role.buys))}, not {item!r}"
        if item == "token":
            if power is not None:
                return "a token purchase names no power"
            if not s.box[self.role_race or ""]:
                return f"no {role.race.name} token is left in the reserve"
        elif power not in s.role_reserve:
            reserve = ", ".join(s.role_reserve) or "none"
            return f"{power!r} is not one of the reserved powers ({reserve})"
        coins = s.players[self.role_seat].coins
        if coins < price:
            return f"it costs {price} coins and you have {coins}"
        return None

    def _purchases(self, s: State) -> list[Action]:
        if self.role is None or s.conquered:
            return []
        wanted: list[tuple[str, str | None]] = [("token", None)]
        wanted += [("power", p) for p in s.role_reserve]
        return [
            Purchase(item, power)
            for item, power in wanted
            if item in self.role.buys and self.purchase_problem(s, item, power) is None
        ]

    def _purchase(self, s: State, action: Purchase, log: Log) -> None:
        problem = self.purchase_problem(s, action.item, action.power)
        if problem:
            raise IllegalAction(problem, action)
        price = self.price(s, action.item)
        assert price is not None and self.role_race is not None
        s.own_player(self.role_seat).coins -= price
        s.purchases += 1
        if action.item == "token":
            s.to_box(self.role_race, -1)
            s.own_race(self.role_race).hand += 1
            log(TokenBought(self.role_seat, self.role_race, price))
        else:
            assert action.power is not None
            s.role_reserve = without(s.role_reserve, action.power)
            s.role_powers = (*s.role_powers, action.power)
            log(PowerChosen(self.role_seat, action.power, price))

    def _choose_power(self, s: State, action: ChoosePower, log: Log) -> None:
        self._need_phase(s, action, _PICK)
        if s.active != self.role_seat or self.role is None or self.role.draft is None:
            raise IllegalAction("only a role chooses among drafted powers", action)
        if action.power not in s.role_reserve:
            drawn = ", ".join(s.role_reserve)
            raise IllegalAction(f"{action.power!r} is not a drafted power ({drawn})", action)
        s.role_reserve = without(s.role_reserve, action.power)
        s.role_powers = (*s.role_powers, action.power)
        log(PowerChosen(self.role_seat, action.power))
        if len(s.role_powers) >= self.role.draft[1] or not s.role_reserve:
            s.active = 0
            self._start_turn(s, log)

    def _lose(self, s: State, race: str, count: int, log: Log) -> None:
        """Tokens lost to a conquest: to the zone an expansion names, else to the box."""
        if not count:
            return
        if self.lost_zone is not None:
            s.zones = {**s.zones, self.lost_zone: s.zones[self.lost_zone] + (race,) * count}
            log(TokensToZone(self.lost_zone, (race,) * count))
        elif race != LOST_TRIBE:
            s.to_box(race, count)

    def _role_turn_end(self, s: State, log: Log) -> bool:
        """After every turn: the role's harvest (its own turn), the exchange, the instant win
        (rule 4.2.5, rule 4.3 c–d, A18). Returns whether the role has won."""
        role, race = self.role, self.role_race
        assert role is not None and race is not None
        rs = s.own_race(race)
        rs.hand += rs.held  # tokens set aside during a withdrawal rest in the hand zone again
        rs.held = 0
        if role.harvest is not None and s.active == self.role_seat:
            amount, zone = role.harvest
            souls = max(0, amount(_Ctx(self, s, race)))
            if souls:
                s.zones = {**s.zones, zone: s.zones[zone] + (SOUL,) * souls}
                log(TokensToZone(zone, (SOUL,) * souls))
        if role.exchange is not None:
            count, zone, gain = role.exchange
            pile = list(s.zones[zone])  # the zones are replaced, not changed (copy on write)
            while len(pile) >= count:
                taken = self._take_from_pile(pile, count, race)
                s.zones = {**s.zones, zone: tuple(pile)}
                for kind in taken:
                    if kind in s.box:  # the role's tokens to its reserve, races' to their box
                        s.to_box(kind, 1)
                gained = min(gain, s.box[race])
                s.to_box(race, -gained)
                rs.hand += gained
                log(Exchanged(zone, tuple(taken), race, gained))
        if role.win is None:
            return False
        left, right = role.win
        ctx = _Ctx(self, s, race)
        return left(ctx) == right(ctx)

    @staticmethod
    def _take_from_pile(pile: list[str], count: int, first: str) -> list[str]:
        """Take ``count`` tokens: ``first``'s kind first, then anonymous ones, then the
        oldest others (rule 4.5)."""
        taken: list[str] = []
        for wanted in (first, SOUL, None):
            i = 0
            while i < len(pile) and len(taken) < count:
                if wanted is None or pile[i] == wanted:
                    taken.append(pile.pop(i))
                else:
                    i += 1
        return taken

    @staticmethod
    def _may_end_conquest(
        rs: RaceState, hold: int, surplus: int, own: tuple[int, ...]
    ) -> bool:
        """Whether EndTurn may end the conquests now.

        Ending without redeploying leaves the surplus where it is. A race that must hold
        conquest-only tokens back but lacks them in hand (and cannot place any token) takes
        the surplus back first; if that is still too few, it stays in redeployment, where it
        must abandon regions (ruling 13).
        """
        return not own or rs.hand == hold or rs.hand < hold >= rs.hand + surplus

    def _deploys(self, regions: tuple[int, ...], available: int) -> list[Action]:
        """Deploy 1, and all ``available``, on each region."""
        if available < 1:
            return []
        single = self._single_deploys
        if available == 1:
            return [single[r] for r in regions]
        every = self._all_deploys.get(available)
        if every is None:  # Deploy(r, available) of every region, made once per count
            every = self._all_deploys[available] = _region_deploys(self.n, available)
        acts: list[Action] = []
        for r in regions:
            acts.append(single[r])
            acts.append(every[r])
        return acts

    def _may_decline(self, s: State) -> bool:
        """Decline in place of expanding: before anything is done in a turn not begun by a
        pick (rule 1.12); a role never declines."""
        race = s.players[s.active].active
        return race is not None and not s.picked and not s.acted and race != self.role_race

    def _may_decline_at_end(self, s: State, rs: RaceState) -> bool:
        """Decline after scoring, in place of EndTurn, for a race whose flag allows it."""
        # The flag first: few races have it, and the other tests cost more.
        return (
            self.has_flag(s, rs.race, "decline_at_turn_end")
            and rs.race == s.players[s.active].active
            and rs.race != self.role_race
            and self._next_acting(s) is None
            and (not s.picked or bool(self.options["end_of_turn_decline_when_picked"]))
        )

    def _may_abandon(self, s: State) -> bool:
        return not s.conquered or bool(self.options["abandon_mid_conquest"])

    # ------------------------------------------------------------------ abilities

    def abilities(self, s: State, race: str) -> tuple[CompiledAbility, ...]:
        """The abilities of an active race (its own and its power's)."""
        rs = s.races.get(race)
        if rs is None or rs.declined:
            return ()
        return self._combo_of(s, race).abilities

    def _use_key(self, ability: CompiledAbility, s: State, target: int | None) -> str:
        if ability.limit != "once_per_player_per_turn" or target is None:
            return ability.name
        if ability.target == "player":
            return f"{ability.name}@{target}"
        occupant = s.region_race[target]
        owner = s.races[occupant].owner if occupant in s.races else -1
        return f"{ability.name}@{owner}"

    def _ability_targets(self, s: State, rs: RaceState, ability: CompiledAbility) -> int:
        """Bitmask of the targets (regions or players) the ability's clause allows."""
        ctx: EvalContext
        if ability.target == "player":
            ctx = _PlayerCtx(self, s, rs.owner)
            mask = ctx.all_mask
        else:
            ctx = _Ctx(self, s, rs.race)
            mask = self.mask_of(s, rs.race) if ability.target == "own region" else ctx.all_mask
        if ability.condition is not None:
            mask &= ability.condition(ctx)
        return mask

    def ability_problem(
        self,
        s: State,
        rs: RaceState,
        ability: CompiledAbility,
        target: int | None,
        targets: int | None = None,
        reach: int | None = None,
    ) -> str | None:
        """Why ``rs`` may not use ``ability`` on ``target`` now, or ``None`` (``targets``: the
        ability's target mask, ``reach``: the race's ``reach_mask``, if the caller has them)."""
        phase = _PHASE_NAMES[s.phase]
        if phase not in ability.phases:
            when = " or ".join(sorted(ability.phases))
            return f"{ability.name} is used during {when}, not now ({phase})"
        if ability.limit == "times" and rs.uses.get(ability.name, 0) >= ability.times:
            return f"{ability.name} may be used only {ability.times} time(s)"
        key = self._use_key(ability, s, target)
        if ability.limit and ability.limit != "times" and key in s.used:
            per = " against that player" if "@" in key else ""
            return f"{ability.name} was already used this turn{per}"
        if not ability.target:
            if target is not None:
                return f"{ability.name} takes no target"
        else:
            what = "player" if ability.target == "player" else "region"
            if target is None:
                return f"{ability.name} needs a target {what}"
            top = self.players if what == "player" else self.n
            if not 0 <= target < top:
                return f"there is no {what} {target}"
            if targets is None:
                targets = self._ability_targets(s, rs, ability)
            if not (targets >> target) & 1:
                why = "its conditions fail"
                if ability.target == "region":  # say why the race cannot reach it, if so
                    why = self.target_problem(s, rs.race, target) or why
                return f"{ability.name} cannot target {what} {target}: {why}"
        taken = False
        for effect in ability.effects:
            problem = self._effect_problem(s, rs, effect, target, taken, reach)
            if problem:
                return problem
            taken = taken or effect.verb in ("conquer", "convert")
        return None

    def _effect_problem(
        self,
        s: State,
        rs: RaceState,
        effect: CompiledEffect,
        target: int | None,
        taken: bool = False,
        reach: int | None = None,
    ) -> str | None:
        """Why the effect cannot happen now; ``taken``: an earlier effect of the same ability
        conquers the target first (its pieces are gone by then); ``reach``: the race's
        ``reach_mask``, if the caller has it."""
        verb = effect.verb
        if verb in ("place", "move"):
            assert effect.piece is not None and target is not None
            piece = self.rules.pieces[effect.piece]
            if s.region_race[target] != rs.race and not taken:
                return f"region {target} is not held by your race"
            here = 0 if taken else s.pieces.get(target, {}).get(piece.name, 0)
            if piece.one_per_region and here:
                return f"region {target} already holds a {piece.name}"
            on_map = piece.supply - s.piece_supply[piece.name]
            if not s.piece_supply[piece.name] and not (verb == "move" and on_map > here):
                return f"no {piece.name} is left to place"
            regained = s.regained.get(piece.name, 0)
            if s.phase is _WITHDRAWAL and piece.kept_when_lost and not regained:
                return f"only a {piece.name} lost this turn is placed again now (ruling 25)"
        elif verb == "conquer":
            assert target is not None
            if reach is None or not (reach >> target) & 1:  # else target_problem finds none
                problem = self.target_problem(s, rs.race, target)
                if problem:
                    return problem
            if rs.hand < max(1, self._amount(s, rs, effect)):
                return "not enough tokens in hand (a conquest needs at least one, ruling 4)"
        elif verb == "convert":
            assert target is not None
            occupant = s.region_race[target]
            if occupant is None or occupant == LOST_TRIBE or occupant == rs.race:
                return f"region {target} holds no enemy race token to replace"
            if s.region_tokens[target] != 1:
                return f"region {target} holds more than one token"
            if self.immune_piece(s, target) is not None:
                return f"region {target} is immune"
            if s.box[rs.race] < 1:
                return f"no {self.race_defs[rs.race].name} token is left in the box"
        elif verb == "roll_die":
            if s.die_bonus >= 0:
                return "a roll already waits for the next conquest"
            if rs.hand < 1:
                return "a conquest needs at least one token in hand (ruling 4)"
        return None

    def _amount(self, s: State, rs: RaceState, effect: CompiledEffect, target: int = -1) -> int:
        assert effect.amount is not None
        return effect.amount(_Ctx(self, s, rs.race, target))

    def _ability_actions(self, s: State, rs: RaceState, phase: Phase) -> list[Action]:
        """Every legal UseAbility of the race in this phase."""
        acts: list[Action] = []
        abilities = self.abilities(s, rs.race)
        if not abilities:  # most races: nothing to check
            return acts
        name = _PHASE_NAMES[phase]
        reach = None  # the race's reach, once an ability that conquers needs it
        for ability in abilities:
            if name not in ability.phases:
                continue
            if not ability.target:
                if self.ability_problem(s, rs, ability, None) is None:
                    acts.append(_shared(UseAbility, ability.name))
                continue
            targets = self._ability_targets(s, rs, ability)
            if reach is None and any(e.verb == "conquer" for e in ability.effects):
                reach = self.reach_mask(s, rs.race)
            for target in _bits(targets):
                if self.ability_problem(s, rs, ability, target, targets, reach) is None:
                    acts.append(_shared(UseAbility, ability.name, target))
        return acts

    # ------------------------------------------------------------------ applying actions

    def apply(self, s: State, action: Action, log: Log) -> None:
        """Carry out ``action`` on ``s``; raise :class:`IllegalAction` if it is not legal.

        Every check comes before the first change, except where noted; the caller restores
        its copy of the state if anything raises.
        """
        if id(action) not in _WELL_FORMED:  # actions from legal_actions are known good
            problem = action_problem(action)
            if problem:
                raise IllegalAction(problem)
        if s.phase is _OVER:
            raise IllegalAction("the game is over", action)
        handler = self._handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"{type(action).__name__} is not an action of this game", action)
        handler(self, s, action, log)
        s.reach_costs = None  # they were those of the position before the action

    def _acting_race(self, s: State, action: Action) -> RaceState:
        """The acting race, to change in place (``s.own_race``: copy on write)."""
        if s.acting is None:
            raise IllegalAction("you have no active race: pick a combo first", action)
        return s.own_race(s.acting)

    def _need_phase(self, s: State, action: Action, *phases: Phase) -> None:
        if s.phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise IllegalAction(
                f"{type(action).__name__} is played in the {wanted} phase, "
                f"not now ({s.phase.value})",
                action,
            )

    def _pick(self, s: State, action: PickCombo, log: Log) -> None:
        self._need_phase(s, action, _PICK)
        if s.active == self.role_seat:
            raise IllegalAction("a role takes no combo: choose one of its drafted powers", action)
        player = s.own_player(s.active)
        i = action.index
        if not 0 <= i < len(s.market):
            raise IllegalAction(f"there is no combo at position {i} of the market", action)
        if player.coins < i:
            raise IllegalAction(
                f"the combo at position {i} costs {i} coins and you have {player.coins}", action
            )
        # Rule 1.5: one coin on each combo above the chosen one; take the coins lying on it.
        market = list(s.market)
        for j in range(i):
            above_race, above_power, coins = market[j]
            market[j] = (above_race, above_power, coins + 1)
        race, power, collected = market.pop(i)
        s.market = tuple(market)
        player.coins += collected - i
        defs = (self.race_defs[race], self.rules.powers[power])
        wanted = sum(d.tokens + d.conquest_tokens for d in defs)
        tokens = min(wanted, s.box[race])  # Rule 1.1: the tray is a hard cap
        s.to_box(race, -tokens)
        s.races[race] = RaceState(race, power, s.active, False, tokens, 0, gen=s.gen)
        player.active = race
        self._refill_market(s)
        s.picked = True
        log(ComboPicked(s.active, race, power, i, i, collected, tokens))
        first = self._acting_order(s)[0]
        self._begin_cycle(s, first, log, announce=first != race)

    def _abandon(self, s: State, action: Abandon, log: Log) -> None:
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
            raise IllegalAction(
                "regions are abandoned before the first conquest (rule 1.6)", action
            )
        tokens = s.region_tokens[r]
        rs.hand += tokens
        self._empty_region(s, r)
        s.acted = True
        log(Abandoned(s.active, rs.race, r, tokens))

    def _attempt(self, s: State, action: Conquer | ConquerWithDie) -> tuple[RaceState, int]:
        """Checks shared by every conquest attempt; returns the race and the cost."""
        self._need_phase(s, action, _CONQUEST)
        rs = self._acting_race(s, action)
        known = s.reach_costs  # legal_actions' costs of this position, if it was asked
        if known is not None and known[0] is self and known[1] == rs.race:
            cost = known[2].get(action.region)
            if cost is not None:  # a region it could reach, with tokens in hand (ruling 4)
                return rs, cost
        problem = self.target_problem(s, rs.race, action.region)
        if problem:
            raise IllegalAction(problem, action)
        if rs.hand < 1:
            raise IllegalAction("a conquest needs at least one token in hand (ruling 4)", action)
        return rs, self.conquest_cost_value(s, rs.race, action.region)

    def _conquer(self, s: State, action: Conquer, log: Log) -> None:
        rs, cost = self._attempt(s, action)
        r = action.region
        if cost > rs.hand:
            raise IllegalAction(
                f"region {r} costs {cost} tokens and you have {rs.hand} in hand", action
            )
        s.die_bonus = -1  # a rolled bonus is spent on this conquest
        self._take_region(s, rs, r, cost, cost, log)

    def _conquer_with_die(self, s: State, action: ConquerWithDie, log: Log) -> None:
        rs, cost = self._attempt(s, action)
        r = action.region
        if self.has_flag(s, rs.race, "no_final_die") or s.die_bonus >= 0:
            raise IllegalAction("your race makes no final die attempt (it rolls otherwise)", action)
        if cost <= rs.hand:
            raise IllegalAction(
                f"you have the {cost} tokens region {r} costs: conquer it without the die", action
            )
        if cost - rs.hand > DIE_REACH:
            raise IllegalAction(
                f"region {r} costs {cost}: with {rs.hand} in hand you are more than "
                f"{DIE_REACH} short (ruling 5)",
                action,
            )
        s.acted = True
        self._roll_die(s, r, log)

    def _roll_die(self, s: State, target: int, log: Log) -> None:
        """Roll now, or make the roll a chance node (``target``: a region or ABILITY_ROLL)."""
        s.die_target = target
        if self.explicit_chance:
            s.phase = _DIE_ROLL
            return
        s.rng, k = rng.randbelow(s.rng, len(DIE_FACES))
        self._resolve_die(s, DIE_FACES[k], log)

    def _roll(self, s: State, action: RollDie, log: Log) -> None:
        self._need_phase(s, action, _DIE_ROLL)
        if action.face not in DIE_FACES:
            raise IllegalAction(f"the die has no face {action.face}", action)
        self._resolve_die(s, action.face, log)

    def _resolve_die(self, s: State, face: int, log: Log) -> None:
        """Ruling 5: conquer with every token in hand if hand + die ≥ cost; conquests end.
        A roll made by an ability instead lowers the next conquest's cost (A6)."""
        assert s.acting is not None
        rs = s.own_race(s.acting)
        r = s.die_target
        s.die_target = -1
        s.phase = _CONQUEST
        if r == ABILITY_ROLL:
            s.die_bonus = face
            reach = self.reach_mask(s, rs.race)
            cheapest = min(
                self.conquest_costs(s, rs.race, reach).values(), default=None
            )
            success = cheapest is not None and cheapest <= rs.hand
            log(DieRolled(s.active, -1, face, cheapest or 0, rs.hand, success))
            if not success:
                self._enter_redeploy(s, rs, log)  # the attempt fails: conquests end (A6)
            return
        cost = self.conquest_cost_value(s, rs.race, r)
        success = rs.hand + face >= cost
        log(DieRolled(s.active, r, face, cost, rs.hand, success))
        if success:
            self._take_region(s, rs, r, cost, rs.hand, log)
        self._enter_redeploy(s, rs, log)

    def _take_region(
        self, s: State, rs: RaceState, r: int, cost: int, tokens: int, log: Log
    ) -> None:
        """Move ``tokens`` from hand into ``r``; the defender loses and withdraws (rule 1.8)."""
        occupant, held = s.region_race[r], s.region_tokens[r]
        lost = self.losses(s, occupant, r).value if occupant in s.races else held
        self._seize(s, rs, r, lost, tokens, cost, log)

    def _seize(
        self,
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
        its box and takes the rest into hand (every conquest, whatever its form, ends here).
        The lost tokens go where lost tokens go (``_lose``), or to the box if ``to_box``."""
        occupant, held = s.region_race[r], s.region_tokens[r]
        defender: int | None = None
        returned = 0
        if occupant == LOST_TRIBE:
            lost = held  # ruling 10: Lost Tribes are simply discarded
            self._lose(s, occupant, lost, log)
        elif occupant is not None:
            drs = s.own_race(occupant)
            defender = drs.owner
            returned = held - lost
            if to_box:
                s.to_box(occupant, lost)
            else:
                self._lose(s, occupant, lost, log)  # ruling 7: exactly the losses leave
            if occupant == self.role_race:
                # Rule 4.2.4: only the returned tokens are placed at the withdrawal; those in the
                # hand zone wait aside (held) until the turn ends.
                drs.held += drs.hand
                drs.hand = 0
            drs.hand += returned
            seen_active = not drs.declined and not self.seen_declined(occupant)
            if seen_active and rs.race == s.players[s.active].active:
                s.attacked |= 1 << drs.owner
        if occupant is not None and held:
            s.conquered_nonempty |= 1 << r  # ruling 17: non-empty = a race or Lost Tribe token
        kept = self._remove_pieces(s, r, keep_survivors=False)
        for name, count in kept.items():  # ruling 25: placed again at the end of this turn
            s.regained = {**s.regained, name: s.regained.get(name, 0) + count}
        s.occupy(r, rs.race, tokens)
        rs.hand -= tokens
        s.conquered = (*s.conquered, r)
        s.acted = True
        log(Conquered(s.active, rs.race, r, cost, tokens, defender, occupant, lost, returned))
        if occupant is not None and occupant != LOST_TRIBE:
            drs = s.races[occupant]
            if (drs.hand or kept) and occupant not in s.withdrawals:
                s.withdrawals = (*s.withdrawals, occupant)
            if drs.declined and not self.mask_of(s, occupant):
                self._retire(s, occupant, log)  # a declined race cannot re-enter the map
        self._fire(s, rs, "conquest", r, log)

    def _fire(self, s: State, rs: RaceState, event: str, target: int, log: Log) -> None:
        """Run the race's triggers on ``event`` (active races only)."""
        if rs.declined or self._none_of(rs.race, rs, self._triggering):
            return
        for trigger in self._combo_of(s, rs.race).triggers.get(event, ()):
            if trigger.times:
                if rs.uses.get(trigger.key, 0) >= trigger.times:
                    continue
                rs.uses = {**rs.uses, trigger.key: rs.uses.get(trigger.key, 0) + 1}
            effect = trigger.effect
            if effect.verb == "gain":
                self._gain(s, rs, self._amount(s, rs, effect, target), log)
            elif self._effect_problem(s, rs, effect, target) is None:
                self._do_effect(s, rs, effect, target, log)

    def _gain(self, s: State, rs: RaceState, wanted: int, log: Log) -> None:
        """Ruling 40: gains come from the box and stop when it is empty."""
        tokens = max(0, min(wanted, s.box[rs.race]))
        if tokens:
            s.to_box(rs.race, -tokens)
            rs.hand += tokens
            log(TokensGained(rs.owner, rs.race, tokens))

    def _enter_redeploy(self, s: State, rs: RaceState, log: Log, lift: bool = True) -> None:
        """Conquests end (rule 1.10): every token beyond one per region goes back to hand and the
        race's movable pieces to their supply (unless ``lift`` is off: the turn ends as it
        stands); then the race's redeploy triggers run."""
        if lift:
            for r in self.regions_of(s, rs.race):
                extra = s.region_tokens[r] - 1
                if extra:
                    s.region_tokens[r] = 1
                    rs.hand += extra
            if self._combo_of(s, rs.race).lifts_pieces:
                holders = {d.id for d in self.defs(s, rs.race)}
                for r in sorted(s.pieces):
                    held = dict(s.pieces[r])  # piece tables are replaced (copy on write)
                    for name in sorted(held):
                        piece = self.rules.pieces[name]
                        if piece.lifted_at_redeploy and piece.holder in holders:
                            supply = s.piece_supply[name] + held.pop(name)
                            s.piece_supply = {**s.piece_supply, name: supply}
                            log(PieceMoved(name, -1, r))
                    s.set_pieces(r, held)
            else:  # no piece of its to lift (most races): only drop empty entries, as above
                for r in [r for r, held in s.pieces.items() if not held]:
                    s.set_pieces(r, {})
        s.die_bonus = -1
        s.phase = _REDEPLOY
        self._fire(s, rs, "redeploy", -1, log)

    def _deploy(self, s: State, action: Deploy, log: Log) -> None:
        self._need_phase(s, action, _CONQUEST, _REDEPLOY, _WITHDRAWAL)
        if s.phase is _WITHDRAWAL:
            rs = s.own_race(s.withdrawals[0])
            available = rs.hand
        else:
            rs = self._acting_race(s, action)
            available = rs.hand - self._hold(s, rs)
            if s.phase is _CONQUEST:
                available += self._surplus(s, self.regions_of(s, rs.race))
        r, n = action.region, action.count
        if not 0 <= r < self.n or s.region_race[r] != rs.race:
            raise IllegalAction(
                f"region {r} is not held by your {self.race_defs[rs.race].name}", action
            )
        if not 1 <= n <= available:
            if available < 1:
                raise IllegalAction("you have no token to place", action)
            raise IllegalAction(f"you can place 1 to {available} tokens, not {n}", action)
        if s.phase is _CONQUEST:
            self._enter_redeploy(s, rs, log)
            if n > rs.hand - self._hold(s, rs):  # pragma: no cover - checked above
                raise IllegalAction(f"you can place at most {rs.hand} tokens", action)
        rs.hand -= n
        s.region_tokens[r] += n
        log(Deployed(rs.owner, rs.race, r, n))
        if s.phase is _WITHDRAWAL:
            self._withdrawal_progress(s, log)

    def _use_ability(self, s: State, action: UseAbility, log: Log) -> None:
        self._need_phase(s, action, _CONQUEST, _REDEPLOY, _WITHDRAWAL)
        if s.phase is _WITHDRAWAL:
            rs = s.own_race(s.withdrawals[0])
        else:
            rs = self._acting_race(s, action)
        ability = next((a for a in self.abilities(s, rs.race) if a.name == action.name), None)
        if ability is None:
            known = sorted({a.name for a in self.abilities(s, rs.race)})
            have = f"(yours: {', '.join(known)})" if known else "(your race has none now)"
            raise IllegalAction(f"your race has no ability {action.name!r} {have}", action)
        target = action.target
        if target is not None and not isinstance(target, int):
            raise IllegalAction(f"{ability.name} targets a region or player number", action)
        problem = self.ability_problem(s, rs, ability, target)
        if problem:
            raise IllegalAction(problem, action)
        if ability.limit == "times":
            rs.uses = {**rs.uses, ability.name: rs.uses.get(ability.name, 0) + 1}
        elif ability.limit:
            s.used = (*s.used, self._use_key(ability, s, target))
        if s.phase is _CONQUEST:
            s.acted = True
        log(AbilityUsed(rs.owner, rs.race, ability.name, target))
        for effect in ability.effects:
            self._do_effect(s, rs, effect, -1 if target is None else target, log)
        if s.phase is _WITHDRAWAL:
            self._withdrawal_progress(s, log)

    def _do_effect(
        self, s: State, rs: RaceState, effect: CompiledEffect, target: int, log: Log
    ) -> None:
        verb = effect.verb
        if verb in ("place", "move"):
            assert effect.piece is not None
            name = effect.piece
            source = -1
            if not s.piece_supply[name]:  # move: lift it from where it lies
                source = min(r for r, p in s.pieces.items() if p.get(name) and r != target)
                self._take_piece(s, source, name)
            else:
                s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] - 1}
            if s.regained.get(name) and s.phase is _WITHDRAWAL:
                s.regained = {**s.regained, name: s.regained[name] - 1}
            held = dict(s.pieces.get(target, {}))  # replaced, not changed (copy on write)
            held[name] = held.get(name, 0) + 1
            s.set_pieces(target, held)
            log(PieceMoved(name, target, source))
        elif verb == "conquer":
            cost = self._amount(s, rs, effect, target)
            self._take_region(s, rs, target, cost, cost, log)
        elif verb == "convert":
            s.to_box(rs.race, -1)
            rs.hand += 1
            # Ruling 21: the replaced token is lost whatever the defender's losses say.
            lost = s.region_tokens[target]
            to_box = not self.options["converted_token_is_lost"]
            self._seize(s, rs, target, lost, 1, 0, log, to_box=to_box)
        elif verb == "roll_die":
            self._roll_die(s, ABILITY_ROLL, log)
        elif verb == "truce":
            s.truces = (*(t for t in s.truces if t[0] != rs.owner), (rs.owner, target))
        elif verb == "gain":
            self._gain(s, rs, self._amount(s, rs, effect, target), log)

    def _take_piece(self, s: State, r: int, name: str) -> None:
        """Lift one piece off region ``r`` (to be put down elsewhere at once)."""
        held = dict(s.pieces[r])  # replaced, not changed (copy on write)
        held[name] -= 1
        if not held[name]:
            del held[name]
        s.set_pieces(r, held)

    def _end_turn(self, s: State, action: EndTurn | Decline, log: Log) -> None:
        self._need_phase(s, action, _PICK, _CONQUEST, _REDEPLOY, _WITHDRAWAL)
        if s.phase is _WITHDRAWAL:
            wrs = s.races[s.withdrawals[0]]
            if wrs.hand:
                raise IllegalAction(f"place the {wrs.hand} token(s) in your hand first", action)
            s.withdrawals = s.withdrawals[1:]
            self._next_withdrawal(s, log)
            return
        if s.phase is _PICK:
            if s.market:
                raise IllegalAction("pick a combo first", action)
            self._start_withdrawals(s, log)
            return
        rs = self._acting_race(s, action)
        own = self.regions_of(s, rs.race)
        hold = self._hold(s, rs)
        # A role may keep tokens in hand: they rest in its hand zone (rule 4.3 b).
        keeps_hand = rs.race == self.role_race
        if s.phase is _CONQUEST:
            surplus = self._surplus(s, own)
            if not keeps_hand and not self._may_end_conquest(rs, hold, surplus, own):
                raise IllegalAction(
                    f"place the {rs.hand - hold} token(s) in your hand before ending the turn",
                    action,
                )
            # Ending the conquests as they stand; the tokens held back for conquest are taken
            # from the map first if the hand lacks them (ruling 13).
            self._enter_redeploy(s, rs, log, lift=bool(own) and rs.hand < hold)
            if own and rs.hand != hold and not keeps_hand:
                return  # tokens to place (a gain) or regions to abandon (ruling 13)
        elif own and rs.hand != hold and not keeps_hand:
            if rs.hand < hold:
                raise IllegalAction(
                    f"{hold} conquest-only tokens must leave the map: abandon regions to "
                    "free them (ruling 13)",
                    action,
                )
            raise IllegalAction(
                f"place the {rs.hand - hold} token(s) in your hand before ending the turn",
                action,
            )
        rs.hand -= hold
        rs.held += hold
        following = self._next_acting(s)
        if following is not None:
            self._begin_cycle(s, following, log)
        else:
            self._start_withdrawals(s, log)

    def _decline(self, s: State, action: Decline, log: Log) -> None:
        self._need_phase(s, action, _CONQUEST, _REDEPLOY)
        if s.active == self.role_seat:
            raise IllegalAction("a role never goes into decline", action)
        if s.phase is _CONQUEST and self._may_decline(s):
            self._decline_now(s, log)
            return
        rs = self._acting_race(s, action)
        if not self._may_decline_at_end(s, rs):
            if s.picked:
                raise IllegalAction("a race cannot decline in the turn it was picked", action)
            raise IllegalAction(
                "decline is chosen instead of expanding, before any abandon or conquest "
                "(rule 1.12)",
                action,
            )
        s.decline_at_end = True
        self._end_turn(s, action, log)
        if s.phase is _REDEPLOY and s.acting == rs.race:
            # Like EndTurn, ending the conquests left tokens to place (a gain, or conquest-only
            # tokens to free): the turn goes on in redeployment, where Decline is offered again.
            s.decline_at_end = False

    def _decline_now(self, s: State, log: Log) -> None:
        """Rule 1.12: a whole turn spent going into decline, then scoring."""
        # Tokens readied at the start of the turn go back where they were (rule 1.12.3 counts
        # what is on the map).
        if s.acting is not None:
            acting = s.own_race(s.acting)
            for r, taken in s.readied:
                s.region_tokens[r] += taken
                acting.hand -= taken
            s.readied = ()
        race = s.players[s.active].active
        assert race is not None
        self._go_into_decline(s, s.own_race(race), log)
        self._score_and_advance(s, log)

    def _go_into_decline(self, s: State, rs: RaceState, log: Log) -> None:
        """The active race flips: the previous declined race leaves, one token per region
        stays (all, for a race that keeps them), the badge is discarded (rule 1.12)."""
        player = s.own_player(rs.owner)
        keeps_all = self.has_flag(s, rs.race, "keeps_tokens_in_decline")
        # Rule 1.12.1: the previous declined race leaves, unless it is exempt from the limit; a
        # race that is exempt itself displaces nobody (A12: at most one non-exempt race).
        removed = []
        if not self._exempt(s, rs.race):
            for old in list(player.declined):
                if not self._exempt(s, old):
                    self._retire(s, old, log)
                    removed.append(old)
        surplus = 0
        for r in self.regions_of(s, rs.race):
            if not keeps_all and s.region_tokens[r] > 1:
                surplus += s.region_tokens[r] - 1
                s.region_tokens[r] = 1
            self._remove_pieces(s, r, keep_survivors=True)
        if self.has_flag(s, rs.race, "decline_surplus_is_lost"):
            self._lose(s, rs.race, surplus, log)  # Rule 4.2.3, A16
        else:
            s.to_box(rs.race, surplus)
        s.to_box(rs.race, rs.hand + rs.held)
        rs.hand = rs.held = 0
        rs.declined = True
        if rs.power is not None and not self.rules.powers[rs.power].works_in_decline:
            s.power_discard = (*s.power_discard, rs.power)  # Rule 1.12.2: the badge is discarded
            rs.power = None
        player.active = None
        player.declined = (*player.declined, rs.race)
        if s.acting == rs.race:
            s.acting = None
        log(Declined(rs.owner, rs.race, tuple(removed)))
        if not self.mask_of(s, rs.race):
            self._retire(s, rs.race, log)  # ruling 12: a wiped-out race leaves at once

    _handlers: ClassVar[dict[type[Any], Callable[[Engine, State, Any, Log], None]]] = {
        PickCombo: _pick,
        Abandon: _abandon,
        Conquer: _conquer,
        ConquerWithDie: _conquer_with_die,
        RollDie: _roll,
        Deploy: _deploy,
        EndTurn: _end_turn,
        Decline: _decline,
        UseAbility: _use_ability,
        ChoosePower: _choose_power,
        Purchase: _purchase,
    }

    # ------------------------------------------------------------------ turn sequence

    def _acting_order(self, s: State) -> list[str]:
        """The races of the active player that act this turn, in order: declined races that
        act in decline first (flag ``acts_in_decline``, A11), then the active race."""
        player = s.players[s.active]
        order = [r for r in player.declined if self.has_flag(s, r, "acts_in_decline")]
        if player.active is not None:
            order.append(player.active)
        return order

    def _next_acting(self, s: State) -> str | None:
        order = self._acting_order(s)
        if s.acting in order:
            i = order.index(s.acting) + 1
            return order[i] if i < len(order) else None
        return None

    def _begin_cycle(self, s: State, race: str, log: Log, announce: bool = True) -> int:
        """A race starts acting: rule 1.6 ready troops (every token but one per region goes back
        into hand; conquest-only tokens come back), then its conquests. Returns the tokens
        readied; ``announce`` logs :class:`RaceActs` (a turn's first race is announced by
        :class:`TurnStarted` instead)."""
        self._reset_cycle(s)
        s.acting = race
        rs = s.own_race(race)
        rs.hand += rs.held
        rs.held = 0
        taken = []
        tokens = s.region_tokens
        for r in self.regions_of(s, race):
            extra = tokens[r] - 1
            if extra:
                taken.append((r, extra))
                tokens[r] = 1
        s.readied = tuple(taken)  # _reset_cycle emptied it
        readied = sum([extra for _, extra in taken])
        rs.hand += readied
        s.phase = _CONQUEST
        if announce:
            log(RaceActs(s.active, race, readied))
        return readied

    def _start_withdrawals(self, s: State, log: Log) -> None:
        """Ruling 8: defenders place their survivors clockwise from the active player."""
        players = self.players
        if len(s.withdrawals) > 1:
            s.withdrawals = tuple(sorted(
                s.withdrawals, key=lambda race: ((s.races[race].owner - s.active) % players, race)
            ))
        self._next_withdrawal(s, log)

    def _withdraws(self, s: State, rs: RaceState) -> bool:
        """Whether a defender has something to place: tokens, or pieces it places again."""
        if rs.race not in s.region_race:
            return False
        return bool(rs.hand) or bool(self._ability_actions(s, rs, _WITHDRAWAL))

    def _withdrawal_progress(self, s: State, log: Log) -> None:
        rs = s.races[s.withdrawals[0]]
        if not rs.hand and not self._withdraws(s, rs):
            s.withdrawals = s.withdrawals[1:]
            self._next_withdrawal(s, log)

    def _next_withdrawal(self, s: State, log: Log) -> None:
        while s.withdrawals:
            race = s.withdrawals[0]
            rs = s.races[race]
            s.phase = _WITHDRAWAL
            if self._withdraws(s, rs):
                return
            s.withdrawals = s.withdrawals[1:]
            if rs.hand and rs.declined:
                self._retire(s, race, log)
            # ruling 9: an active race with no region keeps its tokens and re-enters later
        self._score_and_advance(s, log)

    def _score_and_advance(self, s: State, log: Log) -> None:
        """Rule 1.11 scoring, then the next player's turn or the end of the game (rule 1.14)."""
        p = s.active
        player = s.own_player(p)
        details = []
        total = 0
        for race in ((player.active,) if player.active else ()) + player.declined:
            b = self.score(s, race)
            total += b.value
            details.append((race, b.value, b.explain()))
        player.coins += total
        log(Scored(p, total, tuple(details)))
        if player.active is not None:
            s.own_race(player.active).turns += 1
            if s.decline_at_end:
                self._go_into_decline(s, s.own_race(player.active), log)  # ruling 34
        won = self.role is not None and self._role_turn_end(s, log)
        log(TurnEnded(p))
        if won:
            self._game_over(s, log, winners=[self.role_seat])
            return
        s.active += 1
        if s.active == self.players:
            s.active = 0
            s.round += 1
        if s.round > self.map.turns:
            self._game_over(s, log)
            return
        self._start_turn(s, log)

    def _start_turn(self, s: State, log: Log) -> None:
        self._reset_turn(s)
        # A truce lasts until the turn of the player who made it.
        if s.truces:
            s.truces = tuple(t for t in s.truces if t[0] != s.active)
        player = s.players[s.active]
        readied = 0
        if player.active is None:
            s.phase = _PICK
        else:
            readied = self._begin_cycle(s, self._acting_order(s)[0], log, announce=False)
        log(TurnStarted(s.round, s.active, readied))

    def _game_over(self, s: State, log: Log, winners: list[int] | None = None) -> None:
        """Rule 1.14: most coins; ties broken by race tokens on the map; then shared (A14).
        ``winners``: a player who won at once (a role's win condition, A18)."""
        coins = [p.coins for p in s.players]
        if winners is not None:
            s.winners = tuple(winners)
            s.phase = _OVER
            log(GameOver(tuple(winners), tuple(coins)))
            return
        best = max(coins)
        leaders = [p for p in range(self.players) if coins[p] == best]
        if len(leaders) > 1:
            on_map = {p: self.tokens_on_map(s, p) for p in leaders}
            most = max(on_map.values())
            leaders = [p for p in leaders if on_map[p] == most]
        s.winners = tuple(leaders)
        s.phase = _OVER
        s.round = self.map.turns
        log(GameOver(tuple(leaders), tuple(coins)))

    def tokens_on_map(self, s: State, player: int) -> int:
        """Race tokens of a player on the map, active and declined (the tie-break)."""
        total = 0
        for r in range(self.n):
            race = s.region_race[r]
            if race is not None and race != LOST_TRIBE and s.races[race].owner == player:
                total += s.region_tokens[r]
        return total

    # ------------------------------------------------------------------ removals

    def _remove_pieces(self, s: State, r: int, keep_survivors: bool) -> dict[str, int]:
        """Pieces of ``r`` go back to their supply (those that survive decline stay, if
        ``keep_survivors``); return those their holder keeps when they are lost, by name."""
        pieces = s.pieces.get(r)
        if not pieces:
            return {}
        kept: dict[str, int] = {}
        left: dict[str, int] = {}  # the table is replaced, not changed (copy on write)
        for name, count in pieces.items():
            piece = self.rules.pieces[name]
            if keep_survivors and piece.survives_decline:
                left[name] = count
                continue
            s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] + count}
            if piece.kept_when_lost:
                kept[name] = count
        s.set_pieces(r, left)
        return kept

    def _empty_region(self, s: State, r: int) -> None:
        s.occupy(r, None, 0)
        self._remove_pieces(s, r, keep_survivors=False)

    def _retire(self, s: State, race: str, log: Log) -> None:
        """Rule 1.13: the race's last tokens leave; its banner goes under the race stack."""
        rs = s.races.pop(race)
        for r in self.regions_of(s, race):
            s.to_box(race, s.region_tokens[r])
            self._empty_region(s, r)
        s.to_box(race, rs.hand + rs.held)
        player = s.own_player(rs.owner)
        if player.active == race:
            player.active = None
        if race in player.declined:
            player.declined = without(player.declined, race)
        if race in s.withdrawals:
            s.withdrawals = without(s.withdrawals, race)
        if rs.power is not None:
            s.power_discard = (*s.power_discard, rs.power)
        s.race_stack = (*s.race_stack, race)
        log(RaceRemoved(rs.owner, race))
        self._refill_market(s)

    def check_invariants(self, s: State) -> None:
        """Raise :class:`RulesError` if the state breaks a rule that always holds."""
        for r in range(self.n):
            race, tokens = s.region_race[r], s.region_tokens[r]
            if (race is None) != (tokens == 0):
                raise RulesError(f"region {r}: {tokens} tokens but occupant {race!r}")
            if tokens < 0:
                raise RulesError(f"region {r}: negative tokens")
            if race is not None and race != LOST_TRIBE and race not in s.races:
                raise RulesError(f"region {r}: race {race!r} is not in play")
        masks = occupant_masks(s.region_race)
        if masks != s.race_masks:
            raise RulesError(f"the occupants' masks {dict(s.race_masks)} are not {masks}")
        tribes = sum(s.region_tokens[r] for r in range(self.n) if s.region_race[r] == LOST_TRIBE)
        if tribes > LOST_TRIBE_TOKENS:
            raise RulesError(f"{tribes} Lost Tribe tokens on the map, more than the box's")
        in_zones: dict[str, int] = {}
        for pile in s.zones.values():
            for kind in pile:
                in_zones[kind] = in_zones.get(kind, 0) + 1
        for race, rd in self.race_defs.items():
            on_map = sum(s.region_tokens[r] for r in range(self.n) if s.region_race[r] == race)
            rs = s.races.get(race)
            hand, held = (rs.hand, rs.held) if rs else (0, 0)
            zoned = in_zones.get(race, 0)
            supply = self.role_supply if race == self.role_race else rd.box
            total = s.box[race] + hand + held + on_map + zoned
            if min(s.box[race], hand, held) < 0 or total != supply:
                raise RulesError(
                    f"{race}: box {s.box[race]} + hand {hand} + held {held} + map {on_map} "
                    f"+ zones {zoned} != supply {supply}"
                )
        for name, piece in self.rules.pieces.items():
            placed = sum(p.get(name, 0) for p in s.pieces.values())
            if s.piece_supply[name] < 0 or s.piece_supply[name] + placed != piece.supply:
                raise RulesError(f"piece {name}: supply and placed pieces do not add up")
        if any(p.coins < 0 for p in s.players):
            raise RulesError("negative coins")

    # ------------------------------------------------------------------ position set-up

    def clear_region(self, s: State, r: int) -> None:
        """Empty a region: its tokens and pieces go back to their supply."""
        race = s.region_race[r]
        if race is not None and race != LOST_TRIBE:
            s.to_box(race, s.region_tokens[r])
        self._empty_region(s, r)

    def race_for_put(self, s: State, player: int, declined: bool, race: str | None) -> str:
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

    def after_edit(self, s: State, log: Log) -> None:
        """A position set up in the pick phase that gave the player an active race: the
        race starts acting (its turn begins)."""
        drafting = s.active == self.role_seat  # a role choosing its powers stays at that
        if s.phase is _PICK and s.players[s.active].active is not None and not drafting:
            self._begin_cycle(s, self._acting_order(s)[0], log, announce=False)

    def put_piece(self, s: State, r: int, name: str, count: int) -> None:
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
