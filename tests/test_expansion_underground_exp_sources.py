"""Small World Underground (expansions/underground/): the items whose sources disagreed,
settled by the Underground rules booklet, played on the base maps.

Shrooms (5): 1 coin per Forest held while active. Immortal (4): no token lost to a conquest
while active. Martyr (4): 1 coin from the bank for each region lost while active. Wise (4):
2 coins a turn in decline, while on the map. Fisher (4): 1 coin per pair of coastal regions.
Royal (5): the Queen makes her region immune, stays in decline. Vampire (5): the Sorcerers'
replacement of a lone active token. Kraken (5): Seas and the Lake held, in decline too.

2-player map: Sea 0 (edge), Farmland 1 (edge, coastal), Forest 2 (edge, coastal), Swamp 3
(edge, Lost Tribe), Hill 4 (edge), Hill 9 (next to 4), Forest 10 (edge, Lost Tribe), Forest 21
(edge, coastal), Swamp 20 (edge, coastal), Mountain 15 (edge, coastal), Sea 22 (edge).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, last_score, new_game, place_withdrawals

import smallworld_rules as sw


def picked(rules: sw.Rules, race: str, power: str, **kwargs: object) -> sw.Game:
    game = new_game(rules, [(race, power), ("humans", "plain2"), ("crowd", "bulky")], **kwargs)
    game.apply(sw.PickCombo(0))
    return game


def end_turn_holding(game: sw.Game, player: int, regions: list[int]) -> None:
    """The player holds exactly ``regions`` (1 token each), then redeploys and ends."""
    for region in regions:
        game.put(region, player, 1)
    deploy_all_and_end(game)


def race_total(game: sw.Game, player: int) -> int:
    """The player's active race's tokens on the map and in hand."""
    race = game.active_race(player)
    on_map = sum(
        game.region(r).tokens for r in range(len(game.map.regions))
        if game.region(r).race == race
    )
    return on_map + game.hand(player)


def end_on(game: sw.Game, region: int, keep: dict[int, int] | None = None) -> None:
    """Redeploy: ``keep`` tokens in those regions, every other token in hand on ``region``;
    then end the turn."""
    player = game.active_player
    game.apply(sw.Deploy(region, 1))  # the conquests end: tokens beyond 1 a region to hand
    for where, count in (keep or {}).items():
        if count > game.region(where).tokens:
            game.apply(sw.Deploy(where, count - game.region(where).tokens))
    if game.hand(player):
        game.apply(sw.Deploy(region, game.hand(player)))
    game.apply(sw.EndTurn())


def attacked_by_second_player(game: sw.Game, region: int, keep: dict[int, int]) -> None:
    """Player 0 ends his turn, ``keep`` tokens there and the others on Hill 9; player 1 picks
    the next combo and conquers ``region``; the defender's survivors are placed at once."""
    end_on(game, 9, keep)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(region))
    place_withdrawals(game)


# --------------------------------------------------------------------------- Shrooms


def test_shrooms_banner_and_box(underground: sw.Rules) -> None:
    """Shrooms: the banner gives 5 tokens (as the Underground booklet prints it); the box
    holds 10."""
    race = underground.races["shrooms"]
    assert (race.tokens, race.box) == (5, 10)
    assert picked(underground, "shrooms", "plain").hand(0) == 5


def test_shrooms_score_one_more_per_forest(underground: sw.Rules) -> None:
    """Shrooms: each Forest region they occupy is worth 1 bonus coin at the end of the turn:
    Forests 2 and 21 and Hill 4 score 3 + 2."""
    game = picked(underground, "shrooms", "plain")
    end_turn_holding(game, 0, [2, 21, 4])
    assert last_score(game, 0).coins == 5
    assert game.coins(0) == 5 + 5


def test_shrooms_in_decline_score_no_bonus_edge(underground: sw.Rules) -> None:
    """Shrooms (edge): the bonus is a racial power, lost in decline: declined Shrooms on
    Forests 2 and 21 score 1 coin each, like any region."""
    game = new_game(underground, [("ratmen", "plain"), ("humans", "plain2")])
    game.put(2, 0, 1, declined=True, race="shrooms")
    game.put(21, 0, 1, declined=True, race="shrooms")
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 3


