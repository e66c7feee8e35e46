"""Random games with every expansion loaded: each new race and power of the expansion boxes
paired with every official one (and with each other), as the official 14 × 20 matrix does.

Player 0 picks the pair from the top of the market; every later action is uniform among the
legal ones (seeded). After every action the invariants hold (each held region has a token,
every race's tokens add up to its box, no negative coins); every 5th step each
listed action applies to a clone. Necromancer Island needs 3 to 6 players, so it is played
with the boxes in a few whole games of its own, saved and loaded again along the way (a load
checks every invariant of the state, zones included).
"""

from __future__ import annotations

import random

import pytest
from helpers import play_pair_at_random

import smallworld_rules as sw
from smallworld_rules.rules import available_expansions

BASE = sw.load_rules()
BOXES = [e for e in available_expansions() if e != "necromancer_island"]
RULES = sw.load_rules(expansions=BOXES)
EVERYTHING = sw.load_rules(expansions=available_expansions())
NEW_RACES = sorted(set(RULES.races) - set(BASE.races))
NEW_POWERS = sorted(set(RULES.powers) - set(BASE.powers))
PAIRS = [(race, power) for race in NEW_RACES for power in sorted(RULES.powers)] + [
    (race, power) for race in sorted(BASE.races) for power in NEW_POWERS
]
MAX_ACTIONS = 5000


def test_the_expansion_matrix_is_complete() -> None:
    """Every new race meets every power, every new power every official race: 11 × 34 + 14 × 14
    pairs with the boxes written so far."""
    assert (len(NEW_RACES), len(NEW_POWERS)) == (11, 14)
    assert len(set(PAIRS)) == len(NEW_RACES) * len(RULES.powers) + 14 * len(NEW_POWERS) == 570


@pytest.mark.parametrize(("race", "power"), PAIRS, ids=[f"{race}-{power}" for race, power in PAIRS])
def test_expansion_pair_plays_a_random_full_game(race: str, power: str) -> None:
    """The pair plays a whole seeded random 2-player game with every box loaded; the
    invariants hold after every action and the game ends with winners."""
    play_pair_at_random(RULES, race, power, seed=1000 + PAIRS.index((race, power)))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_expansion_together_plays_random_games(players: int) -> None:
    """Necromancer Island and every box together: seeded random games end; every 25th step the
    game is saved and loaded again (the load re-checks the whole state) and goes on equal."""
    for seed in range(2):
        game = sw.Game.new(players=players, seed=seed, rules=EVERYTHING)
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            assert step < MAX_ACTIONS, "the random game does not end"
            if game.to_move is sw.CHANCE:
                outcomes = game.chance_outcomes()
                game.apply(outcomes[rng.randrange(len(outcomes))][0])
            else:
                game.apply(rng.choice(list(game.legal_actions())))
            step += 1
            if step % 25 == 0:
                saved = game.to_json()
                game = sw.Game.from_json(saved)
                assert game.to_json() == saved
        assert game.winners
