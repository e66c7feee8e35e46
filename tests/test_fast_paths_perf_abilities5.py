"""The shortcuts of pass 9i give what the general code gives.

* A pairing keeps the abilities that may be listed in the conquests and in the
  redeployment: the listing skips the others at once (the legal actions ask for those
  tuples only). The listed UseAbility actions of the acting race are exactly those that
  ``ability_problem`` (the check of an action given by hand) allows, over every ability of
  its pairing and every target.
* A target's use key (``once_per_player_per_turn``) is made only when some ability was
  used this turn: the same actions (the point above covers it, uses included).
* ``reachable`` read by the context itself (the reach given, or worked out) and
  ``enemy_active`` without its helpers' frames: the masks of the general code.
"""

from __future__ import annotations

from typing import Any

from helpers import players_for, playing_positions, rule_sets

import smallworld_rules as sw
from smallworld_rules.actions import UseAbility
from smallworld_rules.engine.basics import _CONQUEST, _REDEPLOY
from smallworld_rules.engine.context import _Combo, _ReachCtx, new_context
from smallworld_rules.engine.core import Engine
from smallworld_rules.state import State


def _old_enemy_active_mask(self: Engine, s: State, race: str) -> int:
    """``reach.enemy_active_mask`` before pass 9i (the general code), verbatim."""
    rs = s.races.get(race)
    owner = -1 if rs is None else rs.owner
    out = 0
    for p, ps in enumerate(s.players):
        if p != owner and ps.active is not None and not self.seen_declined(ps.active):
            out |= self.mask_of(s, ps.active)
    return out


@rule_sets(necromancer=True, each_box=True)
def test_listed_abilities_are_those_ability_problem_allows(how: dict[str, Any]) -> None:
    """A race uses an ability during the phases its clause names, within its limits, on a
    target its clause allows: the UseAbility actions listed for the acting race in the
    conquests and the redeployment (from the pairing's abilities of that phase) are,
    in every position of seeded games, exactly the (ability, target) pairs of all its
    pairing's abilities that the check of an action given by hand allows."""
    rules = sw.load_rules(**how)
    compared = listed = 0
    for game in playing_positions(rules, 4):
        engine, s = game._engine, game._state
        if (s.phase is not _CONQUEST and s.phase is not _REDEPLOY) or s.acting is None:
            continue
        rs = s.races[s.acting]
        if rs.declined:
            continue
        combo = engine._combo_of(s, rs.race)
        mine = combo.conquest_abilities if s.phase is _CONQUEST else combo.redeploy_abilities
        fast = engine._ability_actions(s, rs, s.phase, None, mine)
        assert all(isinstance(a, UseAbility) for a in fast)
        top = max(engine.n, engine.players, len(s.market))
        want = {
            (ability.name, target)
            for ability in combo.abilities
            for target in (None, *range(top))
            if engine.ability_problem(s, rs, ability, target) is None
        }
        got = [(a.name, a.target) for a in fast if isinstance(a, UseAbility)]
        assert len(got) == len(set(got))
        assert set(got) == want
        compared += 1
        listed += len(got)
    if any(d.abilities for d in (*rules.races.values(), *rules.powers.values())):
        assert compared > 50
    if how in ({}, {"expansions": ["necromancer_island"]}):
        assert listed > 20, listed


@rule_sets(necromancer=True, each_box=True)
def test_pairings_keep_the_abilities_of_each_phase(how: dict[str, Any]) -> None:
    """An ability works during the phases it names (``turn_start``: in the conquests, before
    the first): the pairing of every race with every power keeps, in file order and as the
    very objects, the abilities that name the conquests or the turn's start, and those
    that name the redeployment."""
    rules = sw.load_rules(**how)
    engine = sw.Game.new(players=players_for(rules)[0], seed=0, rules=rules)._engine
    seen = 0
    for race in rules.races.values():
        for power in (None, *rules.powers.values()):
            combo = _Combo(engine, (race,) if power is None else (race, power))
            conquest = [a for a in combo.abilities if {"conquest", "turn_start"} & a.phases]
            redeploy = [a for a in combo.abilities if "redeploy" in a.phases]
            assert type(combo.conquest_abilities) is tuple
            assert type(combo.redeploy_abilities) is tuple
            assert len(combo.conquest_abilities) == len(conquest)
            assert all(a is b for a, b in zip(combo.conquest_abilities, conquest, strict=True))
            assert len(combo.redeploy_abilities) == len(redeploy)
            assert all(a is b for a, b in zip(combo.redeploy_abilities, redeploy, strict=True))
            seen += len(conquest) + len(redeploy)
    if any(d.abilities for d in (*rules.races.values(), *rules.powers.values())):
        assert seen > 0


@rule_sets(necromancer=True, each_box=True)
def test_reachable_and_enemy_active_are_the_general_masks(how: dict[str, Any]) -> None:
    """``reachable`` is the race's reach (rule 1.7 and its flags), ``enemy_active`` the
    regions of the other players' active races (a role's tokens that count as declined
    are not active): read by a context, on every race of every position of seeded games,
    they are the engine's reach and the general code's mask."""
    rules = sw.load_rules(**how)
    compared = 0
    for game in playing_positions(rules, 2):
        engine, s = game._engine, game._state
        for race in s.races:
            reach = engine.reach_mask(s, race)
            assert new_context(engine, s, race).property_mask("reachable") == reach
            assert _ReachCtx(engine, s, race, reach).property_mask("reachable") == reach
            # the reach given is read as given (the listing's, worked out once)
            assert _ReachCtx(engine, s, race, 5).property_mask("reachable") == 5
            want = _old_enemy_active_mask(engine, s, race)
            assert engine.enemy_active_mask(s, race) == want
            assert new_context(engine, s, race).property_mask("enemy_active") == want
            compared += 1
    assert compared > 50
