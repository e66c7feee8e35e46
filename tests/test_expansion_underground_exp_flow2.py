"""Small World Underground (expansions/underground/): Quarreling, which scores the separate
groups of a race's regions, and Reborn, whose race in decline hands regions over to the
active race.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge),
Mountain 19 (edge); 1-2, 2-3 and 3-4 border one another, 1 and 4 do not.
"""

from __future__ import annotations

import pytest
from helpers import declined_then_next_picked, deploy_all_and_end, last_score, skeletons_holding

import smallworld_rules as sw

# --------------------------------------------------------------------------- Quarreling


def test_quarreling_badge(underground: sw.Rules) -> None:
    """Quarreling: the badge gives 3 tokens."""
    assert underground.powers["quarreling"].tokens == 3


def test_quarreling_scores_one_coin_per_separate_group(underground: sw.Rules) -> None:
    """Quarreling: 1 bonus coin for each separate group of the race's regions; Farmland 1
    and Hill 4 border no region of the other: two groups, 2 coins."""
    game = skeletons_holding(underground, "quarreling", [1, 4])
    assert last_score(game, 0).coins == 2 + 2


def test_quarreling_scores_one_for_a_single_group_edge(underground: sw.Rules) -> None:
    """Quarreling (edge): Farmland 1, Forest 2 and Swamp 3 border one another in a chain:
    a single group scores 1 bonus coin, not 3."""
    game = skeletons_holding(underground, "quarreling", [1, 2, 3])
    assert last_score(game, 0).coins == 3 + 1


def test_quarreling_scores_nothing_in_decline_edge(underground: sw.Rules) -> None:
    """Quarreling (edge): the bonus is the active race's; the decline turn scores the
    regions alone and the badge is discarded."""
    game = skeletons_holding(underground, "quarreling", [1, 4])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert last_score(game, 0).coins == 2
    assert not underground.powers["quarreling"].works_in_decline


# --------------------------------------------------------------------------- Reborn


def reborn(rules: sw.Rules) -> sw.Game:
    """Player 0's Ratmen with Reborn take Farmland 1, Forest 2 and Swamp 3 and decline; in
    player 0's next turn the Humans are picked."""
    return declined_then_next_picked(
        rules, [("ratmen", "reborn"), ("crowd", "plain2"), ("humans", "plain")]
    )


def test_reborn_badge(underground: sw.Rules) -> None:
    """Reborn: the badge gives 5 tokens, and it stays with the race in decline."""
    power = underground.powers["reborn"]
    assert (power.tokens, power.works_in_decline) == (5, True)


def test_reborn_hands_a_region_to_a_new_token_from_the_box(underground: sw.Rules) -> None:
    """Reborn: once the race is in decline, its owner may empty one of its regions and put
    a single new token of the active race there, taken from the box: the hand keeps its
    tokens, the box gives one, the declined token goes back to its box."""
    game = reborn(underground)
    assert {sw.UseAbility("rebirth", r) for r in (1, 2, 3)} <= set(game.legal_actions())
    hand, boxed = game.hand(0), game._state.box["humans"]
    ratmen = game._state.box["ratmen"]
    game.apply(sw.UseAbility("rebirth", 2))
    assert (game.region(2).race, game.region(2).tokens, game.region(2).declined) == (
        "humans", 1, False)
    assert game.hand(0) == hand
    assert game._state.box["humans"] == boxed - 1
    assert game._state.box["ratmen"] == ratmen + 1


def test_reborn_hands_over_two_regions_a_turn_edge(underground: sw.Rules) -> None:
    """Reborn (edge): 1 or 2 regions a turn: after two hand-overs no third is offered, and
    one is refused with the reason, the game unchanged."""
    game = reborn(underground)
    game.apply(sw.UseAbility("rebirth", 1))
    game.apply(sw.UseAbility("rebirth", 2))
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="cannot target region 3"):
        game.apply(sw.UseAbility("rebirth", 3))
    assert game.to_json() == before


def test_reborn_takes_the_token_from_the_hand_when_the_box_is_empty_edge(
    underground: sw.Rules,
) -> None:
    """Reborn (edge): with no token of the active race left in its box, the new token comes
    from the player's hand."""
    game = reborn(underground)
    game._state.box["humans"] = 0
    hand = game.hand(0)
    game.apply(sw.UseAbility("rebirth", 3))
    assert game.region(3).race == "humans" and game.hand(0) == hand - 1


def test_reborn_hands_over_only_at_the_start_of_the_turn_edge(underground: sw.Rules) -> None:
    """Reborn (edge): the regions are handed over at the start of the turn: once the active
    race has made its first conquest no rebirth is offered, and one is refused with the
    reason, the game unchanged."""
    game = reborn(underground)
    game.apply(sw.Conquer(4))
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="used during turn_start, not now"):
        game.apply(sw.UseAbility("rebirth", 1))
    assert game.to_json() == before


def test_reborn_is_not_offered_while_the_race_is_active_edge(underground: sw.Rules) -> None:
    """Reborn (edge): only a race in decline hands its regions over; while the Ratmen are
    active, no rebirth is offered."""
    game = sw.Game.new(players=2, seed=1, rules=underground, combos=[("ratmen", "reborn")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
