"""The search bot (smallworld_rules.mcts): legal, deterministic, blind to the secrets, and
available as ``--bots mcts`` (docs/api/bots.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import smallworld_rules as sw
from smallworld_rules.bots import BOTS, GreedyBot, RandomBot, make_bot, play_game
from smallworld_rules.mcts import MCTSBot


def _mid_game(seed: int) -> sw.Game:
    """A seeded position in the conquests of round 2 with several choices."""
    game = sw.Game.new(players=2, seed=seed)
    bots = [GreedyBot(1), GreedyBot(2)]
    while not (game.round == 2 and game.phase is sw.Phase.CONQUEST
               and len(game.legal_actions()) > 3):
        mover = game.to_move
        assert mover is not None and mover >= 0
        game.apply(bots[mover].choose(game.observation(mover), list(game.legal_actions())))
    return game


def test_the_same_seed_makes_the_same_choices() -> None:
    """A seeded search bot is deterministic: the same seed and observation give the same
    action, and whole games between seeded bots repeat exactly."""
    game = _mid_game(4)
    mover = game.to_move
    legal = list(game.legal_actions())
    choices = {MCTSBot(seed=7, simulations=40).choose(game.observation(mover), legal)
               for _ in range(3)}
    assert len(choices) == 1 and choices <= set(legal)
    records = [
        play_game(sw.Game.new(players=2, seed=5), [MCTSBot(3, simulations=12), RandomBot(4)],
                  chance_seed=5).to_json()
        for _ in range(2)
    ]
    assert records[0] == records[1]


def test_the_search_does_not_see_the_secrets() -> None:
    """The bot decides from the observation alone: another player's hidden coins change
    nothing in its choice."""
    game = _mid_game(6)
    mover = game.to_move
    assert mover is not None
    other = game.clone()
    other._state = other._state.copy()
    other._state.own_player(1 - mover).coins += 25  # a secret the bot may not see
    legal = list(game.legal_actions())
    first = MCTSBot(seed=2, simulations=40).choose(game.observation(mover), legal)
    second = MCTSBot(seed=2, simulations=40).choose(other.observation(mover), legal)
    assert first == second


def test_it_plays_whole_games_with_the_expansion() -> None:
    """With Necromancer Island (a role, purchases, the Well) every choice is legal to the end."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    game = play_game(
        sw.Game.new(players=3, seed=2, rules=rules),
        [MCTSBot(1, rules, simulations=6), RandomBot(2), MCTSBot(3, simulations=6)],
        chance_seed=2,
    )
    assert game.is_over and game.winners


def test_it_beats_random_play() -> None:
    """At 40 simulations a move, the search bot wins two seeded games against the random
    bot, one in each seat."""
    for seed in range(2):
        search, other = MCTSBot(seed, simulations=40), RandomBot(seed + 100)
        seat = seed % 2
        bots = [search, other] if seat == 0 else [other, search]
        game = play_game(sw.Game.new(players=2, seed=seed), bots, chance_seed=seed)
        assert game.winners == [seat], seed


def test_it_is_a_named_bot() -> None:
    """``mcts`` is a built-in bot name, next to ``random`` and ``greedy``."""
    assert "mcts" in BOTS
    assert isinstance(make_bot("mcts", seed=1), MCTSBot)


def test_smallworld_play_with_mcts() -> None:
    """``smallworld play --bots mcts,greedy`` plays a game and names the bots."""
    done = subprocess.run(
        [sys.executable, "-m", "smallworld_rules.cli", "play", "--players", "2", "--seed",
         "3", "--bots", "mcts,greedy"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Bots: player 0 mcts, player 1 greedy" in done.stdout
    assert "Final ranking:" in done.stdout


@pytest.mark.parametrize("kwargs", [{"simulations": 0}, {"determinizations": True},
                                    {"simulations": 2.5}])
def test_bad_settings_are_refused(kwargs: dict[str, object]) -> None:
    """Simulation and determinization counts are whole numbers of at least 1."""
    with pytest.raises(sw.RulesError, match="whole number"):
        MCTSBot(**kwargs)  # type: ignore[arg-type]
