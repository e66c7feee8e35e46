"""The :class:`Game` façade: the one object a program plays through.

>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=1)
>>> race, power, coins = game.market[0]
>>> game.apply(sw.PickCombo(0))
>>> game.active_race(0) == race and game.hand(0) > 0
True
>>> game.undo()
>>> game.active_race(0) is None
True
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final, cast

import attrs

from smallworld_rules.action_space import action_space
from smallworld_rules.actions import (
    Abandon,
    Action,
    Conquer,
    Deploy,
    DrawPiece,
    EndTurn,
    PickCombo,
    RollDie,
    UseAbility,
    action_problem,
)
from smallworld_rules.engine import DIE_FACES, LOST_TRIBE_TOKENS, Engine
from smallworld_rules.errors import IllegalAction, RulesError, excerpt
from smallworld_rules.events import (
    Event,
    LogEntry,
    PositionEdited,
    TurnStarted,
    build_log,
    encode_json,
    log_json,
    saved_log,
)
from smallworld_rules.hidden import observe
from smallworld_rules.hooks import Breakdown
from smallworld_rules.in_place import (
    ALONE,
    Record,
    history_states,
    refcount,
    undone,
)
from smallworld_rules.language import hidden_pieces
from smallworld_rules.maps import MAP_NAMES, GameMap, load_map, map_for_players
from smallworld_rules.options import resolve_options
from smallworld_rules.recording import make_record, replay
from smallworld_rules.rules import Rules, load_rules
from smallworld_rules.saved import (
    FORMAT,
    VERSION,
    check_state_depth,
    load_save_text,
    parsed_state,
    saved_map,
    state_from_dict,
)
from smallworld_rules.saved_text import state_from_text
from smallworld_rules.state import LOST_TRIBE, RESERVE, Phase, RaceState, State, state_json

if TYPE_CHECKING:
    from smallworld_rules.engine.conquest import ListedCosts
    from smallworld_rules.saved import StateText

#: ``game.to_move`` at a chance node (a pending die roll with ``chance="explicit"``).
CHANCE: Final = -1


@attrs.frozen
class RegionView:
    """What is in a region now (``game.region(r)``).

    Attributes:
        id: the region id.
        terrain: its terrain.
        owner: the player whose tokens are there, or ``None``.
        race: the race id of those tokens, or ``None`` (also for a Lost Tribe).
        tokens: how many tokens (race or Lost Tribe).
        declined: whether the tokens are of a race in decline, or of a kind that always
            counts as one (an expansion's role may declare its tokens so).
        lost_tribe: whether the tokens are a Lost Tribe.
        pieces: piece name -> count.
    """

    id: int
    terrain: str
    owner: int | None
    race: str | None
    tokens: int
    declined: bool
    lost_tribe: bool
    pieces: Mapping[str, int]


#: ``Phase.OVER`` as a global: a bot asks ``is_over`` after every move, and an enum member
#: look-up costs ≈ 140 ns on CPython 3.11 (see the engine's phase constants).
_OVER = Phase.OVER
_REDEPLOY = Phase.REDEPLOY
_CONQUEST = Phase.CONQUEST
_PICK = Phase.PICK
#: the keys a saved game must hold, in the order a missing one is named, and the type of
#: its names (of expansions and packs)
_SAVED_KEY_ORDER = (
    "map", "players", "seed", "chance", "options", "expansions", "packs", "state", "log"
)
_SAVED_KEYS = frozenset(_SAVED_KEY_ORDER)
_STR_ONLY = frozenset((str,))


#: the text of a save before its log and between its log and its seed, per engine (both
#: depend on the engine alone, which never changes: see ``Engine.shared``), with the engine
#: itself: it is kept alive, so its id is not reused while its entry lasts
_FRAMES: dict[int, tuple[Engine, str, str]] = {}
_FRAMES_KEPT = 8


def _save_frame(engine: Engine) -> tuple[Engine, str, str]:
    """``_FRAMES``' entry for ``engine``, made and kept."""
    head = {
        "chance": "explicit" if engine.explicit_chance else "seeded",
        "expansions": list(engine.rules.expansion_ids),
        "format": FORMAT,
    }
    tail = {
        "map": engine.map.name,
        # A board that is not official travels with the game, so it can be restored.
        "map_data": None if engine.map.name in MAP_NAMES else engine.map.to_dict(),
        "options": engine.options,
        "packs": list(engine.rules.packs),
        "players": engine.players,
    }
    # (the keys in sorted order: "chance" … "format", then "log", then "map" … "players")
    frame = (engine, encode_json(head)[:-1] + ",", encode_json(tail)[1:-1] + ",")
    if len(_FRAMES) >= _FRAMES_KEPT:
        del _FRAMES[next(iter(_FRAMES))]
    _FRAMES[id(engine)] = frame
    return frame


class LegalActions:
    """The legal actions of a position: iterable, sized, and answering ``in``.

    It belongs to the position it was asked of (later moves do not change it) and is computed
    on first use. Iteration lists ``Deploy`` with one token or all tokens per region, to keep
    the set small; ``Deploy(region, n)`` for any other legal ``n`` is still ``in`` it.

    :meth:`Game.legal_actions` makes it (once per move): by calling the class, which has no
    ``__init__`` (no frame, and no ``object.__new__`` call with its argument tuples), then
    filling its slots.
    """

    __slots__ = ("_engine", "_list", "_state")
    _engine: Engine
    #: a snapshot: a position is changed in place only when nothing else holds it (see
    #: smallworld_rules.in_place), and a view holds it
    _state: State
    _list: list[Action] | None

    def _actions(self) -> list[Action]:
        if self._list is None:
            self._list = self._engine.legal_actions(self._state)
        return self._list

    # ``list(game.legal_actions())`` calls __len__ then __iter__ once per move of a playout:
    # both compute the list themselves rather than through _actions (one call less).

    def __iter__(self) -> Iterator[Action]:
        found = self._list
        if found is None:
            found = self._list = self._engine.legal_actions(self._state)
        return iter(found)

    def __len__(self) -> int:
        found = self._list
        if found is None:
            found = self._list = self._engine.legal_actions(self._state)
        return len(found)

    def __contains__(self, action: object) -> bool:
        # attrs equality compares values, so PickCombo(True) == PickCombo(0): refuse what
        # apply() would refuse for its field types before comparing.
        if action_problem(action):
            return False
        if action in self._actions():
            return True
        return isinstance(action, Deploy) and _accepts(self._engine, self._state, action)

    def __getitem__(self, index: int) -> Action:
        return self._actions()[index]

    def __repr__(self) -> str:
        return f"LegalActions({self._actions()!r})"


_new_game = object.__new__


class Game:
    """One game of Small World.

    Create games with :meth:`Game.new` or :meth:`Game.from_json`. Every change goes through
    :meth:`apply` (or the set-up calls :meth:`put`, :meth:`clear`, :meth:`set_coins`) and can
    be undone with :meth:`undo`.
    """

    #: whether ``_log`` still holds dicts of a loaded save's events, built when it is first read
    #: (``events.saved_log``; a class default, so that making a game costs nothing more)
    _unbuilt = False
    #: the text of a loaded save's log left unparsed (``saved.load_save_json``): ``_log`` then
    #: starts with a ``None`` per event, which the events replace when the log is read
    _log_text: str | None = None

    def __init__(
        self, engine: Engine, state: State, seed: int, log: list[LogEntry | None]
    ) -> None:
        self._engine = engine
        #: apply works on a copy, or on this position itself when nothing else holds it
        #: (smallworld_rules.in_place)
        self._state = state
        self._seed = seed
        self._log = log
        #: ``log.append``, bound once: the engine logs through it, and binding it per move
        #: made a bound method each time (kept in step with ``_log``: see clone, __deepcopy__)
        self._append = log.append
        # Three entries per move: the state before, the log length before, the action applied
        # (None for a set-up edit). A flat list rather than a tuple per move: one object less
        # made, kept and visited by the cyclic collector per move.
        self._undo: list[Any] = []
        #: the current position is shared with a clone, which may play from it too. Otherwise
        #: apply drops the conquest costs legal_actions left on it (``State.reach_costs``)
        #: once its fork has used them: kept for every move of the history they were objects
        #: for the cyclic collector to walk, seldom read again (a position an undo brings
        #: back is listed again, or its conquests costed in full).
        self._again = False

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        players: int = 2,
        seed: int = 0,
        rules: Rules | None = None,
        combos: Iterable[tuple[str, str]] | None = None,
        map: str | None = None,
        chance: str = "seeded",
        options: Mapping[str, Any] | None = None,
    ) -> Game:
        """Start a game.

        Args:
            players: number of players (2 to 5 on the official maps).
            seed: seeds every shuffle and die roll.
            rules: loaded rules (default: :func:`load_rules`).
            combos: fixes the market: the first six are the visible combos top to bottom, the
                rest form the stacks in order; the rest is drawn from the seeded shuffle.
            map: a map name (``"2p"`` … ``"5p"``) or path; default: the map for ``players``.
            chance: ``"seeded"`` (the game rolls the die) or ``"explicit"`` (every roll is a
                chance node answered with :class:`RollDie`, and every draw of a face-down
                piece one answered with :class:`DrawPiece`).
            options: game options: ``rules.options`` lists them with their defaults.

        Raises:
            RulesError: bad player count, unknown id, option or map.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be a whole number, not {players!r}")
        if rules is None:
            rules = load_rules()
        engine = _engine_for(rules, players, map, chance, options, seed)
        fixed = _combos(rules, combos) if combos is not None else []
        game = cls(engine, engine.new_state(seed, fixed), seed, [])
        if game._state.active != engine.role_seat:  # else a role's draft comes first
            game._log.append(TurnStarted._make(game._state.round, game._state.active, 0))
        return game

    # ------------------------------------------------------------------ playing

    def legal_actions(self) -> LegalActions:
        """Every legal action for whoever must act now (see :class:`LegalActions`)."""
        legal = LegalActions()
        legal._engine = self._engine
        legal._state = self._state
        legal._list = None
        return legal

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` would be accepted by :meth:`apply` now."""
        return _accepts(self._engine, self._state, action)

    def apply(self, action: Action) -> None:
        """Play ``action`` for whoever must act now.

        Raises:
            IllegalAction: with the reason; the game is left exactly as it was.
        """
        old = self._state
        # the moves made in place (smallworld_rules.in_place), the commonest tested first
        if type(action) is Deploy:
            if refcount(old) == ALONE and not old.lang and self._deploy_in_place(old, action):
                return  # made in place (smallworld_rules.in_place): no fork, a record kept
        elif type(action) is EndTurn:
            if refcount(old) == ALONE and not old.lang and self._end_turn_in_place(old, action):
                return
        elif type(action) is Conquer:
            if (
                refcount(old) == ALONE
                and not old.lang
                and old.phase is _CONQUEST
                and self._conquer_in_place(old, action)
            ):
                return
        elif type(action) is UseAbility:
            if refcount(old) == ALONE and not old.lang and self._use_ability_in_place(old, action):
                return
        elif type(action) is PickCombo:
            if refcount(old) == ALONE and not old.lang and self._pick_in_place(old, action):
                return
        elif (
            type(action) is Abandon
            and refcount(old) == ALONE
            and not old.lang
            and self._abandon_in_place(old, action)
        ):
            return
        new = old.fork()  # shares what it does not change (copy on write)
        log = self._log
        length = len(log)
        try:
            self._engine.apply(new, action, self._append)
        except BaseException:
            del log[length:]  # the events of an action that was refused
            raise
        if self._again:
            self._again = False  # the fork is this game's alone
        else:
            old.reach_costs = None
        undo = self._undo
        undo.append(old)
        undo.append(length)
        undo.append(action)
        self._state = new

    def _deploy_in_place(self, s: State, action: Deploy) -> bool:
        """``apply`` of a Deploy on ``s``, the game's position, which nothing else holds.
        In the redeployment phase it changes the acting banner's hand and one
        region's tokens; as the first Deploy of a turn (the conquests end) also the tokens
        lifted back into hand, the piece tables and supply, the die's bonus and the phase,
        unless the race's rule files have triggers (those of the redeployment may change
        anything; a role's pairing is its race and every power it activated, none a
        badge). Returns False, changing nothing, where the general
        path must. The record (``in_place.Record``) holds the values read before the move;
        a refusal is undone from it as ``undo`` undoes the move."""
        acting = s.acting
        if acting is None:
            return False
        races = s.races
        rs = races[acting]
        tokens = s.region_tokens
        phase = s.phase
        gen = s.gen
        # The banner's hand is all a Deploy changes of it. The position's own banner, which
        # nothing else holds (no record, no fork of the position), is changed in place and
        # the record keeps its hand (an int); any other is copied before it changes, the
        # position taking a generation of its own, and the record keeps the banner itself.
        owned = rs.gen == gen and refcount(rs) == ALONE
        hand = rs.hand
        banner: int | RaceState = hand if owned else rs
        record: Record
        if phase is _REDEPLOY:
            region = action.region
            if type(region) is not int or not 0 <= region < len(tokens):
                return False
            record = (acting, banner, region, tokens[region])
        elif phase is _CONQUEST:
            engine = self._engine
            triggering = engine._triggering
            if (
                acting in triggering
                or rs.power in triggering
                or (acting == engine.role_race and not triggering.isdisjoint(s.role_powers))
            ):
                return False
            record = (acting, banner, tokens.copy(), s.pieces, s.piece_supply, s.die_bonus)
        else:
            return False
        costs = s.reach_costs
        if not owned:
            s.gen = gen + 1
        log = self._log
        length = len(log)
        try:
            self._engine.apply(s, action, self._append)
        except BaseException:
            self._unmade(s, record, length, races, tokens, gen, costs, rs if owned else None)
            raise
        undo = self._undo
        undo.append(record)
        undo.append(length)
        undo.append(action)
        return True

    def _conquer_in_place(self, s: State, action: Conquer) -> bool:
        """``apply`` of a Conquer on ``s``, the game's position in the conquest phase, which
        nothing else holds, where the conquest fires nothing: the engine records no facts
        and keeps no discounts of conquests (its ``_quick_seize``), no piece holds the
        region, and the race's rule files have no triggers (a role's: its race and every
        power it activated).
        Where no race defends the region (or a Lost Tribe whose tokens go to the box),
        ``_conquer`` takes its quick path: the move changes the acting banner's hand (the
        banner itself, as a Deploy's, or a copy), the region's occupant and tokens, the
        turn's conquests, ``acted`` and the die's bonus. Where a race defends it (not the
        role's, not in decline on its last region, in a game without triggers on a loss)
        or a Lost Tribe whose tokens go to a zone, ``_seize`` also changes the defender's
        side: its banner's hand (the tokens it takes back), the box or the zone its lost
        tokens go to, ``attacked`` and the withdrawals to come. The record keeps them as
        they were (``in_place.Record``). Returns False, changing nothing, where the general
        path must."""
        region = action.region
        tokens = s.region_tokens
        acting = s.acting
        if acting is None or type(region) is not int or not 0 <= region < len(tokens):
            return False
        engine = self._engine
        occupants = s.region_race
        occupant = occupants[region]
        races = s.races
        rs = races[acting]
        triggering = engine._triggering
        if (
            not engine._quick_seize
            or s.pieces.get(region)
            or acting in triggering
            or rs.power in triggering
            or (acting == engine.role_race and not triggering.isdisjoint(s.role_powers))
        ):
            return False
        gen = s.gen
        hand = rs.hand
        owned = rs.gen == gen and refcount(rs) == ALONE  # (as in _deploy_in_place)
        drs: RaceState | None = None  # the defender's banner, if it changes itself
        side: Record | None = None  # what the record keeps of the defender's side
        if occupant is not None and (occupant != LOST_TRIBE or not engine._lost_to_box):
            # _seize's path, where it writes only the defender's side below: lost tokens go
            # to the box, or to a zone (not a race's pile: a Lost Tribe's go there when
            # not to the box); no trigger on a loss; no role defending; no race retiring
            # (declined, on its last region)
            if engine.defender_events or engine._collectors:
                return False
            defender: RaceState | int | None = None  # its banner, or the hand of it
            if occupant != LOST_TRIBE:
                drs = races.get(occupant)
                if (
                    drs is None
                    or occupant == acting
                    or occupant == engine.role_race
                    or (drs.declined and s.race_masks[occupant] == 1 << region)
                ):
                    return False
                if drs.gen != gen:
                    defender, drs = drs, None  # own_race copies it, if it changes
                elif owned and refcount(drs) == ALONE:
                    defender = drs.hand  # changed itself, as the acting banner
                else:  # held elsewhere: the position takes a generation of its own
                    owned = False
                    defender, drs = drs, None
            side = (defender, s.box, s.zones, s.attacked, s.withdrawals)
        record: Record = (
            acting,
            hand if owned else rs,
            region,
            tokens[region],
            occupants,
            s.race_masks,
            s.conquered,
            s.conquered_nonempty,
            s.acted,
            s.die_bonus,
        )
        if side is not None:
            record += (side,)
        costs = s.reach_costs
        if not owned:
            s.gen = gen + 1
        log = self._log
        length = len(log)
        try:
            engine.apply(s, action, self._append)
        except BaseException:
            if drs is not None and side is not None:  # its hand back on it, as _unmade's
                drs.hand = side[0]
                record = (*record[:10], (drs, *side[1:]))
            self._unmade(s, record, length, races, tokens, gen, costs, rs if owned else None)
            raise
        undo = self._undo
        undo.append(record)
        undo.append(length)
        undo.append(action)
        return True

    def _abandon_in_place(self, s: State, action: Abandon) -> bool:
        """``apply`` of an Abandon on ``s``, the game's position, which nothing else holds,
        where no rule file has ``abandon`` triggers or keeps a race out of the regions it
        abandons (that memory is the rule language's); a role's race abandons as any other
        race does. The move changes the acting banner's hand (the banner itself, as a Deploy's, or a
        copy), the region's occupant and tokens, the piece tables and supply (the pieces
        in the region go back) and ``acted``; the record keeps them as they were. Returns
        False, changing nothing, where the general path must."""
        region = action.region
        tokens = s.region_tokens
        acting = s.acting
        if acting is None or type(region) is not int or not 0 <= region < len(tokens):
            return False
        engine = self._engine
        if engine.keeps_out or "abandon" in engine.trigger_events:
            return False
        races = s.races
        rs = races[acting]
        gen = s.gen
        owned = rs.gen == gen and refcount(rs) == ALONE  # (as in _deploy_in_place)
        record: Record = (
            acting,
            rs.hand if owned else rs,
            region,
            tokens[region],
            s.region_race,
            s.race_masks,
            s.pieces,
            s.piece_supply,
            s.acted,
        )
        costs = s.reach_costs
        if not owned:
            s.gen = gen + 1
        banner = rs if owned else None
        return self._carried_out(s, action, record, races, tokens, gen, costs, banner)

    def _pick_in_place(self, s: State, action: PickCombo) -> bool:
        """``apply`` of a PickCombo on ``s``, the game's position in the pick phase, which
        nothing else holds, where picking does nothing but take the combo: no rule file puts
        tokens on skipped banners, brings a power's own tokens, swaps or borrows a badge or
        has ``pick`` triggers, and none of the player's races in decline may act before the
        new one (``acts_in_decline``: its troops would be readied). The move changes the
        player (a copy: the position takes a generation of its own), the market and the
        stacks (and the discards and the generator, if the badges are shuffled again), the
        box, the races table (the new banner: taken out again), ``picked``, the acting race
        and the fields of a race's run of conquests; the record keeps them as they were.
        Returns False, changing nothing, where the general path must."""
        if s.phase is not _PICK:
            return False
        engine = self._engine
        i = action.index
        market = s.market
        if not engine._plain_picks or type(i) is not int or not 0 <= i < len(market):
            return False
        races = s.races
        race = market[i][0]
        if race in races:
            return False
        acts = engine._raising.get("acts_in_decline")
        if acts is not None:
            for old in s.players[s.active].declined:
                banner = races.get(old)
                if old in acts or banner is None or banner.power in acts:
                    return False
        record: Record = (
            s.players,
            market,
            s.race_stack,
            s.power_stack,
            s.power_discard,
            s.rng,
            s.box,
            race,
            s.picked,
            s.acting,
            s.conquered,
            s.conquered_nonempty,
            s.readied,
            s.die_target,
            s.die_bonus,
        )
        costs = s.reach_costs
        gen = s.gen
        s.gen = gen + 1  # the player is copied before it changes: the record keeps it
        return self._carried_out(s, action, record, races, s.region_tokens, gen, costs, None)

    def _end_turn_in_place(self, s: State, action: EndTurn) -> bool:
        """``apply`` of an EndTurn on ``s``, the game's position, which nothing else holds,
        where the turn ends at once: the player's active race in the redeployment phase, no
        withdrawal to come, no decline at the end, in a game whose turns end and start with
        scoring and readying alone (no ``turn_end`` or ``turn_start`` trigger, no cap on a
        region's tokens). Then the move changes the player's coins and the banners (the
        players and the races table: new ones; the tokens left in hand, held back or kept
        in a role's hand zone are the banner's), the readied tokens, the turn's fields and
        the game's end, and in a game with a role what its turn end changes after every
        turn besides its banner: the piles (harvest, exchange) and the tray. The record
        keeps all of them as they were (``in_place.Record``). Returns False, changing
        nothing, where the general path must (a refusal, such as tokens left in hand, is
        undone from the record)."""
        if s.phase is not _REDEPLOY:
            return False
        acting = s.acting
        if acting is None or s.withdrawals or s.decline_at_end:
            return False
        engine = self._engine
        if (
            not engine._plain_turns
            or engine._capping
            or s.players[s.active].active != acting
            or "turn_end" in engine.trigger_events
        ):
            return False
        races = s.races
        tokens = s.region_tokens
        record: Record = (
            races,
            s.players,
            # not the tokens (48 on the 5-player map): it moves only those the next turn
            # readies, which undo puts back from the readied pairs (in_place.undone)
            None,
            s.acted,
            s.picked,
            s.used,
            s.attacked,
            s.regained,
            s.purchases,
            s.conquered,
            s.conquered_nonempty,
            s.die_target,
            s.die_bonus,
            s.truces,
            acting,
            s.readied,
            s.active,
            s.round,
            s.winners,
        )
        if engine.role is not None:  # its turn end after every turn: the piles and the tray
            record += (s.zones, s.box)
        costs = s.reach_costs
        gen = s.gen
        s.gen = gen + 1  # (as _deploy_in_place: the banners are copied before they change)
        s.races = races.copy()  # the record keeps the table of before, never changed
        log = self._log
        length = len(log)
        try:
            self._engine.apply(s, action, self._append)
        except BaseException:
            self._unmade(s, record, length, races, tokens, gen, costs, None)
            raise
        undo = self._undo
        undo.append(record)
        undo.append(length)
        undo.append(action)
        return True

    def _use_ability_in_place(self, s: State, action: UseAbility) -> bool:
        """``apply`` of a UseAbility on ``s``, the game's position, which nothing else
        holds, in the conquests or the redeployment, of an ability that only places or
        moves pieces or makes a truce (``Engine._quiet_abilities``: no rule language, price
        or count of uses, and no race in decline uses abilities in this game). The move
        changes the piece tables and supply, the abilities used this turn, ``acted`` and
        the truces, and of the acting banner nothing but, where it is not the position's
        alone, which banner the races table holds (a copy): the record keeps them as they
        were. Returns False, changing nothing, where the general path must."""
        acting = s.acting
        phase = s.phase
        engine = self._engine
        name = action.name
        if (
            acting is None
            or (phase is not _CONQUEST and phase is not _REDEPLOY)
            or type(name) is not str
            or name not in engine._quiet_abilities
        ):
            return False
        races = s.races
        rs = races[acting]
        gen = s.gen
        owned = rs.gen == gen and refcount(rs) == ALONE  # (as in _deploy_in_place)
        record: Record = (
            acting,
            None if owned else rs,
            s.pieces,
            s.piece_supply,
            s.used,
            s.acted,
            s.truces,
        )
        costs = s.reach_costs
        if not owned:
            s.gen = gen + 1
        return self._carried_out(s, action, record, races, s.region_tokens, gen, costs, None)

    def _carried_out(
        self,
        s: State,
        action: Action,
        record: Record,
        races: dict[str, RaceState],
        tokens: list[int],
        gen: int,
        costs: ListedCosts | None,
        banner: RaceState | None,
    ) -> bool:
        """The engine's part of a rarer move made in place on ``s`` (an Abandon, a PickCombo,
        a UseAbility), then its ``record`` kept for ``undo``; a refusal is undone as
        :meth:`_unmade` says (the other arguments are its) and raised. Returns True. (The
        commoner moves write these lines out: a call more costs them ~0.5 %.)"""
        length = len(self._log)
        try:
            self._engine.apply(s, action, self._append)
        except BaseException:
            self._unmade(s, record, length, races, tokens, gen, costs, banner)
            raise
        undo = self._undo
        undo.append(record)
        undo.append(length)
        undo.append(action)
        return True

    def _unmade(
        self,
        s: State,
        record: Record,
        length: int,
        races: dict[str, RaceState],
        tokens: list[int],
        gen: int,
        costs: ListedCosts | None,
        banner: RaceState | None,
    ) -> None:
        """A move made in place on ``s`` that the engine refused part-way, undone as ``undo``
        would from its ``record`` and what was kept before the move: the log's ``length``,
        the races table, the tokens list, the generation and the conquest costs. ``banner``:
        the acting banner, when the move changed its hand on the banner itself (the record
        then holds the hand it had)."""
        del self._log[length:]
        s.races = races
        s.region_tokens = tokens
        if banner is not None:
            banner.hand = record[1]
            record = (record[0], banner, *record[2:])
        undone(s, record, True)
        s.races = races  # (an EndTurn's record puts back a copy of its table)
        s.gen = gen
        s.reach_costs = costs

    def undo(self) -> None:
        """Restore the state before the last :meth:`apply` or set-up call, exactly.

        Raises:
            RulesError: nothing to undo.
        """
        undo = self._undo
        if not undo:
            raise RulesError("nothing to undo")
        del undo[-1]
        del self._log[undo.pop() :]
        entry = undo.pop()
        if type(entry) is tuple:  # a move made in place (see apply)
            s = self._state
            alone = refcount(s) == ALONE  # (before s is an argument: the call holds it too)
            entry = undone(s, entry, alone)
        self._state = entry

    def clone(self) -> Game:
        """An independent copy (sharing only immutable data), undo history included."""
        # Game(...) without the __init__ frame and the empty history it makes; the attributes
        # in __init__'s order (the instances share their key table)
        twin = _new_game(Game)
        twin._engine = self._engine
        twin._state = self._state
        twin._seed = self._seed
        twin._log = log = self._log.copy()
        twin._append = log.append
        twin._undo = self._undo.copy()
        twin._again = self._again = True  # one position, two games to play from it
        if self._unbuilt:
            twin._unbuilt = True
            twin._log_text = self._log_text
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """``copy.deepcopy``: every attribute deep-copied, as by default, but the log's bound
        ``append`` bound to the copy's log (a bound built-in method is copied as itself)."""
        twin = _new_game(Game)
        memo[id(self)] = twin
        for name, value in self.__dict__.items():
            setattr(twin, name, copy.deepcopy(value, memo))
        twin._append = twin._log.append
        return twin

    @property
    def action_stack(self) -> tuple[Action, ...]:
        """The actions applied since the game was created or loaded, oldest first (like
        python-chess's ``move_stack``; set-up edits are not actions and are left out).

        >>> import smallworld_rules as sw
        >>> game = sw.Game.new(players=2, seed=1)
        >>> game.apply(sw.PickCombo(0))
        >>> game.action_stack
        (PickCombo(index=0),)
        """
        return tuple(action for action in self._undo[2::3] if action is not None)

    @property
    def _history(self) -> list[tuple[State, int, Action | None]]:
        """The undo history, oldest first: (state before, log length before, the action
        applied or None for a set-up edit) per move (read by :mod:`.recording`)."""
        undo = self._undo
        states = history_states(undo[0::3], self._state)
        return list(zip(states, undo[1::3], undo[2::3], strict=True))

    def chance_outcomes(self) -> list[tuple[RollDie | DrawPiece, float]]:
        """At a chance node: each die outcome with its probability (at a draw of face-down
        pieces, each kind left in the bag, as likely as its supply is large).

        Raises:
            RulesError: the game is not at a chance node.
        """
        if self._state.phase is not Phase.DIE_ROLL:
            raise RulesError("the game is not at a chance node")
        if self._state.lang and hidden_pieces.pending(self._state):
            return list(hidden_pieces.outcomes(self._engine, self._state))
        faces = sorted(set(DIE_FACES))
        return [(RollDie(f), DIE_FACES.count(f) / len(DIE_FACES)) for f in faces]

    # ------------------------------------------------------------------ the action space

    def action_index(self, action: Action) -> int:
        """The index of ``action`` in the game's fixed action space
        (:mod:`smallworld_rules.action_space`).

        Raises:
            RulesError: not an action, or one with no slot in the space.
        """
        return action_space(self).index(action)

    def action_at(self, index: int) -> Action:
        """The action with that index in the game's fixed action space.

        Raises:
            RulesError: not an index of the space.
        """
        return action_space(self).action(index)

    def legal_mask(self) -> list[int]:
        """One 0 or 1 per index of the action space: 1 for each of :meth:`legal_actions`."""
        return action_space(self).mask(self)

    # ------------------------------------------------------------------ reading the position

    @property
    def to_move(self) -> int | None:
        """The player who must act now (a defender during withdrawals), :data:`CHANCE` at a
        chance node, ``None`` once the game is over."""
        return self._engine.to_move(self._state)

    @property
    def active_player(self) -> int:
        """The player whose turn it is."""
        return self._state.active

    @property
    def round(self) -> int:
        """The turn-track space (1-based)."""
        return self._state.round

    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        return self._state.phase

    @property
    def is_over(self) -> bool:
        """Whether the last turn has been played."""
        return self._state.phase is _OVER

    @property
    def winners(self) -> list[int]:
        """The winning players (several on a full tie), empty until the game is over."""
        return list(self._state.winners)

    @property
    def players(self) -> int:
        """The number of players."""
        return self._engine.players

    @property
    def map(self) -> GameMap:
        """The board."""
        return self._engine.map

    @property
    def map_name(self) -> str:
        """The board's name, e.g. ``"3p"``."""
        return self._engine.map.name

    @property
    def options(self) -> dict[str, Any]:
        """The game options in force (defaults included)."""
        return dict(self._engine.options)

    @property
    def rules(self) -> Rules:
        """The rules the game is played with."""
        return self._engine.rules

    @property
    def seed(self) -> int:
        """The seed the game was created with."""
        return self._seed

    @property
    def log(self) -> tuple[Event, ...]:
        """Every event so far, in order."""
        return tuple(self._events())

    #: how much of ``_log`` its last read left all events: its length then and its last entry
    #: (undo and refusals only cut the log's end, and the engine appends; a cut below that
    #: length shows as another object in its place)
    _read: tuple[int, object] = (0, None)

    def _events(self) -> list[Event]:
        """``_log``, its entries not built yet (the engine's tuples, a save's dicts) made into
        their events, the ones logged since the last read only."""
        log = cast("list[LogEntry]", self._log)
        if self._unbuilt:
            self._parse_log()
            self._unbuilt = False
            start = 0
        else:
            start, last = self._read
            if start > len(log) or (start and log[start - 1] is not last):
                start = 0
        build_log(log, start)
        if log:
            self._read = (len(log), log[-1])
        return cast("list[Event]", log)

    def _parse_log(self) -> None:
        """Put the dicts of the log's text left unparsed by ``from_json`` in their places."""
        if self._log_text is not None:
            items = json.loads(self._log_text)
            self._log[: len(items)] = items
            self._log_text = None

    @property
    def market(self) -> list[tuple[str, str, int]]:
        """The visible combos top to bottom: (race id, power id, coins on it)."""
        return [(r, p, c) for r, p, c in self._state.market]

    def _player(self, player: int) -> int:
        if isinstance(player, bool) or not isinstance(player, int):
            raise RulesError(f"a player is a number from 0 to {self.players - 1}, not {player!r}")
        if not 0 <= player < self.players:
            raise RulesError(f"there is no player {player} (players are 0 to {self.players - 1})")
        return player

    def coins(self, player: int) -> int:
        """Victory coins of a player."""
        return self._state.players[self._player(player)].coins

    def hand(self, player: int) -> int:
        """Active-race tokens in that player's hand."""
        race = self._state.players[self._player(player)].active
        return self._state.races[race].hand if race else 0

    def zone(self, name: str, player: int | None = None) -> dict[str, int]:
        """Tokens in a zone an expansion declares, by kind (a race id, ``"#lost_tribe"``, or
        ``"#soul"`` for anonymous tokens), or in a role's reserve (``"reserve"``: its tokens
        not yet in play, as rule files count them with ``count(tokens in reserve)``).

        A shared pile (the expansion's ``zone``) is asked for without a player; a role's hand
        zone and its reserve may be asked for with or without the role's seat. Zones are not
        per player, so any other player is refused (each zone is counted once).

        Args:
            name: the zone's id (``rules.zones`` lists them), or ``"reserve"``.
            player: ``None``, or the seat a role's zone belongs to.

        Raises:
            RulesError: no such zone, or it is not that player's.
        """
        engine = self._engine
        zone = engine.rules.zones.get(name)
        role = engine.role
        if name == RESERVE and role is not None:
            if player is not None and self._player(player) != engine.role_seat:
                raise RulesError(f"the {role.name}'s reserve belongs to player {engine.role_seat}")
            return {role.race.id: engine.tokens_in(self._state, role.race.id, RESERVE)}
        if zone is None:
            names = sorted(engine.rules.zones) + ([RESERVE] if role is not None else [])
            known = ", ".join(names) or "none: load an expansion"
            raise RulesError(f"no zone {name!r} (zones: {known})")
        if zone.role is None:
            if player is not None:
                raise RulesError(f"the {zone.name} is shared: ask for zone({name!r})")
            counts: dict[str, int] = {}
            for kind in self._state.zones[name]:
                counts[kind] = counts.get(kind, 0) + 1
            return dict(sorted(counts.items()))
        if player is not None and self._player(player) != engine.role_seat:
            raise RulesError(f"the {zone.name} belongs to player {engine.role_seat}")
        race = engine.role_race
        assert race is not None
        return {race: engine.tokens_in(self._state, race, name)}

    def zone_pile(self, name: str) -> tuple[str, ...]:
        """The kinds of the tokens in a shared zone, oldest first (see :meth:`zone`).

        Raises:
            RulesError: no such shared zone.
        """
        if name not in self._state.zones:
            raise RulesError(f"no shared zone {name!r}")
        return tuple(self._state.zones[name])

    def active_race(self, player: int) -> str | None:
        """Id of the player's active race, or ``None``."""
        return self._state.players[self._player(player)].active

    def active_power(self, player: int) -> str | None:
        """Id of the power of the player's active race, or ``None``."""
        race = self.active_race(player)
        return self._state.races[race].power if race else None

    def powers(self, player: int) -> list[str]:
        """Ids of the powers working for the player now: its active race's badge, then the
        badges its races in decline keep (a power that works in decline); for a role's seat,
        every power it has activated, in order (``active_power`` names a badge, and a role
        has none).

        >>> import smallworld_rules as sw
        >>> game = sw.Game.new(players=2, seed=1)
        >>> game.apply(sw.PickCombo(0))
        >>> game.powers(0) == [game.active_power(0)] and game.powers(1) == []
        True
        """
        p = self._player(player)
        s = self._state
        if p == self._engine.role_seat:
            return list(s.role_powers)
        ps = s.players[p]
        races = [ps.active] if ps.active else []
        powers = self._engine._powers  # a badge borrowed from the market too (borrow power)
        return [power for race in races + list(ps.declined) for power in powers(s, race)]

    def declined_races(self, player: int) -> list[str]:
        """Ids of the player's races in decline, oldest first."""
        return list(self._state.players[self._player(player)].declined)

    def region(self, region: int) -> RegionView:
        """What is in a region now."""
        r = self._region(region)
        s = self._state
        occupant = s.region_race[r]
        rs = s.races.get(occupant) if occupant else None
        return RegionView(
            id=r,
            terrain=self.map.regions[r].terrain,
            owner=rs.owner if rs else None,
            race=occupant if rs else None,
            tokens=s.region_tokens[r],
            declined=bool(rs and (rs.declined or self._engine.seen_declined(rs.race))),
            lost_tribe=occupant == LOST_TRIBE,
            pieces=dict(s.pieces.get(r, {})),
        )

    def _region(self, region: int) -> int:
        if isinstance(region, bool) or not isinstance(region, int):
            raise RulesError(f"a region is an integer id, not {region!r}")
        if not 0 <= region < len(self.map.regions):
            raise RulesError(f"there is no region {region} on the {self.map_name} map")
        return region

    def _acting_race(self) -> str:
        s = self._state
        race = s.acting or s.players[s.active].active
        if race is None:
            raise RulesError(f"player {s.active} has no active race to conquer with")
        return race

    def conquest_cost(self, region: int) -> int:
        """Tokens the acting race needs to conquer ``region`` now."""
        return self.explain_conquest_cost(region).value

    def explain_conquest_cost(self, region: int) -> Breakdown:
        """The conquest cost of ``region`` for the acting race, with every contribution."""
        return self._engine.conquest_cost(self._state, self._acting_race(), self._region(region))

    def tokens_on_map(self, player: int) -> int:
        """Race tokens of the player on the map (the tie-break count)."""
        return self._engine.tokens_on_map(self._state, self._player(player))

    # ------------------------------------------------------------------ setting up positions

    def _edit(self, what: str, change: Any) -> None:
        s = self._state
        if s.phase not in (Phase.PICK, Phase.CONQUEST) or s.acted or s.withdrawals:
            raise RulesError("positions are set up between turns (before any conquest)")
        new = s.copy()
        change(new)
        self._engine.check_invariants(new)
        self._undo += (self._state, len(self._log), None)
        self._state = new
        self._log.append(PositionEdited(what))
        self._engine.after_edit(new, self._log.append)

    def put(
        self,
        region: int,
        player: int | None,
        tokens: int,
        declined: bool = False,
        pieces: Mapping[str, int] | None = None,
        race: str | None = None,
    ) -> None:
        """Set a region's contents between turns (tokens come from and go back to the box).

        Args:
            region: the region; what was there goes back to the box first.
            player: whose tokens, or ``None`` for Lost Tribe tokens.
            tokens: how many (at least 1).
            declined: use the player's race in decline instead of the active one.
            pieces: pieces to put there too (from their supply).
            race: give the player this race first (as active, or declined with
                ``declined=True``) if it is not in play; it leaves the market or stack.

        Raises:
            RulesError: a supply cap, an unknown piece, or a player without such a race.
        """
        r = self._region(region)
        if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
            raise RulesError(f"put places at least 1 token, not {tokens!r}")
        if player is not None:
            self._player(player)
        engine = self._engine

        def change(s: State) -> None:
            engine.clear_region(s, r)
            water = (engine.map.water_mask >> r) & 1
            if player is None:
                if water:
                    raise RulesError(f"region {r} is water: no Lost Tribe lives there")
                others = sum(
                    s.region_tokens[x] for x in range(engine.n) if s.region_race[x] == LOST_TRIBE
                )
                if others + tokens > LOST_TRIBE_TOKENS:
                    raise RulesError(
                        f"the box has {LOST_TRIBE_TOKENS} Lost Tribe tokens and "
                        f"{others} are on the map"
                    )
                s.occupy(r, LOST_TRIBE, tokens)
            else:
                occupant = engine.race_for_put(s, player, declined, race)
                if water and not engine.has_flag(s, occupant, "enter_water"):
                    raise RulesError(f"region {r} is water and {occupant} may not enter water")
                if s.box[occupant] < tokens:
                    raise RulesError(
                        f"only {s.box[occupant]} {occupant} tokens are left in the box"
                    )
                s.to_box(occupant, -tokens)
                s.occupy(r, occupant, tokens)
            for name, count in (pieces or {}).items():
                engine.put_piece(s, r, name, count)

        self._edit(f"put region {r}", change)

    def clear(self, region: int) -> None:
        """Empty a region between turns (tokens and pieces go back to their supply)."""
        r = self._region(region)
        self._edit(f"clear region {r}", lambda s: self._engine.clear_region(s, r))

    def set_coins(self, player: int, coins: int) -> None:
        """Set a player's victory coins."""
        p = self._player(player)
        if isinstance(coins, bool) or not isinstance(coins, int) or coins < 0:
            raise RulesError(f"coins are a whole number ≥ 0, not {coins!r}")

        def change(s: State) -> None:
            s.own_player(p).coins = coins

        self._edit(f"coins of player {p}", change)

    # ------------------------------------------------------------------ saving

    #: the log's text as the last save wrote it: the log's length then, its last entry, and
    #: the events' texts joined by commas (without the brackets). The log only grows at its
    #: end or is cut there (as for ``_read``), so the next save writes only the events logged
    #: since; a cut below that length shows as another object in its place (the entry kept
    #: here is held, so no other object takes its id).
    _written: tuple[int, object, str] = (0, None, "")

    def to_json(self) -> str:
        """The full state as JSON text; :meth:`from_json` restores it exactly."""
        # The document is ``json.dumps(doc, sort_keys=True, separators=(",", ":"))``, written in
        # pieces: the keys before "log" in sorted order (the engine's, _save_frame), the log
        # (events.log_json, which writes each event's keys already sorted: the events logged
        # since the last save only, see _written), the keys after it up to "seed" (the
        # engine's too), "seed", the state (state.state_json, likewise) and "version".
        engine = self._engine
        frame = _FRAMES.get(id(engine))
        if frame is None or frame[0] is not engine:
            frame = _save_frame(engine)
        unread = self._log_text
        if unread is not None:
            # A loaded save's log left as its text (its first entries None): as this writes it
            # (events.LOG_TEXT), so not parsed for it; the events logged since built alone.
            loaded = self._log.count(None)
            more = log_json(build_log(cast("list[LogEntry]", self._log), loaded)[loaded:])[1:-1]
            text = f"{unread[1:-1]},{more}" if more and loaded else more or unread[1:-1]
        else:
            text = self._log_written()
        seed = self._seed
        return (
            f'{frame[1]}"log":[{text}],{frame[2]}'
            f'"seed":{seed if type(seed) is int else encode_json(seed)},'
            f'"state":{state_json(self._state)},"version":{VERSION}}}'
        )

    def _log_written(self) -> str:
        """The text of the log's events joined by commas, those written by an earlier save
        kept (``_written``)."""
        log = self._events()
        size = len(log)
        length, last, text = self._written
        if length != size or (size and log[-1] is not last):
            if length > size or (length and log[length - 1] is not last):
                length, text = 0, ""  # cut below what was written: all written again
            if length < size:
                more = log_json(log[length:])[1:-1]
                text = f"{text},{more}" if length else more
            self._written = (size, log[-1] if size else None, text)
        return text

    @classmethod
    def from_json(cls, text: str, rules: Rules | None = None) -> Game:
        """Restore a game saved with :meth:`to_json` (without its undo history).

        Args:
            text: the saved JSON.
            rules: the rules it was played with (default: the official rules plus the
                expansions and rule packs it names).

        Raises:
            RulesError: the text is not a valid saved game; the message says what is wrong.
        """
        return cls._loaded(text, rules, quick=True)

    @classmethod
    def _loaded(cls, text: str, rules: Rules | None, quick: bool) -> Game:
        doc, log_text, state_text = load_save_text(text, quick)
        try:
            return cls._from_saved(doc, log_text, rules, state_text)
        except Exception:
            if state_text is None or state_text[4]:
                check_state_depth(doc)  # a state nested too deeply: that is the refusal
                raise
        # A state the quick pattern took, which its reader did not (or a refusal of the
        # save): loaded again with the state's own patterns, which decide, as they always
        # have (outside the handler: a refusal then carries no trace of the first try).
        return cls._loaded(text, rules, quick=False)

    @classmethod
    def _from_saved(
        cls,
        doc: Any,
        log_text: str | None,
        rules: Rules | None,
        state_text: StateText | None = None,
    ) -> Game:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise RulesError(f"not a saved game: 'format' must be {FORMAT!r}")
        if doc.get("version") not in (2, VERSION):
            raise RulesError(
                f"saved game version {excerpt(doc.get('version'))}, expected {VERSION}"
            )
        if not doc.keys() >= _SAVED_KEYS:  # (a set test in C; the first one missing named)
            for key in _SAVED_KEY_ORDER:
                if key not in doc:
                    raise RulesError(f"saved game is missing {key!r}")
        for key in ("expansions", "packs"):
            names = doc[key]
            if type(names) is list and _STR_ONLY.issuperset(map(type, names)):
                continue  # as a save writes them (tested in C)
            if not isinstance(names, list) or not all(isinstance(e, str) for e in names):
                raise RulesError(f"saved game: {key!r} must be a list of names")
        if rules is None:
            rules = load_rules(expansions=doc["expansions"], packs=doc["packs"])
        game_map = saved_map(doc.get("map"), doc.get("map_data"), "saved game")
        players = doc["players"]
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
            raise RulesError("saved game: 'players' must be a whole number from 2 to 8")
        if doc["chance"] not in ("seeded", "explicit"):
            raise RulesError("saved game: 'chance' must be 'seeded' or 'explicit'")
        seed = doc["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RulesError("saved game: 'seed' must be an integer")
        if not isinstance(doc["options"], dict):
            raise RulesError("saved game: 'options' must be an object")
        engine = Engine.shared(
            rules,
            game_map,
            players,
            resolve_options(rules.options, doc["options"], rules.option_defaults),
            doc["chance"] == "explicit",
        )
        # A state left as text (saved.load_save_text) is read from it where that is sure;
        # otherwise parsed, and checked field by field, which decides.
        state = None if state_text is None else state_from_text(engine, state_text)
        if state is None:
            if state_text is not None:
                doc["state"] = parsed_state(state_text)
            state = state_from_dict(engine, doc["state"], doc["version"])
        if not isinstance(doc["log"], list):
            raise RulesError("saved game: 'log' must be a list")
        if log_text is None:
            game = cls(engine, state, seed, [*saved_log(doc["log"])])
        else:  # a log as the engine writes it: one "type" key per event, never in a value
            game = cls(engine, state, seed, [None] * log_text.count('"type":'))
            game._log_text = log_text
        game._unbuilt = True
        return game

    def __repr__(self) -> str:
        return (
            f"<Game {self.map_name} players={self.players} round={self.round} "
            f"active={self.active_player} phase={self.phase.value}>"
        )

    def __str__(self) -> str:
        """The position as text: regions, races, market, coins (:mod:`.textboard`)."""
        from smallworld_rules.textboard import render

        return render(self)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, for Jupyter (:func:`smallworld_rules.svg.board`)."""
        from smallworld_rules.svg import board

        return board(self)

    # ------------------------------------------------------------------ hidden information, records

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may know now, as JSON-ready data.

        Everyone's board, races, hands and the visible market are there; the other players'
        coins are ``None`` and the combo stacks appear only as their sizes (see
        :mod:`smallworld_rules.observation`).

        Raises:
            RulesError: no such player.
        """
        return observe(self, player)

    def to_record(self) -> dict[str, Any]:
        """The game's record: set-up, every action and die roll, checks and the result.

        The format is described in :mod:`smallworld_rules.records`; ``json.dumps`` it to save.

        Raises:
            RulesError: the game has no history back to its start (restored with
                :meth:`from_json`, or set up with ``put``/``clear``/``set_coins``).
        """
        return make_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str, rules: Rules | None = None) -> Game:
        """Replay a record (a dict or its JSON text), verifying every step.

        Args:
            record: from :meth:`to_record`.
            rules: the rules to replay with (default: the official rules plus the record's
                expansions).

        Raises:
            RulesError: the record is malformed.
            RecordMismatch: the replay diverges from the record (a changed rule, a hand-edited
                step); ``.step`` is the first step that no longer matches.
        """
        return replay(cls, record, rules)[0]


