"""Grand Dames of Small World (expansions/grand_dames/): the White Ladies, whose number the
printed banner settled.

White Ladies (2): once in decline, their regions are immune to conquest and to every racial
and special power; active, they are conquered as any race.

2-player map: Hill 4 (edge), Swamp 3 (edge, Lost Tribe, next to 4), Hill 9 (next to 4).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import new_game

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def grand_dames() -> sw.Rules:
    """The official rules, the Grand Dames box and the test-only rule files."""
    return sw.load_rules(expansions=["grand_dames"], paths=[TEST_RULES])


def test_white_ladies_banner_and_box(grand_dames: sw.Rules) -> None:
    """White Ladies: the banner gives 2 tokens; the box holds 7 (the banner and the largest
    badge, 5)."""
    race = grand_dames.races["white_ladies"]
    assert (race.tokens, race.box) == (2, 7)
    game = new_game(grand_dames, [("white_ladies", "bulky"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 7


def test_white_ladies_in_decline_are_immune(grand_dames: sw.Rules) -> None:
    """White Ladies: a region of declined White Ladies cannot be conquered."""
    game = new_game(grand_dames, [("ratmen", "plain"), ("humans", "plain2")])
    game.put(4, 1, 1, declined=True, race="white_ladies")
    game.apply(sw.PickCombo(0))
    assert sw.Conquer(4) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(4))
    game.apply(sw.Conquer(3))
    assert sw.Conquer(4) not in game.legal_actions()


def test_white_ladies_immune_to_powers_but_not_while_active_edge(grand_dames: sw.Rules) -> None:
    """White Ladies (edge): in decline the Dragon cannot attack them either (immune to
    special powers); active White Ladies are conquered as any race (2 + 1 tokens)."""
    game = new_game(grand_dames, [("ratmen", "dragon_master"), ("humans", "plain2")])
    game.put(4, 1, 1, declined=True, race="white_ladies")
    game.apply(sw.PickCombo(0))
    assert sw.UseAbility("dragon_attack", 4) not in game.legal_actions()
    game = new_game(grand_dames, [("white_ladies", "plain"), ("ratmen", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(4))
    game.apply(sw.Deploy(4, 1))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    assert game.conquest_cost(4) == 2 + 2
    game.apply(sw.Conquer(4))
    assert game.region(4).race == "ratmen"
