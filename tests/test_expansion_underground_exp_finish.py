"""Small World Underground (expansions/underground/): Vengeful, and the Mudmen and Royal
readings the rules booklet settles.

Vengeful (4): a Vengeance marker to each player who attacks any of your races; in your next
turn his regions cost you 1 token less; the markers come back at the end of your turn.

2-player map: Farmland 1 (edge), Forest 2 (edge, next to 1 and 6), Hill 6 (Lost Tribe).
"""

from __future__ import annotations

import json

import pytest
from helpers import deploy_all_and_end, new_game, place_withdrawals

import smallworld_rules as sw


def marks(game: sw.Game, race: str) -> int:
    uses: dict[str, int] = json.loads(game.to_json())["state"]["races"][race]["uses"]
    return uses.get("@marked", 0)


# --------------------------------------------------------------------------- Vengeful


def test_vengeful_badge(underground: sw.Rules) -> None:
    """Vengeful: the badge gives 4 tokens."""
    assert underground.powers["vengeful"].tokens == 4


def vengeful_attacked(rules: sw.Rules) -> sw.Game:
    """Player 0's Humans with Vengeful hold Farmland 1 and Forest 2; player 1's Crowd take
    Forest 2 from them; it is player 0's turn again."""
    game = new_game(rules, [("humans", "vengeful"), ("crowd", "plain2"), ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))  # the Crowd attack the Vengeful Humans
    deploy_all_and_end(game)
    place_withdrawals(game)
    assert game.to_move == 0
    return game


def test_vengeful_attacker_costs_one_token_less_next_turn(underground: sw.Rules) -> None:
    """Vengeful: the player who attacked your race gets a Vengeance marker; in your next
    turn his regions cost you 1 token less."""
    game = vengeful_attacked(underground)
    assert marks(game, "humans") == 1 << 1
    breakdown = game.explain_conquest_cost(2)
    assert [(c.op, c.amount) for c in breakdown.contributions][-1] == ("sub", 1)
    assert breakdown.value == 2 + game.region(2).tokens - 1
    lost_tribe = game.explain_conquest_cost(6)  # a Lost Tribe's Hill: no discount
    assert all(c.op != "sub" for c in lost_tribe.contributions)


def test_vengeful_markers_come_back_at_the_end_of_your_turn_edge(underground: sw.Rules) -> None:
    """Vengeful (edge): at the end of your turn the Vengeance markers come back: the
    attacker's regions cost you the full price in the turn after."""
    game = vengeful_attacked(underground)
    game.apply(sw.Conquer(6))
    deploy_all_and_end(game)
    assert marks(game, "humans") == 0
    deploy_all_and_end(game)  # the Crowd pass without attacking
    assert game.to_move == 0
    breakdown = game.explain_conquest_cost(2)
    assert all(c.op != "sub" for c in breakdown.contributions)


# --------------------------------------------------------------------------- Royal


def royal_dealt_again(rules: sw.Rules) -> sw.Game:
    """Player 0's Ratmen with Royal left the Queen on Hill 9 and declined; the Royal badge
    is dealt again (with the Humans, at the top of the market) and player 0 picks it."""
    game = new_game(rules, [("ratmen", "royal"), ("crowd", "plain2"), ("humans", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))
    game.apply(sw.Deploy(9, 1))
    game.apply(sw.UseAbility("place_queen", 9))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(21))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    data = json.loads(game.to_json())
    assert data["state"]["power_discard"] == ["royal"]
    data["state"]["market"][0] = ["humans", "royal", 0]  # the discarded badge comes back
    data["state"]["power_discard"] = ["bulky"]
    game = sw.Game.from_json(json.dumps(data), rules=rules)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    assert (game.active_race(0), game.region(9).pieces) == ("humans", {"queen": 1})
    return game


def test_royal_queen_stays_with_the_declined_race_when_the_badge_returns(
    underground: sw.Rules,
) -> None:
    """Royal: once the race is in decline the Queen stays where she is and moves no more:
    the Royal badge dealt again to another race of the player does not lift her at that
    race's redeployment; her region stays immune."""
    game = royal_dealt_again(underground)
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 1))  # the conquests end: the redeployment begins
    assert game.phase is sw.Phase.REDEPLOY
    assert game.region(9).pieces == {"queen": 1}


def test_royal_one_queen_none_for_the_new_holder_edge(underground: sw.Rules) -> None:
    """Royal (edge): there is one Queen; while she sits with the declined race, the new
    holder of the badge has none to place."""
    game = royal_dealt_again(underground)
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 1))
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("place_queen", 1))
    assert game.region(1).pieces == {}
