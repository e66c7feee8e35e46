"""The fast paths of pass 8f (a fresh profile of merge8) give what the general code gives.

Each test compares a shortcut with the general path it replaced, on every position of
seeded random games with the official rules, every folder of test rule files and every
expansion (alone, and all together), or on random inputs of every size.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from helpers import random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.engine.basics import _bits, _shared
from smallworld_rules.engine.conquest import ReachCosts
from smallworld_rules.engine.context import _LONE, _NON_EMPTY, _Ctx, _tokens_mask
from smallworld_rules.engine.legal import _PICKS, _PICKS_KEPT
from smallworld_rules.engine.scoring import scored
from smallworld_rules.state import LOST_TRIBE, Phase

RULE_SETS = rule_sets(each_box=True)


def _by_comprehension(tokens: list[int], lone: bool) -> int:
    """The mask of the regions holding tokens (or exactly one), region by region: the
    general way the two masks were made."""
    if lone:
        return sum([1 << r for r in range(len(tokens)) if tokens[r] == 1])
    return sum([1 << r for r in range(len(tokens)) if tokens[r]])


def test_token_masks_from_bytes_are_the_regions_by_count() -> None:
    """``non_empty`` (a region holding tokens) and ``lone`` (exactly one token) as masks
    read from the counts as bytes: the same masks as region by region, for every map
    size up to 300 regions, counts up to 255 and beyond (where no byte holds them)."""
    rng = random.Random(8)
    cases = [[0], [1], [2], [255], [256], [0] * 64, [1] * 64, [300, 1, 0, 256, 2]]
    for _ in range(3000):
        n = rng.randrange(1, 300)
        top = rng.choice((1, 2, 5, 20, 255, 400))
        cases.append([rng.randrange(top + 1) for _ in range(n)])
    for tokens in cases:
        assert _tokens_mask(tokens, _NON_EMPTY) == _by_comprehension(tokens, False), tokens
        assert _tokens_mask(tokens, _LONE) == _by_comprehension(tokens, True), tokens


@RULE_SETS
def test_token_masks_of_games_are_the_regions_by_count(how: dict[str, Any]) -> None:
    """Rules that name regions that are ``non_empty`` or ``lone`` (a Sorcerer's target
    holds a lone token; Orcs and Pillaging score conquests of non-empty regions): on every
    position of seeded games, for every race in play, the context's masks are the
    regions holding tokens, or exactly one."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 4, players):
        engine, state = game._engine, game._state
        for race in [*state.races, LOST_TRIBE]:
            ctx = _Ctx(engine, state, race)
            tokens = state.region_tokens
            assert ctx.property_mask("non_empty") == _by_comprehension(tokens, False)
            assert ctx.property_mask("lone") == _by_comprehension(tokens, True)
            checked += 1
    assert checked > 100


@RULE_SETS
def test_listed_abilities_are_the_shared_actions(how: dict[str, Any]) -> None:
    """An ability listed on a target is the one shared UseAbility of that name and target
    (the engine trusts the ids of shared actions), whether the listing kept it with the
    ability's plan or looks it up afresh: on every position of seeded games the listing
    is, action by action, the same (each UseAbility the same object) with the kept ones
    forgotten."""
    rules, players = rules_and_players(how)
    for game in random_positions(rules, 4, players):
        engine, state = game._engine, game._state
        acts = engine.legal_actions(state)
        for action in acts:
            if isinstance(action, sw.UseAbility):
                fields = () if action.target is None else (action.target,)
                assert action is _shared(sw.UseAbility, action.name, *fields)
        for _, plan in engine._plans.values():
            plan[4].clear()
        again = engine.legal_actions(state)
        assert len(again) == len(acts)
        for a, b in zip(acts, again, strict=True):
            assert a == b
            if isinstance(a, sw.UseAbility):
                assert a is b


def test_abilities_on_targets_are_listed_in_official_games() -> None:
    """The official rules have abilities on targets (a Sorcerer's conversion, a Dragon's
    attack, a Hero placed): seeded games list them, so the test above compares some."""
    rules = sw.load_rules()
    targeted = 0
    for game in random_positions(rules, 6, (2, 3, 4)):
        for action in game._engine.legal_actions(game._state):
            targeted += isinstance(action, sw.UseAbility) and action.target is not None
    assert targeted > 20


