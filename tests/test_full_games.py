"""Whole games between random players, checked after every action (the invariants of the game).

After each action: the engine's own invariant check, plus an independent one through the public
API: every held region has ≥ 1 token (rule 1.10), tokens are conserved per race (box +
hand + map == the race's box size, rule 1.1), coins are never negative, at most one declined race
per player (rule 1.12; no race or power exempt from the limit exists in these rules), and Lost
Tribes only ever sit where the board put them (rule 1.2). At the end: one turn per player per space
of the turn track (rule 1.3), coins add up from the log (rule 1.5, rule 1.11), the winners follow
rule 1.14, and undoing every action restores the initial position exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import smallworld_rules as sw
from smallworld_rules import events as ev
from smallworld_rules.bots import RandomBot, play_game
from smallworld_rules.state import state_to_dict

STARTING_COINS = 5  # Rule 1.2


def declined_limit(rules: sw.Rules) -> int:
    """Rule 1.12: one declined race per player, one more if some rule is exempt from the limit."""
    exempt = any(
        "exempt_from_decline_limit" in d.flags
        for table in (rules.races, rules.powers, rules.expansions)
        for d in table.values()
    )
    return 2 if exempt else 1


class Checker:
    """Checks one game's position after every action."""

    def __init__(self, game: sw.Game) -> None:
        self.game = game
        self.rules = game.rules
        self.limit = declined_limit(self.rules)
        self.tribe_regions = {r.id for r in game.map.regions if r.lost_tribe}
        self.water_ok = any(  # Rule 1.7: only a race that may enter water ever holds a Sea or Lake
            "enter_water" in d.flags for t in (self.rules.races, self.rules.powers)
            for d in t.values()
        )
        self.actions: list[sw.Action] = []
        self.check()

    def __call__(self, game: sw.Game, action: sw.Action) -> None:
        assert game is self.game
        self.actions.append(action)
        self.check()
        if len(self.actions) % 40 == 0:  # to_json round-trips at any point
            text = game.to_json()
            assert sw.Game.from_json(text, rules=self.rules).to_json() == text

    def check(self) -> None:
        game = self.game
        game._engine.check_invariants(game._state)
        state: dict[str, Any] = state_to_dict(game._state)
        on_map: dict[str, int] = {}
        for r in range(len(game.map.regions)):
            view = game.region(r)
            if view.owner is not None or view.lost_tribe:
                assert view.tokens >= 1, f"region {r} is held without a token"
            if view.tokens == 0:
                assert view.owner is None and view.race is None and not view.lost_tribe
            if view.lost_tribe:
                assert r in self.tribe_regions and view.tokens == 1
            if view.race is not None:
                assert view.race in state["races"]
                assert view.owner == state["races"][view.race]["owner"]
                assert view.declined == state["races"][view.race]["declined"]
                on_map[view.race] = on_map.get(view.race, 0) + view.tokens
            if not self.water_ok:
                assert view.terrain not in ("sea", "lake") or view.owner is None
        for race, rule in self.rules.races.items():
            in_play = state["races"].get(race, {})
            off_map = in_play.get("hand", 0) + in_play.get("held", 0)
            total = state["box"][race] + off_map + on_map.get(race, 0)
            assert total == rule.box, f"{race}: {total} tokens, the box has {rule.box}"
            assert state["box"][race] >= 0
        for p in range(game.players):
            assert game.coins(p) >= 0
            assert len(game.declined_races(p)) <= self.limit
            active = game.active_race(p)
            assert active is None or active not in game.declined_races(p)
        market = game.market
        assert len(market) <= 6 and len({r for r, _, _ in market}) == len(market)
        assert len({p for _, p, _ in market}) == len(market)
        assert not {r for r, _, _ in market} & set(state["races"])  # Rule 1.13: a banner is
        # either in the market, in the stack or in play
        assert all(c >= 0 for _, _, c in market)
        assert 1 <= game.round <= game.map.turns
        if game.is_over:
            assert game.to_move is None and len(game.legal_actions()) == 0
        else:
            assert game.to_move is not None and len(game.legal_actions()) > 0


