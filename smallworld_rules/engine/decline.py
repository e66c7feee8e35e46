"""Going into decline: in place of expanding, or at the end of the turn (a flag)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import Decline
from smallworld_rules.engine.basics import _CONQUEST, _REDEPLOY, Log
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import DECLINED
from smallworld_rules.language import events, flow, markers, revival
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


#: the flags going into decline reads (see Engine._declining)
DECLINE_FLAGS = (
    "decline_surplus_is_lost",
    "exempt_from_decline_limit",
    "keeps_tokens_in_decline",
    "redeploys_before_decline",
    "vanishes_in_decline",
)


def _may_decline(self: Engine, s: State) -> bool:
    """Decline in place of expanding: before anything is done in a turn not begun by a
    pick (rule 1.12); a role never declines."""
    race = s.players[s.active].active
    return race is not None and not s.picked and not s.acted and race != self.role_race


def _may_decline_at_end(self: Engine, s: State, rs: RaceState) -> bool:
    """Decline after scoring, in place of EndTurn, for a race whose flag allows it."""
    # The flag first: few races have it, and the other tests cost more.
    return (
        self.has_flag(s, rs.race, "decline_at_turn_end")
        and rs.race == s.players[s.active].active
        and rs.race != self.role_race
        and self._next_acting(s) is None
        and (not s.picked or bool(self.options["end_of_turn_decline_when_picked"]))
    )


def _decline(self: Engine, s: State, action: Decline, log: Log) -> None:
    phase = s.phase
    if phase is not _CONQUEST and phase is not _REDEPLOY:  # _need_phase only to refuse
        self._need_phase(s, action, _CONQUEST, _REDEPLOY)
    if s.active == self.role_seat:
        raise IllegalAction("a role never goes into decline", action)
    if phase is _CONQUEST and self._may_decline(s):
        self._decline_now(s, log)
        return
    rs = self._acting_race(s, action)
    if not self._may_decline_at_end(s, rs):
        if s.picked:
            raise IllegalAction("a race cannot decline in the turn it was picked", action)
        raise IllegalAction(
            "decline is chosen instead of expanding, before any abandon or conquest (rule 1.12)",
            action,
        )
    s.decline_at_end = True
    self._end_turn(s, action, log)
    if s.phase is _REDEPLOY and s.acting == rs.race:
        # Like EndTurn, ending the conquests left tokens to place (a gain, or conquest-only
        # tokens to free): the turn goes on in redeployment, where Decline is offered again.
        s.decline_at_end = False


def _decline_now(self: Engine, s: State, log: Log) -> None:
    """Rule 1.12: a whole turn spent going into decline, then scoring."""
    race = s.players[s.active].active
    if (
        race is not None
        and not self._none_of(race, s.races.get(race), self._declining)  # has_flag's quick no
        and self.has_flag(s, race, "redeploys_before_decline")
        and not self.has_flag(s, race, "no_redeployment")  # it could not place them
    ):
        flow.redeploy_before_decline(self, s, race, log)  # the decline comes at EndTurn
        return
    # Tokens readied at the start of the turn go back where they were (rule 1.12.3 counts
    # what is on the map).
    acting = None if s.acting is None else s.own_race(s.acting)
    if acting is not None:
        for r, taken in s.readied:
            s.region_tokens[r] += taken
            acting.hand -= taken
        s.readied = ()
    race = s.players[s.active].active
    assert race is not None
    # (the acting race is most often the one declining: already its own copy)
    self._go_into_decline(
        s, acting if acting is not None and acting.race == race else s.own_race(race), log
    )
    if self.decline_choices and flow.offer_decline_choices(self, s, race):
        return  # abilities during decline first; EndTurn scores the turn
    self._score_and_advance(s, log)


def _go_into_decline(self: Engine, s: State, rs: RaceState, log: Log) -> None:
    """The active race flips: the previous declined race leaves, one token per region
    stays (all, for a race that keeps them), the badge is discarded (rule 1.12)."""
    player = s.own_player(rs.owner)
    race = rs.race
    # has_flag's quick answer for every flag read below (DECLINE_FLAGS), given once: most
    # races and badges raise none of them
    plain = self._none_of(race, s.races.get(race), self._declining)
    keeps_all = not plain and self.has_flag(s, race, "keeps_tokens_in_decline")
    # Rule 1.12.1: the previous declined race leaves, unless it is exempt from the limit; a
    # race that is exempt itself displaces nobody (A12: at most one non-exempt race).
    removed: tuple[str, ...] = ()
    # revives_previous_decline: the previous race in decline stays, to be revived.
    spared = revival.spared(self, s, rs) if self.revives else None
    if plain or not self._exempt(s, race):
        for old in player.declined:  # (a tuple: _retire binds a new one)
            if not self._exempt(s, old) and old != spared:
                self._retire(s, old, log)
                removed += (old,)
    if self._staying:  # its pieces that stay with their regions leave as it declines
        markers.leave(self, s, race, in_decline=True)
    surplus = 0
    tokens = s.region_tokens
    entry = self._by_mask.get(s.race_masks.get(race, 0))  # regions_of's look-up, inline
    for r in self.regions_of(s, race) if entry is None else entry[0]:
        if not keeps_all and tokens[r] > 1:
            surplus += tokens[r] - 1
            tokens[r] = 1
        if s.pieces.get(r):  # (_remove_pieces changes nothing in a region without pieces)
            self._remove_pieces(s, r, keep_survivors=True)
    if not plain and self.has_flag(s, race, "decline_surplus_is_lost"):
        self._lose(s, race, surplus, log)  # Rule 4.2.3, A16
        s.to_box(race, rs.hand + rs.held)
    else:  # the surplus and the hand go back to the tray together
        s.to_box(race, surplus + rs.hand + rs.held)
    rs.hand = rs.held = 0
    rs.declined = True
    if "decline" in self.trigger_events:  # before its badge goes: the power's fire too
        events.fire(self, s, rs, "decline", log, as_declined=False)
        plain = False  # (a trigger may have changed the banner: has_flag asks again)
    if not plain and self.has_flag(s, race, "vanishes_in_decline"):
        for r in self.regions_of(s, race):
            s.to_box(race, s.region_tokens[r])
            self._empty_region(s, r)  # then it holds no region and leaves (ruling 12)
    if rs.power is not None and not self.rules.powers[rs.power].works_in_decline:
        s.power_discard = (*s.power_discard, rs.power)  # Rule 1.12.2: the badge is discarded
        rs.power = None
    player.active = None
    player.declined = (*player.declined, race)
    if s.acting == race:
        s.acting = None
    log((DECLINED, rs.owner, race, removed))
    if not s.race_masks.get(race, 0):  # mask_of, inline
        self._retire(s, race, log)  # ruling 12: a wiped-out race leaves at once
    if "any_decline" in self.trigger_events:
        events.fire_all(self, s, "any_decline", log)