@RULE_SETS
def test_pick_listing_is_the_shared_picks(how: dict[str, Any]) -> None:
    """Rule 1.2 (picking a combo: the first one free, each further down costs a coin per
    combo above it, skipped): every PickCombo listed on every pick position of seeded
    games is the shared PickCombo of that position, listed in market order for every
    position the player can pay for, as the general listing gives it."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 4, players):
        engine, state = game._engine, game._state
        if state.phase is not Phase.PICK or state.active == engine.role_seat:
            continue
        if engine._swapping:
            continue
        coins = state.players[state.active].coins
        general = [
            _shared(sw.PickCombo, i)
            for i in range(len(state.market))
            if (engine.pick_price(state, i) if engine.skip_pricing else i) <= coins
        ] or [sw.EndTurn()]
        acts = engine.legal_actions(state)
        assert len(acts) == len(general)
        assert all(a is b or a == b == sw.EndTurn() for a, b in zip(acts, general, strict=True))
        checked += 1
    swapping = sw.Game.new(players=players[0], seed=0, rules=rules)._engine._swapping
    assert checked > 5 or swapping  # (with swaps, every pick may offer one: not compared)
    for i in range(_PICKS_KEPT + 3):
        pick = _PICKS[i] if i < _PICKS_KEPT else _shared(sw.PickCombo, i)
        assert pick is _shared(sw.PickCombo, i) and pick.index == i


@RULE_SETS
def test_scores_with_the_pairing_looked_up_either_way(how: dict[str, Any]) -> None:
    """Rule 1.11 (a coin per region, plus what the race and power add): the score of every
    race in play on every position of seeded games, its pairing read by badge in
    ``scored`` itself, is the breakdown's, and the same with the kept pairings forgotten
    (the general look-up of ``_modifiers``)."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 3, players):
        engine, state = game._engine, game._state
        for race in state.races:
            b = engine.score(state, race)
            assert scored(engine, state, race) == (b.value, b.explain())
            kept = dict(engine._badge_combos)
            engine._badge_combos.clear()
            try:
                assert scored(engine, state, race) == (b.value, b.explain())
            finally:
                engine._badge_combos.clear()
                engine._badge_combos.update(kept)
            checked += 1
    assert checked > 50


#: A power whose conquests cost 3 tokens less (no rule file of the box has so large a
#: discount): most of its costs fall below 1 before the clamp.
NIMBLE = """\
power nimble "Nimble" {
    tokens 4
    text "Each conquest costs 3 tokens less, and at least 1."
    conquest_cost sub 3
}
"""


def test_listed_costs_below_one_are_clamped_as_the_breakdowns(tmp_path: Path) -> None:
    """Rule 1.7: a conquest costs at least 1 token, whatever lowers it. In seeded games
    where one race of each carries a power that lowers every cost by 3 (a fixed table
    whose entries fall below 1), every conquest and redeployment listing is what the
    general helpers and the cost breakdowns give, and the costs the listing keeps for the
    conquest (from the table, clamped when asked) are the breakdowns', 1 where the
    unclamped sum is below it."""
    from test_fast_paths_perf_legal2 import checked_listings

    (tmp_path / "nimble.swr").write_text(NIMBLE)
    rules = sw.load_rules(paths=[tmp_path])
    races = sorted(rules.races)
    checked = clamped = 0
    for state, costs in checked_listings(
        rules, range(8), lambda seed: [(races[seed % len(races)], "nimble")]
    ):
        kept = state.reach_costs
        if costs is not None and type(kept) is ReachCosts:
            clamped += sum(kept.tokens[r] + kept.table[r] < 1 for r in _bits(kept.reach))
        checked += 1
    assert checked > 300 and clamped > 50


def test_listed_costs_with_modifiers_that_change_are_the_breakdowns() -> None:
    """Ruling 24 (Giants conquer next to a Mountain they hold for 1 token less): a cost
    modifier whose regions change from move to move, with discounts of the power that
    are fixed by the map (Underworld's Caverns, Mounted's Hills and Farmlands, Commando's
    every region) and a cost then below 1 (Commando next to a Mountain). In seeded games
    of the Giants with each of those powers, every conquest and redeployment listing is
    what the general helpers and the cost breakdowns give, region by region."""
    from test_fast_paths_perf_legal2 import checked_listings

    powers = ("underworld", "mounted", "commando", "seafaring")
    checked = varying = 0
    for state, costs in checked_listings(
        sw.load_rules(), range(12), lambda seed: [("giants", powers[seed % 4])]
    ):
        if costs is not None and state.acting == "giants" and type(state.reach_costs) is ReachCosts:
            varying += 1
        checked += 1
    assert checked > 300 and varying > 50


@RULE_SETS
def test_first_deploy_places_what_the_general_helpers_allow(how: dict[str, Any]) -> None:
    """Rule 1.10 (ending the conquests takes every token beyond one per region back into
    hand; ruling 13: conquest-only tokens are held back): on every conquest position of
    seeded games where the acting race holds regions, a Deploy of exactly what the general
    helpers say it may place (hand less what it holds back, plus ``_surplus`` of
    ``regions_of``) is not refused for its count, and one more token is refused with that
    count in the message (none to place: refused as such)."""
    from smallworld_rules.engine.redeploy import _surplus

    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 4, players):
        engine, state = game._engine, game._state
        if state.phase is not Phase.CONQUEST or state.acting is None or engine._capping:
            continue
        rs = state.races[state.acting]
        if engine._no_redeploy and engine.has_flag(state, rs.race, "no_redeployment"):
            continue
        own = engine.regions_of(state, rs.race)
        if not own:
            continue
        keep = engine._keep(state, rs.race)
        available = rs.hand - engine._hold(state, rs) + _surplus(state, own, keep)
        for n, refused in ((available, False), (available + 1, True)):
            if n < 1:
                continue
            fork = state.fork()
            try:
                engine.apply(fork, sw.Deploy(own[0], n), lambda event: None)
                message = ""
            except sw.IllegalAction as e:
                message = str(e)
            if refused:
                expected = (
                    f"you can place 1 to {available} tokens, not {n}"
                    if available >= 1
                    else "you have no token to place"
                )
                assert message.endswith(expected)
            else:
                assert "tokens, not" not in message and "no token" not in message
            checked += 1
    capping = sw.Game.new(players=players[0], seed=0, rules=rules)._engine._capping
    assert checked > 20 or capping  # (region_tokens max: a listing of its own, not here)