# --------------------------------------------------------------------------- Immortal


def test_immortal_badge(underground: sw.Rules) -> None:
    """Immortal: the badge gives 4 tokens (the booklet's number; one implementation says 5)."""
    assert underground.powers["immortal"].tokens == 4
    assert picked(underground, "ratmen", "immortal").hand(0) == 8 + 4


def test_immortal_lose_no_token_to_a_conquest(underground: sw.Rules) -> None:
    """Immortal: when an enemy conquers one of its regions, the race keeps every token there
    for redeployment: 3 Skeletons on Hill 4 conquered, all 3 come back (none to the box)."""
    game = picked(underground, "skeletons", "immortal")
    game.put(4, 0, 3)
    game.apply(sw.Conquer(9))
    before = race_total(game, 0)
    assert before == 6 + 4 + 3
    attacked_by_second_player(game, 4, {4: 3})
    assert game.region(4).race == "humans"
    assert race_total(game, 0) == before


def test_immortal_in_decline_loses_a_token_edge(underground: sw.Rules) -> None:
    """Immortal (edge): the power works while the race is active only; a declined Immortal
    race loses its token as any race in decline does."""
    game = new_game(underground, [("humans", "plain2"), ("crowd", "bulky")])
    game.put(4, 0, 1, declined=True, race="ratmen")
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert "immortal" not in game.powers(0)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    assert game.region(4).race == "crowd" and game.declined_races(0) == []


# --------------------------------------------------------------------------- Martyr


def test_martyr_badge(underground: sw.Rules) -> None:
    """Martyr: the badge gives 4 tokens (the booklet's number; one implementation says 5)."""
    assert underground.powers["martyr"].tokens == 4


def test_martyr_collect_a_coin_per_region_lost(underground: sw.Rules) -> None:
    """Martyr: each time an opponent conquers one of its regions, the owner collects 1 coin
    from the bank (the conqueror pays nothing)."""
    game = picked(underground, "skeletons", "martyr")
    game.put(4, 0, 1)
    game.apply(sw.Conquer(9))
    end_on(game, 9, {4: 1})
    coins, theirs = game.coins(0), game.coins(1)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    assert game.coins(0) == coins + 1
    assert game.coins(1) == theirs


def test_martyr_nothing_for_an_abandoned_region_edge(underground: sw.Rules) -> None:
    """Martyr (edge): only a conquest by another race pays; abandoning a region does not."""
    game = picked(underground, "ratmen", "martyr")
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Abandon(4))
    assert game.coins(0) == coins


# --------------------------------------------------------------------------- Wise


def test_wise_badge(underground: sw.Rules) -> None:
    """Wise: the badge gives 4 tokens."""
    assert underground.powers["wise"].tokens == 4


def test_wise_score_two_in_the_turn_they_decline(underground: sw.Rules) -> None:
    """Wise: at the end of a turn in which the race is in decline, the turn it declines
    included, 2 bonus coins if it still holds a region: 2 regions score 2 + 2."""
    game = picked(underground, "skeletons", "wise")
    end_turn_holding(game, 0, [4, 9])
    assert last_score(game, 0).coins == 2  # active: no bonus
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert last_score(game, 0).coins == 2 + 2
    assert "wise" in game.powers(0)  # the badge stays with the declined race


def test_wise_without_a_region_score_nothing_edge(underground: sw.Rules) -> None:
    """Wise (edge): a declined Wise race with no region left scores no bonus; the game option
    wise_while_active gives the 2 coins to the active race too."""
    game = new_game(
        underground, [("miners", "wise"), ("humans", "plain2"), ("crowd", "bulky")],
        options={"wise_while_active": True},
    )
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 1 + 2
    game.apply(sw.PickCombo(1))  # 13 tokens: enough for the 7 Miners on Hill 4
    game.apply(sw.Conquer(4))  # the Wise race's only region
    deploy_all_and_end(game)
    place_withdrawals(game)
    game.apply(sw.Decline())
    assert last_score(game, 0).coins == 0


# --------------------------------------------------------------------------- Fisher


