"""Cursed! (expansions/cursed/): the items of the box the rule language can say today.

Goblins: a region held by a race in decline (a Lost Tribe, any player's declined race) costs
the Goblins 1 token less; the minimum of 1 token still holds. The other items of the box wait
for constructs the language lacks (docs/expansions.md, expansions/CATALOGUE.toml).

2-player map: Swamp 3 (edge, Lost Tribe), Hill 4 (edge, empty), Farmland 1 (edge, empty).
"""

from __future__ import annotations

from pathlib import Path

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


def goblins(rules: sw.Rules, power: str = "plain") -> sw.Game:
    game = new_game(rules, [("goblins", power), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_goblins_banner_and_box(cursed: sw.Rules) -> None:
    """Goblins: the banner gives 6 tokens; the box holds 11 (the banner and the largest
    badge, 5)."""
    race = cursed.races["goblins"]
    assert (race.tokens, race.box) == (6, 11)
    assert goblins(cursed).hand(0) == 6
    assert goblins(cursed, "bulky").hand(0) == 11  # 6 + 5: the box is not a cap here


def test_goblins_pay_one_less_against_a_lost_tribe(cursed: sw.Rules) -> None:
    """Goblins: a Lost Tribe counts as a race in decline, so its region costs 1 less: Swamp 3
    (2 + 1 Lost Tribe) costs 2; the breakdown names the Goblins' rule file."""
    game = goblins(cursed)
    assert game.region(3).lost_tribe
    assert game.conquest_cost(3) == 2
    breakdown = game.explain_conquest_cost(3)
    assert [(c.label, c.op, c.amount) for c in breakdown.contributions] == [
        ("Lost Tribe tokens", "add", 1),
        ("Goblins", "sub", 1),
    ]
    assert Path(breakdown.contributions[1].path).parts[-3:] == (
        "expansions", "cursed", "goblins.swr"
    )
    game.apply(sw.Conquer(3))
    assert game.hand(0) == 6 - 2 and game.region(3).race == "goblins"


def test_goblins_pay_one_less_against_a_declined_race(cursed: sw.Rules) -> None:
    """Goblins: an opponent's declined race is a race in decline: 2 declined Ratmen on Hill 4
    (2 + 2) cost the Goblins 3 instead of 4."""
    game = goblins(cursed)
    game.put(4, 1, 2, declined=True, race="ratmen")
    assert game.conquest_cost(4) == 3
    game.apply(sw.Conquer(4))
    assert game.hand(0) == 6 - 3


def test_goblins_discount_against_their_own_declined_race(cursed: sw.Rules) -> None:
    """Goblins: the player's own race in decline is a race in decline too: his 2 declined
    Ratmen on Hill 4 cost 3."""
    game = new_game(cursed, [("goblins", "plain")])
    game.put(4, 0, 2, declined=True, race="ratmen")
    game.apply(sw.PickCombo(0))
    assert game.declined_races(0) == ["ratmen"]
    assert game.conquest_cost(4) == 3


def test_goblins_no_discount_against_an_active_race_edge(cursed: sw.Rules) -> None:
    """Goblins (edge): an opponent's active race is not in decline: 2 active Ratmen on Hill 4
    cost the full 4, and an empty region the full 2."""
    game = goblins(cursed)
    game.put(4, 1, 2, race="ratmen")
    assert game.conquest_cost(4) == 4
    assert game.conquest_cost(1) == 2
    assert all(c.path == "<core>" for c in game.explain_conquest_cost(4).contributions)


def test_goblins_keep_the_minimum_of_one_token_edge(cursed: sw.Rules) -> None:
    """Goblins (edge): with Commando's 1 less as well, a lone declined token (2 + 1 - 2) still
    costs 1, and an empty region (2 - 1) 1, never less."""
    game = goblins(cursed, "commando")
    game.put(4, 1, 1, declined=True, race="ratmen")
    assert game.conquest_cost(4) == 1
    assert game.conquest_cost(1) == 1


def test_goblins_discount_only_while_active_edge(cursed: sw.Rules) -> None:
    """Goblins (edge): the discount is a rule of the active Goblins: once they are in decline,
    the player's next race (Humans) pays the full 3 for the Lost Tribe on Swamp 3."""
    game = new_game(cursed, [("goblins", "plain"), ("crowd", "plain2"), ("humans", "bulky")])
    game.apply(sw.PickCombo(0))
    assert game.conquest_cost(3) == 2
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.declined_races(0) == ["goblins"]
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # player 0: Humans
    assert game.active_race(0) == "humans"
    assert game.conquest_cost(3) == 3


def test_goblins_discount_against_ghosts_of_necromancer_island() -> None:
    """Goblins with Necromancer Island: the Ghosts count as a race in decline for every other
    race, so 2 Ghosts on Hill 4 (2 + 2) cost the Goblins 3."""
    rules = sw.load_rules(expansions=["cursed", "necromancer_island"], paths=[TEST_RULES])
    game = sw.Game.new(players=3, seed=1, rules=rules, combos=[("goblins", "plain")])
    game.apply(game.legal_actions()[0])  # the Necromancer activates a drafted power
    game.put(4, 2, 2)
    assert game.region(4).race == "ghost"
    game.apply(sw.PickCombo(0))
    assert game.active_race(0) == "goblins"
    assert game.conquest_cost(4) == 3
