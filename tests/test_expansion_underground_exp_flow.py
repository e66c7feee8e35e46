"""Small World Underground (expansions/underground/): the items whose rules are about the
turn's flow, the decline, adjacency and the connectivity of a race's regions.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge),
Mountain 5 (edge), Mountain 19 (edge), Swamp 20 (edge), Forest 21 (edge); 1-2, 2-3, 3-4 and
19-20-21 border one another, 1 and 4 do not.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, first_round_on_the_2p_map, last_score, skeletons_holding

import smallworld_rules as sw

# --------------------------------------------------------------------------- Flocking


def test_flocking_badge(underground: sw.Rules) -> None:
    """Flocking: the badge gives 5 tokens."""
    assert underground.powers["flocking"].tokens == 5


def test_flocking_scores_two_for_one_connected_group(underground: sw.Rules) -> None:
    """Flocking: 2 bonus coins when all the race's regions form a single group of adjacent
    regions (Farmland 1, Forest 2 and Swamp 3 in a chain)."""
    game = skeletons_holding(underground, "flocking", [1, 2, 3])
    assert last_score(game, 0).coins == 3 + 2


def test_flocking_scores_nothing_for_two_groups_edge(underground: sw.Rules) -> None:
    """Flocking (edge): Farmland 1 and Hill 4 do not border each other, nor does any region
    the race holds join them: two groups, no bonus."""
    game = skeletons_holding(underground, "flocking", [1, 4])
    assert last_score(game, 0).coins == 2


def test_flocking_scores_nothing_in_decline_edge(underground: sw.Rules) -> None:
    """Flocking (edge): the bonus is for a race that is not in decline; the decline turn
    scores the regions alone and the badge is discarded."""
    game = skeletons_holding(underground, "flocking", [1, 2])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert last_score(game, 0).coins == 2
    assert not underground.powers["flocking"].works_in_decline


# --------------------------------------------------------------------------- Vanishing


def test_vanishing_badge(underground: sw.Rules) -> None:
    """Vanishing: the badge gives 5 tokens."""
    assert underground.powers["vanishing"].tokens == 5


def test_vanishing_takes_every_token_off_for_two_coins_a_region(underground: sw.Rules) -> None:
    """Vanishing: going into decline, every token of the race leaves the map and its player
    collects 2 coins per region they occupied (3 regions: 6 coins); the race leaves the game
    and nothing of it is scored in the decline turn."""
    game = skeletons_holding(underground, "vanishing", [1, 2, 3])
    coins = game.coins(0)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert not any(game.region(r).race == "skeletons" for r in range(len(game.map.regions)))
    assert game.declined_races(0) == []
    assert game.active_race(0) is None
    assert game.coins(0) == coins + 6 + 0


def test_vanishing_leaves_the_previous_declined_race_gone_too_edge(underground: sw.Rules) -> None:
    """Vanishing (edge): the previous race in decline leaves as in every decline (one
    race in decline at most), so the player then has no race on the map at all."""
    game = sw.Game.new(players=2, seed=1, rules=underground,
                       combos=[("ratmen", "plain"), ("crowd", "plain2"),
                               ("skeletons", "vanishing")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # the Ratmen decline on Farmland 1
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 0: Skeletons + Vanishing
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    held = {game.region(r).race for r in range(len(game.map.regions))}
    assert not held & {"ratmen", "skeletons"}
    assert not game.declined_races(0) and game.active_race(0) is None
    assert game.coins(0) == coins + 2


# --------------------------------------------------------------------------- Cultists


def cultists(rules: sw.Rules, power: str = "plain") -> sw.Game:
    game = sw.Game.new(players=2, seed=1, rules=rules,
                       combos=[("cultists", power), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_cultists_banner_and_box(underground: sw.Rules) -> None:
    """Cultists: the banner gives 5 tokens; the box holds 10."""
    race = underground.races["cultists"]
    assert (race.tokens, race.box) == (5, 10)
    assert cultists(underground).hand(0) == 5


def test_cultists_great_ancient_in_the_first_region_only(underground: sw.Rules) -> None:
    """Cultists: the Great Ancient goes into the first region they conquer, and only the
    first."""
    game = cultists(underground)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    assert game.region(1).pieces == {"great_ancient": 1}
    assert game.region(2).pieces == {}


def test_cultists_pay_one_less_next_to_the_great_ancient(underground: sw.Rules) -> None:
    """Cultists: a region next to the Great Ancient costs 1 token less (Forest 2 next to
    Farmland 1: 1; Mountain 5 next to it: 2; Swamp 3, not next to it, a Lost Tribe: 3)."""
    game = cultists(underground)
    game.apply(sw.Conquer(1))
    assert [game.conquest_cost(r) for r in (2, 5)] == [1, 2]
    game.apply(sw.Conquer(2))
    assert game.conquest_cost(3) == 3


def test_cultists_great_ancient_region_is_immune_edge(underground: sw.Rules) -> None:
    """Cultists (edge): nobody may conquer the Great Ancient's region."""
    game = cultists(underground)
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    assert sw.Conquer(1) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(1))