def test_fisher_one_coin_per_pair_of_coastal_regions(underground: sw.Rules) -> None:
    """Fisher: 1 bonus coin per complete pair of coastal regions (bordering a Sea or the
    Lake): coastal 1, 2 and 21 and inland 4 score 4 + 1 (one pair, one left over)."""
    assert underground.powers["fisher"].tokens == 4
    game = picked(underground, "skeletons", "fisher")
    end_turn_holding(game, 0, [1, 2, 21, 4])
    assert last_score(game, 0).coins == 4 + 1


def test_fisher_water_itself_is_not_coastal_edge(underground: sw.Rules) -> None:
    """Fisher (edge): a Sea held (by the Kraken) is not a coastal region: Sea 0 and coastal
    Farmland 1 make no pair."""
    game = picked(underground, "kraken", "fisher")
    game.apply(sw.Conquer(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 2


# --------------------------------------------------------------------------- Royal


def queen_on(game: sw.Game, region: int) -> None:
    game.apply(sw.Deploy(region, 1))
    game.apply(sw.UseAbility("place_queen", region))


def test_royal_queen_makes_her_region_immune(underground: sw.Rules) -> None:
    """Royal: at redeployment the Queen goes into one of the race's regions, which is immune
    to enemy conquest: the next player cannot conquer it."""
    assert underground.powers["royal"].tokens == 5
    game = picked(underground, "ratmen", "royal")
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))
    queen_on(game, 9)
    assert game.region(9).pieces == {"queen": 1}
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())  # one Queen
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    assert sw.Conquer(9) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(9))


def test_royal_queen_stays_in_decline_edge(underground: sw.Rules) -> None:
    """Royal (edge): going into decline, the Queen stays where she was and keeps that region
    immune; while active she is lifted when the conquests end and placed again."""
    game = picked(underground, "ratmen", "royal")
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))
    queen_on(game, 9)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.Conquer(3))
    game.apply(sw.Deploy(9, 1))
    assert game.region(9).pieces == {}  # lifted when the conquests end
    game.apply(sw.UseAbility("place_queen", 4))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1 only redeploys
    game.apply(sw.Decline())
    assert game.region(4).pieces == {"queen": 1} and game.declined_races(0) == ["ratmen"]
    assert sw.Conquer(4) not in game.legal_actions()


# --------------------------------------------------------------------------- Vampire


def test_vampire_replaces_a_lone_active_token(underground: sw.Rules) -> None:
    """Vampire: once per turn against each opponent, the race conquers a region by replacing
    that opponent's single active token with one of its own from the box; the replaced token
    goes back to its box."""
    assert underground.powers["vampire"].tokens == 5
    game = new_game(underground, [("humans", "plain2"), ("skeletons", "vampire")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    game.put(4, 0, 1)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))
    hand = game.hand(1)
    game.apply(sw.UseAbility("vampirize", 4))
    assert game.region(4).race == "skeletons" and game.region(4).tokens == 1
    assert game.hand(1) == hand  # the Vampire came from the box, not from the hand
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())


