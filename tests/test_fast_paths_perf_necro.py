"""The pairing ``legal_actions`` finds is the one the rest of the listing would look up.

Each test compares a shortcut of the conquest and redeployment listings (the role's pairing
read from the engine's last one, the abilities handed to their listing, a role's turn end
listed without asking whether it may decline, its purchases shared per reserve, the shared
abilities' actions looked up inline) with the general code it stands for, on every position
of seeded random games.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import players_for, random_positions, rule_set_table

import smallworld_rules as sw
from smallworld_rules.actions import Decline, EndTurn, Purchase, UseAbility
from smallworld_rules.engine import legal
from smallworld_rules.engine.basics import _shared
from smallworld_rules.engine.core import Engine
from smallworld_rules.state import Phase

TESTS = Path(__file__).parent
#: The official rules, every folder of test rule files, Necromancer Island, every expansion.
RULE_SETS = rule_set_table(necromancer=True)


def _general_listing(engine: Any, state: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """``legal_actions`` with the pairing looked up wherever it is needed: the role's last
    pairing forgotten (``_combo_of`` finds it again), the abilities handed in ignored."""
    general_abilities = Engine._ability_actions
    with monkeypatch.context() as m:
        m.setattr(
            Engine,
            "_ability_actions",
            lambda self, s, rs, phase, reach=None, abilities=None: general_abilities(
                self, s, rs, phase, reach
            ),
        )
        engine._role_last = (None, None)
        return list(legal.legal_actions(engine, state))


@pytest.mark.parametrize("how", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_listing_uses_the_pairing_the_general_look_ups_give(
    how: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race's conquests, deployments and abilities are those of its race and power (a
    role's: of his token kind with every power he activated, A20): on every position of
    seeded games the listing, which finds the acting race's pairing once and hands it on,
    gives in the same order what it gives when the pairing is looked up afresh everywhere;
    the pairing its conquests and abilities are listed with is ``_combo_of``'s; Decline is
    listed in place of expanding when ``_may_decline`` allows it, after EndTurn exactly
    when ``_may_decline_at_end`` does (the listing reads its flag on the pairing), and a
    role never declines."""
    handed: list[tuple[Any, Any, Any]] = []  # (state, race, pairing or abilities handed on)
    general_conquests = legal._conquests
    general_abilities = Engine._ability_actions

    def conquests(self: Any, s: Any, rs: Any, combo: Any, occupied: Any, acts: Any) -> int:
        handed.append((s, rs.race, combo))
        return general_conquests(self, s, rs, combo, occupied, acts)

    def ability_actions(
        self: Any, s: Any, rs: Any, phase: Any, reach: Any = None, abilities: Any = None
    ) -> list[Any]:
        if abilities is not None and not rs.declined:
            handed.append((s, rs.race, abilities))
        return general_abilities(self, s, rs, phase, reach, abilities)

    rules = sw.load_rules(**how)
    listings = roles = abilities_handed = uses = declines_at_end = 0
    for game in random_positions(rules, 8, players_for(rules)):
        engine, state = game._engine, game._state
        if state.phase not in (Phase.CONQUEST, Phase.REDEPLOY) or state.acting is None:
            continue
        engine._role_last = (None, None)
        list(legal.legal_actions(engine, state))  # the role's pairing kept as the last
        handed.clear()
        with monkeypatch.context() as m:
            m.setattr(legal, "_conquests", conquests)
            m.setattr(Engine, "_ability_actions", ability_actions)
            fast = list(legal.legal_actions(engine, state))
        for s, race, got in handed:
            combo = engine._combo_of(s, race)
            if isinstance(got, tuple):  # its abilities that may work in the phase (pass 9i)
                phase = s.phase is Phase.CONQUEST
                assert got is (combo.conquest_abilities if phase else combo.redeploy_abilities)
                abilities_handed += 1
            else:
                assert got is combo
        assert fast == _general_listing(engine, state, monkeypatch)
        for action in fast:  # the very actions every listing shares
            if isinstance(action, UseAbility):
                fields = (action.name,) if action.target is None else (action.name, action.target)
                assert action is _shared(UseAbility, *fields)
                uses += 1
        # Decline: in place of expanding, or after EndTurn if _may_decline_at_end (whose
        # flag the listing reads on the pairing it has) allows it
        rs = state.races[state.acting]
        now = state.phase is Phase.CONQUEST and engine._may_decline(state)
        at_end = EndTurn() in fast and not now and engine._may_decline_at_end(state, rs)
        assert fast.count(Decline()) == now + at_end
        declines_at_end += at_end
        if state.acting == engine.role_race:
            assert not engine._may_decline_at_end(state, rs)
            roles += 1
        listings += 1
    assert listings > 100 and abilities_handed > 0 and uses > 0
    if how.get("expansions"):
        assert roles > 10
    if not how:  # Stout's Decline after scoring, in the official rules
        assert declines_at_end > 0


def test_role_pairing_kept_as_the_last_is_found_again_for_other_powers() -> None:
    """The Necromancer's powers all work, always (A20): visiting the positions of seeded
    games out of order (so the pairing the engine kept last is now the role's, now that of
    other powers), the role's listing is the same as when that pairing is forgotten."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    positions = random_positions(rules, 6, (4,))
    engine = positions[0]._engine
    mixed = positions[:]
    random.Random(3).shuffle(mixed)
    checked = 0
    for game in mixed:
        state = game._state
        if state.acting != engine.role_race or state.phase is Phase.WITHDRAWAL:
            continue
        fast = list(legal.legal_actions(engine, state))
        engine._role_last = (None, None)
        assert fast == list(legal.legal_actions(engine, state))
        checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    "options",
    [{}, {"necromancer_coins": 30}],
    ids=["defaults", "rich"],
)
def test_role_purchases_of_a_reserve_kept_are_those_purchase_problem_allows(
    options: dict[str, int],
) -> None:
    """The Necromancer buys Ghosts or reserved powers in his turn, before conquering, at
    their price (rule 4.3): visiting the positions of seeded games in play order and
    shuffled (so the reserve whose purchases were kept last is now this one, now another),
    the purchases listed are exactly, in order, those ``purchase_problem`` allows, and the
    very actions every listing shares."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    positions = random_positions(rules, 8, (3, 4, 5, 6), options)
    mixed = positions[:]
    random.Random(5).shuffle(mixed)
    powers_offered = 0
    reserves = set()
    for game in [*positions, *mixed]:
        engine, state = game._engine, game._state
        wanted = [("token", None)] + [("power", p) for p in state.role_reserve]
        expected = [
            _shared(Purchase, item, power)
            for item, power in wanted
            if engine.purchase_problem(state, item, power) is None
        ]
        got = engine._purchases(state)
        assert got == expected
        assert all(a is b for a, b in zip(got, expected, strict=True))
        powers_offered += sum(1 for a in got if a.item == "power")  # type: ignore[attr-defined]
        reserves.add(state.role_reserve)
    assert powers_offered > 100 and len(reserves) > 10
