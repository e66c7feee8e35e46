"""The :class:`Engine`: rules + map + options, and the table of where each of its rules lives.

Each rule is a function in the module named after it (``conquest.py``, ``decline.py`` …),
written as a method (its first parameter ``self`` is the engine) and bound here as one: calls
stay ``self.x(...)``, as fast as methods defined in this class, and mypy checks every call
against this one class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from smallworld_rules.actions import (
    Abandon,
    ChoosePower,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    DrawPiece,
    EndTurn,
    PickCombo,
    Purchase,
    RollDie,
    UseAbility,
)
from smallworld_rules.engine import (
    conquest,
    decline,
    die,
    effects,
    legal,
    market,
    new_game,
    position,
    races,
    reach,
    redeploy,
    removals,
    roles,
    scoring,
    turn,
    use_ability,
    withdrawals,
)
from smallworld_rules.engine.basics import (
    DIE_FACES,
    STARTING_COINS,
    Log,
    _ByRegion,
    _Occupied,
    _region_actions,
    _region_deploys,
)
from smallworld_rules.engine.context import (
    _Combo,
    _Ctx,
    _EventCtx,
    _Part,
    _Static,
    new_context,
    players_matching,
)
from smallworld_rules.engine.new_game import _Start
from smallworld_rules.errors import RulesError
from smallworld_rules.language import borrowing, hidden_pieces
from smallworld_rules.maps import GameMap
from smallworld_rules.ruledefs import CompiledAbility, CompiledModifier, RoleDef, RuleDef
from smallworld_rules.rules import Rules
from smallworld_rules.state import State

#: Engines by what they are made of (see Engine.shared); the oldest is dropped past the limit.
_ENGINES: dict[tuple[Any, ...], Engine] = {}
_ENGINES_KEPT = 8
#: Deploy(r, n) for every region is made with the engine for each n below this (see
#: _all_deploys): 200 random games of either map met no count above 13
_DEPLOYS_MADE = 16
#: the effects of an ability that change only the piece tables and supply, or the truces
#: (outside the withdrawals: see effects._do_effect)
_QUIET_VERBS = frozenset(("place", "move", "truce"))


class Engine:
    """Rules + map + options: everything about a game that never changes while it is played."""

    # Slots, not an instance dict: past 30 attributes CPython 3.11 gives an instance a dict of
    # its own, and then no ``self.rule(...)`` call of the engine's (several hundred per move)
    # is specialised (each looks the name up in the instance dict, then in the class). A new
    # attribute set in __init__ must be named here (else AttributeError at once).
    __slots__ = (
        "_abandons",
        "_all_deploys",
        "_badge_combos",
        "_banner_tokens",
        "_borrowers",
        "_by_mask",
        "_capping",
        "_collectors",
        "_combos",
        "_conquers",
        "_cost_tables",
        "_costs_by_region",
        "_declining",
        "_die_conquers",
        "_discounting",
        "_fixed_costs",
        "_fixed_modifiers",
        "_floors",
        "_full_pieces",
        "_full_tokens",
        "_guard_pieces",
        "_hiding",
        "_holding",
        "_immune_cache",
        "_immune_pieces",
        "_immunizing",
        "_lifting",
        "_looting",
        "_losing",
        "_lost_to_box",
        "_mask_regions",
        "_no_redeploy",
        "_own_tokens",
        "_parts",
        "_penniless",
        "_plain_picks",
        "_plain_turns",
        "_plans",
        "_quick_seize",
        "_quiet_abilities",
        "_raising",
        "_reach_barred",
        "_role_combos",
        "_role_last",
        "_role_won",
        "_score_labels",
        "_shielding",
        "_single_deploys",
        "_start",
        "_staying",
        "_swapping",
        "_tolling",
        "_triggering",
        "_turn_lifted",
        "cover_name",
        "decline_choices",
        "declined_abilities",
        "defender_events",
        "die_faces",
        "explicit_chance",
        "flags",
        "hooks_used",
        "keeps_die",
        "keeps_out",
        "land_mask",
        "links",
        "lost_zone",
        "map",
        "mountain_bonus",
        "mountain_mask",
        "n",
        "open_mask",
        "options",
        "pile_zones",
        "players",
        "property_masks",
        "race_defs",
        "records_facts",
        "revives",
        "role",
        "role_coins",
        "role_enter",
        "role_purchases",
        "role_race",
        "role_seat",
        "role_supply",
        "rules",
        "second_rounds",
        "skip_pricing",
        "trigger_events",
    )

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
        # The options as resolve_options gives them (every name, in sorted order): not sorted
        # again here. A mapping in another order only misses the table (a new engine).
        key = (id(rules), id(game_map), players, tuple(options.items()), explicit_chance)
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
        #: the regions nobody may conquer or target (a role's hand zone lies on them), and
        #: that zone's name
        covered, self.cover_name = 0, ""
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
            if role.covers is not None and role.hand_zone is not None:
                covered = role.covers(static) & game_map.all_mask
                self.cover_name = rules.zones[role.hand_zone].name
        #: every region but the covered ones (see _reach)
        self.open_mask = game_map.all_mask & ~covered
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
        #: the rule files with no redeployment step (flag ``no_redeployment``): every token
        #: in hand is held back like conquest-only tokens
        self._no_redeploy = frozenset(
            d.id for d in every if "no_redeployment" in self.flags[d.kind, d.id]
        )
        self._holding = frozenset(d.id for d in every if d.conquest_tokens) | self._no_redeploy
        #: whether a race may not conquer again what it abandoned this turn (the flag
        #: ``no_return_to_abandoned``): its abandons are remembered for the turn
        self.keeps_out = any("no_return_to_abandoned" in f for f in self.flags.values())
        #: whether a race conquers in two rounds (the flag ``second_conquest_round``)
        self.second_rounds = any("second_conquest_round" in f for f in self.flags.values())
        #: whether a race revives its owner's previous race in decline as it declines
        self.revives = any("revives_previous_decline" in f for f in self.flags.values())
        #: whether an ability works for a race in decline (``while declined``, ``always``)
        self.declined_abilities = any(
            a.status != "active" for d in every for a in d.abilities
        )
        #: whether an ability is used as its race declines (``during decline``)
        self.decline_choices = any("decline" in a.phases for d in every for a in d.abilities)
        self._triggering = frozenset(d.id for d in every if d.triggers)
        #: the events some trigger of this game fires on
        self.trigger_events = frozenset(t.event for d in every for t in d.triggers)
        self.defender_events = bool(self.trigger_events & {"lost", "tokens_lost", "any_lost"})
        # The rule language's constructs of version 3 the rule files of this game use.
        needs = frozenset().union(*(d.needs for d in every))
        #: what each conquest took is recorded (``conquests with enemy_active`` …)
        self.records_facts = "facts" in needs
        #: the face of each roll of the die is kept for the turn (``die``)
        self.keeps_die = "die" in needs
        #: a rule file's combo costs more than 1 coin to skip over
        self.skip_pricing = any(d.skip_coins is not None for d in every)
        #: the rule files whose regions are immune to a player with no coins
        self._penniless = frozenset(
            d.id for d in every if "immune_to_penniless" in self.flags[d.kind, d.id]
        )
        #: the rule files whose regions may be immune (``immune``, ``immune_to_penniless``)
        self._immunizing = frozenset(d.id for d in every if d.immune) | self._penniless
        #: whether a rule file raises the least a conquest costs (``region_tokens min``)
        self._floors = any(d.region_min for d in every)
        #: the rule files limiting the tokens of a region (``region_tokens max``)
        self._capping = frozenset(d.id for d in every if d.region_max)
        #: whether a power brings tokens of its own (``own_tokens``)
        self._own_tokens = any(d.own_tokens for d in every)
        #: (rule file, pile) of each ``collect lost_tokens into PILE``, in load order
        self._collectors = tuple((d.id, d.collects) for d in every if d.collects)
        if self._collectors:
            self.pile_zones = sorted({*self.pile_zones, *(p for _, p in self._collectors)})
        #: whether a piece gives coins to whoever conquers its region (``loot N``)
        self._looting = any(p.loot and not p.hidden for p in rules.pieces.values())
        #: the rule files whose regions may be immune to other races' powers
        self._shielding = frozenset(d.id for d in every if d.shielded)
        #: whether an ability lowers one conquest's cost (``discount N``)
        self._discounting = any(
            e.verb == "discount" for d in every for a in d.abilities for e in a.effects
        )
        #: the faces of the die (the rule language's ``roll`` rolls it too)
        self.die_faces = DIE_FACES
        #: flag -> the rule files that raise it in this game (see has_flag)
        self._raising: dict[str, frozenset[str]] = {}
        for (_, rule_id), raised in self.flags.items():
            for flag in raised:
                self._raising[flag] = self._raising.get(flag, frozenset()) | {rule_id}
        #: a rule file lets a picked combo swap its badge (``swaps_power_when_picked``)
        self._swapping = "swaps_power_when_picked" in self._raising
        #: a rule file puts tokens on its skipped banner (``skip_tokens``)
        self._banner_tokens = any(d.skip_tokens for d in every)
        #: the badges whose race may borrow another badge (``borrow power``); the id sets
        #: the quick test _none_of reads name them too, so that their race's pairing (with
        #: the badge it borrows) is looked up (see smallworld_rules.language.borrowing)
        self._borrowers = frozenset(d.id for d in rules.powers.values() if borrowing.lends(d))
        if self._borrowers:
            self._lend_to_borrowers()
        #: the hooks some rule file of this game modifies
        self.hooks_used = frozenset(
            hook for d in every for hook, mods in d.modifiers.items() if mods
        )
        self.explicit_chance = explicit_chance
        self.n = len(game_map.regions)
        self.mountain_mask = game_map.terrain_masks["mountain"]
        #: 1 for a Mountain, else 0, by region (what a Mountain adds to a conquest's cost)
        self.mountain_bonus = tuple((self.mountain_mask >> r) & 1 for r in range(self.n))
        self.land_mask = game_map.all_mask & ~game_map.water_mask
        self.property_masks = {
            "coastal": game_map.coastal_mask,
            "border": game_map.entry_mask,
            "water": game_map.water_mask,
        }
        # The names of the pieces with a property the reach of every race depends on.
        self._immune_pieces = frozenset(n for n, p in rules.pieces.items() if p.immune)
        self._guard_pieces = frozenset(n for n, p in rules.pieces.items() if p.guards)
        #: pieces that stay with their region (``stays``) and pieces with a ``toll``
        self._staying = frozenset(n for n, p in rules.pieces.items() if p.stays)
        #: pieces placed face down by ``draw`` (``hidden``), in the order they are declared
        self._hiding = tuple(n for n, p in rules.pieces.items() if p.hidden)
        self._tolling = frozenset(n for n, p in rules.pieces.items() if p.toll)
        #: pieces lifted when their holder's turn begins (``lifted_at_turn_start``)
        self._turn_lifted = frozenset(
            n for n, p in rules.pieces.items() if p.lifted_at_turn_start
        )
        #: a turn starts with nothing but readying the troops: no revival, no piece lifted,
        #: no borrowed badge, no ``turn_start`` trigger, no ``region_tokens min`` (see
        #: turn._start_plain_turn, the one pass taken then)
        self._plain_turns = not (
            self.revives
            or self._turn_lifted
            or self._borrowers
            or self._floors
            or "turn_start" in self.trigger_events
        )
        #: see new_game.start_tables: what every new game starts from, made on first use
        self._start: _Start | None = None
        # Filled lazily (see _combo); they depend only on the rules and options.
        self._combos: dict[tuple[str, tuple[str, ...]], _Combo] = {}
        #: The shared actions naming one region, by region: legal_actions lists them for many
        #: regions per position, and indexing a list is cheaper than a _shared look-up.
        self._abandons, self._conquers, self._die_conquers, self._single_deploys = (
            _region_actions(self.n)
        )
        #: see _deploys: token count -> the shared Deploy(r, count) of every region. The
        #: counts a race's whole hand may come to are made here, with the engine: made on
        #: first listing, each new count made its row of new objects in the middle of a
        #: game (48 on the 5-player map), for the collector to walk; larger ones on demand
        self._all_deploys: dict[int, _ByRegion] = {
            count: _region_deploys(self.n, count) for count in range(2, _DEPLOYS_MADE)
        }
        #: see _combo_of: attached badge or None -> race -> its pairing
        self._badge_combos: dict[str | None, dict[str, _Combo]] = {}
        #: the role's pairing by the powers it has activated (``State.role_powers``)
        self._role_combos: dict[tuple[str, ...], _Combo] = {}
        #: the last of them looked up, with its powers (the very tuple: see _combo_of)
        self._role_last: tuple[tuple[str, ...] | None, _Combo | None] = (None, None)
        #: see use_ability._plan: id of an ability -> (the ability, how its effects are checked)
        self._plans: dict[int, tuple[CompiledAbility, use_ability._Plan]] = {}
        #: see immune_mask: (the piece tables it was computed from, the mask, the open
        #: regions less those)
        self._immune_cache: tuple[Mapping[int, Mapping[str, int]], int, int] = ({}, 0, 0)
        #: see _occupied: mask -> (regions, mask, bordering mask)
        self._by_mask: dict[int, _Occupied] = {}
        #: see regions_in: mask -> its regions
        self._mask_regions: dict[int, tuple[int, ...]] = {}
        #: see conquest_costs: id of a race's conquest_cost modifiers -> (them, what a
        #: Mountain and they add to each region's cost, or None if that may change, and the
        #: least of those additions)
        self._fixed_modifiers = conquest.fixed_modifiers(every)
        self._fixed_costs: dict[
            int, tuple[tuple[CompiledModifier, ...], tuple[int, ...] | None, int]
        ] = {}
        #: see conquest_costs: some rule file modifies a defence, shields regions from
        #: powers or gives discounts (the costs are then worked out region by region)
        self._costs_by_region = bool(
            "defence" in self.hooks_used or self._shielding or self._discounting
        )
        #: see _reach: regions immune by rule, abandoned ones kept out, or face-down pieces
        self._reach_barred = bool(self._immunizing or self.keeps_out or self._hiding)
        #: the rule files with ``losses`` modifiers, and the borrowing badges where some
        #: file has them (see conquest.losses_value: the quick answer for the others)
        self._losing = frozenset(d.id for d in every if d.modifiers.get("losses"))
        self._losing = self._losing and self._losing | self._borrowers
        #: lost tokens go to the box, as _lose would send them (no zone takes them)
        self._lost_to_box = self.lost_zone is None and not self._collectors
        #: the rule files holding pieces lifted at redeployment (``lifted_at_redeploy``),
        #: and the borrowing badges where some file has them (see _enter_redeploy)
        lifting = frozenset(p.holder for p in rules.pieces.values() if p.lifted_at_redeploy)
        self._lifting = lifting and lifting | self._borrowers
        #: see conquest.cost_table: id of a pairing's conquest_cost modifiers -> its table
        self._cost_tables: dict[int, conquest._CostTable] = {}
        #: see check_invariants: each race's tokens in all (the role's: its supply), and
        #: each piece's (a power's own tokens are added per position)
        self._full_tokens = {race: rd.box for race, rd in self.race_defs.items()}
        if self.role_race is not None:
            self._full_tokens[self.role_race] = self.role_supply
        self._full_pieces = {name: piece.supply for name, piece in rules.pieces.items()}
        #: see scoring.scored: id of a score modifier -> (it, the explanation's text of it
        #: by amount: its sign, amount, label and place)
        self._score_labels: dict[int, tuple[CompiledModifier, dict[int, str]]] = {}
        #: see roles._role_turn_end: (the tray, the piles, whether the role won with them)
        #: when the role's win reads nothing else (``RoleDef.win_places``), else None
        places = None if self.role is None else self.role.win_places
        self._role_won: tuple[object, object, bool] | None = (
            (None, None, False)
            if places is not None
            and all(p == "reserve" or (p != "map" and p in self.pile_zones) for p in places)
            else None
        )
        #: a region nobody defends is taken without _seize (see conquest._conquer): no
        #: conquest is recorded for the rule language, and no discount spent
        self._quick_seize = not self.records_facts and not self._discounting
        #: see context._part: id of a rule file -> (the file, what it brings to a pairing)
        self._parts: dict[int, tuple[RuleDef, _Part]] = {}
        #: the rule files raising a flag that going into decline reads (and the borrowing
        #: badges where some file does: _raising names them): see decline._go_into_decline,
        #: whose race and badge are most often none of them
        self._declining = frozenset().union(
            *(self._raising.get(flag, ()) for flag in decline.DECLINE_FLAGS)
        )
        #: picking a combo takes it and nothing more: no tokens on skipped banners, no
        #: power's own tokens, no badge swapped or borrowed, no ``pick`` trigger (see
        #: Game._pick_in_place)
        self._plain_picks = not (
            self._banner_tokens
            or self._own_tokens
            or self._swapping
            or self._borrowers
            or "pick" in self.trigger_events
        )
        #: the abilities, by name, that only place or move pieces or make a truce, without
        #: the rule language, a price or a count of uses, in every rule file naming them,
        #: where no race in decline uses abilities (see Game._use_ability_in_place)
        quiet: dict[str, bool] = {}
        for d in every:
            for a in d.abilities:
                quiet[a.name] = quiet.get(a.name, True) and (
                    not a.language
                    and a.price is None
                    and a.limit != "times"
                    and all(e.verb in _QUIET_VERBS for e in a.effects)
                )
        self._quiet_abilities = frozenset(
            () if self.declined_abilities else (n for n, q in quiet.items() if q)
        )

    def _lend_to_borrowers(self) -> None:
        """Name the borrowing badges among the rule files with each feature, where some
        rule file has it (a borrowed badge may bring it)."""
        more = self._borrowers
        self._triggering = self._triggering and self._triggering | more
        self._holding = self._holding and self._holding | more
        self._immunizing = self._immunizing and self._immunizing | more
        self._capping = self._capping and self._capping | more
        self._shielding = self._shielding and self._shielding | more
        self._raising = {flag: ids | more for flag, ids in self._raising.items()}

    # The rules, by the module that holds them (see the package's docstring).

    # new_game.py: the position before the first turn
    new_state = new_game.new_state

    # market.py: the market and picking a combo
    _refill_market = market._refill_market
    _pick = market._pick
    _skip_coins = market._skip_coins
    _after_pick = market._after_pick
    pick_price = market.pick_price

    def context(
        self, s: State, race: str, target: int = -1, occasion: Any = None
    ) -> _Ctx:
        """The context a race's compiled rules are evaluated in (``occasion``: the event
        of a trigger, see smallworld_rules.language.events)."""
        if occasion is None:
            return new_context(self, s, race, target)
        ctx = _EventCtx(self, s, race, target)
        ctx.occasion = occasion
        return ctx

    # races.py: a race's rule files, flags, modifiers, regions and tokens
    defs = races.defs
    _powers = races._powers
    _combo = races._combo
    _combo_of = races._combo_of
    has_flag = races.has_flag
    _exempt = races._exempt
    _none_of = races._none_of
    regions_of = races.regions_of
    mask_of = races.mask_of
    _occupied = races._occupied
    regions_in = races.regions_in
    powers_count = races.powers_count
    tokens_in = races.tokens_in
    seen_declined = races.seen_declined
    _modifiers = races._modifiers
    _contributions = races._contributions
    abilities = races.abilities

    # reach.py: where a race may attack
    immune_piece = reach.immune_piece
    _pieces_mask = reach._pieces_mask
    immune_mask = reach.immune_mask
    guarded_mask = reach.guarded_mask
    enemy_active_mask = reach.enemy_active_mask
    barred = reach.barred
    link_mask = reach.link_mask
    truce_mask = reach.truce_mask
    adjacent_mask = reach.adjacent_mask
    reach_mask = reach.reach_mask
    _reach = reach._reach
    target_problem = reach.target_problem

    # conquest.py: conquest costs, abandoning, taking a region, losses
    conquest_cost = conquest.conquest_cost
    conquest_cost_value = conquest.conquest_cost_value
    conquest_costs = conquest.conquest_costs
    _applying = conquest._applying
    losses = conquest.losses
    losses_value = conquest.losses_value
    _may_abandon = conquest._may_abandon
    _abandon = conquest._abandon
    _attempt = conquest._attempt
    _conquer = conquest._conquer
    _take_region = conquest._take_region
    _seize = conquest._seize
    _lose = conquest._lose

    # die.py: the reinforcement die
    _conquer_with_die = die._conquer_with_die
    _roll_die = die._roll_die
    _roll = die._roll
    _resolve_die = die._resolve_die

    # redeploy.py: the end of the conquests, redeployment, tokens held back
    _surplus = staticmethod(redeploy._surplus)
    _keep = redeploy._keep
    _hold = redeploy._hold
    _held_back = staticmethod(redeploy._held_back)
    _may_end_conquest = staticmethod(redeploy._may_end_conquest)
    _enter_redeploy = redeploy._enter_redeploy
    _deploy = redeploy._deploy

    # withdrawals.py: the defenders' withdrawals
    _start_withdrawals = withdrawals._start_withdrawals
    _withdraws = withdrawals._withdraws
    _withdrawal_progress = withdrawals._withdrawal_progress
    _next_withdrawal = withdrawals._next_withdrawal

    # decline.py: going into decline
    _may_decline = decline._may_decline
    _may_decline_at_end = decline._may_decline_at_end
    _decline = decline._decline
    _decline_now = decline._decline_now
    _go_into_decline = decline._go_into_decline

    # scoring.py: scoring each turn, the winners
    score = scoring.score
    _score_and_advance = scoring._score_and_advance
    _game_over = scoring._game_over
    tokens_on_map = scoring.tokens_on_map

    # turn.py: who moves, the races acting, readying troops, ending the turn
    to_move = turn.to_move
    _reset_turn = staticmethod(turn._reset_turn)
    _reset_cycle = staticmethod(turn._reset_cycle)
    _acting_order = turn._acting_order
    _next_acting = turn._next_acting
    _begin_cycle = turn._begin_cycle
    _start_turn = turn._start_turn
    _end_turn = turn._end_turn

    # legal.py: legal actions and carrying an action out
    legal_actions = legal.legal_actions
    _deploys = legal._deploys
    _conquests = legal._conquests
    apply = legal.apply
    _acting_race = legal._acting_race
    _need_phase = legal._need_phase

    # use_ability.py: abilities (UseAbility)
    _use_key = use_ability._use_key
    _ability_targets = use_ability._ability_targets
    #: the players a player condition holds for, each in a context of its own
    players_matching = players_matching
    ability_problem = use_ability.ability_problem
    _effect_problem = use_ability._effect_problem
    _amount = use_ability._amount
    _ability_actions = use_ability._ability_actions
    _use_ability = use_ability._use_ability

    # effects.py: effects and triggers
    _fire = effects._fire
    _gain = effects._gain
    _do_effect = effects._do_effect
    _take_piece = effects._take_piece

    # roles.py: a role's seat, drafted powers and purchases
    _set_up_role = roles._set_up_role
    price = roles.price
    purchase_problem = roles.purchase_problem
    _purchases = roles._purchases
    _purchase = roles._purchase
    _choose_power = roles._choose_power
    _role_turn_end = roles._role_turn_end
    _take_from_pile = staticmethod(roles._take_from_pile)

    # removals.py: pieces, regions and races removed
    _remove_pieces = removals._remove_pieces
    _empty_region = removals._empty_region
    _retire = removals._retire

    # position.py: set-up edits and invariants
    check_invariants = position.check_invariants
    clear_region = position.clear_region
    race_for_put = position.race_for_put
    after_edit = position.after_edit
    put_piece = position.put_piece

    #: The rule carrying out each action type (see apply).
    _handlers: ClassVar[dict[type[Any], Callable[[Engine, State, Any, Log], None]]] = {
        PickCombo: market._pick,
        Abandon: conquest._abandon,
        Conquer: conquest._conquer,
        ConquerWithDie: die._conquer_with_die,
        RollDie: die._roll,
        DrawPiece: hidden_pieces.drawn,
        Deploy: redeploy._deploy,
        EndTurn: turn._end_turn,
        Decline: decline._decline,
        UseAbility: use_ability._use_ability,
        ChoosePower: roles._choose_power,
        Purchase: roles._purchase,
    }
