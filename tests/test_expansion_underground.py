"""Small World Underground (expansions/underground/): the races and powers the rule language
can say today, played on the base maps.

Mummies: every conquest costs 1 token more. Ogres: every conquest costs 1 token less (at
least 1). Mining, Mystic and Stone: 1 coin per Mine, Magic Source or Mountain held while the
race is active; Muddy: 1 coin per Swamp held, in decline too. The other items wait for
constructs the language lacks, or for sources that agree (docs/expansions.md).

2-player map: Farmland 1 (edge, Magic), Forest 2 (edge, Mine), Swamp 3 (edge, Lost Tribe),
Mountain 5 (edge, Mine), Mountain 19 (edge), Swamp 20 (edge), Forest 21, Sea 22.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, last_score, new_game

import smallworld_rules as sw
from smallworld_rules.events import TokensGained


def picked(rules: sw.Rules, race: str, power: str) -> sw.Game:
    game = new_game(rules, [(race, power), ("crowd", "plain2"), ("humans", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


# --------------------------------------------------------------------------- Mummies


def test_mummies_banner_and_box(underground: sw.Rules) -> None:
    """Mummies: the banner gives 10 tokens; the box holds 15."""
    race = underground.races["mummies"]
    assert (race.tokens, race.box) == (10, 15)
    assert picked(underground, "mummies", "plain").hand(0) == 10


def test_mummies_pay_one_more_for_every_conquest(underground: sw.Rules) -> None:
    """Mummies: an empty region costs 3 instead of 2, a Lost Tribe's 4 instead of 3, a
    Mountain 4 instead of 3; the conquest takes that many tokens."""
    game = picked(underground, "mummies", "plain")
    assert [game.conquest_cost(r) for r in (1, 3, 5)] == [3, 4, 4]
    breakdown = game.explain_conquest_cost(1)
    assert [(c.label, c.op, c.amount) for c in breakdown.contributions] == [("Mummies", "add", 1)]
    game.apply(sw.Conquer(1))
    assert game.hand(0) == 10 - 3 and game.region(1).tokens == 3


def test_mummies_surcharge_adds_to_other_discounts_edge(underground: sw.Rules) -> None:
    """Mummies (edge): adds and subtracts fold together: with Commando an empty region costs
    2 + 1 - 1 = 2."""
    game = picked(underground, "mummies", "commando")
    assert game.conquest_cost(1) == 2


def test_mummies_dragon_pays_exactly_one_edge(underground: sw.Rules) -> None:
    """Mummies (edge): the surcharge is a cost; the Dragon's conquest pays exactly 1 token,
    whatever the cost, so it is not raised."""
    game = picked(underground, "mummies", "dragon_master")
    assert game.conquest_cost(3) == 4
    game.apply(sw.UseAbility("dragon_attack", 3))
    assert game.region(3).race == "mummies" and game.region(3).tokens == 1
    assert game.hand(0) == 10 + 5 - 1


# --------------------------------------------------------------------------- Ogres


def test_ogres_banner_and_box(underground: sw.Rules) -> None:
    """Ogres: the banner gives 5 tokens; the box holds 10."""
    race = underground.races["ogres"]
    assert (race.tokens, race.box) == (5, 10)
    assert picked(underground, "ogres", "plain").hand(0) == 5


def test_ogres_pay_one_less_for_every_conquest(underground: sw.Rules) -> None:
    """Ogres: an empty region costs 1, a Lost Tribe's 2, a Mountain 2."""
    game = picked(underground, "ogres", "plain")
    assert [game.conquest_cost(r) for r in (1, 3, 5)] == [1, 2, 2]
    game.apply(sw.Conquer(3))
    assert game.hand(0) == 5 - 2 and game.region(3).race == "ogres"


