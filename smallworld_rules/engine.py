"""The rules of play: which actions are legal and what they do to a :class:`State`.

The engine knows no race or power by name. It reads what a race or power changes from its
compiled rule file: modifiers folded into the hook points (conquest cost, defence, losses,
score), flags, and pieces. REFERENCE.md section numbers in comments point at the rule
implemented.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from smallworld_rules import rng
from smallworld_rules.actions import (
    Abandon,
    Action,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    EndTurn,
    PickCombo,
    RollDie,
    action_problem,
)
from smallworld_rules.errors import IllegalAction, RulesError
from smallworld_rules.events import (
    Abandoned,
    ComboPicked,
    Conquered,
    Declined,
    Deployed,
    DieRolled,
    Event,
    GameOver,
    RaceRemoved,
    Scored,
    TurnEnded,
    TurnStarted,
)
from smallworld_rules.hooks import CORE, Breakdown, Contribution, fold
from smallworld_rules.maps import GameMap
from smallworld_rules.ruledefs import CompiledModifier, RuleDef
from smallworld_rules.rules import Rules
from smallworld_rules.state import LOST_TRIBE, Phase, PlayerState, RaceState, State

#: Faces of the reinforcement die (§1.1).
DIE_FACES = (0, 0, 0, 1, 2, 3)
#: Coins each player starts with (§1.2).
STARTING_COINS = 5
#: Combos visible in the market (§1.2).
MARKET_SIZE = 6
#: How many tokens short a final die attempt may be (§1.9).
DIE_REACH = 3
BASE_COST = 2
#: Lost Tribe tokens in the box (§1.1).
LOST_TRIBE_TOKENS = 18


Log = Callable[[Event], None]


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
        if name == "non_empty":
            tokens = self.state.region_tokens
            return sum(1 << r for r in range(len(tokens)) if tokens[r])
        if name == "first_turn":
            rs = self.state.races.get(self.race)
            return self.all_mask if rs is not None and rs.turns == 0 else 0
        return self.engine.property_masks[name]

    def piece_mask(self, name: str) -> int:
        return sum(1 << r for r, p in self.state.pieces.items() if p.get(name))

    def own_mask(self) -> int:
        return self.engine.mask_of(self.state, self.race)

    def conquests_mask(self, non_empty_only: bool) -> int:
        s = self.state
        if s.players[s.active].active != self.race:
            return 0
        if non_empty_only:
            return s.conquered_nonempty
        return sum(1 << r for r in s.conquered)

    def option(self, name: str) -> bool | int:
        return self.engine.options[name]

    def adjacent_mask(self, regions: int) -> int:
        adjacency = self.engine.map.adjacency
        out = 0
        while regions:
            low = regions & -regions
            out |= adjacency[low.bit_length() - 1]
            regions ^= low
        return out


class _OptionsOnly:
    """The context a flag's condition is evaluated in: game options, no position."""

    all_mask = 1
    target = -1

    def __init__(self, options: Mapping[str, bool | int]) -> None:
        self.options = options

    def option(self, name: str) -> bool | int:
        return self.options[name]

    def terrain_mask(self, name: str) -> int:
        return 0

    feature_mask = property_mask = piece_mask = terrain_mask

    def own_mask(self) -> int:
        return 0

    def conquests_mask(self, non_empty_only: bool) -> int:
        return 0

    def adjacent_mask(self, regions: int) -> int:
        return 0