def _engine_for(
    rules: Rules,
    players: int,
    map: str | None,
    chance: str,
    options: Mapping[str, Any] | None,
    seed: object,
) -> Engine:
    """The engine of :meth:`Game.new` (see there), after checking what it was asked."""
    if not 2 <= players <= 8:
        raise RulesError(f"a game has 2 to 8 players, not {players}")
    seats = players
    if rules.expansions:  # (no generator's frame for the official game)
        for expansion in rules.expansions.values():
            if expansion.players is not None:
                low, high = expansion.players
                if not low <= players <= high:
                    raise RulesError(
                        f"{expansion.name} is played by {low} to {high} players, not {players}"
                    )
        # An expansion may play on the map for fewer players (a role takes a seat).
        seats -= max(e.map_minus for e in rules.expansions.values())
    game_map = load_map(map if map is not None else map_for_players(seats))
    if map is None and seats != game_map.players:  # pragma: no cover - by construction
        raise RulesError(f"the {game_map.name} map is for {game_map.players} players")
    if chance not in ("seeded", "explicit"):
        raise RulesError(f"chance must be 'seeded' or 'explicit', not {chance!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"seed must be an integer, not {seed!r}")
    values = resolve_options(rules.options, options, rules.option_defaults)
    return Engine.shared(rules, game_map, players, values, chance == "explicit")


def _accepts(engine: Engine, state: State, action: Action) -> bool:
    try:
        engine.apply(state.fork(), action, lambda e: None)
    except IllegalAction:
        return False
    return True


def _combos(rules: Rules, combos: Iterable[tuple[str, str]] | None) -> list[tuple[str, str]]:
    fixed: list[tuple[str, str]] = []
    for item in combos or ():
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise RulesError(f"a combo is a (race id, power id) pair, not {excerpt(item)}")
        race, power = item
        if race not in rules.races:
            known = ", ".join(sorted(rules.races))
            raise RulesError(f"unknown race {excerpt(race)} in combos (known: {known})")
        if power not in rules.powers:
            raise RulesError(
                f"unknown power {excerpt(power)} in combos "
                f"(known: {', '.join(sorted(rules.powers))})"
            )
        fixed.append((race, power))
    for kind, ids in (("race", [r for r, _ in fixed]), ("power", [p for _, p in fixed])):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise RulesError(f"combos name the {kind} {dupes[0]!r} twice")
    return fixed
