"""Small World Underground (expansions/underground/), the items of the market, markers and
pools of tokens: Shield and Shadow Mimes.

Shield: at each redeployment the race earns 1 Mushroom Shield per Forest it holds and places
them on its regions, 1 defence each, until its next redeployment (8 in the supply).
Shadow Mimes: when picked, they may swap their badge for another combo's.

2-player map: Farmland 1 (edge, Magic), Forest 2 (edge, Mine), Swamp 3 (edge, Lost Tribe),
Hill 6, Mountain 8, Forest 21 (Forest 2 borders 1, 3, 6, 7, 8).
"""

from __future__ import annotations

import json

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import PowerSwapped


def shields(game: sw.Game) -> list[sw.UseAbility]:
    return [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]


def shield_game(rules: sw.Rules) -> sw.Game:
    """Humans with Shield hold Forest 2 and Farmland 1 and have begun redeploying."""
    game = new_game(rules, [("humans", "shield"), ("crowd", "plain2"), ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(2, 1))  # the first redeployment step ends the conquests
    return game


def test_shield_badge_and_supply(underground: sw.Rules) -> None:
    """Shield: the badge gives 3 tokens; the box holds 8 Mushroom Shields, 1 defence each."""
    assert underground.powers["shield"].tokens == 3
    piece = underground.pieces["mushroom_shield"]
    assert (piece.supply, piece.defence) == (8, 1)


def test_shield_one_per_forest_placed_on_any_own_region(underground: sw.Rules) -> None:
    """Shield: one Forest held earns one Mushroom Shield, placed on any region of the race
    (here the Farmland); it adds 1 to that region's defence."""
    game = shield_game(underground)
    assert {a.target for a in shields(game)} == {1, 2}
    game.apply(sw.UseAbility("raise_shield", 1))
    assert game.region(1).pieces == {"mushroom_shield": 1}
    assert shields(game) == []  # one Forest, one shield
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("raise_shield", 2))
    deploy_all_and_end(game)
    assert game.to_move == 1
    assert saved_state(game)["piece_supply"]["mushroom_shield"] == 7


def test_shield_defence_counts_for_the_attacker(underground: sw.Rules) -> None:
    """Shield: a region with a Mushroom Shield costs its attacker 1 token more."""
    game = shield_game(underground)
    game.apply(sw.UseAbility("raise_shield", 2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # the second player
    breakdown = game.explain_conquest_cost(2)
    tokens = game.region(2).tokens
    assert [(c.op, c.amount) for c in breakdown.contributions][-1] == ("add", 1)
    assert breakdown.contributions[-1].path.endswith("shield.swr")
    assert breakdown.value == 2 + tokens + 1  # base, the tokens there, the shield


def test_shield_without_forest_earns_nothing_edge(underground: sw.Rules) -> None:
    """Shield (edge): a race holding no Forest earns no shield at its redeployment."""
    game = new_game(underground, [("humans", "shield"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 1))
    assert shields(game) == []


def test_shields_come_back_and_are_earned_afresh_edge(underground: sw.Rules) -> None:
    """Shield (edge): the shields on the map come back at the next redeployment, and the race
    earns as many as it then holds Forests: they never pile up."""
    game = shield_game(underground)
    game.apply(sw.UseAbility("raise_shield", 1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(21 if sw.Conquer(21) in game.legal_actions() else 19))
    deploy_all_and_end(game)
    assert game.to_move == 0 and game.region(1).pieces == {"mushroom_shield": 1}
    game.apply(sw.Conquer(8))
    deploy = next(a for a in game.legal_actions() if isinstance(a, sw.Deploy))
    game.apply(deploy)
    assert game.region(1).pieces == {}  # lifted when the redeployment began
    assert {a.target for a in shields(game)} == {1, 2, 8}
    game.apply(sw.UseAbility("raise_shield", 8))
    assert shields(game) == []
    assert saved_state(game)["piece_supply"]["mushroom_shield"] == 7


# --------------------------------------------------------------------------- Shadow Mimes


def mimes_picked(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("shadow_mimes", "plain"), ("crowd", "commando"),
                            ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def test_shadow_mimes_banner_and_box(underground: sw.Rules) -> None:
    """Shadow Mimes: the banner gives 7 tokens; the box holds 12."""
    race = underground.races["shadow_mimes"]
    assert (race.tokens, race.box) == (7, 12)


def test_shadow_mimes_swap_their_badge_when_picked(underground: sw.Rules) -> None:
    """Shadow Mimes: when picked, they may swap their badge for another combo's: they take
    that badge's tokens, and the other combo gets theirs."""
    game = mimes_picked(underground)
    choices = list(game.legal_actions())
    assert choices[0] == sw.ChoosePower("plain")
    assert sw.ChoosePower("commando") in choices and game.phase is sw.Phase.PICK
    game.apply(sw.ChoosePower("commando"))
    assert game.hand(0) == 7 + 4
    assert PowerSwapped(0, "shadow_mimes", "plain", "commando", 11) in game.log
    market = json.loads(game.to_json())["state"]["market"]
    assert market[0][:2] == ["crowd", "plain"]
    assert game.conquest_cost(1) == 1  # Commando's discount works for them at once


def test_shadow_mimes_may_keep_their_badge_edge(underground: sw.Rules) -> None:
    """Shadow Mimes (edge): choosing their own badge keeps it and the market as it was; the
    choice must be made before anything else, and a badge not on offer is refused."""
    game = mimes_picked(underground)
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.Conquer(1))
    with pytest.raises(sw.IllegalAction, match="not a badge"):
        game.apply(sw.ChoosePower("flying"))
    before = json.loads(game.to_json())["state"]["market"]
    game.apply(sw.ChoosePower("plain"))
    assert game.hand(0) == 7 and game.phase is sw.Phase.CONQUEST
    assert json.loads(game.to_json())["state"]["market"] == before


def test_shadow_mimes_waiting_choice_is_saved(underground: sw.Rules) -> None:
    """Shadow Mimes: a save made while the badge is to be chosen loads back with the same
    choices; a corrupt pending choice is refused with a short message."""
    game = mimes_picked(underground)
    text = game.to_json()
    again = sw.Game.from_json(text, rules=underground)
    assert list(again.legal_actions()) == list(game.legal_actions())
    data = json.loads(text)
    data["state"]["lang"]["swap"] = ["ratmen", 0]
    with pytest.raises(sw.RulesError) as caught:
        sw.Game.from_json(json.dumps(data), rules=underground)
    assert "swap" in str(caught.value) and len(str(caught.value)) < 200


def test_shadow_mimes_waiting_choice_is_public(underground: sw.Rules) -> None:
    """Shadow Mimes: the badge being chosen is public: another player's observation shows
    it, and a game rebuilt from that observation offers the same choices."""
    from smallworld_rules.observation import game_from_observation

    game = mimes_picked(underground)
    seen = game.observation(1)
    assert seen["state"]["lang"] == {"swap": ["shadow_mimes", 0]}
    rebuilt = game_from_observation(seen, seed=3, rules=underground)
    assert list(rebuilt.legal_actions()) == list(game.legal_actions())
