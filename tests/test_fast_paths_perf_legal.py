"""The fast paths of the conquest and redeployment listings give what the general code gives.

Each test compares a shortcut with the general path on the positions of seeded random games,
with the official rules, every folder of test rule files and every expansion.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest
from helpers import random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.engine.conquest import fixed_modifiers
from smallworld_rules.engine.core import Engine
from smallworld_rules.language import events
from smallworld_rules.state import Phase, State, state_to_dict

RULE_SETS = rule_sets()


def _costs_are_the_breakdowns(engine: Engine, state: State) -> int:
    """Compare, for every race in play, the costs the listing uses with the breakdowns."""
    for race in state.races:
        costs = engine.conquest_costs(state, race, engine.map.all_mask)
        expected = {r: engine.conquest_cost(state, race, r).value for r in range(engine.n)}
        assert list(costs.items()) == list(expected.items())
    return len(state.races)


@RULE_SETS
def test_conquest_costs_are_the_breakdowns(how: dict[str, object]) -> None:
    """Rule 1.7: a region costs 2 tokens, plus 1 per token on it, plus 1 for a Mountain and
    its pieces' defence, changed by the races' modifiers. The costs the listing uses (bare
    numbers, each modifier worked out once for all regions) are, region by region and in
    region order, the value of the cost's full breakdown, for every race in play on every
    conquest position of seeded games."""
    rules, players = rules_and_players(how)
    checked = 0
    engines = {}
    for game in random_positions(rules, 10, players):
        engines[id(game._engine)] = game._engine
        if game._state.phase is Phase.CONQUEST:
            checked += _costs_are_the_breakdowns(game._engine, game._state)
    assert checked > 200
    if not how:  # some pairing with the Tritons, Commando, Mounted or Underworld took it
        kept = [t for e in engines.values() for mods, t, _ in e._fixed_costs.values() if mods]
        assert any(table is not None for table in kept)


@pytest.mark.parametrize("box", sw.available_expansions())
def test_conquest_costs_are_the_breakdowns_with_each_box_alone(box: str) -> None:
    """As above with each expansion loaded alone: a region immune to powers is costed
    without the conqueror's modifiers, and a discount lowers its cost, also in a game
    where no rule file modifies a defence (which once took a shorter way that missed
    both)."""
    rules = sw.load_rules(expansions=[box])
    checked = 0
    for game in random_positions(rules, 4, (3, 4, 5)):
        if game._state.phase is Phase.CONQUEST:
            checked += _costs_are_the_breakdowns(game._engine, game._state)
    assert checked > 50


def test_fixed_modifiers_are_those_that_read_only_the_map() -> None:
    """A modifier's regions and amount are worked out once per game only when its rule file
    writes a number and a condition on the map alone: the official conquest cost modifiers
    on terrain, features, coastal regions or none are; the Giants' (next to a Mountain the
    race holds, which a conquest changes) is not, nor is any modifier of a rule file given
    without its parsed source."""
    rules = sw.load_rules()
    every = [*rules.races.values(), *rules.powers.values()]
    fixed = fixed_modifiers(every)
    found = {d.id: id(m) in fixed for d in every for m in d.modifiers["conquest_cost"]}
    assert found == {
        "giants": False, "tritons": True, "commando": True, "mounted": True, "underworld": True
    }
    assert not fixed_modifiers([attrs.evolve(d, ast=None) for d in every])


def _accepted(engine: Engine, state: State, action: sw.Action) -> bool:
    """Whether ``apply`` carries the action out on a copy of the state, working every check
    and cost out itself (not from the costs a listing left on the state)."""
    trial = state.copy()
    trial.reach_costs = None
    try:
        engine.apply(trial, action, lambda event: None)
    except sw.IllegalAction:
        return False
    return True


@RULE_SETS
def test_listed_conquests_are_those_apply_accepts(how: dict[str, object]) -> None:
    """Rules 1.7 and 1.9, rulings 4 and 5: a race conquers a region it may reach with the
    tokens it costs, or, with fewer (at most 3 short), makes its final die attempt there.
    The conquest phase's legal actions list, in region order, exactly the Conquer and
    ConquerWithDie actions that ``apply`` accepts when it checks and costs them itself,
    on every conquest position of seeded games."""
    rules, players = rules_and_players(how)
    checked = with_die = 0
    games = 4 if how else 6
    for game in random_positions(rules, games, players):
        engine, state = game._engine, game._state
        if state.phase is not Phase.CONQUEST or state.acting is None:
            continue
        listed = [
            a for a in engine.legal_actions(state) if isinstance(a, sw.Conquer | sw.ConquerWithDie)
        ]
        expected = [
            action
            for r in range(engine.n)
            for action in (sw.Conquer(r), sw.ConquerWithDie(r))
            if _accepted(engine, state, action)
        ]
        assert listed == expected
        checked += len(listed)
        with_die += sum(isinstance(a, sw.ConquerWithDie) for a in listed)
    assert checked > 100
    assert with_die > 5


@RULE_SETS
def test_reach_is_what_barred_allows(how: dict[str, object]) -> None:
    """Rule 1.7: a race attacks regions next to its own, except where nobody may (water
    without the flag, immune regions, regions under a truce, covered ones …). For every
    race in play on every position of seeded games, no region of its reach is barred, and
    every region next to its own that is left out of it is (the reach leaves the immune and
    truce masks out only when some piece or truce is there)."""
    rules, players = rules_and_players(how)
    checked = left_out = 0
    for game in random_positions(rules, 6, players):
        engine, state = game._engine, game._state
        for race in state.races:
            reach = engine.reach_mask(state, race)
            _, own, bordering, _ = engine._occupied(state, race)
            for r in range(engine.n):
                if (reach >> r) & 1:
                    assert engine.barred(state, race, r) is None
                    checked += 1
                elif own and ((bordering & ~own) >> r) & 1:
                    assert engine.barred(state, race, r) is not None
                    left_out += 1
    assert checked > 1000
    assert left_out > 100


def _conquered_the_general_way(
    engine: Engine, s: State, action: sw.Conquer, log: Callable[[object], None]
) -> None:
    """Conquer as the engine's general pieces carry it out: each check, the cost from its
    breakdown, then _take_region."""
    engine._need_phase(s, action, Phase.CONQUEST)
    rs = engine._acting_race(s, action)
    problem = engine.target_problem(s, rs.race, action.region)
    assert problem is None
    cost = engine.conquest_cost(s, rs.race, action.region).value
    assert cost <= rs.hand
    s.die_bonus = -1
    engine._take_region(s, rs, action.region, cost, cost, log)


@RULE_SETS
def test_conquer_is_what_the_general_pieces_do(how: dict[str, object]) -> None:
    """Rules 1.7 and 1.8: a conquest moves the tokens it costs from hand into the region;
    its defender loses one token for good and takes the rest back into hand. Conquer (which
    reuses the listing's costs and makes its checks and region-taking inline) leaves the
    same state and logs the same events as the checks, the breakdown's cost and
    ``_take_region`` one after the other, for every listed Conquer of the conquest
    positions of seeded games."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 4 if how else 8, players):
        engine, state = game._engine, game._state
        if state.phase is not Phase.CONQUEST:
            continue
        for action in engine.legal_actions(state):
            if not isinstance(action, sw.Conquer):
                continue
            fast, general = state.fork(), state.copy()
            fast_log: list[object] = []
            general_log: list[object] = []
            engine.apply(fast, action, fast_log.append)
            _conquered_the_general_way(engine, general, action, general_log.append)
            if general.lang:
                events.after_action(engine, general, general_log.append)
            assert state_to_dict(fast) == state_to_dict(general)
            assert fast_log == general_log
            checked += 1
    assert checked > 100


@RULE_SETS
def test_pairings_kept_by_badge_are_those_combo_of_gives(how: dict[str, object]) -> None:
    """A race plays with the rule files of its race and its badge. The listing looks the
    acting race's pairing up where _combo_of keeps a race in play's (by badge, then race)
    and asks _combo_of only when it is not there: on every position of seeded games, every
    pairing kept there for a race in play is the one _combo_of gives it now."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 6, players):
        engine, state = game._engine, game._state
        for race, rs in state.races.items():
            kept = engine._badge_combos.get(rs.power, {}).get(race)
            if kept is not None:
                assert kept is engine._combo_of(state, race)
                checked += 1
    assert checked > 500


@RULE_SETS
def test_regions_kept_by_mask_are_the_races_regions(how: dict[str, object]) -> None:
    """A race's regions are those holding its tokens, and it attacks those bordering them.
    The listing reads them where _occupied keeps them by the race's mask: on every position
    of seeded games, for every race in play, the entry kept for its mask holds its regions
    in id order, that mask and the regions bordering them, worked out from the map."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 6, players):
        engine, state = game._engine, game._state
        for race in state.races:
            mask = state.race_masks.get(race, 0)
            kept = engine._by_mask.get(mask)
            if kept is None:
                continue
            regions = tuple(r for r in range(engine.n) if state.region_race[r] == race)
            bordering = 0
            for r in regions:
                bordering |= engine.map.adjacency[r]
            assert kept == (regions, mask, bordering, bordering & ~(mask | engine.map.water_mask))
            checked += 1
    assert checked > 500


@RULE_SETS
def test_listed_deploys_are_what_apply_accepts(how: dict[str, object]) -> None:
    """Rule 1.10: a race places the tokens in its hand, and in the conquest phase ending
    its conquests also lifts every token beyond one per region back into hand first (less
    those it must hold back). The conquest and redeploy listings give Deploy 1 and Deploy
    of every such token on each region, and that number is the most ``apply`` accepts,
    on every such position of seeded games (races with a region limit or no redeployment
    aside: they have deploys of their own)."""
    from smallworld_rules.language import flow, limits

    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 4 if how else 8, players):
        engine, state = game._engine, game._state
        if state.phase not in (Phase.CONQUEST, Phase.REDEPLOY) or state.acting is None:
            continue
        rs = state.races[state.acting]
        race = rs.race
        if (
            limits.cap(engine, state, race)
            or engine.has_flag(state, race, "no_redeployment")
            or (state.lang and flow.choosing(state) == race)
        ):
            continue
        own = engine.regions_of(state, race)
        if not own:
            continue
        available = 0
        while _accepted(engine, state, sw.Deploy(own[0], available + 1)):
            available += 1
        counts = () if available < 1 else (1,) if available == 1 else (1, available)
        expected = [sw.Deploy(r, k) for r in own for k in counts]
        assert [a for a in engine.legal_actions(state) if isinstance(a, sw.Deploy)] == expected
        checked += len(expected)
    assert checked > 300
