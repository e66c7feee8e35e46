"""The fast paths of pass 9d (turn ends, declines and new games) give exactly what the code
before them gave.

Each comparison plays seeded random games with the official rules, every folder of test
rule files and every expansion (alone, and all together), and carries out actions on every
position twice: once as the game does, once with the engine's rules of this pass replaced
by their code before it (kept below, as it was) or with the engine's quick answer switched
to the general one. The states (every field, in order), the events and the refusals must be
the same, and the position the action was carried out from must be left as it was.
"""

from __future__ import annotations

import inspect
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from helpers import random_positions, rule_sets, rules_and_players
from test_fast_paths_perf_apply2 import _compare, _every_file
from test_fast_paths_perf_state import GOLDEN, MASK, _drawn_one_by_one

import smallworld_rules as sw
from smallworld_rules import rng
from smallworld_rules.engine import decline, scoring, turn
from smallworld_rules.engine.basics import _CONQUEST, _REDEPLOY, Log
from smallworld_rules.engine.core import Engine
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import Declined, Scored, TurnEnded
from smallworld_rules.language import events, flow, markers, revival
from smallworld_rules.state import RaceState, State

RULE_SETS = rule_sets(each_box=True)


# --------------------------------------------------------------- the code before this pass


def _old_decline(self: Engine, s: State, action: sw.Decline, log: Log) -> None:
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
            "decline is chosen instead of expanding, before any abandon or conquest (rule 1.12)",
            action,
        )
    s.decline_at_end = True
    self._end_turn(s, action, log)
    if s.phase is _REDEPLOY and s.acting == rs.race:
        s.decline_at_end = False


def _old_decline_now(self: Engine, s: State, log: Log) -> None:
    race = s.players[s.active].active
    if (
        race is not None
        and self.has_flag(s, race, "redeploys_before_decline")
        and not self.has_flag(s, race, "no_redeployment")
    ):
        flow.redeploy_before_decline(self, s, race, log)
        return
    if s.acting is not None:
        acting = s.own_race(s.acting)
        for r, taken in s.readied:
            s.region_tokens[r] += taken
            acting.hand -= taken
        s.readied = ()
    race = s.players[s.active].active
    assert race is not None
    self._go_into_decline(s, s.own_race(race), log)
    if self.decline_choices and flow.offer_decline_choices(self, s, race):
        return
    self._score_and_advance(s, log)


def _old_go_into_decline(self: Engine, s: State, rs: RaceState, log: Log) -> None:
    player = s.own_player(rs.owner)
    keeps_all = self.has_flag(s, rs.race, "keeps_tokens_in_decline")
    removed = []
    spared = revival.spared(self, s, rs) if self.revives else None
    if not self._exempt(s, rs.race):
        for old in list(player.declined):
            if not self._exempt(s, old) and old != spared:
                self._retire(s, old, log)
                removed.append(old)
    if self._staying:
        markers.leave(self, s, rs.race, in_decline=True)
    surplus = 0
    for r in self.regions_of(s, rs.race):
        if not keeps_all and s.region_tokens[r] > 1:
            surplus += s.region_tokens[r] - 1
            s.region_tokens[r] = 1
        self._remove_pieces(s, r, keep_survivors=True)
    if self.has_flag(s, rs.race, "decline_surplus_is_lost"):
        self._lose(s, rs.race, surplus, log)
    else:
        s.to_box(rs.race, surplus)
    s.to_box(rs.race, rs.hand + rs.held)
    rs.hand = rs.held = 0
    rs.declined = True
    if "decline" in self.trigger_events:
        events.fire(self, s, rs, "decline", log, as_declined=False)
    if self.has_flag(s, rs.race, "vanishes_in_decline"):
        for r in self.regions_of(s, rs.race):
            s.to_box(rs.race, s.region_tokens[r])
            self._empty_region(s, r)
    if rs.power is not None and not self.rules.powers[rs.power].works_in_decline:
        s.power_discard = (*s.power_discard, rs.power)
        rs.power = None
    player.active = None
    player.declined = (*player.declined, rs.race)
    if s.acting == rs.race:
        s.acting = None
    log(Declined(rs.owner, rs.race, tuple(removed)))
    if not self.mask_of(s, rs.race):
        self._retire(s, rs.race, log)
    if "any_decline" in self.trigger_events:
        events.fire_all(self, s, "any_decline", log)


