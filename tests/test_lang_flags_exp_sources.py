"""The flags ``crosses_water`` and ``immune_to_penniless`` (docs/rule-language.md), with an
invented race, the Waders of tests/rules_sources/.

crosses_water: the race's conquests pass through the Seas and the Lake, the water itself never
held. immune_to_penniless: its regions, active or in decline, are immune to an opponent who
has no coins.

2-player map: Forest 2 (edge) on the Lake 7's shore; Forest 12 and Farmland 13 across it;
Farmland 1 on Sea 0's shore, Mountain 5 across it (and next to 1); Hill 4 (edge).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw

FOLDER = Path(__file__).parent / "rules_sources"
TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def rules() -> sw.Rules:
    return sw.load_rules(paths=[FOLDER, TEST_RULES])


def test_the_flags_are_in_the_vocabulary() -> None:
    """Both flags are names of the closed vocabulary, with their meaning."""
    from smallworld_rules.dsl.vocabulary import FLAGS

    assert "Seas and the Lake" in FLAGS["crosses_water"]
    assert "no coins" in FLAGS["immune_to_penniless"]


def test_crosses_water_reaches_the_far_shore(rules: sw.Rules) -> None:
    """crosses_water: from Forest 2 the Waders may conquer Forest 12 and Farmland 13 across
    the Lake (and the Seafaring Waders the Lake itself too); without the flag, no."""
    game = new_game(rules, [("waders", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    legal = set(game.legal_actions())
    assert {sw.Conquer(12), sw.Conquer(13)} <= legal and sw.Conquer(7) not in legal
    game = new_game(rules, [("waders", "seafaring"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    assert {sw.Conquer(7), sw.Conquer(12)} <= set(game.legal_actions())


def test_crosses_water_enters_by_the_edge_edge(rules: sw.Rules) -> None:
    """crosses_water (edge): the first conquest still enters at the edge: Forest 12, across
    the Lake from nothing, is refused with the border rule's reason."""
    game = new_game(rules, [("waders", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    with pytest.raises(sw.IllegalAction, match="border"):
        game.apply(sw.Conquer(12))


def test_immune_to_penniless_refuses_an_opponent_without_coins(rules: sw.Rules) -> None:
    """immune_to_penniless: an opponent with no coins cannot conquer the Waders' region, nor
    aim the Dragon at it; with a coin he conquers it."""
    for coins, conquerable in ((0, False), (1, True)):
        game = new_game(rules, [("waders", "plain"), ("ratmen", "dragon_master")])
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(4))
        game.apply(sw.Deploy(4, 1))
        game.apply(sw.Deploy(4, game.hand(0)))
        game.apply(sw.EndTurn())
        game.put(4, 0, 1)
        game.set_coins(1, coins)
        game.apply(sw.PickCombo(0))  # the top combo: free
        legal = set(game.legal_actions())
        assert (sw.Conquer(4) in legal) is conquerable
        assert (sw.UseAbility("dragon_attack", 4) in legal) is conquerable


def test_immune_to_penniless_in_decline_too_edge(rules: sw.Rules) -> None:
    """immune_to_penniless (edge): the immunity holds for the Waders in decline too; it ends
    as soon as the opponent has a coin again."""
    game = new_game(rules, [("ratmen", "plain"), ("humans", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.put(4, 0, 1, declined=True, race="waders")
    game.set_coins(1, 0)
    game.apply(sw.PickCombo(0))
    assert sw.Conquer(4) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(4))
    game.set_coins(1, 1)
    game.apply(sw.Conquer(4))
    assert game.region(4).race == "humans" and game.declined_races(0) == []
