"""The fast paths of pass 8i (carrying out turn ends, conquests and deploys, again) give
exactly what the general code gives.

Each test plays seeded random games with the official rules, every folder of test rule
files and every expansion (alone, and all together), and carries out actions on every
position twice: once as the game does, once with the engine's quick answers switched to
the general code. The states (every field, in order), the events and the refusals must be
the same, and the position the action was carried out from must be left as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from helpers import random_positions, rule_sets, rules_and_players
from test_fast_paths_perf_apply2 import _compare, _every_file

import smallworld_rules as sw
from smallworld_rules.engine.core import Engine
from smallworld_rules.state import State

RULE_SETS = rule_sets(each_box=True)


@contextmanager
def _every_race_settles(engine: Engine) -> Iterator[None]:
    """The engine with every race among the files that may hold tokens back
    (``_holding``): EndTurn then always takes ``turn._settle_hand``, the checks and changes
    of the acting race's hand, and ``_hold`` asks every race's pairing (engines are shared:
    put back after)."""
    kept = engine._holding
    engine._holding = _every_file(engine)
    try:
        yield
    finally:
        engine._holding = kept


def _quick_turn_end(engine: Engine, s: State) -> bool:
    """Whether EndTurn on ``s`` skips ``_settle_hand`` (the condition in ``_end_turn``)."""
    if s.phase is not sw.Phase.REDEPLOY or s.acting is None:
        return False
    rs = s.races[s.acting]
    holding = engine._holding
    return not (
        rs.hand
        or engine._capping
        or s.lang
        or rs.race in holding
        or rs.power in holding
        or rs.race == engine.role_race
    )


def _turn_enders(game: sw.Game) -> list[sw.Action]:
    """EndTurn and Decline, legal or not, and every legal Deploy (which may end a
    withdrawal and with it the turn)."""
    out: list[sw.Action] = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
    return [*out, sw.EndTurn(), sw.Decline()]


@RULE_SETS
def test_turn_ends_without_settling_the_hand_are_those_of_the_general_code(
    how: dict[str, Any],
) -> None:
    """Rules 1.10 and 1.11: a turn ends once the tokens in hand are placed (ruling 13: less
    the conquest-only tokens held back), then the player scores and the next turn starts.
    Every EndTurn, Decline and Deploy on every position of seeded games, carried out as
    games do (a race that redeployed with an empty hand and nothing to hold back ends its
    turn without ``_settle_hand``) and with every race sent through ``_settle_hand``, gives
    the same state, events and refusals, and leaves the position unchanged."""
    # (two games: every Deploy of every position is compared, and apply2 compares them too)
    assert _compare(how, _every_race_settles, _turn_enders, games=2) > 200


@RULE_SETS
def test_the_quick_turn_end_is_taken(how: dict[str, Any]) -> None:
    """The comparison above meets the quick turn end: on positions of seeded games an
    EndTurn skips ``_settle_hand`` (official rules: most turn ends), and it is never
    taken where the general code would change or refuse something: a race with tokens in
    hand, or one that may hold tokens back."""
    rules, players = rules_and_players(how)
    quick = 0
    for game in random_positions(rules, 4, players):
        engine, state = game._engine, game._state
        if not _quick_turn_end(engine, state):
            continue
        quick += 1
        assert state.acting is not None
        rs = state.races[state.acting]
        assert rs.hand == 0
        assert engine._hold(state, rs) == 0
    if not how:
        assert quick > 20


@contextmanager
def _die_costs_worked_out(engine: Engine) -> Iterator[None]:
    """Every engine's die roll working out the target's conquest cost itself, as before
    ``_conquer_with_die`` handed on the cost ``_attempt`` found (the class attribute is
    shared: put back after)."""
    original = Engine._resolve_die

    def general(self: Engine, s: State, face: int, log: Any, cost: int = -1) -> None:
        original(self, s, face, log)

    Engine._resolve_die = general
    try:
        yield
    finally:
        Engine._resolve_die = original


def _die_attempts(game: sw.Game) -> list[sw.Action]:
    """Every legal ConquerWithDie, and one on a region the race could conquer without the
    die or could not reach (refused)."""
    legal = [a for a in game.legal_actions() if isinstance(a, (sw.ConquerWithDie, sw.Conquer))]
    out: list[sw.Action] = [a for a in legal if isinstance(a, sw.ConquerWithDie)]
    conquers = [a for a in legal if isinstance(a, sw.Conquer)]
    if conquers:
        out.append(sw.ConquerWithDie(conquers[0].region))
    return out


@RULE_SETS
def test_die_attempts_with_the_known_cost_are_those_of_the_general_code(
    how: dict[str, Any],
) -> None:
    """Ruling 5: the final die attempt conquers the region with every token in hand when
    the hand and the die reach its cost, and the conquests end. Every die attempt on every
    position of seeded games, carried out as games do (the cost ``_attempt`` found handed
    to the roll, unless the rule files remember the die) and with the roll working the
    cost out again, gives the same state, events and refusals, and leaves the position
    unchanged."""
    assert _compare(how, _die_costs_worked_out, _die_attempts) > 50


@RULE_SETS
def test_first_deploys_of_every_count_are_refused_as_the_general_helpers_say(
    how: dict[str, Any],
) -> None:
    """Rule 1.10 (ending the conquests takes every token beyond one per region back into
    hand; ruling 13: conquest-only tokens are held back): on every conquest position of
    seeded games where the acting race holds regions, a Deploy of each count from 0 to one
    more than the general helpers allow (hand less what it holds back, plus ``_surplus`` of
    ``regions_of``) is refused for its count exactly when it is out of that range, with that
    range in the message, whether the hand alone has the tokens (the lift then not counted)
    or not; and the counts the hand alone covers are met."""
    from smallworld_rules.engine.redeploy import _surplus

    rules, players = rules_and_players(how)
    checked = by_hand = 0
    for game in random_positions(rules, 4, players):
        engine, state = game._engine, game._state
        if state.phase is not sw.Phase.CONQUEST or state.acting is None or engine._capping:
            continue
        rs = state.races[state.acting]
        if engine._no_redeploy and engine.has_flag(state, rs.race, "no_redeployment"):
            continue
        own = engine.regions_of(state, rs.race)
        if not own:
            continue
        in_hand = rs.hand - engine._hold(state, rs)
        available = in_hand + _surplus(state, own, engine._keep(state, rs.race))
        for n in range(available + 2):
            try:
                engine.apply(state.fork(), sw.Deploy(own[0], n), lambda event: None)
                message = ""
            except sw.IllegalAction as e:
                message = str(e)
            if 1 <= n <= available:
                assert "tokens, not" not in message and "no token" not in message, n
                by_hand += n <= in_hand
            else:
                expected = (
                    f"you can place 1 to {available} tokens, not {n}"
                    if available >= 1
                    else "you have no token to place"
                )
                assert message.endswith(expected), (n, message)
            checked += 1
    capping = sw.Game.new(players=players[0], seed=0, rules=rules)._engine._capping
    assert checked > 20 or capping  # (region_tokens max: a listing of its own, not here)
    if not how:
        assert by_hand > 20
