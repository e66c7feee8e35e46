"""Small World Underground (expansions/underground/), played on the base maps: the items
written with the rule language's constructs for conquest costs and coins.

Iron Dwarves: at the end of each turn a Silver Hammer per Mine region held; in a later
conquest each Hammer spent on a region makes its conquest cost 1 token less (at least 1).
Frightened: 1 bonus coin per region of the race holding 3 tokens or more. Thieving: at the
end of the turn each opponent whose active race borders the race's regions pays 1 coin.

2-player map: Forest 2 (edge, Mine), Swamp 3 (edge, Lost Tribe), Hill 4 (edge), Mountain 5
(edge, Mine), Mountain 19 (edge).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, last_score, new_game, play_round_back

import smallworld_rules as sw


def picked(rules: sw.Rules, race: str, power: str = "plain") -> sw.Game:
    game = new_game(rules, [(race, power), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def abilities(game: sw.Game, name: str) -> list[sw.UseAbility]:
    return [
        a for a in game.legal_actions() if isinstance(a, sw.UseAbility) and a.name == name
    ]


def test_iron_dwarves_banner_and_box(underground: sw.Rules) -> None:
    """Iron Dwarves: the banner gives 7 tokens; the box holds 12."""
    race = underground.races["iron_dwarves"]
    assert (race.tokens, race.box) == (7, 12)
    assert picked(underground, "iron_dwarves").hand(0) == 7


def test_iron_dwarves_hammer_per_mine_lowers_a_conquest_by_one(underground: sw.Rules) -> None:
    """Iron Dwarves: 2 Mine regions held at the end of the turn give 2 Silver Hammers; next
    turn each spent on Swamp 3 (2 + 1 Lost Tribe) lowers its cost by 1, and once both are
    spent none is left."""
    game = picked(underground, "iron_dwarves")
    assert abilities(game, "strike") == []  # no Hammer yet
    game.put(2, 0, 1)
    game.put(5, 0, 1)
    game.apply(sw.Conquer(1))
    play_round_back(game)
    assert game.conquest_cost(3) == 3
    game.apply(sw.UseAbility("strike", 3))
    assert game.conquest_cost(3) == 2
    game.apply(sw.UseAbility("strike", 3))
    assert game.conquest_cost(3) == 1
    assert abilities(game, "strike") == []
    game.apply(sw.Conquer(3))


def test_iron_dwarves_minimum_of_one_token(underground: sw.Rules) -> None:
    """Iron Dwarves: a minimum of 1 token is still required: 3 Hammers (from 3 Mines) on
    Swamp 3 (2 + 1 Lost Tribe) leave it at 1."""
    game = picked(underground, "iron_dwarves")
    for mine in (2, 5, 18):
        game.put(mine, 0, 1)
    game.apply(sw.Conquer(1))
    play_round_back(game)
    for _ in range(3):
        game.apply(sw.UseAbility("strike", 3))
    assert game.explain_conquest_cost(3).clamped_from == 0
    assert game.conquest_cost(3) == 1


def test_iron_dwarves_hold_at_most_seven_hammers(underground: sw.Rules) -> None:
    """Iron Dwarves (edge): the box holds 7 Silver Hammers: 3 Mines held for three turns
    give 3, 3 and then only 1; once the 7 are spent, none is left."""
    game = picked(underground, "iron_dwarves")
    for mine in (2, 5, 18):
        game.put(mine, 0, 1)
    game.apply(sw.Conquer(1))
    for _ in range(3):
        play_round_back(game)
    for _ in range(7):
        game.apply(sw.UseAbility("strike", 3))
    assert abilities(game, "strike") == []


def test_iron_dwarves_hammers_come_at_the_end_of_the_turn(underground: sw.Rules) -> None:
    """Iron Dwarves: a Mine conquered this turn gives its Hammer only at the end of the
    turn, so it lowers no conquest of the same turn."""
    game = picked(underground, "iron_dwarves")
    game.apply(sw.Conquer(2))
    assert abilities(game, "strike") == []


def test_frightened_badge(underground: sw.Rules) -> None:
    """Frightened: the badge gives 4 tokens (Ratmen 8 + 4)."""
    assert underground.powers["frightened"].tokens == 4
    assert picked(underground, "ratmen", "frightened").hand(0) == 12


def test_frightened_coin_per_region_with_three_tokens(underground: sw.Rules) -> None:
    """Frightened: a region holding 3 tokens of the race scores 1 bonus coin, one holding 2
    none: Hill 4 with 3 Ratmen and Swamp 3 with 9 give 2 regions + 2 bonus coins."""
    game = picked(underground, "ratmen", "frightened")
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(3))
    game.apply(sw.Deploy(4, 2))  # the conquests end, 1 per region: Hill 4 gets 3
    game.apply(sw.Deploy(3, game.hand(0)))  # and Swamp 3 the other 9
    coins = game.coins(0)
    game.apply(sw.EndTurn())
    assert game.coins(0) == coins + 2 + 2
    assert last_score(game, 0).coins == 4


def test_frightened_two_tokens_are_not_enough(underground: sw.Rules) -> None:
    """Frightened (edge): regions of 2 tokens each score no bonus coin; 3 exactly do."""
    game = picked(underground, "ratmen", "frightened")
    game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(9))
    game.apply(sw.Conquer(10))  # 2 + 2 + 3 (Lost Tribe): 5 left in hand
    game.apply(sw.Deploy(4, 1))  # Hill 4: 2; Farmland 9: 1; Forest 10: 1
    game.apply(sw.Deploy(9, 1))
    game.apply(sw.Deploy(10, game.hand(0)))
    coins = game.coins(0)
    game.apply(sw.EndTurn())
    assert game.coins(0) == coins + 3 + 1  # only Forest 10 holds 3 or more


def thief(rules: sw.Rules, where: int = 20) -> sw.Game:
    """Player 0's Thieving Ratmen; player 1's Crowd on one region (Swamp 20: next to
    Mountain 19 and Farmland 13)."""
    game = new_game(rules, [("ratmen", "thieving"), ("crowd", "plain2")])
    game.put(where, 1, 2, race="crowd")
    game.apply(sw.PickCombo(0))
    return game


def test_thieving_badge(underground: sw.Rules) -> None:
    """Thieving: the badge gives 4 tokens (Ratmen 8 + 4)."""
    assert underground.powers["thieving"].tokens == 4


def test_thieving_takes_a_coin_from_each_bordering_opponent(underground: sw.Rules) -> None:
    """Thieving: at the end of the turn the opponent whose active race borders the race's
    regions pays 1 coin to it; one whose race borders none (on Forest 2) pays nothing."""
    game = thief(underground)
    game.apply(sw.Conquer(19))
    before = [game.coins(p) for p in range(2)]
    deploy_all_and_end(game)
    assert game.coins(1) == before[1] - 1
    assert game.coins(0) == before[0] + 1 + 1  # 1 region and the coin taken
    far = thief(underground, where=2)
    far.apply(sw.Conquer(19))
    coins = far.coins(1)
    deploy_all_and_end(far)
    assert far.coins(1) == coins


def test_thieving_once_per_opponent_and_not_from_the_penniless(underground: sw.Rules) -> None:
    """Thieving (edge): an opponent bordering several regions still pays 1 coin only; an
    opponent without a coin pays nothing (coins never go below 0)."""
    game = thief(underground)
    game.apply(sw.Conquer(19))
    game.apply(sw.Conquer(13))  # Farmland 13 borders Swamp 20 too
    before = [game.coins(p) for p in range(2)]
    deploy_all_and_end(game)
    assert game.coins(1) == before[1] - 1
    poor = thief(underground)
    poor.set_coins(1, 0)
    poor.apply(sw.Conquer(19))
    coins = poor.coins(0)
    deploy_all_and_end(poor)
    assert (poor.coins(1), poor.coins(0)) == (0, coins + 1)


def test_thieving_not_from_a_race_in_decline(underground: sw.Rules) -> None:
    """Thieving (edge): only an opponent's active race counts: his race in decline next to
    the race's regions gives nothing."""
    game = new_game(underground, [("ratmen", "thieving"), ("crowd", "plain2")])
    game.put(20, 1, 1, declined=True, race="crowd")
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    coins = game.coins(1)
    deploy_all_and_end(game)
    assert game.coins(1) == coins


