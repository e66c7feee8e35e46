"""The turn: who moves, the races that act in it, readying troops, ending the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import Decline, EndTurn
from smallworld_rules.engine.basics import (
    _CONQUEST,
    _DIE_ROLL,
    _OVER,
    _PICK,
    _REDEPLOY,
    _WITHDRAWAL,
    Log,
)
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import RACE_ACTS, TURN_STARTED
from smallworld_rules.language import borrowing, events, flow, limits, markers, memory, revival
from smallworld_rules.state import Phase, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def to_move(self: Engine, s: State) -> int | None:
    """The player who must act, ``-1`` for a chance node, ``None`` once the game is over."""
    if s.phase is _OVER:
        return None
    if s.phase is _DIE_ROLL:
        return -1
    if s.phase is _WITHDRAWAL:
        return s.races[s.withdrawals[0]].owner
    return s.active


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
    if s.lang:  # the rule language's counters and die face of the turn
        memory.forget(
            s, "counters", "die", "declining", "choosing", "abandoned", "second_round",
            "repelled",
        )
    _reset_cycle(s)


def _reset_cycle(s: State) -> None:
    """What belongs to one race's run of conquests within a turn."""
    s.conquered = ()
    s.conquered_nonempty = 0
    s.readied = ()
    s.die_target = -1
    s.die_bonus = -1
    if s.lang:
        memory.forget(s, "facts", "discounts")


def _acting_order(self: Engine, s: State) -> list[str]:
    """The races of the active player that act this turn, in order: declined races that
    act in decline first (flag ``acts_in_decline``, A11), then the active race."""
    player = s.players[s.active]
    order: list[str] = []
    for race in player.declined:  # a loop, not a comprehension: no function made per call
        if self.has_flag(s, race, "acts_in_decline"):
            order.append(race)
    if player.active is not None:
        order.append(player.active)
    return order


def _next_acting(self: Engine, s: State) -> str | None:
    order = self._acting_order(s)
    if s.acting in order:
        i = order.index(s.acting) + 1
        return order[i] if i < len(order) else None
    return None


def _begin_cycle(self: Engine, s: State, race: str, log: Log, announce: bool = True) -> int:
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
    readied = 0
    tokens = s.region_tokens
    if self._floors:  # region_tokens min: more tokens stay
        keep = self._keep(s, race)
        for r in self.regions_of(s, race):
            extra = tokens[r] - keep
            if extra > 0:
                taken.append((r, extra))
                tokens[r] = keep
                readied += extra
    else:
        for r in self.regions_of(s, race):
            extra = tokens[r] - 1
            if extra:
                taken.append((r, extra))
                tokens[r] = 1
                readied += extra
    s.readied = tuple(taken)  # _reset_cycle emptied it
    rs.hand += readied
    s.phase = _CONQUEST
    if announce:
        log((RACE_ACTS, s.active, race, readied))
    return readied


def _start_turn(self: Engine, s: State, log: Log) -> None:
    if self._plain_turns:
        _start_plain_turn(self, s, log)
        return
    self._reset_turn(s)
    # A truce lasts until the turn of the player who made it.
    if s.truces:
        s.truces = tuple(t for t in s.truces if t[0] != s.active)
    if self.revives and s.lang:  # revives_previous_decline: before anything else
        revival.revive(self, s, log)
    player = s.players[s.active]
    if self._turn_lifted:
        markers.lift_at_turn_start(self, s, s.active, log)
    if self._borrowers and s.lang:  # borrow power: a borrowed badge lasts until now
        borrowing.end_for(self, s, s.active, log)
    readied = 0
    if player.active is None:
        s.phase = _PICK
    else:
        readied = self._begin_cycle(s, self._acting_order(s)[0], log, announce=False)
    log((TURN_STARTED, s.round, s.active, readied))
    if "turn_start" in self.trigger_events:
        events.fire_player(self, s, s.active, "turn_start", log)


def _end_turn(self: Engine, s: State, action: EndTurn | Decline, log: Log) -> None:
    phase = s.phase
    if phase is _WITHDRAWAL:
        wrs = s.races[s.withdrawals[0]]
        if wrs.hand and self._capping and limits.full(self, s, wrs.race):
            limits.set_aside(s.own_race(wrs.race), wrs.hand)  # no room: off the map
            wrs = s.races[wrs.race]
        if wrs.hand:
            raise IllegalAction(f"place the {wrs.hand} token(s) in your hand first", action)
        s.withdrawals = s.withdrawals[1:]
        self._next_withdrawal(s, log)
        return
    if phase is _PICK:
        if s.market:
            raise IllegalAction("pick a combo first", action)
        self._start_withdrawals(s, log)
        return
    if phase is not _CONQUEST and phase is not _REDEPLOY:  # the die's roll: refused
        self._need_phase(s, action, _PICK, _CONQUEST, _REDEPLOY, _WITHDRAWAL)
    acting = s.acting
    rs = None if acting is None else s.races[acting]
    holding = self._holding
    if (
        phase is not _REDEPLOY
        or rs is None
        or rs.hand
        or self._capping
        or s.lang
        or rs.race in holding
        or rs.power in holding
        or rs.race == self.role_race
    ):
        rs = _settle_hand(self, s, action, phase, log)
        if rs is None:
            return  # the turn goes on: tokens to place, or regions to abandon
    # else (most turn ends): redeployed with an empty hand and nothing to hold back, so
    # _settle_hand would check nothing and change nothing (not even copy the race)
    if s.lang and flow.ends_turn(self, s, rs, action, log):
        return  # a decline after its redeployment, or after its choices
    # The active race acts last (see _acting_order): after it, or with no race in
    # decline, no race follows
    player = s.players[s.active]
    following = (
        self._next_acting(s) if player.declined and s.acting != player.active else None
    )
    if following is not None:
        self._begin_cycle(s, following, log)
    elif s.withdrawals:
        self._start_withdrawals(s, log)
    else:  # no defender has tokens to place (see _next_withdrawal)
        self._score_and_advance(s, log)


