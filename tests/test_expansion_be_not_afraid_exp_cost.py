"""Be Not Afraid... (expansions/be_not_afraid/): Mercenary, written with the rule language's
``discount N`` effect.

Mercenary: during the conquests, 1 coin hires Mercenaries for a region the race could
conquer; conquering that region this turn then costs 2 tokens less (at least 1). Once per
region.

2-player map: Farmland 1 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge), Mountain 5
(edge), Hill 6 (Lost Tribe, not on the edge).
"""

from __future__ import annotations

import json

import pytest
from helpers import deploy_all_and_end, new_game, place_withdrawals

import smallworld_rules as sw


def mercenary(rules: sw.Rules, race: str = "ratmen") -> sw.Game:
    game = new_game(rules, [(race, "mercenary"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_mercenary_badge(be_not_afraid: sw.Rules) -> None:
    """Mercenary: the badge gives 4 tokens (Ratmen 8 + 4)."""
    assert be_not_afraid.powers["mercenary"].tokens == 4
    assert mercenary(be_not_afraid).hand(0) == 12


def test_mercenary_hire_costs_a_coin_and_two_tokens_less(be_not_afraid: sw.Rules) -> None:
    """Mercenary: paying 1 coin for a region makes its conquest cost 2 tokens less: Swamp 3
    (2 + 1 Lost Tribe) costs 1 instead of 3; the breakdown shows the discount, and the
    conquest spends it."""
    game = mercenary(be_not_afraid)
    coins = game.coins(0)
    assert game.conquest_cost(3) == 3
    game.apply(sw.UseAbility("hire", 3))
    assert game.coins(0) == coins - 1
    assert game.conquest_cost(3) == 1
    breakdown = game.explain_conquest_cost(3)
    assert [(c.label, c.op, c.amount) for c in breakdown.contributions][-1] == (
        "discount", "sub", 2
    )
    assert game.conquest_cost(4) == 2  # only the region hired for
    game.apply(sw.Conquer(3))
    assert game.hand(0) == 12 - 1
    assert "discounts" not in json.loads(game.to_json())["state"].get("lang", {})


def test_mercenary_minimum_of_one_token(be_not_afraid: sw.Rules) -> None:
    """Mercenary: a minimum of 1 token is still required: empty Hill 4 (2) costs 1, not 0,
    and the breakdown says it was clamped."""
    game = mercenary(be_not_afraid)
    game.apply(sw.UseAbility("hire", 4))
    breakdown = game.explain_conquest_cost(4)
    assert (breakdown.clamped_from, breakdown.value) == (0, 1)


def test_mercenary_once_per_region(be_not_afraid: sw.Rules) -> None:
    """Mercenary: Mercenaries are hired once per region: a second hire for the same region
    is refused and changes nothing; another region may still be hired for."""
    game = mercenary(be_not_afraid)
    game.apply(sw.UseAbility("hire", 3))
    assert sw.UseAbility("hire", 3) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("hire", 3))
    assert game.to_json() == before
    assert sw.UseAbility("hire", 4) in game.legal_actions()


def test_mercenary_needs_a_coin(be_not_afraid: sw.Rules) -> None:
    """Mercenary: a player without a coin cannot hire them (the ability costs 1 coin)."""
    game = mercenary(be_not_afraid)
    game.set_coins(0, 0)
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    with pytest.raises(sw.IllegalAction, match="costs 1 coin"):
        game.apply(sw.UseAbility("hire", 3))


def test_mercenary_only_regions_the_race_could_conquer(be_not_afraid: sw.Rules) -> None:
    """Mercenary: the hire names a region the race could conquer now: before its first
    conquest, an inland region (Hill 6) is refused."""
    game = mercenary(be_not_afraid)
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("hire", 6))


def test_mercenary_unspent_hire_lapses_with_the_turn(be_not_afraid: sw.Rules) -> None:
    """Mercenary: a hire not used this turn is lost: the region costs its full price in the
    owner's next turn; a save made while it waits loads back the same."""
    game = mercenary(be_not_afraid)
    game.apply(sw.UseAbility("hire", 4))
    saved = game.to_json()
    assert sw.Game.from_json(saved, rules=be_not_afraid).to_json() == saved
    assert sw.Game.from_json(saved, rules=be_not_afraid).conquest_cost(4) == 1
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # the other player's Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert game.to_move == 0
    assert game.conquest_cost(4) == 2


def catapult(rules: sw.Rules) -> sw.Game:
    """Player 0's Catapult Ratmen enter at Farmland 1 and place the Catapult there."""
    game = new_game(rules, [("ratmen", "catapult"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("place_catapult", 1))
    return game


def fire_targets(game: sw.Game) -> set[int | None]:
    return {
        a.target for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name == "fire_catapult"
    }


def test_catapult_badge(be_not_afraid: sw.Rules) -> None:
    """Catapult: the badge gives 4 tokens (Ratmen 8 + 4)."""
    assert be_not_afraid.powers["catapult"].tokens == 4


def test_catapult_fires_two_regions_away_at_one_token_less(be_not_afraid: sw.Rules) -> None:
    """Catapult: from Farmland 1 the Catapult reaches the regions two away (beyond its
    neighbours, never water): Swamp 3, Mountain 8, Farmland 11, Forest 12. Forest 12 (2 + 1
    Lost Tribe) is conquered for 2 tokens; once per turn."""
    game = catapult(be_not_afraid)
    assert fire_targets(game) == {3, 8, 11, 12}
    hand = game.hand(0)
    game.apply(sw.UseAbility("fire_catapult", 12))
    assert game.region(12).race == "ratmen" and game.region(12).tokens == 2
    assert game.hand(0) == hand - 2
    assert fire_targets(game) == set()
    with pytest.raises(sw.IllegalAction, match="already used this turn"):
        game.apply(sw.UseAbility("fire_catapult", 11))


def test_catapult_needs_the_tokens_in_hand(be_not_afraid: sw.Rules) -> None:
    """Catapult (edge): a shot needs its cost in hand: Miners (3 + 4 tokens) with 1 left
    cannot fire at Forest 12 (2 + 1 - 1 = 2) once all its tokens are used; the game is
    left as it was."""
    game = new_game(be_not_afraid, [("miners", "catapult"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))  # 2
    game.apply(sw.Conquer(5))  # 3: a Mountain
    game.apply(sw.Conquer(2))  # 2: none left
    assert game.hand(0) == 0
    game.apply(sw.UseAbility("place_catapult", 1))
    assert fire_targets(game) == set()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="costs 2 tokens this way and you have 0"):
        game.apply(sw.UseAbility("fire_catapult", 12))
    assert game.to_json() == before


def test_catapult_does_not_reach_its_neighbours(be_not_afraid: sw.Rules) -> None:
    """Catapult (edge): the regions next to the Catapult are no shot's target (they are
    conquered the usual way); moving the Catapult moves what it reaches."""
    game = catapult(be_not_afraid)
    assert not fire_targets(game) & {0, 2, 5, 6} and 9 not in fire_targets(game)
    other = new_game(be_not_afraid, [("ratmen", "catapult"), ("crowd", "plain2")])
    other.apply(sw.PickCombo(0))
    other.apply(sw.Conquer(1))
    other.apply(sw.Conquer(2))
    other.apply(sw.UseAbility("place_catapult", 2))  # Forest 2: Farmland 9 is two away
    assert 9 in fire_targets(other) and not fire_targets(other) & {3, 6, 8}


def test_catapult_region_is_immune(be_not_afraid: sw.Rules) -> None:
    """Catapult: the Catapult's region is immune to the opponents' conquests; it stays
    there between turns."""
    game = catapult(be_not_afraid)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # the Crowd
    game.apply(sw.Conquer(5))  # next to Farmland 1
    assert sw.Conquer(1) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(1))


def test_catapult_goes_when_the_race_declines(be_not_afraid: sw.Rules) -> None:
    """Catapult (edge): the Catapult is removed when the race goes into decline, so its
    region is no longer immune."""
    game = catapult(be_not_afraid)
    assert game.region(1).pieces == {"catapult": 1}
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert not game.region(1).pieces


def leprechauns(rules: sw.Rules) -> sw.Game:
    """Player 0's Leprechauns take Farmland 1 and Forest 2 and end their conquests."""
    game = new_game(rules, [("leprechauns", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))  # the conquests end: redeployment
    return game


def test_leprechauns_banner_and_box(be_not_afraid: sw.Rules) -> None:
    """Leprechauns: the banner gives 6 tokens; the box holds 11; 16 Pots of Gold."""
    race = be_not_afraid.races["leprechauns"]
    assert (race.tokens, race.box) == (6, 11)
    assert be_not_afraid.pieces["pot"].supply == 16


def crowd_turn(game: sw.Game, region: int | None) -> int:
    """Player 1's Crowd enters at ``region`` (if any) and ends the turn; returns player 0's
    coins just before player 0's next turn starts."""
    if sw.PickCombo(0) in game.legal_actions():
        game.apply(sw.PickCombo(0))
    if region is not None:
        game.apply(sw.Conquer(region))
    while sw.EndTurn() not in game.legal_actions():
        deploys = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
        game.apply(max(deploys, key=lambda a: a.count))
    coins = game.coins(0)
    game.apply(sw.EndTurn())
    place_withdrawals(game)  # the Leprechauns place what they kept of a lost region
    assert game.to_move == 0 and game.phase is sw.Phase.CONQUEST
    return coins


def test_leprechauns_collect_their_pots_next_turn(be_not_afraid: sw.Rules) -> None:
    """Leprechauns: Pots placed in redeployment (one a region) are 1 coin each when the
    next turn starts, and go back when its conquests end."""
    game = leprechauns(be_not_afraid)
    game.apply(sw.UseAbility("hide_pot", 1))
    game.apply(sw.UseAbility("hide_pot", 2))
    assert sw.UseAbility("hide_pot", 1) not in game.legal_actions()  # one a region
    deploy_all_and_end(game)
    before = crowd_turn(game, 19)
    assert game.coins(0) == before + 2
    game.apply(sw.Deploy(1, 1))  # the conquests end: the Pots go back
    assert not game.region(1).pieces and not game.region(2).pieces


def test_leprechauns_pot_goes_to_the_conqueror(be_not_afraid: sw.Rules) -> None:
    """Leprechauns: whoever conquers a region with a Pot takes it, and 1 coin from the bank;
    the Leprechauns collect only the Pot left."""
    game = leprechauns(be_not_afraid)
    game.apply(sw.UseAbility("hide_pot", 1))
    game.apply(sw.UseAbility("hide_pot", 2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # the Crowd
    coins = game.coins(1)
    game.apply(sw.Conquer(1))
    assert game.coins(1) == coins + 1 and not game.region(1).pieces
    before = crowd_turn(game, None)
    assert game.coins(0) == before + 1


def test_leprechauns_without_pots_collect_nothing(be_not_afraid: sw.Rules) -> None:
    """Leprechauns (edge): Pots are placed only in redeployment, never in the conquests;
    with none placed the next turn brings no coin."""
    game = new_game(be_not_afraid, [("leprechauns", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    assert sw.UseAbility("hide_pot", 1) not in game.legal_actions()
    deploy_all_and_end(game)
    before = crowd_turn(game, 19)
    assert game.coins(0) == before
