"""Be Not Afraid... (expansions/be_not_afraid/): the items whose numbers the printed banner
and badges settled.

Pygmies (6): for each region lost while active, roll the die and take that many new Pygmies
(within the box, 18). Corrupt (4): whoever conquers one of your regions while your race is
active pays you 1 coin. Imperial (4): 1 coin per region beyond the third.

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge),
Hill 9 (next to 3 and 4), Forest 21 (edge).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, last_score, new_game, place_withdrawals

import smallworld_rules as sw


def held_by_first_player(rules: sw.Rules, first: tuple[str, str], **kwargs: object) -> sw.Game:
    """Player 0 picks ``first`` and holds Hill 4 with 1 token and Hill 9 with the rest; player
    1 (Ratmen, 8 tokens) has just picked."""
    game = new_game(rules, [first, ("ratmen", "plain2")], **kwargs)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))
    game.apply(sw.Deploy(9, 1))
    game.apply(sw.Deploy(9, game.hand(0)))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    return game


def total(game: sw.Game, race: str, player: int) -> int:
    on_map = sum(
        game.region(r).tokens for r in range(len(game.map.regions))
        if game.region(r).race == race
    )
    return on_map + game.hand(player)


# --------------------------------------------------------------------------- Pygmies


def test_pygmies_banner_and_box(be_not_afraid: sw.Rules) -> None:
    """Pygmies: the banner gives 6 tokens; the box holds 18 (no printed count found)."""
    race = be_not_afraid.races["pygmies"]
    assert (race.tokens, race.box) == (6, 18)
    game = new_game(be_not_afraid, [("pygmies", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 6


def test_pygmies_roll_for_new_pygmies_when_they_lose_one(be_not_afraid: sw.Rules) -> None:
    """Pygmies: when an opponent conquers one of their regions, they roll the die and take
    that many new Pygmies from the box: 1 lost, 3 rolled, 2 more in all."""
    game = held_by_first_player(be_not_afraid, ("pygmies", "plain"), chance="explicit")
    before = total(game, "pygmies", 0)
    game.apply(sw.Conquer(4))
    assert game.to_move is sw.CHANCE
    game.apply(sw.RollDie(3))
    place_withdrawals(game)
    assert total(game, "pygmies", 0) == before - 1 + 3


def test_pygmies_roll_of_zero_and_the_box_edge(be_not_afraid: sw.Rules) -> None:
    """Pygmies (edge): a 0 gives none; new Pygmies come only from the box: with 1 left there
    a 3 gives 1."""
    game = held_by_first_player(be_not_afraid, ("pygmies", "plain"), chance="explicit")
    before = total(game, "pygmies", 0)
    game.apply(sw.Conquer(4))
    game.apply(sw.RollDie(0))
    place_withdrawals(game)
    assert total(game, "pygmies", 0) == before - 1
    game = held_by_first_player(be_not_afraid, ("pygmies", "plain"), chance="explicit")
    game.put(21, 0, 18 - total(game, "pygmies", 0) - 1)  # 1 Pygmy left in the box
    game.apply(sw.Conquer(4))  # the lost one goes back: 2 in the box
    game.apply(sw.RollDie(3))
    place_withdrawals(game)
    assert total(game, "pygmies", 0) == 18


# --------------------------------------------------------------------------- Corrupt


def test_corrupt_conqueror_pays_a_coin(be_not_afraid: sw.Rules) -> None:
    """Corrupt: whoever conquers one of your regions while your race is active pays you 1
    coin."""
    assert be_not_afraid.powers["corrupt"].tokens == 4
    game = held_by_first_player(be_not_afraid, ("humans", "corrupt"))
    mine, theirs = game.coins(0), game.coins(1)
    game.apply(sw.Conquer(4))
    assert (game.coins(0), game.coins(1)) == (mine + 1, theirs - 1)


def test_corrupt_conqueror_without_coins_pays_nothing_edge(be_not_afraid: sw.Rules) -> None:
    """Corrupt (edge): a conqueror with no coin pays nothing (coins never go below 0), and the
    conquest still happens."""
    game = held_by_first_player(be_not_afraid, ("humans", "corrupt"))
    game.set_coins(1, 0)
    mine = game.coins(0)
    game.apply(sw.Conquer(4))
    assert (game.coins(0), game.coins(1)) == (mine, 0)
    assert game.region(4).race == "ratmen"


# --------------------------------------------------------------------------- Imperial


@pytest.mark.parametrize(("regions", "bonus"), [([1, 2, 3, 4], 1), ([1, 2, 3, 4, 21], 2)])
def test_imperial_one_coin_per_region_beyond_the_third(
    be_not_afraid: sw.Rules, regions: list[int], bonus: int
) -> None:
    """Imperial: 1 bonus coin per region beyond the third: 4 regions 1, 5 regions 2."""
    assert be_not_afraid.powers["imperial"].tokens == 4
    game = new_game(be_not_afraid, [("skeletons", "imperial"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    for region in regions:
        game.put(region, 0, 1)
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == len(regions) + bonus


def test_imperial_three_regions_or_fewer_score_no_bonus_edge(be_not_afraid: sw.Rules) -> None:
    """Imperial (edge): 3 regions score 3, no bonus (never a negative one)."""
    game = new_game(be_not_afraid, [("skeletons", "imperial"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    game.put(1, 0, 1)
    game.put(2, 0, 1)
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 3