def test_ogres_keep_the_minimum_of_one_token_edge(underground: sw.Rules) -> None:
    """Ogres (edge): with Commando as well an empty region would cost 0: it costs 1 (the
    breakdown shows the clamp)."""
    game = picked(underground, "ogres", "commando")
    breakdown = game.explain_conquest_cost(1)
    assert (breakdown.value, breakdown.clamped_from) == (1, 0)


# --------------------------------------------------------------------------- scoring powers


SCORING = {
    # power: (regions the bonus counts on the 2-player map, whether it works in decline)
    "mining": ({2, 5, 15, 18}, False),
    "mystic": ({1, 10, 13, 16}, False),
    "stone": ({5, 8, 15, 19}, False),
    "muddy": ({3, 16, 18, 20}, True),
}


@pytest.mark.parametrize("power", sorted(SCORING))
def test_scoring_power_badge(underground: sw.Rules, power: str) -> None:
    """Mining, Mystic, Stone: 4 tokens each; Muddy: 3."""
    expected = 3 if power == "muddy" else 4
    assert underground.powers[power].tokens == expected
    assert picked(underground, "ratmen", power).hand(0) == 8 + expected


@pytest.mark.parametrize("power", sorted(SCORING))
def test_scoring_power_counts_its_regions(underground: sw.Rules, power: str) -> None:
    """Mining (Mines), Mystic (Magic Sources), Stone (Mountains), Muddy (Swamps): each such
    region held scores 1 more coin at the end of the turn; other regions only 1 (Skeletons,
    whose large box lets ``put`` set the regions up)."""
    regions, _ = SCORING[power]
    game = sw.Game.new(players=2, seed=1, rules=underground, combos=[("skeletons", power)])
    counted = {r.id for r in game.map.regions if _counts(power, r)}
    assert counted == regions
    game.apply(sw.PickCombo(0))
    for region in sorted(regions)[:2]:
        game.put(region, 0, 1)
    game.put(4, 0, 1)  # Hill, none of the four
    deploy_all_and_end(game)
    assert last_score(game, 0).coins == 3 + 2
    assert game.coins(0) == 5 + 5


def _counts(power: str, region: sw.Region) -> bool:
    return {
        "mining": "mine" in region.features,
        "mystic": "magic" in region.features,
        "stone": region.terrain == "mountain",
        "muddy": region.terrain == "swamp",
    }[power]


@pytest.mark.parametrize("power", sorted(SCORING))
def test_scoring_power_in_decline_edge(underground: sw.Rules, power: str) -> None:
    """Mining, Mystic, Stone (edge): nothing in decline, the badge is discarded; Muddy works in
    decline too, the decline turn included, and keeps its badge."""
    regions, in_decline = SCORING[power]
    game = picked(underground, "skeletons", power)
    first, second = sorted(regions)[:2]
    game.put(first, 0, 1)
    game.put(second, 0, 1)
    deploy_all_and_end(game)  # 2 regions + 2
    assert game.coins(0) == 5 + 4
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(4))  # a Hill, none of the four
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # player 0: the decline turn scores
    bonus = 2 if in_decline else 0
    assert last_score(game, 0).coins == 2 + bonus
    assert game.coins(0) == 9 + 2 + bonus
    assert underground.powers[power].works_in_decline is in_decline


# --------------------------------------------------------------------------- Mudmen


def mudmen_on_a_swamp(rules: sw.Rules, **kwargs: object) -> sw.Game:
    """Player 0's Mudmen take Swamp 3 (3 tokens) and Forest 2 (2 tokens), 0 left in hand
    (and redeploy the new Mudman, if any); player 1's Crowd take Mountain 19; player 0's
    second turn begins."""
    game = new_game(rules, [("mudmen", "plain"), ("crowd", "plain2")], **kwargs)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))
    game.apply(sw.Conquer(2))
    assert game.hand(0) == 0
    deploy_all_and_end(game)
    if game.phase is sw.Phase.REDEPLOY:
        deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    return game