def _old_score_and_advance(self: Engine, s: State, log: Log) -> None:
    p = s.active
    player = s.own_player(p)
    details = []
    total = 0
    for race in ((player.active,) if player.active else ()) + player.declined:
        value, text = scoring.scored(self, s, race)
        total += value
        details.append((race, value, text))
    player.coins += total
    log(Scored._make(p, total, tuple(details)))
    if player.active is not None:
        s.own_race(player.active).turns += 1
        if s.decline_at_end:
            self._go_into_decline(s, s.own_race(player.active), log)
    if "turn_end" in self.trigger_events:
        events.fire_player(self, s, p, "turn_end", log)
    won = self.role is not None and self._role_turn_end(s, log)
    log(TurnEnded._make(p))
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
    if self._plain_turns:
        turn._start_plain_turn(self, s, log)
    else:
        self._start_turn(s, log)


#: the Engine's rules of this pass and their code before it
_BEFORE = {
    "_decline": _old_decline,
    "_decline_now": _old_decline_now,
    "_go_into_decline": _old_go_into_decline,
    "_score_and_advance": _old_score_and_advance,
}


@contextmanager
def _as_before(engine: Engine) -> Iterator[None]:
    """Every engine carrying out declines and scoring turns with the code before this pass
    (class attributes, shared by every engine: put back after)."""
    kept = {name: getattr(Engine, name) for name in _BEFORE}
    for name, old in _BEFORE.items():
        setattr(Engine, name, old)
    try:
        yield
    finally:
        for name, rule in kept.items():
            setattr(Engine, name, rule)


@contextmanager
def _every_race_declines_generally(engine: Engine) -> Iterator[None]:
    """The engine with every rule file among those raising a flag going into decline reads
    (``_declining``): each of those flags is then asked of ``has_flag`` (engines are
    shared: put back after)."""
    kept = engine._declining
    engine._declining = _every_file(engine)
    try:
        yield
    finally:
        engine._declining = kept


def _turn_enders(game: sw.Game) -> list[sw.Action]:
    """Decline and EndTurn, legal or not (an EndTurn may decline at the end of the turn, and
    scores it), and every legal Deploy (one may end a withdrawal and with it the turn)."""
    out: list[sw.Action] = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
    return [*out, sw.Decline(), sw.EndTurn()]


# ------------------------------------------------------------------------------ the tests


@RULE_SETS
def test_declines_and_turn_ends_are_those_of_the_code_before(how: dict[str, Any]) -> None:
    """Rules 1.11 and 1.12: a race goes into decline in place of expanding (its previous
    declined race leaves, one token per region stays, its badge is discarded), or at the
    end of the turn where its flag allows; then the turn is scored. Every Decline, EndTurn
    and Deploy on every position of seeded games, carried out as games do and with the
    decline and scoring code before this pass, gives the same state, events and refusals."""
    assert _compare(how, _as_before, _turn_enders) > 400


@RULE_SETS
def test_declines_asking_every_flag_are_those_of_the_quick_answer(how: dict[str, Any]) -> None:
    """Rule 1.12 and the flags that change it (tokens kept or lost in decline, a race
    exempt from the one-declined-race limit, one that vanishes, one that redeploys first):
    a decline of a race none of whose rule files raises them is the same as when every
    flag is asked of ``has_flag``."""
    assert _compare(how, _every_race_declines_generally, _turn_enders) > 400


#: the flags going into decline asks ``has_flag`` behind its quick answer, named here (not
#: read from decline.DECLINE_FLAGS, so that a flag left out there is caught)
_READ = (
    "decline_surplus_is_lost",
    "exempt_from_decline_limit",
    "keeps_tokens_in_decline",
    "redeploys_before_decline",
    "vanishes_in_decline",
)


@RULE_SETS
def test_no_flag_going_into_decline_reads_is_raised_outside_the_declining_files(
    how: dict[str, Any],
) -> None:
    """The quick answer is sound: for every race of the rules with every badge (and none),
    whose race and badge are none of ``Engine._declining``, no flag that going into decline
    asks (``_READ``: each flag its code asks ``has_flag`` is among them) holds; the
    official rules have pairings that raise them (the answer is not always 'none')."""
    asked = re.findall(r'has_flag\(s, \w+, "(\w+)"\)', inspect.getsource(decline._go_into_decline))
    assert {*asked, "exempt_from_decline_limit"} <= set(_READ)  # (_exempt asks that one)
    rules, players = rules_and_players(how)
    game = sw.Game.new(players=players[0], seed=0, rules=rules)
    engine, s = game._engine, game._state.fork()
    s.races = dict(s.races)  # this test's own banners
    quick = raised = 0
    for race in rules.races:
        for power in (*rules.powers, None):
            s.races[race] = RaceState(race, power, 0, False, 0, 0)
            flags = [f for f in _READ if engine.has_flag(s, race, f)]
            if engine._none_of(race, s.races[race], engine._declining):
                quick += 1
                assert flags == [], (race, power, flags)
            raised += bool(flags)
        del s.races[race]
    assert quick > 50
    if not how:
        assert raised > 20