def test_cultists_discount_reaches_through_links_edge(underground: sw.Rules) -> None:
    """Cultists (edge): "next to" is adjacent for their conquests: with Underworld, a cavern
    joined by the link to the Great Ancient's cavern gets the discount too (Swamp 3 and
    Hill 17 are both caverns, far apart on the map: 2 - 1 cavern - 1 Ancient, at least 1)."""
    game = cultists(underground, "underworld")
    game.apply(sw.Conquer(3))
    assert game.region(3).pieces == {"great_ancient": 1}
    breakdown = game.explain_conquest_cost(17)
    assert [c.label for c in breakdown.contributions] == ["Cultists", "Underworld"]
    assert breakdown.value == 1


def test_cultists_move_the_great_ancient_before_conquering(underground: sw.Rules) -> None:
    """Cultists: at the start of the turn, before any conquest, the Great Ancient may move to
    another region they occupy; not after a conquest."""
    game = cultists(underground)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert sw.UseAbility("move_great_ancient", 2) in game.legal_actions()
    assert sw.UseAbility("move_great_ancient", 1) not in game.legal_actions()
    game.apply(sw.UseAbility("move_great_ancient", 2))
    assert game.region(2).pieces == {"great_ancient": 1} and game.region(1).pieces == {}
    assert game.conquest_cost(3) == 3 - 1  # the Lost Tribe's Swamp is now next to him


def test_cultists_no_move_after_a_conquest_edge(underground: sw.Rules) -> None:
    """Cultists (edge): once a conquest is made this turn, the Great Ancient stays."""
    game = cultists(underground)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Conquer(6))
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]


# --------------------------------------------------------------------------- Tomb


def tomb_declining(rules: sw.Rules) -> sw.Game:
    """Player 0's Ratmen with Tomb hold Farmland 1 (12 tokens) and Forest 2 (1); player 1's
    Crowd hold Mountain 19; player 0 declines in place of expanding (11 readied in hand)."""
    game = sw.Game.new(players=2, seed=1, rules=rules,
                       combos=[("ratmen", "tomb"), ("crowd", "plain2")])
    first_round_on_the_2p_map(game)
    game.apply(sw.Decline())
    return game


def test_tomb_badge(underground: sw.Rules) -> None:
    """Tomb: the badge gives 5 tokens."""
    assert underground.powers["tomb"].tokens == 5


def test_tomb_redeploys_once_more_then_keeps_every_token(underground: sw.Rules) -> None:
    """Tomb: going into decline, the race first redeploys its tokens (only Deploy is
    offered until the hand is empty), then declines keeping every token on the map; the
    decline turn scores its regions."""
    game = tomb_declining(underground)
    assert game.phase is sw.Phase.REDEPLOY and game.hand(0) == 11
    assert {type(a) for a in game.legal_actions()} == {sw.Deploy}
    coins = game.coins(0)
    game.apply(sw.Deploy(2, 5))
    game.apply(sw.Deploy(1, 6))
    game.apply(sw.EndTurn())
    assert game.declined_races(0) == ["ratmen"]
    assert [(game.region(r).tokens, game.region(r).declined) for r in (1, 2)] == [
        (7, True), (6, True)
    ]
    assert game.coins(0) == coins + 2


def test_tomb_must_place_every_token_before_declining_edge(underground: sw.Rules) -> None:
    """Tomb (edge): EndTurn is refused while tokens are in hand, the game unchanged."""
    game = tomb_declining(underground)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="place the 11 token"):
        game.apply(sw.EndTurn())
    assert game.to_json() == before


def test_tomb_declined_race_redeploys_survivors_edge(underground: sw.Rules) -> None:
    """Tomb (edge): later, when the race in decline loses a region, its surviving tokens
    are redeployed among its other regions."""
    game = sw.Game.new(players=2, seed=1, rules=underground,
                       combos=[("ratmen", "tomb"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)  # Farmland 1: 12, Forest 2: 1
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # the Crowd next to Forest 2
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    game.apply(sw.Deploy(2, 3))
    game.apply(sw.Deploy(1, 8))
    game.apply(sw.EndTurn())  # in decline: Farmland 1: 9, Forest 2: 4
    assert game.conquest_cost(2) == 2 + 4
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 0
    assert sw.Deploy(1, 3) in game.legal_actions()  # 4 tokens, 1 lost, 3 to place
    game.apply(sw.Deploy(1, 3))
    assert game.region(1).tokens == 12 and game.region(1).declined