def _settle_hand(
    self: Engine, s: State, action: EndTurn | Decline, phase: Phase, log: Log
) -> RaceState | None:
    """EndTurn's checks and changes of the acting race's hand: the end of its conquests, the
    tokens set aside or held back (ruling 13). Returns the race (its own copy), or ``None``
    when the turn goes on (a second round of conquests, tokens to place, regions to
    abandon)."""
    acting = s.acting  # _acting_race's frame only to refuse: no race acts
    rs = self._acting_race(s, action) if acting is None else s.own_race(acting)
    if self.second_rounds and phase is _CONQUEST and flow.in_first_round(self, s, rs.race):
        flow.start_second_round(self, s, rs, log)  # second_conquest_round
        return None
    entry = self._by_mask.get(s.race_masks.get(rs.race, 0))  # regions_of's look-up, inline
    own = self.regions_of(s, rs.race) if entry is None else entry[0]
    holding = self._holding  # _hold only for a race that may hold tokens back
    race = rs.race
    hold = (
        self._hold(s, rs)
        if race in holding or rs.power in holding or race == self.role_race
        else 0
    )
    # A role may keep tokens in hand: they rest in its hand zone (rule 4.3 b).
    keeps_hand = rs.race == self.role_race
    capped = self._capping and limits.cap(self, s, rs.race)
    if phase is _CONQUEST and capped and not (
        self._may_end_conquest(rs, hold, self._surplus(s, own, self._keep(s, rs.race)), own)
        and limits.within(self, s, rs.race)
    ):
        # Ending the conquests takes every token but one per region back into hand; those
        # that fit nowhere then wait off the map (region_tokens max).
        self._enter_redeploy(s, rs, log, own=own)
        if own and rs.hand > hold and limits.full(self, s, rs.race):
            limits.set_aside(rs, rs.hand - hold)
        if own and rs.hand != hold:
            return None  # tokens to place, or regions to abandon (ruling 13)
    elif phase is _CONQUEST:
        surplus = self._surplus(s, own, self._keep(s, rs.race) if self._floors else 1)
        if not keeps_hand and not self._may_end_conquest(rs, hold, surplus, own):
            raise IllegalAction(
                f"place the {rs.hand - hold} token(s) in your hand before ending the turn",
                action,
            )
        # Ending the conquests as they stand; the tokens held back for conquest are taken
        # from the map first if the hand lacks them (ruling 13).
        self._enter_redeploy(s, rs, log, lift=bool(own) and rs.hand < hold, own=own)
        if own and rs.hand != hold and not keeps_hand:
            return None  # tokens to place (a gain) or regions to abandon (ruling 13)
    elif capped and own and rs.hand > hold and limits.full(self, s, rs.race):
        limits.set_aside(rs, rs.hand - hold)
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
    return rs


def _start_plain_turn(self: Engine, s: State, log: Log) -> None:
    """``_start_turn`` in one pass, for a game whose turns start with nothing but readying
    the troops (``Engine._plain_turns``): the same changes and events, without the frames of
    ``_reset_turn``, ``_reset_cycle`` (once, not twice) and ``_begin_cycle``."""
    s.acted = False
    s.picked = False
    s.withdrawals = ()
    s.used = ()
    s.attacked = 0
    s.decline_at_end = False
    s.regained = {}
    s.purchases = 0
    s.conquered = ()
    s.conquered_nonempty = 0
    s.die_target = -1
    s.die_bonus = -1
    if s.lang:  # what _reset_turn and _reset_cycle forget
        memory.forget(
            s, "counters", "die", "declining", "choosing", "abandoned", "second_round",
            "repelled", "facts", "discounts",
        )
    active = s.active
    if s.truces:  # a truce lasts until the turn of the player who made it
        # (a loop, not a generator: that would make `s` a cell on every path here)
        kept = []
        for t in s.truces:
            if t[0] != active:
                kept.append(t)
        s.truces = tuple(kept)
    player = s.players[active]
    race = player.active
    readied = 0
    if race is None:
        s.acting = None
        s.readied = ()
        s.phase = _PICK
    else:
        if player.declined:  # one acting in decline goes first
            race = self._acting_order(s)[0]
        s.acting = race
        rs = s.own_race(race)
        taken = []
        tokens = s.region_tokens
        entry = self._by_mask.get(s.race_masks.get(race, 0))  # regions_of's look-up, inline
        for r in self.regions_of(s, race) if entry is None else entry[0]:  # rule 1.6
            extra = tokens[r] - 1
            if extra:
                taken.append((r, extra))
                tokens[r] = 1
                readied += extra
        s.readied = tuple(taken)
        rs.hand += rs.held + readied
        rs.held = 0
        s.phase = _CONQUEST
    log((TURN_STARTED, s.round, active, readied))