@RULE_SETS
def test_turn_scores_with_texts_kept_are_the_breakdowns(how: dict[str, Any]) -> None:
    """Rule 1.11: a race scores a coin per region, plus what its race and power add. For
    every race on every position of seeded games, the score and its explanation (the
    texts of each modifier kept per amount, and the numbers written from a table) are the
    breakdown's, asked twice (the second time from the kept texts), on a fresh engine."""
    rules, players = rules_and_players(how)
    kept = 0
    for game in random_positions(rules, 3, players):
        engine, s = game._engine, game._state
        for race in s.races:
            b = engine.score(s, race)
            first = scoring.scored(engine, s, race)
            assert first == scoring.scored(engine, s, race) == (b.value, b.explain())
        kept = max(kept, sum(len(texts) for _, texts in engine._score_labels.values()))
    if not how:
        assert kept > 5


def _state_drawing(k: int, value: int) -> int:
    """A generator state whose ``k``-th draw (1-based) is ``value`` (splitmix64 run
    backwards, as tests/test_fast_paths_perf_state.py finds one drawing ``2**64 - 1``)."""

    def unshift(y: int, shift: int) -> int:  # the inverse of y ^ (y >> shift)
        out = y
        for _ in range(64 // shift + 1):
            out = y ^ (out >> shift)
        return out

    z = unshift(value, 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK, 30)
    return (z - k * GOLDEN) & MASK


def _one_by_one(state: int, sizes: tuple[int, ...]) -> tuple[int, list[list[int]]]:
    """Each of ``range(n)`` for ``n`` in ``sizes`` shuffled in turn by ``randbelow``."""
    out = []
    for n in sizes:
        state, drawn = _drawn_one_by_one(state, n)
        out.append(drawn)
    return state, out


@pytest.mark.parametrize("sizes", [(14, 20), (6, 6), (20, 14, 7), (127,)])
def test_draws_near_the_top_are_drawn_again_only_when_randbelow_rejects_them(
    sizes: tuple[int, ...],
) -> None:
    """The packed shuffle draws again exactly where ``randbelow`` rejects a draw (at or
    above its limit for the count): a draw at the limit is drawn again, one just below it,
    or with seven 0xff bytes below its top byte, is not; in whichever list and place the
    draw falls, the lists and the generator end as when each is shuffled in turn with
    ``randbelow``."""
    bounds = [n for size in sizes for n in range(size, 1, -1)]
    # the draws (1-based) of a count that is not a power of 2 (whose limit is below 2**64)
    rejecting = [k for k, n in enumerate(bounds, 1) if n & (n - 1)]
    checked = rejected = 0
    for k in sorted({rejecting[0], rejecting[len(rejecting) // 2], rejecting[-1]}):
        n = bounds[k - 1]
        limit = (1 << 64) - (1 << 64) % n
        for value in (limit, limit - 1, 0x00FFFFFFFFFFFFFF, (1 << 64) - 129):
            state = _state_drawing(k, value)
            assert rng.next_u64((state + (k - 1) * GOLDEN) & MASK)[1] == value
            lists = [list(range(size)) for size in sizes]
            after, expected = _one_by_one(state, sizes)
            assert (rng.shuffle(state, *lists), lists) == (after, expected), (k, hex(value))
            again = after != (state + len(bounds) * GOLDEN) & MASK
            assert again == (value >= limit)
            checked += 1
            rejected += again
    assert rejected == 3 and checked == 12


def test_shuffles_of_every_packed_size_are_those_drawn_one_by_one() -> None:
    """The packed shuffle of one to three lists of random sizes in the packed range: the
    lists and the generator end as when each list is shuffled in turn with ``randbelow``."""
    source = random.Random(5)
    for _ in range(400):
        sizes = tuple(source.randrange(6, 128) for _ in range(source.randrange(1, 4)))
        state = source.getrandbits(64)
        lists = [list(range(n)) for n in sizes]
        assert (rng.shuffle(state, *lists), lists) == _one_by_one(state, sizes)