def test_mudmen_banner_and_box(underground: sw.Rules) -> None:
    """Mudmen: the banner gives 5 tokens; the box holds 12 (as the Underground rules list)."""
    race = underground.races["mudmen"]
    assert (race.tokens, race.box) == (5, 12)


def test_mudmen_option_gives_them_when_the_turn_begins(underground: sw.Rules) -> None:
    """Mudmen: with the option mudmen_at_turn_start, 1 new Mudman per Swamp held at the
    start of the turn: readying leaves 1 per region (3 in hand), the Swamp adds 1: 4 tokens
    for the conquests (by default the turn begins with the 3 readied)."""
    game = mudmen_on_a_swamp(underground, options={"mudmen_at_turn_start": True})
    assert game.to_move == 0 and game.hand(0) == 2 + 1 + 1
    assert isinstance(game.log[-1], TokensGained)  # after readying, before any conquest


def test_mudmen_gain_one_per_swamp_at_redeployment_edge(underground: sw.Rules) -> None:
    """Mudmen (edge): during the redeployment, 1 new Mudman per Swamp held (the Underground
    rules booklet): with 0 tokens left after taking Swamp 3 and Forest 2, ending the
    conquests leads to a redeployment of 1 Mudman (with the option mudmen_at_turn_start
    the turn just ends)."""
    for option, phase, hand in ((False, sw.Phase.REDEPLOY, 1), (True, sw.Phase.PICK, 0)):
        game = new_game(
            underground,
            [("mudmen", "plain"), ("crowd", "plain2")],
            options={"mudmen_at_turn_start": option},
        )
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(3))
        game.apply(sw.Conquer(2))
        game.apply(sw.EndTurn())
        assert (game.phase, game.hand(0)) == (phase, hand)


def test_mudmen_without_a_swamp_gain_nothing_edge(underground: sw.Rules) -> None:
    """Mudmen (edge): no Swamp held, no new Mudman."""
    game = new_game(underground, [("mudmen", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert game.hand(0) == 5 - 1


# --------------------------------------------------------------------------- Drow


def drow_in_the_south(rules: sw.Rules) -> sw.Game:
    """Player 0's Drow hold Hill 14 (a Lost Tribe's region), Mountain 15 and Forest 21: 14
    and 15 border Lost Tribes (10, 13), Forest 21 borders only the Drow, Swamp 20 (empty) and
    the Sea."""
    game = new_game(rules, [("drow", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    for region in (14, 15, 21):
        game.put(region, 0, 1)
    assert game.region(10).lost_tribe and game.region(13).lost_tribe
    return game


def test_drow_banner_and_box(underground: sw.Rules) -> None:
    """Drow: the banner gives 4 tokens; the box holds 9 (as the Underground rules list)."""
    race = underground.races["drow"]
    assert (race.tokens, race.box) == (4, 9)


def test_drow_score_a_region_bordering_no_other_race(underground: sw.Rules) -> None:
    """Drow: 1 bonus coin for each region that borders no region of another race (a Lost
    Tribe counts as one, a Drow region does not): of 14, 15 and 21 only 21 scores it."""
    game = drow_in_the_south(underground)
    deploy_all_and_end(game)
    assert last_score(game, 0).details[0][:2] == ("drow", 3 + 1)
    assert last_score(game, 0).coins == 3 + 1


@pytest.mark.parametrize("owner", [0, 1])
def test_drow_a_race_in_decline_is_another_race_edge(underground: sw.Rules, owner: int) -> None:
    """Drow (edge): a race in decline on Swamp 20, the opponent's or the Drow player's own,
    is another race: Forest 21 no longer scores the bonus."""
    game = drow_in_the_south(underground)
    game.put(20, owner, 1, declined=True, race="humans")
    deploy_all_and_end(game)
    drow = {race: coins for race, coins, _ in last_score(game, 0).details}["drow"]
    assert drow == 3

