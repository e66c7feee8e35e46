"""Royal Bonus (expansions/royal_bonus/): the Fauns, whose number and rule the printed banner
and the published descriptions settled.

Fauns (5, 18 in the box): at the end of their conquests, 1 new Faun for each region taken
this turn from an opponent's active race; each victim takes 1 new token of his race for each
of his regions they took.

2-player map: Hill 4 (edge), Swamp 3 (edge, Lost Tribe, next to 4), Hill 9 (next to 3, 4),
Forest 2 (edge, next to 3).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import new_game, place_withdrawals

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def royal_bonus() -> sw.Rules:
    """The official rules, the Royal Bonus box and the test-only rule files."""
    return sw.load_rules(expansions=["royal_bonus"], paths=[TEST_RULES])


def total(game: sw.Game, race: str, player: int) -> int:
    on_map = sum(
        game.region(r).tokens for r in range(len(game.map.regions))
        if game.region(r).race == race
    )
    return on_map + game.hand(player)


def humans_hold_four_and_nine(rules: sw.Rules) -> sw.Game:
    """Player 0's Humans hold Hill 4 and Hill 9 with 1 token each; player 1 has just picked
    the Fauns (with 5 more tokens)."""
    game = new_game(rules, [("humans", "plain2"), ("fauns", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))
    game.apply(sw.Deploy(9, 1))
    game.apply(sw.Deploy(9, game.hand(0)))
    game.apply(sw.EndTurn())
    game.put(9, 0, 1)
    game.apply(sw.PickCombo(0))
    return game


def test_fauns_banner_and_box(royal_bonus: sw.Rules) -> None:
    """Fauns: the banner gives 5 tokens; the box holds 18."""
    race = royal_bonus.races["fauns"]
    assert (race.tokens, race.box) == (5, 18)


def test_fauns_and_their_victims_gain_a_token_per_active_region(royal_bonus: sw.Rules) -> None:
    """Fauns: 2 regions taken from the Humans' active race: 2 new Fauns at the end of the
    conquests, and the Humans take 2 new tokens, so they lose none in all."""
    game = humans_hold_four_and_nine(royal_bonus)
    humans = total(game, "humans", 0)
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))
    fauns = total(game, "fauns", 1)
    game.apply(sw.Deploy(9, 1))  # the conquests end
    assert total(game, "fauns", 1) == fauns + 2
    game.apply(sw.Deploy(9, game.hand(1)))
    game.apply(sw.EndTurn())
    place_withdrawals(game)
    # each region lost 1 Human to the box and gave 1 new one: with no region left, the two
    # wait in hand for the Humans' next turn
    assert game.hand(0) == 2 and total(game, "humans", 0) == humans


def test_fauns_gain_nothing_from_tribes_or_empty_regions_edge(royal_bonus: sw.Rules) -> None:
    """Fauns (edge): a Lost Tribe's region and an empty one bring no new Faun."""
    game = new_game(royal_bonus, [("fauns", "plain"), ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # a Lost Tribe
    game.apply(sw.Conquer(9))  # empty
    before = total(game, "fauns", 0)
    game.apply(sw.Deploy(9, 1))
    assert total(game, "fauns", 0) == before
