"""The engine's look-up caches give the answers they stand for.

* ``Engine.regions_of`` / ``mask_of`` reuse the last answer per race while the occupants are
  equal to those it was computed from (``Engine._occupied``): compared with a direct scan on
  every position of seeded games, for every race (in play or not), and after the occupants
  of a state are changed in place.
* ``Engine._combo_of`` looks a race with its own badge up by (race, badge): compared with
  ``_combo(race, _powers(...))`` on the same positions.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules.state import LOST_TRIBE, State

TEST_RULES = Path(__file__).parent / "rules"


def direct_regions(s: State, race: str) -> tuple[int, ...]:
    return tuple(r for r, occupant in enumerate(s.region_race) if occupant == race)


def positions(rules: sw.Rules, games: int, players: tuple[int, ...]) -> list[sw.Game]:
    out = []
    for seed in range(games):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            out.append(game.clone())
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    return out


@pytest.mark.parametrize(
    ("paths", "expansions", "players"),
    [((), (), (2, 3, 4)), ((TEST_RULES,), (), (2, 4)), ((), ("necromancer_island",), (3, 5))],
)
def test_cached_lookups_match_a_direct_computation(
    paths: tuple[Path, ...], expansions: tuple[str, ...], players: tuple[int, ...]
) -> None:
    rules = sw.load_rules(paths=list(paths), expansions=list(expansions))
    games = positions(rules, 6, players)
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
    assert len(games) > 300


def test_occupants_changed_in_place_are_seen() -> None:
    rules = sw.load_rules()
    game = sw.Game.new(players=2, seed=3, rules=rules)
    rng = random.Random(3)
    while game.round < 3:
        options = list(game.legal_actions())
        game.apply(options[rng.randrange(len(options))])
    engine = game._engine
    s = game._state.fork()
    race = next(iter(s.races))
    before = engine.regions_of(s, race)
    free = next(r for r in range(engine.n) if s.region_race[r] is None)
    s.region_race[free] = race  # in place, as the engine does during an action
    assert engine.regions_of(s, race) == tuple(sorted((*before, free)))
    assert engine.mask_of(s, race) == sum(1 << r for r in (*before, free))
    s.region_race[free] = None
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
