"""Be Not Afraid... (expansions/be_not_afraid/): the Barbarians, who never redeploy.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Mountain 5
(edge), Mountain 19 (edge); 1-2 and 2-3 border each other.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end

import smallworld_rules as sw
from smallworld_rules.events import Deployed

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    """The official rules, the Be Not Afraid... box and the test-only rule files."""
    return sw.load_rules(expansions=["be_not_afraid"], paths=[TEST_RULES])


def barbarians(rules: sw.Rules) -> sw.Game:
    game = sw.Game.new(players=2, seed=1, rules=rules,
                       combos=[("barbarians", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_barbarians_banner_and_box(box: sw.Rules) -> None:
    """Barbarians: the banner gives 9 tokens; the box holds 14."""
    race = box.races["barbarians"]
    assert (race.tokens, race.box) == (9, 14)
    assert barbarians(box).hand(0) == 9


def test_barbarians_never_redeploy(box: sw.Rules) -> None:
    """Barbarians: at the end of the conquests each region keeps the tokens that conquered
    it; no Deploy is offered or accepted, and the tokens left in hand stay off the map."""
    game = barbarians(box)
    game.apply(sw.Conquer(1))  # 2 tokens
    game.apply(sw.Conquer(2))  # 2 tokens
    assert not [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
    with pytest.raises(sw.IllegalAction, match="do not redeploy"):
        game.apply(sw.Deploy(1, 1))
    assert game.hand(0) == 5
    game.apply(sw.EndTurn())
    assert (game.region(1).tokens, game.region(2).tokens) == (2, 2)
    assert game.tokens_on_map(0) == 4
    assert game.coins(0) == 5 + 2


def test_barbarians_tokens_off_the_map_come_back_next_turn(box: sw.Rules) -> None:
    """Barbarians: the tokens held off the map come back into hand at the start of the next
    turn, with the troops readied from the regions (every token but one per region)."""
    game = barbarians(box)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.EndTurn())  # 5 off the map
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert game.hand(0) == 5 + 1 + 1
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)


def test_barbarians_failed_final_conquest_stays_off_the_map_edge(box: sw.Rules) -> None:
    """Barbarians (edge): after the final die roll the conquests end as they stand, the
    tokens used stay where they conquered, and the unused ones wait off the map."""
    game = sw.Game.new(players=2, seed=1, rules=box, chance="explicit",
                       combos=[("barbarians", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Conquer(5))  # a Mountain: 3 tokens, 2 left
    game.apply(sw.ConquerWithDie(3))  # a Lost Tribe: 3, one more than in hand
    game.apply(sw.RollDie(0))  # fails
    assert game.phase is sw.Phase.REDEPLOY
    assert not [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
    game.apply(sw.EndTurn())
    assert [game.region(r).tokens for r in (1, 2, 5)] == [2, 2, 3]
    assert game.region(3).race is None or game.region(3).race != "barbarians"
    assert game.hand(0) == 0 and game.tokens_on_map(0) == 7


def test_barbarians_withdrawal_still_places_survivors_edge(box: sw.Rules) -> None:
    """Barbarians (edge): losing a region in another player's turn, the survivors are placed
    on the Barbarians' other regions as for every race (a withdrawal is no redeployment)."""
    game = barbarians(box)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # the Crowd take Forest 2 (2 Barbarians there: cost 4)
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 0
    assert sw.Deploy(1, 1) in game.legal_actions()
    game.apply(sw.Deploy(1, 1))
    assert Deployed(0, "barbarians", 1, 1) in game.log
    # Player 0's next turn has begun: the 3 tokens of Farmland 1 were readied (2 into hand),
    # and the 5 held off the map came back.
    assert game.to_move == 0 and game.hand(0) == 2 + 5
