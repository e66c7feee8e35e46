"""Heroic (rule 3): at redeployment `place_hero` puts the 2 Heroes in 2 different own
regions; those regions are immune to conquest and to every racial and special power — the
Dragon, the Sorcerers' conversion (ruling 23); the Heroes are placed again each turn and
removed on decline (ruling 28).

Positions on the 2-player map: 1, 2 and 5 (an edge Mountain) are empty edge regions; 11 (edge
Farmland with a Lost Tribe) borders 5; 6 (interior Hill) borders 1, 2, 5 and 11.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import AbilityUsed


def _refused(game: sw.Game, action: sw.Action, match: str) -> None:
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _heroes(game: sw.Game) -> list[int]:
    return [r for r in range(len(game.map.regions)) if game.region(r).pieces.get("hero")]


def _uses(game: sw.Game, name: str) -> set[int]:
    return {a.target for a in game.legal_actions()
            if isinstance(a, sw.UseAbility) and a.name == name}


def _heroic(rules: sw.Rules, opponent: tuple[str, str] = ("crowd", "plain2")) -> sw.Game:
    """Player 0 (Ratmen + Heroic, 13 tokens) takes 1, 2, 5 and 11, puts the Heroes on 2 and
    5 and everything else on 1 (2, 5 and 11 keep one token each); player 1 then picks
    ``opponent``."""
    game = new_game(rules, [("ratmen", "heroic"), opponent])
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 5, 11):  # 2 + 2 + 3 + 3
        game.apply(sw.Conquer(region))
    game.apply(sw.Deploy(1, 1))
    game.apply(sw.UseAbility("place_hero", 2))
    game.apply(sw.UseAbility("place_hero", 5))
    game.apply(sw.Deploy(1, game.hand(0)))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    return game


def test_heroic_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Heroic badge gives 5 tokens."""
    assert rules.powers["heroic"].tokens == 5
    game = new_game(rules, [("ratmen", "heroic")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 5


def test_two_heroes_in_two_regions_at_redeployment_ruling_28(rules: sw.Rules) -> None:
    """Ruling 28: the 2 Heroes go, at redeployment, to 2 different own regions."""
    game = new_game(rules, [("ratmen", "heroic")])
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 5):
        game.apply(sw.Conquer(region))
    assert _uses(game, "place_hero") == set()
    _refused(game, sw.UseAbility("place_hero", 1), "during redeploy")
    game.apply(sw.Deploy(1, 1))
    assert _uses(game, "place_hero") == {1, 2, 5}
    game.apply(sw.UseAbility("place_hero", 2))
    assert _uses(game, "place_hero") == {1, 5}
    _refused(game, sw.UseAbility("place_hero", 2), "cannot target region 2")  # same region
    _refused(game, sw.UseAbility("place_hero", 6), "cannot target region 6")  # not held
    game.apply(sw.UseAbility("place_hero", 5))
    assert _heroes(game) == [2, 5] and saved_state(game)["piece_supply"]["hero"] == 0
    assert [e.target for e in game.log if isinstance(e, AbilityUsed)] == [2, 5]
    assert _uses(game, "place_hero") == set()
    _refused(game, sw.UseAbility("place_hero", 1), "no hero is left")


def test_hero_regions_immune_to_conquest_dragon_and_sorcerers_ruling_23(
    rules: sw.Rules,
) -> None:
    """Ruling 23 (Heroic + Sorcerers): a Hero's region cannot be conquered, converted by the
    Sorcerers or attacked by the Dragon; the lone token on 11, without a Hero, can."""
    game = _heroic(rules, ("sorcerers", "dragon_master"))
    game.put(6, 1, 2)  # Sorcerers next to 1, 2, 5 and 11
    assert [game.region(r).tokens for r in (2, 5, 11)] == [1, 1, 1]
    conquests = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert 11 in conquests and not conquests & {2, 5}
    assert _uses(game, "convert") == {11}
    dragon = _uses(game, "dragon_attack")  # the Dragon ignores 1's big stack
    assert 11 in dragon and 1 in dragon and not dragon & {2, 5}
    for region in (2, 5):
        _refused(game, sw.Conquer(region), "immune")
        _refused(game, sw.UseAbility("convert", region), f"cannot target region {region}")
        _refused(game, sw.UseAbility("dragon_attack", region), f"cannot target region {region}")
    game.apply(sw.UseAbility("convert", 11))
    assert game.region(11).race == "sorcerers"


def test_heroes_placed_again_each_turn_ruling_28(rules: sw.Rules) -> None:
    """Ruling 28: at the next redeployment the Heroes leave their regions (which lose their
    immunity) and are placed again."""
    game = _heroic(rules, ("skeletons", "bulky"))  # 11 tokens
    game.apply(sw.Conquer(17))  # next to 11 and 12
    deploy_all_and_end(game)
    assert _heroes(game) == [2, 5]  # they stood through the opponent's turn
    game.apply(sw.Deploy(1, 1))  # conquests end: the Heroes come back
    assert _heroes(game) == [] and saved_state(game)["piece_supply"]["hero"] == 2
    game.apply(sw.UseAbility("place_hero", 1))
    game.apply(sw.UseAbility("place_hero", 11))
    deploy_all_and_end(game)
    assert _heroes(game) == [1, 11]
    conquests = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert 11 not in conquests and game.conquest_cost(11) <= game.hand(1)  # the new Hero
    game.apply(sw.Conquer(12))  # from 17
    game.apply(sw.Conquer(6))
    assert sw.Conquer(5) in game.legal_actions()  # no Hero there any more
    game.apply(sw.Conquer(5))  # 2 + 1 + Mountain
    assert game.region(5).race == "skeletons"


def test_heroes_removed_on_decline_ruling_28(rules: sw.Rules) -> None:
    """Ruling 28 / rule 1.12 (edge): the Heroes leave the map when the race declines."""
    game = _heroic(rules)
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert _heroes(game) == [] and saved_state(game)["piece_supply"]["hero"] == 2
    assert game.region(2).declined and game.region(5).declined
    assert game.active_player == 1
    assert game.conquest_cost(2) == 2 + 1  # an ordinary declined region again
