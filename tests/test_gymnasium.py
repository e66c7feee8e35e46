"""The Gymnasium environment "smallworld_rules/SmallWorld-v0" passes Gymnasium's checker
(docs/gymnasium.md)."""

from __future__ import annotations

import warnings

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import smallworld_rules as sw  # noqa: E402
from smallworld_rules.gymnasium import ENV_ID  # noqa: E402


def _make(**kwargs: object) -> object:
    return gym.make(ENV_ID, **kwargs).unwrapped


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opponents": ["random"]},
        {"players": 3, "seat": 2, "opponents": ["greedy", "random"]},
        {"players": 4, "seat": 1, "opponents": ["random"], "expansions": ["necromancer_island"]},
    ],
    ids=["2p-random", "3p-greedy-random", "4p-necromancer-island"],
)
def test_check_env_passes(kwargs: dict[str, object]) -> None:
    """gymnasium.utils.env_checker.check_env: spaces, reset seeding and determinism, step
    results, render — with no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(_make(**kwargs))


def _masked_episode(env: object, seed: int) -> tuple[float, int]:
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    reward, steps, terminated = 0.0, 0, False
    while not terminated:
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) and env.game.to_move == env.seat
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated and "illegal_action" not in info
        steps += 1
    return reward, steps


def test_a_masked_episode_ends_with_the_agents_share() -> None:
    """Masked random play reaches the end of the game; the last reward is the agent's share
    of the win (1 / number of winners, or 0), every earlier reward 0."""
    env = _make(opponents=["greedy"])
    reward, steps = _masked_episode(env, 3)
    game = env.game
    assert game.is_over and steps > 20
    assert reward == (1 / len(game.winners) if 0 in game.winners else 0.0)
    with pytest.raises(sw.RulesError, match="call reset"):
        env.step(0)


def test_the_same_seed_plays_the_same_episode() -> None:
    """reset(seed) fixes the game, the bots and the die: the same actions give the same
    episode."""
    first, second = _make(opponents=["greedy"]), _make(opponents=["greedy"])
    assert _masked_episode(first, 8) == _masked_episode(second, 8)
    assert first.game.to_json() == second.game.to_json()


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    """Illegal-action policy "penalty" (the default): an action outside the mask ends the
    episode with reward -1 and info["illegal_action"], the game as it was."""
    env = _make(opponents=["random"], illegal_penalty=-2.5)
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.game.to_json()
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.5, True, False, True)
    assert env.game.to_json() == before


def test_an_illegal_action_raises_under_the_raise_policy() -> None:
    """Illegal-action policy "raise": IllegalAction, and the episode goes on unchanged."""
    env = _make(opponents=["random"], illegal="raise")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.game.to_json()
    with pytest.raises(sw.IllegalAction):
        env.step(illegal)
    assert env.game.to_json() == before
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    env.step(legal)  # still playable


def test_the_agents_seat_and_the_bots() -> None:
    """The agent plays its seat; the bots play the others, so every observation the agent
    gets is its turn (or the end)."""
    env = _make(players=3, seat=1, opponents=["random"])
    observation, info = env.reset(seed=2)
    assert info["seat"] == 1 and env.game.to_move == 1
    assert observation["action_mask"].tolist() == env.game.legal_mask()
    assert env.game.action_stack  # player 0 (a bot) has already played its first turn


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 2}, "seat is a player"),
        ({"opponents": ["nobody"]}, "unknown bot"),
        ({"players": 3, "opponents": ["random"] * 3}, "1 or 2 bot names"),
        ({"illegal": "ignore"}, "illegal is"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    """A bad seat, bot name, bot count or policy is refused with a clear message."""
    with pytest.raises(sw.RulesError, match=message):
        _make(**kwargs)