def test_vampire_spare_two_tokens_and_declined_races_edge(underground: sw.Rules) -> None:
    """Vampire (edge): the token must be alone and active: a region with 2 tokens, or one of
    a race in decline, cannot be vampirized."""
    game = new_game(underground, [("humans", "plain2"), ("skeletons", "vampire")])
    game.put(2, 0, 1, declined=True, race="orcs")
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    game.put(4, 0, 2)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # borders Hill 4 (2 Humans) and Forest 2 (a declined Orc)
    abilities = [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    assert sw.UseAbility("vampirize", 4) not in abilities
    assert sw.UseAbility("vampirize", 2) not in abilities


# --------------------------------------------------------------------------- Kraken


def test_kraken_banner_and_box(underground: sw.Rules) -> None:
    """Kraken: the banner gives 5 tokens; the box holds 10."""
    race = underground.races["kraken"]
    assert (race.tokens, race.box) == (5, 10)


def test_kraken_hold_a_sea(underground: sw.Rules) -> None:
    """Kraken: the River's rule on the base maps: they may conquer a Sea as an empty region
    (2 tokens) and hold and score it at the end of the turn."""
    game = picked(underground, "kraken", "plain")
    assert game.conquest_cost(0) == 2
    game.apply(sw.Conquer(0))
    deploy_all_and_end(game)
    assert game.region(0).race == "kraken"
    assert last_score(game, 0).coins == 1


def test_kraken_keep_the_sea_in_decline_edge(underground: sw.Rules) -> None:
    """Kraken (edge): in decline they keep the Sea and score it; other races still cannot
    enter water."""
    game = picked(underground, "kraken", "plain")
    game.apply(sw.Conquer(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    assert sw.Conquer(22) not in game.legal_actions()
    game.apply(sw.Conquer(21))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.region(0).race == "kraken" and game.declined_races(0) == ["kraken"]
    assert last_score(game, 0).coins == 2


# --------------------------------------------------------------------------- Lizardmen


def test_lizardmen_reach_across_the_lake(underground: sw.Rules) -> None:
    """Lizardmen: they pass through the Lake (Underground's River on the base maps): from
    Forest 2 on its shore, Forest 12 and Farmland 13 across it may be conquered, as if
    adjacent; the Lake itself may not."""
    race = underground.races["lizardmen"]
    assert (race.tokens, race.box) == (7, 12)
    game = picked(underground, "lizardmen", "plain")
    game.apply(sw.Conquer(2))
    legal = set(game.legal_actions())
    assert {sw.Conquer(12), sw.Conquer(13)} <= legal
    assert sw.Conquer(7) not in legal
    game.apply(sw.Conquer(12))
    assert game.region(12).race == "lizardmen" and game.region(7).race is None


def test_lizardmen_only_across_water_edge(underground: sw.Rules) -> None:
    """Lizardmen (edge): a region neither adjacent nor across water stays out of reach (Hill
    9 from Forest 2); other races do not cross the Lake."""
    game = picked(underground, "lizardmen", "plain")
    game.apply(sw.Conquer(2))
    assert sw.Conquer(9) not in game.legal_actions()
    other = picked(underground, "ratmen", "plain")
    other.apply(sw.Conquer(2))
    assert sw.Conquer(12) not in other.legal_actions()


# --------------------------------------------------------------------------- Liches


def liches_attacked(rules: sw.Rules, declined: bool, coins: int) -> sw.Game:
    """Player 0's Liches (declined, his active race the Ratmen on Mountain 19, or active)
    hold Hill 4 with 1 token (its last region); player 1 (Humans) has just picked, with
    ``coins`` coins."""
    first = ("ratmen", "plain") if declined else ("liches", "plain")
    game = new_game(rules, [first, ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    if declined:
        game.put(4, 0, 1, declined=True, race="liches")
    else:
        game.clear(19)
        game.put(4, 0, 1)
    game.set_coins(1, coins)
    game.apply(sw.PickCombo(0))
    return game


def test_liches_in_decline_are_paid_by_their_conqueror(underground: sw.Rules) -> None:
    """Liches: each time an opponent conquers a region of the Liches in decline, he pays their
    owner 1 coin; conquering the active Liches pays nothing."""
    race = underground.races["liches"]
    assert (race.tokens, race.box) == (5, 10)
    game = liches_attacked(underground, declined=True, coins=3)
    mine = game.coins(0)
    game.apply(sw.Conquer(4))
    assert (game.coins(0), game.coins(1)) == (mine + 1, 2)
    game = liches_attacked(underground, declined=False, coins=3)
    mine = game.coins(0)
    game.apply(sw.Conquer(4))
    assert (game.coins(0), game.coins(1)) == (mine, 3)


def test_liches_immune_to_an_opponent_without_coins_edge(underground: sw.Rules) -> None:
    """Liches (edge): an opponent with no coins left cannot conquer a region of the Liches,
    active or in decline; with 1 coin he can."""
    for declined in (True, False):
        game = liches_attacked(underground, declined=declined, coins=0)
        assert sw.Conquer(4) not in game.legal_actions()
        with pytest.raises(sw.IllegalAction, match="immune"):
            game.apply(sw.Conquer(4))
        assert sw.Conquer(3) in game.legal_actions()
    game = liches_attacked(underground, declined=True, coins=1)
    game.apply(sw.Conquer(4))
    assert game.region(4).race == "humans" and game.coins(1) == 0
