"""The conquest and redeployment listings, with their shortcuts, give what the general
pieces of the engine give.

Each test compares the listing with one made from the general helpers (``_may_decline``,
``_may_end_conquest``, ``reach_mask``, the cost breakdowns …) on the positions of seeded
random games, with the official rules, every folder of test rule files and every expansion.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from helpers import random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.engine.basics import DIE_REACH, _bits
from smallworld_rules.engine.core import Engine
from smallworld_rules.engine.redeploy import _may_end_conquest, _surplus
from smallworld_rules.language import flow, limits
from smallworld_rules.state import Phase, RaceState, State

RULE_SETS = rule_sets()


def _deploys(regions: tuple[int, ...], available: int) -> list[sw.Action]:
    """Deploy 1, and all that is available, on each region (rule 1.10)."""
    if available < 1:
        return []
    out: list[sw.Action] = []
    for r in regions:
        out.append(sw.Deploy(r, 1))
        if available > 1:
            out.append(sw.Deploy(r, available))
    return out


def _general_conquests(
    engine: Engine, s: State, rs: RaceState, acts: list[sw.Action]
) -> dict[int, int]:
    """The Conquer and ConquerWithDie of the acting race, in region order, from its reach
    and each region's cost breakdown; returns the costs of the regions of its reach."""
    race, hand = rs.race, rs.hand
    floor = engine._combo_of(s, race).floor if engine._floors else 1
    die = (
        s.die_bonus < 0
        and not engine.has_flag(s, race, "no_final_die")
        and hand >= floor
        and not (engine.second_rounds and flow.in_first_round(engine, s, race))
    )
    costs = {}
    for r in _bits(engine.reach_mask(s, race)):
        cost = costs[r] = engine.conquest_cost(s, race, r).value
        if cost <= hand:
            acts.append(sw.Conquer(r))
        elif die and cost - hand <= DIE_REACH:
            acts.append(sw.ConquerWithDie(r))
    return costs


def _general_listing(engine: Engine, s: State) -> tuple[list[sw.Action], dict[int, int] | None]:
    """The legal actions of a race acting in the conquest or redeployment phase (the
    listing of every race with redeployment and no token limit), each decision made by the
    engine's general helpers; and the costs of its reach, if it may conquer."""
    assert s.acting is not None
    rs = s.races[s.acting]
    race, hand = rs.race, rs.hand
    role = race == engine.role_race
    own = engine.regions_of(s, race)
    hold = engine._hold(s, rs)
    costs = None
    if s.phase is Phase.REDEPLOY:
        acts = _deploys(own, hand - hold)
        if hand < hold:
            acts += [sw.Abandon(r) for r in own]
        acts += engine._ability_actions(s, rs, s.phase)
        if engine.declined_abilities:
            acts += flow.declined_ability_actions(engine, s, s.phase)
        if hand == hold or not own or role:
            acts.append(sw.EndTurn())
            if engine._may_decline_at_end(s, rs):
                acts.append(sw.Decline())
        return acts, costs
    acts = engine._purchases(s) if role else []
    may_decline = engine._may_decline(s)
    if may_decline:
        acts.append(sw.Decline())
    if engine._may_abandon(s):
        acts += [sw.Abandon(r) for r in own]
    if hand >= 1:
        costs = _general_conquests(engine, s, rs, acts)
    acts += engine._ability_actions(s, rs, s.phase)
    if engine.declined_abilities:
        acts += flow.declined_ability_actions(engine, s, s.phase)
    floor = engine._combo_of(s, race).floor if engine._floors else 1
    surplus = _surplus(s, own, floor)
    acts += _deploys(own, hand + surplus - hold)
    if role or _may_end_conquest(rs, hold, surplus, own):
        acts.append(sw.EndTurn())
        if not may_decline and engine._may_decline_at_end(s, rs):
            acts.append(sw.Decline())
    elif engine.second_rounds and flow.in_first_round(engine, s, race):
        acts.append(sw.EndTurn())  # the end of a first round of conquests
    return acts, costs


def _plain_listing(engine: Engine, s: State) -> bool:
    """Whether the acting race's listing is the common one (redeploys, no token limit, not
    choosing abilities as it declines)."""
    if s.phase not in (Phase.CONQUEST, Phase.REDEPLOY) or s.acting is None:
        return False
    race = s.acting
    if engine._no_redeploy and engine.has_flag(s, race, "no_redeployment"):
        return False
    if engine._capping and limits.cap(engine, s, race):
        return False
    return not (s.lang and flow.choosing(s) == race)


