"""Ratmen (rule 2): no racial ability — 8 tokens, a box of 13.

Positions are on the 2-player map: region 1 is an empty Farmland with a Magic Source on the
edge, 2 an empty Forest with a Mine on the edge, 3 a Swamp with a Lost Tribe, 5 an empty
Mountain (Mine, Cavern) on the edge, 17 an empty Hill on the edge, 20 an empty Swamp on the
edge. ``plain``/``plain2`` (tests/rules/) are powers with no effect and no tokens; ``bulky``
gives 5 tokens and nothing else.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered, Scored
from smallworld_rules.hooks import CORE


def _ratmen(rules: sw.Rules, power: str = "plain") -> sw.Game:
    """Player 0 has just picked Ratmen (player 1 will get Crowd with no power)."""
    game = new_game(rules, [("ratmen", power), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def _last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


def test_ratmen_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen: banner 8 tokens, 13 in the box."""
    assert (rules.races["ratmen"].tokens, rules.races["ratmen"].box) == (8, 13)


def test_ratmen_take_banner_plus_badge_up_to_the_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen / rule 1.5: the take is 8 + badge; with a 5-token badge it is exactly the 13 in
    the box, leaving it empty."""
    game = _ratmen(rules)
    assert game.hand(0) == 8 and saved_state(game)["box"]["ratmen"] == 13 - 8
    game = _ratmen(rules, "bulky")
    assert game.hand(0) == 13 and saved_state(game)["box"]["ratmen"] == 0


def test_ratmen_rule_file_declares_no_ability_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen: "no ability" — the rule file has no modifier, flag, piece, trigger,
    ability, link or conquest-only tokens."""
    ratmen = rules.races["ratmen"]
    assert all(not mods for mods in ratmen.modifiers.values())
    assert not ratmen.flags and not ratmen.conditional_flags
    assert ratmen.pieces == () and ratmen.triggers == () and ratmen.abilities == ()
    assert ratmen.links == () and ratmen.conquest_tokens == 0


def test_ratmen_conquest_costs_have_only_core_contributions_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen / rule 1.7: every conquest cost is the core formula, with no race discount:
    2, +1 per Lost Tribe token, +1 on a Mountain; every contribution comes from the core."""
    game = _ratmen(rules)
    expected = {1: 2, 2: 2, 3: 3, 5: 3, 17: 2, 20: 2, 19: 3, 16: 3}
    for region, cost in expected.items():
        b = game.explain_conquest_cost(region)
        assert (b.base, b.value) == (2, cost), region
        assert all(c.path == CORE and c.line is None for c in b.contributions), region
        assert b.clamped_from is None


def test_ratmen_regions_have_no_extra_defence_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen / rule 1.7: an enemy pays 2 + the Ratmen tokens (+1 Mountain), nothing more."""
    game = _ratmen(rules)
    game.apply(sw.Conquer(5))  # a Mountain, 3 tokens
    game.apply(sw.Conquer(1))  # 2 tokens
    game.apply(sw.Deploy(1, 4))  # redeployment: 3 in hand + 3 lifted = 6; region 1 holds 5
    game.apply(sw.Deploy(5, 2))  # region 5 holds 3
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    assert (game.region(1).tokens, game.region(5).tokens) == (5, 3)
    b1, b5 = game.explain_conquest_cost(1), game.explain_conquest_cost(5)
    assert (b1.value, b5.value) == (2 + 5, 2 + 3 + 1)
    assert [(c.label, c.path) for c in b1.contributions] == [("Ratmen tokens", CORE)]
    assert {c.path for c in b5.contributions} == {CORE}


def test_ratmen_score_one_coin_per_region_only_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen / rule 1.11: a Magic Source, a Mine, a Farmland and a Forest bring nothing
    extra: exactly 1 coin per region (5 + 3 = 8)."""
    game = _ratmen(rules)
    game.apply(sw.Conquer(1))  # Farmland + Magic Source
    game.apply(sw.Conquer(2))  # Forest + Mine
    game.apply(sw.Conquer(5))  # Mountain + Mine (3): 7 of 8 tokens used
    deploy_all_and_end(game)
    scored = _last(game, Scored)
    assert scored.coins == 3 and game.coins(0) == 5 + 3
    assert scored.details == (("ratmen", 3, "3 = 3"),)  # no contribution: regions only


def test_ratmen_lose_exactly_one_token_when_conquered_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen / ruling 7: nothing changes their losses: one token to the box, the rest
    withdraw."""
    game = _ratmen(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 2))  # redeployment: 4 in hand + 2 lifted = 6
    game.apply(sw.Deploy(2, 4))  # region 2 holds 5
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # player 1: Crowd, 8 tokens
    assert game.region(2).tokens == 5 and game.conquest_cost(2) == 7
    game.apply(sw.Conquer(2))
    event = _last(game, Conquered)
    assert (event.defender_race, event.lost, event.returned) == ("ratmen", 1, 4)
    assert saved_state(game)["box"]["ratmen"] == 13 - 8 + 1


def test_ratmen_have_no_ability_to_use_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen (edge): no UseAbility is ever offered, and using one is refused, changing
    nothing."""
    game = _ratmen(rules)
    game.put(2, 1, 1, race="crowd")  # a lone enemy token next to region 1
    game.apply(sw.Conquer(1))
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="no ability 'convert'"):
        game.apply(sw.UseAbility("convert", 2))
    assert game.to_json() == before


def test_declined_ratmen_score_their_regions_only_section_2(rules: sw.Rules) -> None:
    """Rule 2 Ratmen / rule 1.11–1.12: in the decline turn and afterwards the Ratmen score 1 coin
    per region (here 2), nothing else."""
    game = _ratmen(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert _last(game, Scored).coins == 2 and game.coins(0) == coins + 2
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)
    assert saved_state(game)["box"]["ratmen"] == 13 - 2
