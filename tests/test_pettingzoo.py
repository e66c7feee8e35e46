"""The PettingZoo environment passes PettingZoo's own tests (docs/pettingzoo.md)."""

from __future__ import annotations

import warnings

import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")
np = pytest.importorskip("numpy")

import smallworld_rules as sw  # noqa: E402
from smallworld_rules.pettingzoo import env  # noqa: E402


def test_api_test_passes() -> None:
    """pettingzoo.test.api_test: spaces, last(), rewards, terminations, agent removal, on
    the base game and with Necromancer Island."""
    with warnings.catch_warnings():
        # PettingZoo warns about every dict observation of an environment it does not know;
        # the dict of "observation" and "action_mask" is the documented action-mask form.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        pettingzoo_test.api_test(env(players=2), num_cycles=1000)
        pettingzoo_test.api_test(env(players=3, expansions=["necromancer_island"]),
                                 num_cycles=1000)


def test_seed_test_passes() -> None:
    """pettingzoo.test.seed_test: two environments reset with the same seed play the same."""
    pettingzoo_test.seed_test(lambda: env(players=3), num_cycles=500)


def test_a_whole_game_with_masked_random_actions() -> None:
    """Masked random play reaches the end; the masks are the game's legal actions; the
    rewards are the winners' shares of 1, given once at the end."""
    environment = env(players=2)
    environment.reset(seed=9)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(environment.possible_agents, 0.0)
    steps = 0
    for agent in environment.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, _ = environment.last()
        total[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.tolist() == environment.game.legal_mask()
        assert environment.game.to_move == environment.possible_agents.index(agent)
        environment.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    game = environment.game
    assert game.is_over and not environment.agents and steps > 50
    assert total == {
        f"player_{p}": (1 / len(game.winners) if p in game.winners else 0.0) for p in range(2)
    }


def test_other_agents_mask_is_empty_and_their_view_has_no_secrets() -> None:
    """Only the agent to move has legal actions; an agent's observation does not change when
    another player's hidden coins do."""
    environment = env(players=2)
    environment.reset(seed=3)
    other = environment.possible_agents[1]
    assert environment.observe(other)["action_mask"].sum() == 0
    before = environment.observe(other)["observation"]
    environment.game.set_coins(0, 77)
    assert np.array_equal(environment.observe(other)["observation"], before)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    """An index outside the mask raises IllegalAction; the game is exactly as it was."""
    environment = env(players=2)
    environment.reset(seed=4)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = environment.game.to_json()
    with pytest.raises(sw.IllegalAction):
        environment.step(illegal)
    assert environment.game.to_json() == before


def test_reset_without_a_seed_is_reproducible() -> None:
    """reset() without a seed plays a sequence of seeds drawn from the constructor's seed."""
    first, second = env(players=2, seed=5), env(players=2, seed=5)
    markets = []
    for environment in (first, second):
        environment.reset()
        one = environment.game.market
        environment.reset()
        markets.append((one, environment.game.market))
    assert markets[0] == markets[1] and markets[0][0] != markets[0][1]
