"""Cursed! (expansions/cursed/): Marauding, two rounds of conquests in a turn.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4
(edge); 1-2, 2-3 and 3-4 border one another.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end

import smallworld_rules as sw
from smallworld_rules.events import RaceActs

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    """The official rules, the Cursed! box and the test-only rule files."""
    return sw.load_rules(expansions=["cursed"], paths=[TEST_RULES])


def marauding(rules: sw.Rules) -> sw.Game:
    """Player 0's Ratmen (8 tokens) with Marauding (5): 13 tokens in hand; player 1 plays
    the test-only Crowd."""
    game = sw.Game.new(players=2, seed=1, rules=rules,
                       combos=[("ratmen", "marauding"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_marauding_badge(box: sw.Rules) -> None:
    """Marauding: the badge gives 5 tokens."""
    assert box.powers["marauding"].tokens == 5


def test_marauding_conquers_a_second_round(box: sw.Rules) -> None:
    """Marauding: after a first round of conquests the race conquers again in the same
    turn: ending the first round takes every token but one per region back into hand, and
    the second round conquers with them."""
    game = marauding(box)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))  # 2 + 2 of 13
    game.apply(sw.EndTurn())
    assert game.phase is sw.Phase.CONQUEST and game.to_move == 0
    assert game.hand(0) == 13 - 2 and game.log[-1] == RaceActs(0, "ratmen", 2)
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)
    game.apply(sw.Conquer(3))  # the Lost Tribe: 3
    deploy_all_and_end(game)  # the second round ends with the redeployment
    assert game.to_move == 1
    assert {game.region(r).race for r in (1, 2, 3)} == {"ratmen"}


def test_marauding_keeps_the_final_die_for_the_second_round_edge(box: sw.Rules) -> None:
    """Marauding (edge): the final reinforcement die roll ends the second round: it is not
    offered in the first, and one is refused there with the reason, the game unchanged."""
    game = marauding(box)
    for region in (1, 2, 3, 4):
        game.apply(sw.Conquer(region))  # 2 + 2 + 3 + 2: 4 left
    game.apply(sw.Conquer(9))  # 2: 2 left
    assert not [a for a in game.legal_actions() if isinstance(a, sw.ConquerWithDie)]
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="belongs to your second round"):
        game.apply(sw.ConquerWithDie(10))
    assert game.to_json() == before
    game.apply(sw.EndTurn())
    assert game.hand(0) == 2 + 6  # 1 back from regions 1, 2, 4 and 9, 2 from Swamp 3
    game.apply(sw.Conquer(5))
    game.apply(sw.Conquer(6))  # 3 + 3: 2 left, short of the 3 that Mountain 8 costs
    assert sw.ConquerWithDie(8) in game.legal_actions()


def test_marauding_works_while_active_only_edge(box: sw.Rules) -> None:
    """Marauding (edge): the badge is the active race's; it does not work in decline."""
    assert not box.powers["marauding"].works_in_decline
