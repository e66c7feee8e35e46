"""The OpenSpiel game "python_smallworld" passes OpenSpiel's own checks (docs/openspiel.md)."""

from __future__ import annotations

import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import smallworld_rules as sw  # noqa: E402
import smallworld_rules.openspiel  # noqa: E402  (registers the game)
from smallworld_rules.tensors import tensor_layout  # noqa: E402


def _load(**params: object) -> object:
    return pyspiel.load_game("python_smallworld", params)


def test_random_simulations_pass_openspiel_checks() -> None:
    """pyspiel.random_sim_test: legal actions, chance outcomes, returns, observation and
    information-state strings and tensors, serialisation and cloning all agree, on the base
    game and with Necromancer Island."""
    pyspiel.random_sim_test(_load(players=2, seed=1), num_sims=1, serialize=True, verbose=False)
    pyspiel.random_sim_test(_load(players=3, seed=2), num_sims=2, serialize=False, verbose=False)
    pyspiel.random_sim_test(
        _load(players=4, seed=3, expansions="necromancer_island"),
        num_sims=1, serialize=False, verbose=False,
    )


def test_the_game_type() -> None:
    """Sequential, imperfect information, explicit chance, terminal rewards, with strings
    and tensors for observations and information states; the parameters are honoured."""
    game = _load(players=3, seed=4)
    kind = game.get_type()
    assert kind.short_name == "python_smallworld"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.game.map_name == "3p"
    assert state.game.market == sw.Game.new(players=3, seed=4).market
    necro = _load(players=4, expansions="necromancer_island").new_initial_state()
    assert "necromancer_island" in necro.game.rules.expansions


def _to_die_roll(state: object) -> object:
    """Conquer until a die attempt is offered, then make it."""
    for _ in range(2000):
        if state.is_chance_node():
            return state
        legal = state.legal_actions()
        named = [(state.action_to_string(a), a) for a in legal]
        attempts = [a for text, a in named if text.startswith("ConquerWithDie")]
        conquests = [a for text, a in named if text.startswith("Conquer(")]
        state.apply_action((attempts or conquests or legal)[0])
    raise AssertionError("no die roll")


def test_the_die_is_an_explicit_chance_node() -> None:
    """The reinforcement die shows 0, 0, 0, 1, 2, 3: faces 0 … 3 with probabilities
    1/2, 1/6, 1/6, 1/6."""
    state = _to_die_roll(_load(players=2, seed=5).new_initial_state())
    outcomes = dict(state.chance_outcomes())
    assert outcomes == pytest.approx({0: 1 / 2, 1: 1 / 6, 2: 1 / 6, 3: 1 / 6})
    state.apply_action(3)
    assert state.history()[-1] == 3 and not state.is_chance_node()


def test_strings_and_tensors_hide_the_secrets() -> None:
    """Another player's coins are secret: changing them changes neither the observation
    nor the information state of a player, only that player's own and the perfect view."""
    game = _load(players=2, seed=6)
    state = game.new_initial_state()
    richer = state.clone()
    richer.game.set_coins(1, 40)
    assert state.observation_string(0) == richer.observation_string(0)
    assert state.information_state_string(0) == richer.information_state_string(0)
    assert state.observation_tensor(0) == richer.observation_tensor(0)
    assert state.observation_string(1) != richer.observation_string(1)
    perfect = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    from open_spiel.python.observation import make_observation

    observer = make_observation(game, perfect)
    assert observer.tensor.shape == (tensor_layout(state.game, "perfect").size,)
    observer.set_from(state, 0)
    before = observer.tensor.copy()
    observer.set_from(richer, 0)
    assert not np.array_equal(before, observer.tensor)
    assert set(observer.dict) >= {"regions", "players", "race_stack", "power_stack"}


def test_the_information_state_holds_the_history() -> None:
    """The information-state string carries the actions so far; the observation does not."""
    state = _load(players=2, seed=7).new_initial_state()
    start_info, start_obs = state.information_state_string(0), state.observation_string(0)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert '"history":[' in state.information_state_string(0)
    assert '"history"' not in state.observation_string(0)
    assert state.information_state_string(0) != start_info != start_obs


def test_states_pickle_and_serialize() -> None:
    """A state survives pickle and pyspiel's serialize/deserialize (the same position and
    history)."""
    game = _load(players=3, seed=8)
    state = game.new_initial_state()
    for _ in range(12):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    new_game, new_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(new_game) == str(game) and str(new_state) == str(state)
    assert new_state.legal_actions() == state.legal_actions()


def test_openspiel_mcts_plays_a_game() -> None:
    """OpenSpiel's MCTS bot plays a whole game as player 0 (random rollouts), and the
    returns give the winner(s) their share of 1."""
    from open_spiel.python.algorithms import mcts

    game = _load(players=2, seed=3)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=4,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1), max_length=10),
        random_state=np.random.RandomState(2),
    )
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moves > 10
    winners = state.game.winners
    assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(2)]
    assert sum(state.returns()) == pytest.approx(1.0)
