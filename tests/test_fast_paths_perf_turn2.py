"""The fast paths of pass 7h (the role's turn end, picking a combo) give exactly what the
general code gives.

Each test plays seeded random games with the official rules, every folder of test rule
files and every expansion (alone, and all together), and compares the fast path with the
general code it stands for on every position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import random_positions, rule_sets, rules_and_players
from test_fast_paths_perf_turn import _outcome, _text

import smallworld_rules as sw
from smallworld_rules import rng
from smallworld_rules.engine import market
from smallworld_rules.engine.basics import MARKET_SIZE
from smallworld_rules.engine.core import Engine
from smallworld_rules.language import borrowing, events
from smallworld_rules.state import RaceState, State

RULE_SETS = rule_sets(each_box=True)


def _positions(how: dict[str, Any], games: int = 4) -> list[sw.Game]:
    rules, players = rules_and_players(how)
    return random_positions(rules, games, players)


def _general_hold(engine: Engine, s: State, rs: RaceState) -> int:
    """``_hold`` as it reads the race's pairing for every role (its definition before the
    quick test by the role's powers)."""
    combo = engine._combo_of(s, rs.race)
    if engine._no_redeploy and "no_redeployment" in combo.flags:
        return rs.hand
    wanted = combo.conquest_tokens
    if not wanted:
        return 0
    return min(wanted, rs.hand + sum(s.region_tokens[r] for r in engine.regions_of(s, rs.race)))


@RULE_SETS
def test_conquest_only_tokens_held_back_are_those_of_the_pairing(how: dict[str, Any]) -> None:
    """Ruling 13: at the end of its turn a race holds its conquest-only tokens off the map
    (every token in hand, for a race that does not redeploy). The quick answer for a race
    none of whose rule files has such tokens, a role's by the powers it has activated,
    equals what the race's pairing says, for every race on every position of seeded games,
    and for a role also with each power that has them added to its own."""
    compared = roles = 0
    for game in _positions(how):
        engine, state = game._engine, game._state
        holding_powers = sorted(p for p in engine._holding if p in engine.rules.powers)
        for race in state.races:
            rs = state.races[race]
            assert engine._hold(state, rs) == _general_hold(engine, state, rs), race
            compared += 1
            if race != engine.role_race:
                continue
            for power in holding_powers:  # a role that activated a power with such tokens
                twin = state.fork()
                twin.role_powers = (*twin.role_powers, power)
                trs = twin.races[race]
                assert engine._hold(twin, trs) == _general_hold(engine, twin, trs), power
                roles += 1
    assert compared > 100
    if how.get("expansions") == list(sw.available_expansions()):
        assert roles > 0  # the role's branch met a power with conquest-only tokens


LEVY = """\
power levied "Levied" {
    tokens 3
    conquest_tokens 2
    text "Two of your tokens may only be used for conquest."
}
"""


def test_a_role_holds_back_the_conquest_only_tokens_of_its_powers(tmp_path: Path) -> None:
    """Ruling 13, for a role: its pairing is its race with every power it has activated,
    so a power with conquest-only tokens (a test file: no shipped power has them) makes
    it hold them back. With that power added to the role's own on every position of seeded
    Necromancer Island games, the quick answer equals what the pairing says."""
    (tmp_path / "levied.swr").write_text(LEVY)
    rules = sw.load_rules(expansions=["necromancer_island"], paths=[tmp_path])
    held = 0
    for game in random_positions(rules, 4, (3, 4, 5)):
        engine, state = game._engine, game._state
        assert "levied" in engine._holding
        twin = state.fork()
        twin.role_powers = (*twin.role_powers, "levied")
        for s in (state, twin):
            race = engine.role_race
            assert race is not None
            if race in s.races:
                rs = s.races[race]
                hold = engine._hold(s, rs)
                assert hold == _general_hold(engine, s, rs)
                held += hold > 0
    assert held > 50  # the role's levied tokens were held back, and compared


def _general_refill_market(self: Engine, s: State) -> None:
    """``_refill_market`` as it was before pass 7h (each step read from the state)."""
    while len(s.market) < MARKET_SIZE and s.race_stack:
        if not s.power_stack and s.power_discard:
            stack = list(s.power_discard)
            s.power_discard = ()
            s.rng = rng.shuffle(s.rng, stack)
            s.power_stack = tuple(stack)
        if not s.power_stack:
            break
        s.market = (*s.market, (s.race_stack[0], s.power_stack[0], 0))
        s.race_stack, s.power_stack = s.race_stack[1:], s.power_stack[1:]


def _general_after_pick(self: Engine, s: State, race: str, collected: int, log: Any) -> None:
    """``_after_pick`` without its shortcut: the first race to act always begins its cycle
    by ``_begin_cycle``."""
    if self._borrowers:
        borrowing.tidy(self, s, log)
    if "pick" in self.trigger_events and events.triggers(self, s, race, "pick"):
        events.fire(self, s, s.own_race(race), "pick", log, events.Occasion("pick", lost=collected))
    first = self._acting_order(s)[0]
    self._begin_cycle(s, first, log, announce=first != race)


def _market_actions(game: sw.Game) -> list[sw.Action]:
    """Every pick (legal or not), and the actions that may refill the market otherwise (a
    race leaving: Decline, EndTurn)."""
    return [*(sw.PickCombo(i) for i in range(-1, MARKET_SIZE + 1)), sw.Decline(), sw.EndTurn()]


@RULE_SETS
def test_a_pick_ends_as_the_general_pick(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule 1.5: a player picks a combo (a coin on each combo above it, the coins on it
    taken), the market slides up and a new combo is revealed while banners and badges last
    (ruling 38: the discarded badges shuffled into a new stack), then the race starts
    acting (rule 1.6). Every pick, Decline and EndTurn on every position of seeded games
    gives the same state, events or refusal as the general code."""
    calls = [0]
    original = market._after_pick

    def counting(*args: Any) -> None:
        calls[0] += 1
        original(*args)

    monkeypatch.setattr(Engine, "_after_pick", counting)
    compared = 0
    for game in _positions(how):
        engine, state = game._engine, game._state
        for action in _market_actions(game):
            fast = _outcome(engine, state, action)
            with monkeypatch.context() as general:
                general.setattr(Engine, "_after_pick", _general_after_pick)
                general.setattr(Engine, "_refill_market", _general_refill_market)
                slow = _outcome(engine, state, action)
            assert fast == slow, (action, _text(state))
            compared += 1
    assert compared > 1000
    assert calls[0] > 20  # picks were carried out, and compared