def against_gnomes(rules: sw.Rules, race: str, power: str, declined: bool = False) -> sw.Game:
    """Player 0 picks ``(race, power)``; player 1's Gnomes hold Hill 4 with 1 token."""
    game = new_game(rules, [(race, power), ("crowd", "plain2")])
    game.put(4, 1, 1, race="gnomes", declined=declined)
    game.apply(sw.PickCombo(0))
    return game


def test_gnomes_banner_and_box(underground: sw.Rules) -> None:
    """Gnomes: the banner gives 6 tokens; the box holds 11."""
    race = underground.races["gnomes"]
    assert (race.tokens, race.box) == (6, 11)


def test_gnomes_regions_are_costed_without_the_conquerors_powers(
    underground: sw.Rules,
) -> None:
    """Gnomes: no power lowers what their regions cost: Commando takes 1 token off Swamp 3's
    Lost Tribe region but not off the Gnomes' Hill 4 (2 + 1 Gnome = 3); it is still
    conquered as usual."""
    game = against_gnomes(underground, "ratmen", "commando")
    assert game.conquest_cost(3) == 2  # 2 + 1 Lost Tribe - 1 Commando
    assert game.conquest_cost(4) == 3
    labels = [c.label for c in game.explain_conquest_cost(4).contributions]
    assert labels == ["Gnomes tokens"]
    game.apply(sw.Conquer(4))
    assert game.region(4).race == "ratmen"