def checked_listings(
    rules: sw.Rules, seeds: range, combos: Callable[[int], list[tuple[str, str]]]
) -> Iterator[tuple[State, dict[int, int] | None]]:
    """The positions of seeded random games (one a seed, ``2 + seed % 3`` players, the
    combos ``combos(seed)`` on top of the stack) whose listing the general helpers can
    build, each checked first: the listing is theirs, and so are the costs it kept for the
    conquest (every region, and one beyond the map each side). Yields the position and those
    costs (None: no conquest listed)."""
    for seed in seeds:
        game = sw.Game.new(players=2 + seed % 3, seed=seed, rules=rules, combos=combos(seed))
        choose = random.Random(seed)
        while not game.is_over:
            engine, state = game._engine, game._state
            if _plain_listing(engine, state):
                expected, costs = _general_listing(engine, state.copy())
                assert list(engine.legal_actions(state)) == expected
                if costs is not None:
                    kept = state.reach_costs
                    assert kept is not None and kept.engine is engine
                    assert list(kept.items()) == list(costs.items())
                    for r in (-1, *range(engine.n + 1)):
                        assert kept.get(r) == costs.get(r)
                yield state, costs
            options = list(game.legal_actions())
            game.apply(options[choose.randrange(len(options))])


@RULE_SETS
def test_listing_is_what_the_general_helpers_give(how: dict[str, Any]) -> None:
    """Rules 1.6 to 1.12: a race may decline before it does anything in a turn it did not
    begin with a pick, abandon regions before its first conquest, conquer a region of its
    reach with the tokens it costs or make its final die attempt with at most 3 fewer,
    deploy 1 or all of what it has, and end its conquests when nothing must still be held
    back. On every conquest and redeployment position of seeded games, the listing (its
    tests made inline, the costs summed from tables kept per game) gives, in the same
    order, what the general helpers and the cost breakdowns give, and keeps for the
    position exactly the costs of the regions of the race's reach."""
    rules, players = rules_and_players(how)
    checked = {Phase.CONQUEST: 0, Phase.REDEPLOY: 0}
    declines = ends = 0
    for game in random_positions(rules, 6 if how else 10, players):
        engine, state = game._engine, game._state
        if not _plain_listing(engine, state):
            continue
        expected, costs = _general_listing(engine, state.copy())
        listed = list(engine.legal_actions(state))
        assert listed == expected
        if costs is not None:
            kept = state.reach_costs
            assert kept is not None and kept.engine is engine and kept.race == state.acting
            assert list(kept.items()) == list(costs.items())
            assert len(kept) == len(costs)
            for r in (-1, *range(engine.n + 1)):  # what a conquest attempt may ask
                assert kept.get(r) == costs.get(r)
        checked[state.phase] += 1
        declines += sw.Decline() in listed
        ends += sw.EndTurn() in listed
    assert checked[Phase.CONQUEST] > 100 and checked[Phase.REDEPLOY] > 50
    assert declines > 5 and ends > 100


#: A power whose races cost every conquest at least 4 tokens (no rule file of the box does).
STURDY = """\
power sturdy "Sturdy" {
    tokens 4
    text "Every region you hold keeps at least 4 tokens, and each conquest costs at least 4."
    region_tokens min 4
}
"""


def test_listing_costs_at_least_what_a_race_keeps_per_region(tmp_path: Path) -> None:
    """Rule 1.7's cost is at least 1 token, or the ``region_tokens min`` of the race: in
    seeded games where one race of each carries a power that raises it to 4 (its pairing
    has the same conquest cost modifiers as other pairings: none), every conquest and
    redeployment listing is what the general helpers and the cost breakdowns give, and
    that race's costs are never below 4."""
    (tmp_path / "sturdy.swr").write_text(STURDY)
    rules = sw.load_rules(paths=[tmp_path])
    races = sorted(rules.races)
    checked = sturdy = 0
    for state, costs in checked_listings(
        rules, range(8), lambda seed: [(races[seed % len(races)], "sturdy")]
    ):
        if costs is not None and state.races[state.acting].power == "sturdy":
            assert min(costs.values(), default=4) >= 4
            sturdy += 1
        checked += 1
    assert checked > 300 and sturdy > 20
