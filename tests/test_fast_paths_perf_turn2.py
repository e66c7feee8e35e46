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
from helpers import random_positions

import smallworld_rules as sw
from smallworld_rules.engine.core import Engine
from smallworld_rules.state import RaceState, State

#: every folder of test rule files (tests/rules, tests/rules_v3, tests/rules_market …)
TEST_RULE_DIRS = sorted(p for p in Path(__file__).parent.glob("rules*") if p.is_dir())
EXPANSIONS = sw.available_expansions()
RULE_SETS = pytest.mark.parametrize(
    "how",
    [
        {},
        *({"paths": [d]} for d in TEST_RULE_DIRS),
        *({"expansions": [e]} for e in EXPANSIONS),
        {"expansions": list(EXPANSIONS)},
    ],
    ids=["official", *(d.name for d in TEST_RULE_DIRS), *EXPANSIONS, "expansions"],
)


def _positions(how: dict[str, Any], games: int = 4) -> list[sw.Game]:
    rules = sw.load_rules(**how)
    return random_positions(rules, games, (3, 4, 5) if rules.roles else (2, 3, 4, 5))


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
    if how.get("expansions") == list(EXPANSIONS):
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
