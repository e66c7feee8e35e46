"""The engine's look-up caches give the answers they stand for.

* ``Engine.regions_of`` / ``mask_of`` come from the occupants' masks the state keeps
  (``State.occupy``) and the regions kept per mask (``Engine._occupied``): compared with a
  direct scan on every position of seeded games, for every race (in play or not), and after
  the occupants of a state change.
* ``Engine._combo_of`` looks a race with its own badge up by (race, badge): compared with
  ``_combo(race, _powers(...))`` on the same positions.
* ``Engine.immune_mask`` reuses its last answer while the piece tables are equal: compared
  with a direct scan on the same positions, and after a piece is placed.
* ``Engine.shared``: games with the same rules, map, player count, options and chance mode
  share one engine, any difference gives another, and a game played on a shared engine is
  the game a fresh engine plays.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import random_moves_until_round, random_positions

import smallworld_rules as sw
from smallworld_rules.engine import Engine
from smallworld_rules.state import LOST_TRIBE, State

TEST_RULES = Path(__file__).parent / "rules"


def direct_regions(s: State, race: str) -> tuple[int, ...]:
    return tuple(r for r, occupant in enumerate(s.region_race) if occupant == race)


@pytest.mark.parametrize(
    ("paths", "expansions", "players"),
    [((), (), (2, 3, 4)), ((TEST_RULES,), (), (2, 4)), ((), ("necromancer_island",), (3, 5))],
)
def test_cached_lookups_match_a_direct_computation(
    paths: tuple[Path, ...], expansions: tuple[str, ...], players: tuple[int, ...]
) -> None:
    rules = sw.load_rules(paths=list(paths), expansions=list(expansions))
    games = random_positions(rules, 6, players)
    rng = random.Random(0)
    rng.shuffle(games)  # positions of different games in turn: the cache must follow
    for game in games:
        engine, s = game._engine, game._state
        for race in [*engine.race_defs, LOST_TRIBE]:
            want = direct_regions(s, race)
            assert engine.regions_of(s, race) == want
            assert engine.mask_of(s, race) == sum(1 << r for r in want)
            combo = engine._combo(race, engine._powers(s, race))
            assert engine._combo_of(s, race) is combo
        assert engine.immune_mask(s) == direct_immune(engine, s)
    assert len(games) > 300


def direct_immune(engine: Engine, s: State) -> int:
    mask = 0
    for r, held in s.pieces.items():
        if any(count and engine.rules.pieces[name].immune for name, count in held.items()):
            mask |= 1 << r
    return mask


def test_the_immune_mask_follows_the_pieces() -> None:
    """Immune pieces put on and taken off regions, states visited out of order: the kept
    answer is never stale (random games seldom place immune pieces)."""
    rules = sw.load_rules()
    immune = sorted(name for name, piece in rules.pieces.items() if piece.immune)
    game = sw.Game.new(players=2, seed=4, rules=rules)
    engine = game._engine
    assert immune and engine.immune_mask(game._state) == 0
    rng = random.Random(4)
    race = sorted(rules.races)[0]
    states = [game._state]
    for _ in range(12):
        region = rng.randrange(engine.n)
        if (engine.map.water_mask >> region) & 1:
            continue
        piece = immune[rng.randrange(len(immune))]
        if game._state.piece_supply[piece]:
            game.put(region, player=0, tokens=1, pieces={piece: 1}, race=race)
        else:
            game.clear(region)
        states.append(game._state)
        assert engine.immune_mask(game._state) == direct_immune(engine, game._state)
    assert any(direct_immune(engine, s) for s in states)
    rng.shuffle(states)
    for s in states:
        assert engine.immune_mask(s) == direct_immune(engine, s)


def test_games_alike_share_an_engine_and_play_as_on_a_fresh_one() -> None:
    rules = sw.load_rules()
    a = sw.Game.new(players=3, seed=1, rules=rules)
    assert sw.Game.new(players=3, seed=2, rules=rules)._engine is a._engine
    assert sw.Game.from_json(a.to_json(), rules=rules)._engine is a._engine
    different = [
        sw.Game.new(players=4, seed=1, rules=rules),
        sw.Game.new(players=3, seed=1, rules=sw.load_rules(paths=[TEST_RULES])),
        sw.Game.new(players=3, seed=1, rules=rules, chance="explicit"),
        sw.Game.new(players=3, seed=1, rules=rules, options={"abandon_mid_conquest": True}),
        sw.Game.new(players=3, seed=1, rules=rules, map="4p"),
    ]
    assert all(game._engine is not a._engine for game in different)
    # The same seeded game on the shared engine and on a fresh one: identical, move by move.
    fresh = sw.Game(
        Engine(rules, a._engine.map, 3, a._engine.options, False), a._state, 1, list(a.log)
    )
    rng = random.Random(1)
    while not a.is_over:
        options = list(a.legal_actions())
        assert options == list(fresh.legal_actions())
        action = options[rng.randrange(len(options))]
        a.apply(action)
        fresh.apply(action)
        assert a.to_json() == fresh.to_json()


def test_changed_occupants_are_seen() -> None:
    rules = sw.load_rules()
    game = sw.Game.new(players=2, seed=3, rules=rules)
    random_moves_until_round(game, 3, seed=3)
    engine = game._engine
    s = game._state.fork()
    race = next(iter(s.races))
    before = engine.regions_of(s, race)
    free = next(r for r in range(engine.n) if s.region_race[r] is None)
    s.occupy(free, race, 1)  # as the engine does during an action
    assert engine.regions_of(s, race) == tuple(sorted((*before, free)))
    assert engine.mask_of(s, race) == sum(1 << r for r in (*before, free))
    s.occupy(free, None, 0)  # equal occupants again, in another tuple: the answer is reused
    assert engine.regions_of(s, race) == before
    s.region_race = tuple(s.region_race)
    assert engine.regions_of(s, race) == before
    # the state kept by the game was not touched, and its answer is unchanged
    assert engine.regions_of(game._state, race) == before


def test_only_the_engines_own_action_instances_skip_the_field_checks() -> None:
    """``Engine.apply`` skips ``action_problem`` for the shared instances legal_actions hands
    out; an equal-looking action made elsewhere is still checked (``True == 1``)."""
    game = sw.Game.new(players=2, seed=0)
    game.apply(sw.PickCombo(0))
    legal = list(game.legal_actions())
    conquest = next(a for a in legal if isinstance(a, sw.Conquer))
    assert conquest == sw.Conquer(conquest.region)
    for bad in (sw.Conquer(True), sw.Deploy(0, True), sw.Conquer(float(conquest.region))):  # type: ignore[arg-type]
        with pytest.raises(sw.IllegalAction, match="must be an integer"):
            game.apply(bad)
    game.apply(conquest)


def test_conquests_reuse_the_costs_of_legal_actions_and_nothing_else() -> None:
    """``Engine._attempt`` takes a conquest's cost from the costs ``legal_actions`` worked out
    for the very same position (``State.reach_costs``): applying every listed conquest with
    and without them gives the same game, and a position edited after ``legal_actions``
    (``Game.put``) does not keep them."""
    rules = sw.load_rules()
    checked = 0
    for seed in range(6):
        game = sw.Game.new(players=2 + seed % 2, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            if game._state.reach_costs is not None:
                for action in options:
                    if isinstance(action, sw.Conquer | sw.ConquerWithDie):
                        fast, slow = game.clone(), game.clone()
                        slow._state = slow._state.copy()  # no costs kept: the full checks
                        assert slow._state.reach_costs is None
                        fast.apply(action)
                        slow.apply(action)
                        assert fast.to_json() == slow.to_json()
                        checked += 1
            game.apply(options[rng.randrange(len(options))])
            assert game._state.reach_costs is None  # an applied action's fork keeps none
    assert checked > 200

    game = sw.Game.new(players=2, seed=5, rules=rules, combos=[("ratmen", "commando")])
    game.apply(sw.PickCombo(0))
    conquest = next(a for a in game.legal_actions() if isinstance(a, sw.Conquer))
    assert game._state.reach_costs is not None
    before = game.explain_conquest_cost(conquest.region).value
    game.put(conquest.region, None, 6)  # six Lost Tribe tokens there now
    cost = game.explain_conquest_cost(conquest.region).value
    assert cost > before
    game.apply(conquest)
    conquered = [e for e in game.log if isinstance(e, sw.events.Conquered)]
    assert conquered[-1].cost == cost and conquered[-1].lost == 6
