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
from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def afraid() -> sw.Rules:
    """The official rules, the Be Not Afraid box and the test-only rule files."""
    return sw.load_rules(expansions=["be_not_afraid"], paths=[TEST_RULES])


def mercenary(rules: sw.Rules, race: str = "ratmen") -> sw.Game:
    game = new_game(rules, [(race, "mercenary"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_mercenary_badge(afraid: sw.Rules) -> None:
    """Mercenary: the badge gives 4 tokens (Ratmen 8 + 4)."""
    assert afraid.powers["mercenary"].tokens == 4
    assert mercenary(afraid).hand(0) == 12


def test_mercenary_hire_costs_a_coin_and_two_tokens_less(afraid: sw.Rules) -> None:
    """Mercenary: paying 1 coin for a region makes its conquest cost 2 tokens less: Swamp 3
    (2 + 1 Lost Tribe) costs 1 instead of 3; the breakdown shows the discount, and the
    conquest spends it."""
    game = mercenary(afraid)
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


def test_mercenary_minimum_of_one_token(afraid: sw.Rules) -> None:
    """Mercenary: a minimum of 1 token is still required: empty Hill 4 (2) costs 1, not 0,
    and the breakdown says it was clamped."""
    game = mercenary(afraid)
    game.apply(sw.UseAbility("hire", 4))
    breakdown = game.explain_conquest_cost(4)
    assert (breakdown.clamped_from, breakdown.value) == (0, 1)


def test_mercenary_once_per_region(afraid: sw.Rules) -> None:
    """Mercenary: Mercenaries are hired once per region: a second hire for the same region
    is refused and changes nothing; another region may still be hired for."""
    game = mercenary(afraid)
    game.apply(sw.UseAbility("hire", 3))
    assert sw.UseAbility("hire", 3) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("hire", 3))
    assert game.to_json() == before
    assert sw.UseAbility("hire", 4) in game.legal_actions()


def test_mercenary_needs_a_coin(afraid: sw.Rules) -> None:
    """Mercenary: a player without a coin cannot hire them (the ability costs 1 coin)."""
    game = mercenary(afraid)
    game.set_coins(0, 0)
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    with pytest.raises(sw.IllegalAction, match="costs 1 coin"):
        game.apply(sw.UseAbility("hire", 3))


def test_mercenary_only_regions_the_race_could_conquer(afraid: sw.Rules) -> None:
    """Mercenary: the hire names a region the race could conquer now: before its first
    conquest, an inland region (Hill 6) is refused."""
    game = mercenary(afraid)
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("hire", 6))


def test_mercenary_unspent_hire_lapses_with_the_turn(afraid: sw.Rules) -> None:
    """Mercenary: a hire not used this turn is lost: the region costs its full price in the
    owner's next turn; a save made while it waits loads back the same."""
    game = mercenary(afraid)
    game.apply(sw.UseAbility("hire", 4))
    saved = game.to_json()
    assert sw.Game.from_json(saved, rules=afraid).to_json() == saved
    assert sw.Game.from_json(saved, rules=afraid).conquest_cost(4) == 1
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # the other player's Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert game.to_move == 0
    assert game.conquest_cost(4) == 2
