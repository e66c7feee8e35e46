"""The shortcuts of pass 9e give what the general code gives.

* An ability's targets are worked out with a context only when its clause has a condition
  to test: the same masks as the general code (kept here verbatim), for every ability of
  every race of every position of seeded games.
* The listing skips an own region's condition ``when not piece P`` where the ability's
  placement of P, one a region, is checked as a mask of the targets anyway: the same
  UseAbility actions, in the same order, as the listing that tests the condition.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import players_for, rule_sets

import smallworld_rules as sw
from smallworld_rules.engine import use_ability
from smallworld_rules.engine.context import _Ctx, _PlayerCtx, _ReachCtx, players_matching
from smallworld_rules.engine.core import Engine
from smallworld_rules.hooks import EvalContext
from smallworld_rules.language import values as language_values
from smallworld_rules.ruledefs import CompiledAbility
from smallworld_rules.state import RaceState, State


def _positions(rules: sw.Rules, games: int) -> Iterator[sw.Game]:
    """Every position of seeded uniformly random games (the game as it stands)."""
    players = players_for(rules)
    for seed in range(games):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            yield game
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])


def _users(s: State) -> list[RaceState]:
    """The races whose abilities may work now: the acting race, the withdrawing race, and
    the active player's races in decline."""
    names = [s.acting, *s.withdrawals, *s.players[s.active].declined]
    return [s.races[n] for n in dict.fromkeys(names) if n is not None and n in s.races]


def _old_ability_targets(
    self: Engine, s: State, rs: RaceState, ability: CompiledAbility, reach: int | None = None
) -> int:
    """``use_ability._ability_targets`` before pass 9e (the general code), verbatim."""
    ctx: EvalContext
    if ability.target == "combo":  # the combos of the market (a condition is refused)
        return (1 << len(s.market)) - 1
    if ability.target == "player":
        ctx = _PlayerCtx(self, s, rs.owner)
        mask = ctx.all_mask
        if ability.condition is not None:  # each player in a context of its own
            return players_matching(self, s, rs.owner, rs.race, ability.condition, mask)
    else:
        ctx = _Ctx(self, s, rs.race) if reach is None else _ReachCtx(self, s, rs.race, reach)
        mask = self.mask_of(s, rs.race) if ability.target == "own region" else ctx.all_mask
        if self._shielding:  # immune to powers: out of reach of other races' abilities
            mask &= ~language_values.shielded_regions(self, s, rs.race)
    if ability.condition is not None:
        mask &= ability.condition(ctx)
    return mask


@rule_sets(necromancer=True, each_box=True)
def test_ability_targets_are_the_general_code(how: dict[str, Any]) -> None:
    """An ability targets what its clause allows (a region, an own region, a player or a
    combo of the market, when its condition holds): the targets worked out with a context
    only for a condition are those of the general code, for every ability of every race
    that may use one, with and without the race's reach given, on every position."""
    rules = sw.load_rules(**how)
    compared = 0
    for game in _positions(rules, 4):
        engine, s = game._engine, game._state
        for rs in _users(s):
            reach = engine.reach_mask(s, rs.race)
            for ability in engine.abilities(s, rs.race):
                for given in (None, reach):
                    want = _old_ability_targets(engine, s, rs, ability, given)
                    assert engine._ability_targets(s, rs, ability, given) == want
                    compared += 1
    if any(d.abilities for d in (*rules.races.values(), *rules.powers.values())):
        assert compared > 50


@rule_sets(necromancer=True, each_box=True)
def test_listing_without_a_repeated_condition_is_the_listing_with_it(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A piece one a region (a Hero, a Fortress) goes only on an own region without one:
    where an ability's condition says just that (``when not piece P``) and its placement
    of P is checked as a mask, the listing that skips the condition gives the very
    UseAbility actions, in order, of the listing that tests it, on every position."""
    rules = sw.load_rules(**how)
    plan = use_ability._plan
    skipped = [0]
    listed = 0

    def tested(self: Engine, ability: CompiledAbility) -> Any:
        *rest, condition = plan(self, ability)
        if not condition:
            skipped[0] += 1
        return (*rest, True)

    for game in _positions(rules, 4):
        engine, s = game._engine, game._state
        for rs in _users(s):
            fast = engine._ability_actions(s, rs, s.phase)
            with monkeypatch.context() as m:
                m.setattr(use_ability, "_plan", tested)
                general = engine._ability_actions(s, rs, s.phase)
            assert fast == general
            listed += len(fast)
    if how in ({}, {"expansions": ["necromancer_island"]}):  # Heroic and Fortified listed
        assert skipped[0] > 0 and listed > 20, (skipped, listed)


def test_the_condition_skipped_is_exactly_a_missing_piece(tmp_path: Any) -> None:
    """Only a condition that is exactly ``not piece P`` names the piece, and the listing
    skips it only for a placement of P on an own region, P one a region."""
    (tmp_path / "markers.swr").write_text(MARKERS, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    abilities = {a.name: a for d in rules.powers.values() for a in d.abilities}
    assert abilities["flag"].absent_piece == "flag"
    assert abilities["posts"].absent_piece == "post"
    assert abilities["flag_by_sea"].absent_piece == ""
    assert abilities["other"].absent_piece == "post"
    game = sw.Game.new(players=2, seed=1, rules=rules)
    engine = game._engine
    mine = ("flag", "posts", "flag_by_sea", "other")
    condition = {name: use_ability._plan(engine, abilities[name])[5] for name in mine}
    assert condition == {"flag": False, "posts": True, "flag_by_sea": True, "other": True}


MARKERS = """\
# A power of this test: conditions that are, or are not, the placement's own test.
power markers "Markers" {
    tokens 5
    text "Place markers."
    piece flag supply 3 { one_per_region }
    piece post supply 6 { defence 1 }
    ability flag {
        during redeploy
        target own region when not piece flag
        place flag
    }
    ability posts {
        during redeploy
        target own region when not piece post
        place post
    }
    ability flag_by_sea {
        during redeploy
        target own region when not piece flag and coastal
        place flag
    }
    ability other {
        during redeploy
        target own region when not piece post
        place flag
    }
}
"""