def test_gnomes_regions_are_out_of_reach_of_abilities(underground: sw.Rules) -> None:
    """Gnomes: no ability may aim at their regions: the Dragon cannot attack Hill 4, and the
    Sorcerers cannot convert its lone Gnome, though both could aim at such a region of
    another race."""
    game = against_gnomes(underground, "ratmen", "dragon_master")
    targets = {a.target for a in game.legal_actions() if isinstance(a, sw.UseAbility)}
    assert 4 not in targets and 3 in targets
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="cannot target region 4"):
        game.apply(sw.UseAbility("dragon_attack", 4))
    assert game.to_json() == before
    sorcerers = against_gnomes(underground, "sorcerers", "plain")
    sorcerers.apply(sw.Conquer(3))  # next to Hill 4
    assert sw.UseAbility("convert", 4) not in sorcerers.legal_actions()
    assert sw.ConquerWithDie(4) in sorcerers.legal_actions()  # 2 in hand, it costs 3


def test_gnomes_protection_lasts_in_decline(underground: sw.Rules) -> None:
    """Gnomes (edge): their regions stay out of reach of powers once in decline: a Commando's
    discount does not apply to the declined Gnomes' Hill 4 either."""
    game = against_gnomes(underground, "ratmen", "commando", declined=True)
    assert game.region(4).declined
    assert game.conquest_cost(4) == 3
    assert game._engine.conquest_costs(game._state, "ratmen", 1 << 4) == {4: 3}


def test_gnomes_own_powers_still_work_for_them(underground: sw.Rules) -> None:
    """Gnomes (edge): the protection is against other races only: the Gnomes' own power
    still lowers their conquests (Commando Gnomes pay 2 - 1 for an empty region)."""
    game = new_game(underground, [("gnomes", "commando"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    assert game.conquest_cost(9) == 1