def check_finished(game: sw.Game) -> None:
    """The end of a game: turn count (rule 1.3), coin accounting (rule 1.5, rule 1.11), winners
    (rule 1.14)."""
    assert game.is_over
    log = game.log
    turns = game.players * game.map.turns
    assert sum(isinstance(e, ev.TurnEnded) for e in log) == turns
    assert sum(isinstance(e, ev.TurnStarted) for e in log) == turns
    ended = [e.player for e in log if isinstance(e, ev.TurnEnded)]
    assert ended == [i % game.players for i in range(turns)]  # clockwise, player 0 first
    assert sum(isinstance(e, ev.GameOver) for e in log) == 1 and isinstance(log[-1], ev.GameOver)
    for p in range(game.players):
        scored = sum(e.coins for e in log if isinstance(e, ev.Scored) and e.player == p)
        picks = [e for e in log if isinstance(e, ev.ComboPicked) and e.player == p]
        paid = sum(e.paid for e in picks)
        collected = sum(e.collected for e in picks)
        assert game.coins(p) == STARTING_COINS + scored - paid + collected
    coins = [game.coins(p) for p in range(game.players)]
    leaders = [p for p in range(game.players) if coins[p] == max(coins)]
    on_map = {p: game.tokens_on_map(p) for p in leaders}
    expected = [p for p in leaders if len(leaders) == 1 or on_map[p] == max(on_map.values())]
    assert game.winners == expected
    assert log[-1] == ev.GameOver(tuple(expected), tuple(coins))


def undo_to_start(game: sw.Game, initial: str, actions: int) -> None:
    """Undo restores the exact previous state, all the way back to ``Game.new``."""
    undone = 0
    while True:
        try:
            game.undo()
        except sw.RulesError:
            break
        undone += 1
    assert undone == actions
    assert game.to_json() == initial


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("which", ["official", "with_test_rules"])
def test_random_game_to_the_end(rules: sw.Rules, players: int, which: str) -> None:
    """The invariants hold after every action of a seeded random game on the official map for
    2–5 players; the game ends after players × turns turns; undo leads back to the start."""
    game_rules = sw.load_rules() if which == "official" else rules
    game = sw.Game.new(players=players, seed=100 + players, rules=game_rules)
    initial = game.to_json()
    checker = Checker(game)
    play_game(game, [RandomBot(players * 10 + p) for p in range(players)], on_action=checker)
    check_finished(game)
    conquests = [e for e in game.log if isinstance(e, ev.Conquered)]
    assert conquests, "random players conquer something in a whole game"
    undo_to_start(game, initial, len(checker.actions))


def test_explicit_chance_game_to_the_end(rules: sw.Rules) -> None:
    """Chance="explicit": every die roll is a chance node answered with a face drawn from
    ``chance_outcomes()``; the game runs to the end, each roll logged once."""
    rng = random.Random(7)
    rolls = 0
    for seed in range(3):
        game = sw.Game.new(players=3, seed=seed, rules=rules, chance="explicit")
        initial = game.to_json()
        checker = Checker(game)
        while not game.is_over:
            if game.to_move == sw.CHANCE:
                outcomes = game.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert set(game.legal_actions()) == {a for a, _ in outcomes}
                action: sw.Action = rng.choices(
                    [a for a, _ in outcomes], weights=[p for _, p in outcomes]
                )[0]
                rolls += 1
            else:
                action = rng.choice(list(game.legal_actions()))
            game.apply(action)
            checker(game, action)
        check_finished(game)
        die = [e for e in game.log if isinstance(e, ev.DieRolled)]
        assert len(die) == sum(isinstance(a, sw.RollDie) for a in checker.actions)
        undo_to_start(game, initial, len(checker.actions))
    assert rolls > 0, "random players attempt the final die roll now and then"


def test_game_played_through_json_saves(rules: sw.Rules) -> None:
    """Saving and restoring after every turn changes nothing: the game reaches the same
    end as one played in one go."""
    straight = sw.Game.new(players=4, seed=33, rules=rules)
    play_game(straight, [RandomBot(p) for p in range(4)])
    bots = [RandomBot(p) for p in range(4)]
    game = sw.Game.new(players=4, seed=33, rules=rules)
    while not game.is_over:
        mover = game.to_move
        assert mover is not None and mover != sw.CHANCE
        game.apply(bots[mover].choose(game))
        if isinstance(game.log[-1], ev.TurnStarted):
            game = sw.Game.from_json(game.to_json(), rules=rules)
    assert game.to_json() == straight.to_json()
    doc = json.loads(game.to_json())
    assert doc["state"]["phase"] == "over"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), bot_seed=st.integers(0, 999))
def test_invariants_hypothesis(rules: sw.Rules, players: int, seed: int, bot_seed: int) -> None:
    """Random full games over the loaded races × powers × 2–5 players keep
    every invariant after every action and end correctly."""
    game = sw.Game.new(players=players, seed=seed, rules=rules)
    checker = Checker(game)
    play_game(game, [RandomBot(bot_seed + p) for p in range(players)], on_action=checker,
              chance_seed=bot_seed)
    check_finished(game)
