"""The full race × power matrix (issues 3 and 4): each of the 14 × 20 = 280 race/power pairs
plays a seeded random full 2-player game through ``legal_actions``/``apply``.

Player 0 picks the pair from the top of the market (the rest of the market is the seeded random
shuffle); every later action is chosen uniformly among the legal ones with
``random.Random(seed)``. After every action: each held region has ≥ 1 token (rule 1.10), tokens are
conserved per race (box + hand + held + map == the race's box maximum, rule 1.1), and coins are
never negative (rule 1.11). Every 5th step, each listed legal action is applied to a
clone and must not raise (``legal_actions`` lists only legal actions).
"""

from __future__ import annotations

import pytest
from helpers import play_pair_at_random

import smallworld_rules as sw

OFFICIAL = sw.load_rules()
RACES = sorted(OFFICIAL.races)
POWERS = sorted(OFFICIAL.powers)
PAIRS = [(race, power) for race in RACES for power in POWERS]


def test_the_matrix_is_complete() -> None:
    """Issues 3 and 4: 14 races × 20 powers = 280 pairs, each listed once."""
    assert (len(RACES), len(POWERS), len(set(PAIRS))) == (14, 20, 280)


@pytest.mark.parametrize(("race", "power"), PAIRS, ids=[f"{race}-{power}" for race, power in PAIRS])
def test_pair_plays_a_random_full_game(race: str, power: str) -> None:
    """Issues 3 and 4 (matrix): the pair plays a whole seeded random 2-player game; the
    invariants of rule 1.1, rule 1.10 and rule 1.11 hold after every action."""
    play_pair_at_random(OFFICIAL, race, power, seed=PAIRS.index((race, power)))
