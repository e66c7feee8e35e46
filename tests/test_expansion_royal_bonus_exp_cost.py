"""Royal Bonus (expansions/royal_bonus/): Fireball, written with the rule language's
``discount N`` effect and a counter.

Fireball: when the conquests end, 1 Fireball per Magic Source region held (at most 4 held);
in a later conquest each Fireball thrown at a region makes its conquest cost 2 less (at
least 1), several on one region; a thrown Fireball is spent.

2-player map: Farmland 1 (edge, Magic), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4
(edge), Forest 10 (edge, Magic, Lost Tribe), Swamp 16 (edge, Magic, Lost Tribe).
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game, play_round_back

import smallworld_rules as sw


def fireball(rules: sw.Rules) -> sw.Game:
    # Skeletons: their box (20) has tokens left to set positions up with
    game = new_game(rules, [("skeletons", "fireball"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def throws(game: sw.Game) -> list[sw.UseAbility]:
    return [
        a for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name == "throw_fireball"
    ]


def test_fireball_badge(royal: sw.Rules) -> None:
    """Fireball: the badge gives 5 tokens (Skeletons 6 + 5)."""
    assert royal.powers["fireball"].tokens == 5
    assert fireball(royal).hand(0) == 11


def test_fireball_no_fireball_before_a_magic_source(royal: sw.Rules) -> None:
    """Fireball: the race starts without Fireballs, so it has nothing to throw."""
    assert throws(fireball(royal)) == []


def test_fireball_one_per_magic_source_then_two_tokens_less(royal: sw.Rules) -> None:
    """Fireball: holding 2 Magic Sources when the conquests end gives 2 Fireballs; next
    turn each thrown at Swamp 3 (2 + 1 Lost Tribe) lowers its cost by 2, down to 1, and the
    Fireballs are spent."""
    game = fireball(royal)
    game.put(1, 0, 1)
    game.put(10, 0, 1)
    game.apply(sw.Conquer(4))
    play_round_back(game)
    assert game.conquest_cost(3) == 3
    game.apply(sw.UseAbility("throw_fireball", 3))
    assert game.conquest_cost(3) == 1
    game.apply(sw.UseAbility("throw_fireball", 3))  # several on one region
    assert game.explain_conquest_cost(3).clamped_from == -1
    assert throws(game) == []  # both spent
    game.apply(sw.Conquer(3))


def test_fireball_at_most_four_held(royal: sw.Rules) -> None:
    """Fireball: the race holds at most 4 Fireballs, however many Magic Sources it
    occupies: 3 Magic Sources at the end of two turns' conquests give 3, then 1; once the 4
    are thrown, none is left."""
    game = fireball(royal)
    for region in (1, 10, 13):
        game.put(region, 0, 1)
    game.apply(sw.Conquer(4))
    play_round_back(game)  # 3 Fireballs
    play_round_back(game)  # 3 Magic Sources again, but only 1 more Fireball
    for _ in range(4):
        game.apply(sw.UseAbility("throw_fireball", 3))
    assert throws(game) == []


def test_fireball_not_thrown_is_kept(royal: sw.Rules) -> None:
    """Fireball: a Fireball not thrown is kept for a later turn (a turn without a Magic
    Source adds none and takes none away)."""
    game = fireball(royal)
    game.put(1, 0, 1)
    game.apply(sw.Conquer(2))
    play_round_back(game)  # 1 Fireball
    game.apply(sw.Abandon(1))
    play_round_back(game)  # no Magic Source: no Fireball more, none lost
    assert sw.UseAbility("throw_fireball", 3) in throws(game)
    game.apply(sw.UseAbility("throw_fireball", 3))
    assert throws(game) == []


def behemoth(rules: sw.Rules) -> sw.Game:
    """Player 0's Behemoth Skeletons hold Swamps 16 and 20 (set up), so each stack counts
    2 Behemoths."""
    game = new_game(rules, [("skeletons", "behemoth"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.put(16, 0, 1)
    game.put(20, 0, 1)
    return game


def charges(game: sw.Game) -> set[tuple[str, int | None]]:
    return {
        (a.name, a.target) for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name.endswith("_charge")
    }


def test_behemoth_badge(royal: sw.Rules) -> None:
    """Behemoth: the badge gives 4 tokens (Skeletons 6 + 4)."""
    assert royal.powers["behemoth"].tokens == 4


def test_behemoth_stack_lowers_a_conquest_by_the_swamps_held(royal: sw.Rules) -> None:
    """Behemoth: with 2 Swamps held a stack joins the conquest of Mountain 19 (2 + 1
    Mountain = 3) for 3 - 2 = 1 token, and stays there; the other stack may join another
    conquest, each once per turn."""
    game = behemoth(royal)
    hand = game.hand(0)
    game.apply(sw.UseAbility("male_charge", 19))
    assert game.region(19).race == "skeletons" and game.hand(0) == hand - 1
    assert game.region(19).pieces == {"male_behemoth": 1}
    assert ("male_charge", 21) not in charges(game) and ("female_charge", 21) in charges(game)


def test_behemoth_no_stack_without_a_swamp(royal: sw.Rules) -> None:
    """Behemoth (edge): no Behemoth before a first Swamp is held: entering at Hill 4 the
    stacks cannot join a conquest."""
    game = new_game(royal, [("skeletons", "behemoth"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    assert charges(game) == set()


def test_behemoth_stack_defends_with_its_number(royal: sw.Rules) -> None:
    """Behemoth: a region with a stack defends with as many tokens more as the race holds
    Swamps: the Crowd pays 2 + the Skeletons + 1 Mountain + 2 Behemoths for Mountain 19."""
    game = behemoth(royal)
    game.apply(sw.UseAbility("male_charge", 19))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # the Crowd
    assert game.region(19).pieces == {"male_behemoth": 1}
    assert game.conquest_cost(19) == 2 + game.region(19).tokens + 1 + 2


def test_behemoth_stack_is_placed_again_when_its_region_falls(royal: sw.Rules) -> None:
    """Behemoth (edge): when a stack's region is conquered, the stack is not lost: its owner
    places it at once in another of his regions."""
    game = behemoth(royal)
    game.apply(sw.UseAbility("male_charge", 19))
    game.apply(sw.Deploy(16, 1))  # the conquests end: Mountain 19 keeps 1 Skeleton
    game.apply(sw.Deploy(16, game.hand(0)))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # the Crowd: 8 tokens
    assert game.conquest_cost(19) == 2 + 1 + 1 + 2
    game.apply(sw.Conquer(19))
    assert not game.region(19).pieces
    deploy_all_and_end(game)  # the Crowd redeploys and ends the turn
    assert game.phase is sw.Phase.WITHDRAWAL
    assert sw.UseAbility("place_male", 20) in game.legal_actions()
    game.apply(sw.UseAbility("place_male", 20))
    assert game.region(20).pieces == {"male_behemoth": 1}