class Engine:
    """Rules + map + options: everything about a game that never changes while it is played."""

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
        # Flags hold for the whole game, so the ones that depend on options are settled now.
        context = _OptionsOnly(self.options)
        self.flags = {
            (d.kind, d.id): d.flags
            | {flag for flag, condition in d.conditional_flags if condition(context)}
            for table in (rules.races, rules.powers, rules.expansions)
            for d in table.values()
        }
        self.explicit_chance = explicit_chance
        self.n = len(game_map.regions)
        self.mountain_mask = game_map.terrain_masks["mountain"]
        self.property_masks = {
            "coastal": game_map.coastal_mask,
            "border": game_map.entry_mask,
            "water": game_map.water_mask,
        }

    # ------------------------------------------------------------------ set-up

    def new_state(self, seed: int, combos: list[tuple[str, str]]) -> State:
        """The position before the first turn (§1.2)."""
        s = State.__new__(State)
        state = rng.seed_state(seed)
        races = sorted(self.rules.races)
        powers = sorted(self.rules.powers)
        state = rng.shuffle(state, races)
        state = rng.shuffle(state, powers)
        fixed_races = [r for r, _ in combos]
        fixed_powers = [p for _, p in combos]
        race_order = fixed_races + [r for r in races if r not in fixed_races]
        power_order = fixed_powers + [p for p in powers if p not in fixed_powers]
        s.region_race = [LOST_TRIBE if r.lost_tribe else None for r in self.map.regions]
        s.region_tokens = [1 if r.lost_tribe else 0 for r in self.map.regions]
        s.pieces = {}
        s.box = {rid: rd.box for rid, rd in self.rules.races.items()}
        s.piece_supply = {name: p.supply for name, p in self.rules.pieces.items()}
        s.races = {}
        s.players = [PlayerState(STARTING_COINS, None, []) for _ in range(self.players)]
        s.market = []
        s.race_stack = race_order
        s.power_stack = power_order
        s.power_discard = []
        s.round = 1
        s.active = 0
        s.phase = Phase.PICK
        s.rng = state
        s.winners = []
        self._reset_turn(s)
        self._refill_market(s)
        return s

    @staticmethod
    def _reset_turn(s: State) -> None:
        s.conquered = []
        s.conquered_nonempty = 0
        s.acted = False
        s.picked = False
        s.readied = []
        s.die_target = -1
        s.withdrawals = []

    def _refill_market(self, s: State) -> None:
        """Slide combos up and reveal new ones while banners and badges last (§1.5, §1.13)."""
        while len(s.market) < MARKET_SIZE and s.race_stack:
            if not s.power_stack and s.power_discard:
                # Ruling 38: the badges ran out, so the discards are shuffled into a new stack.
                s.power_stack = s.power_discard
                s.power_discard = []
                s.rng = rng.shuffle(s.rng, s.power_stack)
            if not s.power_stack:
                break
            s.market.append([s.race_stack.pop(0), s.power_stack.pop(0), 0])

    # ------------------------------------------------------------------ queries

    def to_move(self, s: State) -> int | None:
        """The player who must act, ``-1`` for a chance node, ``None`` once the game is over."""
        if s.phase is Phase.OVER:
            return None
        if s.phase is Phase.DIE_ROLL:
            return -1
        if s.phase is Phase.WITHDRAWAL:
            return s.races[s.withdrawals[0]].owner
        return s.active

    def defs(self, s: State, race: str) -> Iterator[RuleDef]:
        """The race's rule file, then its power's (while the badge is attached)."""
        if race == LOST_TRIBE:
            return
        yield self.rules.races[race]
        rs = s.races.get(race)
        if rs is not None and rs.power is not None:
            yield self.rules.powers[rs.power]

    def has_flag(self, s: State, race: str, flag: str) -> bool:
        """Whether the race or its attached power raises ``flag``."""
        return any(flag in self.flags[d.kind, d.id] for d in self.defs(s, race))

    def _exempt(self, s: State, race: str) -> bool:
        return self.has_flag(s, race, "exempt_from_decline_limit")

    def regions_of(self, s: State, race: str) -> list[int]:
        """Regions holding the race's tokens, in id order."""
        rr = s.region_race
        return [r for r in range(self.n) if rr[r] == race]

    def mask_of(self, s: State, race: str) -> int:
        rr = s.region_race
        return sum(1 << r for r in range(self.n) if rr[r] == race)

    def _modifiers(self, s: State, race: str, hook: str) -> Iterator[CompiledModifier]:
        rs = s.races.get(race)
        declined = rs is not None and rs.declined
        for d in self.defs(s, race):
            for m in d.modifiers[hook]:
                if m.applies_to(declined):
                    yield m

    def _contributions(
        self, s: State, race: str, hook: str, target: int = -1
    ) -> list[Contribution]:
        ctx = _Ctx(self, s, race, target)
        out: list[Contribution] = []
        for m in self._modifiers(s, race, hook):
            if m.condition(ctx):
                out.append(Contribution(m.label, m.op, m.value(ctx), m.path, m.line))
        return out

    def conquest_cost(self, s: State, race: str, region: int) -> Breakdown:
        """Tokens ``race`` needs to conquer ``region`` (§1.7), with every contribution."""
        parts: list[Contribution] = []
        occupant, tokens = s.region_race[region], s.region_tokens[region]
        if occupant is not None and tokens:
            label = "Lost Tribe" if occupant == LOST_TRIBE else self.rules.races[occupant].name
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
        return fold(BASE_COST, parts, minimum=1)

    def losses(self, s: State, race: str, region: int) -> Breakdown:
        """Tokens ``race`` loses for good when ``region`` is conquered from it (§1.8)."""
        parts = self._contributions(s, race, "losses", region)
        return fold(1, parts, minimum=0, maximum=s.region_tokens[region])

    def score(self, s: State, race: str) -> Breakdown:
        """Coins a race scores at the end of its owner's turn (§1.11)."""
        regions = len(self.regions_of(s, race))
        return fold(regions, self._contributions(s, race, "score"), minimum=0)

    def immune_piece(self, s: State, region: int) -> str | None:
        """The name of an immunity-giving piece in the region, if any."""
        for name, count in s.pieces.get(region, {}).items():
            if count and self.rules.pieces[name].immune:
                return name
        return None

    def target_problem(self, s: State, race: str, region: int) -> str | None:
        """Why ``race`` may not conquer ``region`` now (tokens aside), or ``None``."""
        if not 0 <= region < self.n:
            return f"there is no region {region} on the {self.map.name} map"
        if s.region_race[region] == race:
            return f"your {self.rules.races[race].name} already hold region {region}"
        if (self.map.water_mask >> region) & 1 and not self.has_flag(s, race, "enter_water"):
            return f"region {region} is water: only a race that may enter water can conquer it"
        piece = self.immune_piece(s, region)
        if piece is not None:
            return f"region {region} is immune (a {piece} is there)"
        own = self.mask_of(s, race)
        if not own:
            if not (self.map.entry_mask >> region) & 1 and not self.has_flag(
                s, race, "enter_anywhere"
            ):
                return (
                    f"region {region} is not a border region: a race with no region on the map "
                    "must enter at the edge or on the shore of an edge Sea (§1.7)"
                )
        elif not self.map.adjacency[region] & own and not self.has_flag(
            s, race, "conquer_anywhere"
        ):
            return f"region {region} is not adjacent to a region your race holds"
        return None

    def _surplus(self, s: State, race: str) -> int:
        return sum(s.region_tokens[r] - 1 for r in self.regions_of(s, race))

    def _hold(self, s: State, rs: RaceState) -> int:
        """Conquest-only tokens the race must hold off the map when its turn ends (ruling 13):
        all of them, or every token it has if it has fewer."""
        wanted = sum(d.conquest_tokens for d in self.defs(s, rs.race))
        if not wanted:
            return 0
        on_map = sum(s.region_tokens[r] for r in self.regions_of(s, rs.race))
        return min(wanted, rs.hand + on_map)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, s: State) -> list[Action]:
        """Every legal action for whoever must act now (Deploy: 1 or all per region)."""
        phase = s.phase
        if phase is Phase.PICK:
            coins = s.players[s.active].coins
            picks: list[Action] = [PickCombo(i) for i in range(len(s.market)) if i <= coins]
            return picks or [EndTurn()]
        if phase is Phase.DIE_ROLL:
            return [RollDie(face) for face in sorted(set(DIE_FACES))]
        if phase is Phase.OVER:
            return []
        if phase is Phase.WITHDRAWAL:
            race = s.withdrawals[0]
            return self._deploys(self.regions_of(s, race), s.races[race].hand)
        active = s.players[s.active].active
        assert active is not None
        rs = s.races[active]
        own = self.regions_of(s, active)
        hold = self._hold(s, rs)
        if phase is Phase.REDEPLOY:
            acts = self._deploys(own, rs.hand - hold)
            if rs.hand < hold:
                acts.extend(Abandon(r) for r in own)  # ruling 13: forced abandonment
            if rs.hand == hold or not own:
                acts.append(EndTurn())
            return acts
        acts = []
        if self._may_decline(s):
            acts.append(Decline())
        if self._may_abandon(s):
            acts.extend(Abandon(r) for r in own)
        if rs.hand >= 1:
            for r in range(self.n):
                if self.target_problem(s, active, r) is None:
                    cost = self.conquest_cost(s, active, r).value
                    if cost <= rs.hand:
                        acts.append(Conquer(r))
                    elif cost - rs.hand <= DIE_REACH:
                        acts.append(ConquerWithDie(r))
        surplus = self._surplus(s, active)
        acts.extend(self._deploys(own, rs.hand + surplus - hold))
        if self._may_end_conquest(rs, hold, surplus, own):
            acts.append(EndTurn())
        return acts

    @staticmethod
    def _may_end_conquest(rs: RaceState, hold: int, surplus: int, own: list[int]) -> bool:
        """Whether EndTurn may end the conquests now.

        Ending without redeploying leaves the surplus where it is. A race that must hold
        conquest-only tokens back but lacks them in hand (and cannot place any token) takes
        the surplus back first; if that is still too few, it stays in redeployment, where it
        must abandon regions (ruling 13).
        """
        return not own or rs.hand == hold or rs.hand < hold >= rs.hand + surplus

    @staticmethod
    def _deploys(regions: list[int], available: int) -> list[Action]:
        if available < 1:
            return []
        counts = (1,) if available == 1 else (1, available)
        return [Deploy(r, c) for r in regions for c in counts]

    def _may_decline(self, s: State) -> bool:
        race = s.players[s.active].active
        return race is not None and not s.picked and not s.acted

    def _may_abandon(self, s: State) -> bool:
        return not s.conquered or bool(self.options["abandon_mid_conquest"])

    # ------------------------------------------------------------------ applying actions

    def apply(self, s: State, action: Action, log: Log) -> None:
        """Carry out ``action`` on ``s``; raise :class:`IllegalAction` if it is not legal.

        Every check comes before the first change, except where noted; the caller restores
        its copy of the state if anything raises.
        """
        problem = action_problem(action)
        if problem:
            raise IllegalAction(problem)
        if s.phase is Phase.OVER:
            raise IllegalAction("the game is over", action)
        handler = self._handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"{type(action).__name__} is not an action of this game", action)
        handler(self, s, action, log)

    def _active_race(self, s: State, action: Action) -> RaceState:
        race = s.players[s.active].active
        if race is None:
            raise IllegalAction("you have no active race: pick a combo first", action)
        return s.races[race]

    def _need_phase(self, s: State, action: Action, *phases: Phase) -> None:
        if s.phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise IllegalAction(
                f"{type(action).__name__} is played in the {wanted} phase, "
                f"not now ({s.phase.value})",
                action,
            )

    def _pick(self, s: State, action: PickCombo, log: Log) -> None:
        self._need_phase(s, action, Phase.PICK)
        player = s.players[s.active]
        i = action.index
        if not 0 <= i < len(s.market):
            raise IllegalAction(f"there is no combo at position {i} of the market", action)
        if player.coins < i:
            raise IllegalAction(
                f"the combo at position {i} costs {i} coins and you have {player.coins}", action
            )
        # §1.5: one coin on each combo above the chosen one; take the coins lying on it.
        for j in range(i):
            s.market[j][2] += 1
        race, power, collected = s.market.pop(i)
        player.coins += collected - i
        defs = (self.rules.races[race], self.rules.powers[power])
        wanted = sum(d.tokens + d.conquest_tokens for d in defs)
        tokens = min(wanted, s.box[race])  # §1.1: the tray is a hard cap
        s.box[race] -= tokens
        s.races[race] = RaceState(race, power, s.active, False, tokens, 0)
        player.active = race
        self._refill_market(s)
        s.picked = True
        s.phase = Phase.CONQUEST
        log(ComboPicked(s.active, race, power, i, i, collected, tokens))

    def _abandon(self, s: State, action: Abandon, log: Log) -> None:
        self._need_phase(s, action, Phase.CONQUEST, Phase.REDEPLOY)
        rs = self._active_race(s, action)
        r = action.region
        if not 0 <= r < self.n or s.region_race[r] != rs.race:
            raise IllegalAction(f"region {r} is not held by your active race", action)
        if s.phase is Phase.REDEPLOY:
            if rs.hand >= self._hold(s, rs):
                raise IllegalAction(
                    "in redeployment a region is abandoned only to free tokens that must be "
                    "held back (ruling 13)",
                    action,
                )
        elif not self._may_abandon(s):
            raise IllegalAction("regions are abandoned before the first conquest (§1.6)", action)
        tokens = s.region_tokens[r]
        rs.hand += tokens
        self._empty_region(s, r)
        s.acted = True
        log(Abandoned(s.active, rs.race, r, tokens))

    def _attempt(self, s: State, action: Conquer | ConquerWithDie) -> tuple[RaceState, int]:
        """Checks shared by every conquest attempt; returns the race and the cost."""
        self._need_phase(s, action, Phase.CONQUEST)
        rs = self._active_race(s, action)
        problem = self.target_problem(s, rs.race, action.region)
        if problem:
            raise IllegalAction(problem, action)
        if rs.hand < 1:
            raise IllegalAction("a conquest needs at least one token in hand (ruling 4)", action)
        return rs, self.conquest_cost(s, rs.race, action.region).value

    def _conquer(self, s: State, action: Conquer, log: Log) -> None:
        rs, cost = self._attempt(s, action)
        r = action.region
        if cost > rs.hand:
            raise IllegalAction(
                f"region {r} costs {cost} tokens and you have {rs.hand} in hand", action
            )
        self._take_region(s, rs, r, cost, cost, log)

    def _conquer_with_die(self, s: State, action: ConquerWithDie, log: Log) -> None:
        rs, cost = self._attempt(s, action)
        r = action.region
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
        s.die_target = r
        if self.explicit_chance:
            s.phase = Phase.DIE_ROLL
            return
        s.rng, k = rng.randbelow(s.rng, len(DIE_FACES))
        self._resolve_die(s, DIE_FACES[k], log)

    def _roll(self, s: State, action: RollDie, log: Log) -> None:
        self._need_phase(s, action, Phase.DIE_ROLL)
        if action.face not in DIE_FACES:
            raise IllegalAction(f"the die has no face {action.face}", action)
        self._resolve_die(s, action.face, log)

    def _resolve_die(self, s: State, face: int, log: Log) -> None:
        """Ruling 5: conquer with every token in hand if hand + die ≥ cost; conquests end."""
        race = s.players[s.active].active
        assert race is not None
        rs = s.races[race]
        r = s.die_target
        cost = self.conquest_cost(s, race, r).value
        success = rs.hand + face >= cost
        log(DieRolled(s.active, r, face, cost, rs.hand, success))
        s.die_target = -1
        s.phase = Phase.CONQUEST
        if success:
            self._take_region(s, rs, r, cost, rs.hand, log)
        self._enter_redeploy(s, rs)

    def _take_region(
        self, s: State, rs: RaceState, r: int, cost: int, tokens: int, log: Log
    ) -> None:
        """Move ``tokens`` from hand into ``r``; the defender loses and withdraws (§1.8)."""
        occupant, held = s.region_race[r], s.region_tokens[r]
        defender: int | None = None
        lost = returned = 0
        if occupant == LOST_TRIBE:
            lost = held  # ruling 10: Lost Tribes are simply discarded
        elif occupant is not None:
            drs = s.races[occupant]
            defender = drs.owner
            lost = self.losses(s, occupant, r).value
            returned = held - lost
            s.box[occupant] += lost  # ruling 7: exactly the losses go back to the tray
            drs.hand += returned
        if occupant is not None and held:
            s.conquered_nonempty |= 1 << r  # ruling 17: non-empty = a race or Lost Tribe token
        self._remove_pieces(s, r, keep_survivors=False)
        s.region_race[r] = rs.race
        s.region_tokens[r] = tokens
        rs.hand -= tokens
        s.conquered.append(r)
        s.acted = True
        log(Conquered(s.active, rs.race, r, cost, tokens, defender, occupant, lost, returned))
        if occupant is not None and occupant != LOST_TRIBE:
            drs = s.races[occupant]
            if drs.hand and occupant not in s.withdrawals:
                s.withdrawals.append(occupant)
            if drs.declined and not self.mask_of(s, occupant):
                self._retire(s, occupant, log)  # a declined race cannot re-enter the map

    def _enter_redeploy(self, s: State, rs: RaceState) -> None:
        """Conquests end: every token beyond one per region goes back to hand (§1.10)."""
        for r in self.regions_of(s, rs.race):
            extra = s.region_tokens[r] - 1
            if extra:
                s.region_tokens[r] = 1
                rs.hand += extra
        s.phase = Phase.REDEPLOY

    def _deploy(self, s: State, action: Deploy, log: Log) -> None:
        self._need_phase(s, action, Phase.CONQUEST, Phase.REDEPLOY, Phase.WITHDRAWAL)
        if s.phase is Phase.WITHDRAWAL:
            rs = s.races[s.withdrawals[0]]
            available = rs.hand
        else:
            rs = self._active_race(s, action)
            available = rs.hand - self._hold(s, rs)
            if s.phase is Phase.CONQUEST:
                available += self._surplus(s, rs.race)
        r, n = action.region, action.count
        if not 0 <= r < self.n or s.region_race[r] != rs.race:
            raise IllegalAction(
                f"region {r} is not held by your {self.rules.races[rs.race].name}", action
            )
        if not 1 <= n <= available:
            if available < 1:
                raise IllegalAction("you have no token to place", action)
            raise IllegalAction(f"you can place 1 to {available} tokens, not {n}", action)
        if s.phase is Phase.CONQUEST:
            self._enter_redeploy(s, rs)
        rs.hand -= n
        s.region_tokens[r] += n
        log(Deployed(rs.owner, rs.race, r, n))
        if s.phase is Phase.WITHDRAWAL and rs.hand == 0:
            s.withdrawals.pop(0)
            self._next_withdrawal(s, log)

    def _end_turn(self, s: State, action: EndTurn, log: Log) -> None:
        self._need_phase(s, action, Phase.PICK, Phase.CONQUEST, Phase.REDEPLOY)
        if s.phase is Phase.PICK:
            if s.market:
                raise IllegalAction("pick a combo first", action)
        else:
            rs = self._active_race(s, action)
            own = self.regions_of(s, rs.race)
            hold = self._hold(s, rs)
            if s.phase is Phase.CONQUEST:
                surplus = self._surplus(s, rs.race)
                if not self._may_end_conquest(rs, hold, surplus, own):
                    raise IllegalAction(
                        f"place the {rs.hand - hold} token(s) in your hand before ending the turn",
                        action,
                    )
                if own and rs.hand < hold:
                    self._enter_redeploy(s, rs)  # take the held-back tokens from the map
                    if rs.hand < hold:
                        return  # ruling 13: regions must now be abandoned to free tokens
            if own and rs.hand != hold:
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
        self._start_withdrawals(s, log)

    def _decline(self, s: State, action: Decline, log: Log) -> None:
        self._need_phase(s, action, Phase.CONQUEST)
        rs = self._active_race(s, action)
        if s.picked:
            raise IllegalAction("a race cannot decline in the turn it was picked", action)
        if s.acted:
            raise IllegalAction(
                "decline is chosen instead of expanding, before any abandon or conquest (§1.12)",
                action,
            )
        player = s.players[s.active]
        keeps_all = self.has_flag(s, rs.race, "keeps_tokens_in_decline")
        # §1.12.1: the previous declined race leaves, unless it is exempt from the limit; a
        # race that is exempt itself displaces nobody (A12: at most one non-exempt race).
        removed = []
        if not self._exempt(s, rs.race):
            for old in list(player.declined):
                if not self._exempt(s, old):
                    self._retire(s, old, log)
                    removed.append(old)
        # §1.12.3: one token per region stays, flipped; the rest go to the tray.
        if keeps_all:
            for r, taken in s.readied:  # undo the automatic ready-troops step
                s.region_tokens[r] += taken
                rs.hand -= taken
        for r in self.regions_of(s, rs.race):
            if not keeps_all and s.region_tokens[r] > 1:
                s.box[rs.race] += s.region_tokens[r] - 1
                s.region_tokens[r] = 1
            self._remove_pieces(s, r, keep_survivors=True)
        s.box[rs.race] += rs.hand + rs.held
        rs.hand = rs.held = 0
        rs.declined = True
        if rs.power is not None and not self.rules.powers[rs.power].works_in_decline:
            s.power_discard.append(rs.power)  # §1.12.2: the badge is discarded
            rs.power = None
        player.active = None
        player.declined.append(rs.race)
        log(Declined(s.active, rs.race, tuple(removed)))
        if not self.mask_of(s, rs.race):
            self._retire(s, rs.race, log)  # ruling 12: a wiped-out race leaves at once
        self._score_and_advance(s, log)

    _handlers: ClassVar[dict[type[Any], Callable[[Engine, State, Any, Log], None]]] = {
        PickCombo: _pick,
        Abandon: _abandon,
        Conquer: _conquer,
        ConquerWithDie: _conquer_with_die,
        RollDie: _roll,
        Deploy: _deploy,
        EndTurn: _end_turn,
        Decline: _decline,
    }

    # ------------------------------------------------------------------ turn sequence

    def _start_withdrawals(self, s: State, log: Log) -> None:
        """Ruling 8: defenders place their survivors clockwise from the active player."""
        players = self.players
        s.withdrawals.sort(key=lambda race: ((s.races[race].owner - s.active) % players, race))
        self._next_withdrawal(s, log)

    def _next_withdrawal(self, s: State, log: Log) -> None:
        while s.withdrawals:
            race = s.withdrawals[0]
            rs = s.races[race]
            if rs.hand and self.regions_of(s, race):
                s.phase = Phase.WITHDRAWAL
                return
            s.withdrawals.pop(0)
            if rs.hand and rs.declined:
                self._retire(s, race, log)
            # ruling 9: an active race with no region keeps its tokens and re-enters later
        self._score_and_advance(s, log)

    def _score_and_advance(self, s: State, log: Log) -> None:
        """§1.11 scoring, then the next player's turn or the end of the game (§1.14)."""
        p = s.active
        player = s.players[p]
        details = []
        total = 0
        for race in ([player.active] if player.active else []) + player.declined:
            b = self.score(s, race)
            total += b.value
            details.append((race, b.value, b.explain()))
        player.coins += total
        log(Scored(p, total, tuple(details)))
        if player.active is not None:
            s.races[player.active].turns += 1
        log(TurnEnded(p))
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
        player = s.players[s.active]
        readied = 0
        if player.active is None:
            s.phase = Phase.PICK
        else:
            # §1.6 ready troops: every token but one per region goes back into hand.
            rs = s.races[player.active]
            rs.hand += rs.held  # conquest-only tokens come back for the new turn
            rs.held = 0
            for r in self.regions_of(s, rs.race):
                extra = s.region_tokens[r] - 1
                if extra:
                    s.readied.append([r, extra])
                    s.region_tokens[r] = 1
                    rs.hand += extra
                    readied += extra
            s.phase = Phase.CONQUEST
        log(TurnStarted(s.round, s.active, readied))

    def _game_over(self, s: State, log: Log) -> None:
        """§1.14: most coins; ties broken by race tokens on the map; then shared (A14)."""
        coins = [p.coins for p in s.players]
        best = max(coins)
        leaders = [p for p in range(self.players) if coins[p] == best]
        if len(leaders) > 1:
            on_map = {p: self.tokens_on_map(s, p) for p in leaders}
            most = max(on_map.values())
            leaders = [p for p in leaders if on_map[p] == most]
        s.winners = leaders
        s.phase = Phase.OVER
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

    def _remove_pieces(self, s: State, r: int, keep_survivors: bool) -> None:
        pieces = s.pieces.get(r)
        if not pieces:
            return
        for name in list(pieces):
            if keep_survivors and self.rules.pieces[name].survives_decline:
                continue
            s.piece_supply[name] += pieces.pop(name)
        if not pieces:
            del s.pieces[r]

    def _empty_region(self, s: State, r: int) -> None:
        s.region_race[r] = None
        s.region_tokens[r] = 0
        self._remove_pieces(s, r, keep_survivors=False)

    def _retire(self, s: State, race: str, log: Log) -> None:
        """§1.13: the race's last tokens leave; its banner goes under the race stack."""
        rs = s.races.pop(race)
        for r in self.regions_of(s, race):
            s.box[race] += s.region_tokens[r]
            self._empty_region(s, r)
        s.box[race] += rs.hand + rs.held
        player = s.players[rs.owner]
        if player.active == race:
            player.active = None
        if race in player.declined:
            player.declined.remove(race)
        if race in s.withdrawals:
            s.withdrawals.remove(race)
        if rs.power is not None:
            s.power_discard.append(rs.power)
        s.race_stack.append(race)
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
        tribes = sum(s.region_tokens[r] for r in range(self.n) if s.region_race[r] == LOST_TRIBE)
        if tribes > LOST_TRIBE_TOKENS:
            raise RulesError(f"{tribes} Lost Tribe tokens on the map, more than the box's")
        for race, rd in self.rules.races.items():
            on_map = sum(s.region_tokens[r] for r in range(self.n) if s.region_race[r] == race)
            rs = s.races.get(race)
            hand, held = (rs.hand, rs.held) if rs else (0, 0)
            if min(s.box[race], hand, held) < 0 or s.box[race] + hand + held + on_map != rd.box:
                raise RulesError(
                    f"{race}: box {s.box[race]} + hand {hand} + held {held} + map {on_map} "
                    f"!= supply {rd.box}"
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
            s.box[race] += s.region_tokens[r]
        self._empty_region(s, r)

    def race_for_put(self, s: State, player: int, declined: bool, race: str | None) -> str:
        """The race whose tokens :meth:`Game.put` places (bringing ``race`` into play)."""
        ps = s.players[player]
        if race is not None:
            if race not in self.rules.races:
                raise RulesError(f"unknown race {race!r}")
            rs = s.races.get(race)
            if rs is not None:
                if rs.owner != player or rs.declined != declined:
                    raise RulesError(f"{race} are already in play in another role")
                return race
            if not declined and ps.active is not None:
                raise RulesError(f"player {player} already has an active race ({ps.active})")
            if declined and any(not self._exempt(s, old) for old in ps.declined):
                raise RulesError(f"player {player} already has a race in decline (§1.12)")
            for i, (market_race, power, _) in enumerate(s.market):
                if market_race == race:
                    del s.market[i]
                    s.power_discard.append(power)
                    break
            else:
                s.race_stack.remove(race)
            s.races[race] = RaceState(race, None, player, declined, 0, 1)
            if declined:
                ps.declined.append(race)
            else:
                ps.active = race
            self._refill_market(s)
            return race
        chosen = ps.declined[-1] if declined and ps.declined else None if declined else ps.active
        if chosen is None:
            kind = "race in decline" if declined else "active race"
            raise RulesError(f"player {player} has no {kind} (give race=...)")
        return chosen

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
        s.piece_supply[name] -= count
        s.pieces.setdefault(r, {})[name] = held + count
