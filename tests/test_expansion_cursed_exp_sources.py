"""Cursed! (expansions/cursed/): the four powers whose token numbers the printed badges
settled.

Cursed (0): no benefit; whoever picks a combo below it puts 3 coins on it instead of 1.
Hordes of... (5 + 2 Hordes): 2 tokens of the badge's own beside the race's. Ransacking (4):
1 coin from the owner of each region taken from an opponent's active race (the game option
ransacking_declined: his declined races' too). Were- (4): on even-numbered turns every
conquest costs 2 tokens less (at least 1).

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge),
Hill 9 (next to 3 and 4).
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game, place_withdrawals

import smallworld_rules as sw

# --------------------------------------------------------------------------- Cursed


def test_cursed_badge_gives_no_token(cursed: sw.Rules) -> None:
    """Cursed: the badge gives 0 tokens (printed 0) and no benefit."""
    assert cursed.powers["cursed"].tokens == 0
    game = new_game(cursed, [("ratmen", "cursed"), ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 and game.coins(0) == 5  # the top combo is free


def test_cursed_combo_skipped_costs_three_coins(cursed: sw.Rules) -> None:
    """Cursed: a player picking a combo below the Cursed one puts 3 coins on it instead of
    1: the third combo costs 1 (a plain combo) + 3."""
    game = new_game(cursed, [("humans", "plain2"), ("ratmen", "cursed"), ("orcs", "plain")])
    game.apply(sw.PickCombo(2))
    assert game.coins(0) == 5 - 4
    assert [coins for _, _, coins in game.market[:2]] == [1, 3]


def test_cursed_coins_go_to_whoever_takes_it_edge(cursed: sw.Rules) -> None:
    """Cursed (edge): the coins lying on the Cursed combo are taken as ever by the player who
    picks it."""
    game = new_game(cursed, [("ratmen", "cursed"), ("humans", "plain2")])
    game.apply(sw.PickCombo(1))
    deploy_all_and_end(game)
    assert game.market[0][:2] == ("ratmen", "cursed")
    game.apply(sw.PickCombo(0))
    assert game.coins(1) == 5 + 3


# --------------------------------------------------------------------------- Hordes of...


def test_hordes_of_two_more_tokens(cursed: sw.Rules) -> None:
    """Hordes of...: the badge gives 5 tokens and its 2 Horde tokens: Ratmen take 8 + 5 + 2."""
    assert cursed.powers["hordes_of"].tokens == 5
    game = new_game(cursed, [("ratmen", "hordes_of"), ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 5 + 2


def test_hordes_are_not_capped_by_the_race_box_edge(cursed: sw.Rules) -> None:
    """Hordes of... (edge): the 2 Hordes are the badge's own tokens: a race whose box holds 9
    takes its 9 and the 2 Hordes, 11."""
    game = new_game(cursed, [("crowd", "hordes_of"), ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 9 + 2


# --------------------------------------------------------------------------- Ransacking


def ransacking_game(cursed: sw.Rules, **options: object) -> sw.Game:
    """Player 0's Humans hold Hill 4; player 1 picks Ratmen with Ransacking."""
    game = new_game(
        cursed, [("humans", "plain2"), ("ratmen", "ransacking")], options=options or None
    )
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    game.apply(sw.Deploy(4, 1))
    game.apply(sw.Deploy(4, game.hand(0)))
    game.apply(sw.EndTurn())
    game.put(4, 0, 1)
    game.apply(sw.PickCombo(0))
    return game


def test_ransacking_take_a_coin_from_an_active_race(cursed: sw.Rules) -> None:
    """Ransacking: conquering a region of an opponent's active race takes 1 coin from him."""
    assert cursed.powers["ransacking"].tokens == 4
    game = ransacking_game(cursed)
    mine, theirs = game.coins(1), game.coins(0)
    game.apply(sw.Conquer(4))
    assert (game.coins(1), game.coins(0)) == (mine + 1, theirs - 1)
    place_withdrawals(game)
    game.apply(sw.Conquer(3))  # a Lost Tribe: nobody pays
    assert game.coins(1) == mine + 1


def test_ransacking_declined_regions_pay_only_with_the_option_edge(cursed: sw.Rules) -> None:
    """Ransacking (edge): a region of an opponent's race in decline pays nothing, unless the
    game option ransacking_declined is on; an opponent with no coin pays nothing."""
    for option, paid in ((False, 0), (True, 1)):
        game = new_game(
            cursed, [("humans", "plain2"), ("ratmen", "ransacking")],
            options={"ransacking_declined": option},
        )
        game.put(2, 0, 1, declined=True, race="orcs")
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(4))
        deploy_all_and_end(game)
        game.apply(sw.PickCombo(0))
        mine = game.coins(1)
        game.apply(sw.Conquer(2))
        assert game.coins(1) == mine + paid
    game = ransacking_game(cursed)
    game.set_coins(0, 0)
    mine = game.coins(1)
    game.apply(sw.Conquer(4))
    assert (game.coins(1), game.coins(0)) == (mine, 0)


# --------------------------------------------------------------------------- Were-


def test_were_no_discount_by_day(cursed: sw.Rules) -> None:
    """Were-: on an odd-numbered turn (the first) conquests cost as usual."""
    assert cursed.powers["were"].tokens == 4
    game = new_game(cursed, [("ratmen", "were"), ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.round == 1
    assert [game.conquest_cost(r) for r in (4, 3)] == [2, 3]


def test_were_two_less_at_night_with_the_minimum_edge(cursed: sw.Rules) -> None:
    """Were- (edge): on turn 2 every conquest costs 2 tokens less, at least 1: Hill 9 (2)
    costs 1, Swamp 3 (2 + 1 Lost Tribe) costs 1, 3 Humans on Forest 2 (5) cost 3."""
    game = new_game(cursed, [("ratmen", "were"), ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.put(2, 1, 3)
    assert game.round == 2 and game.to_move == 0
    assert [game.conquest_cost(r) for r in (9, 3, 2)] == [1, 1, 3]
    breakdown = game.explain_conquest_cost(9)
    assert (breakdown.value, breakdown.clamped_from) == (1, 0)
