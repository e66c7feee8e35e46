"""A Spider's Web (expansions/spiders_web/): the Ice Witches and Lava.

Ice Witches (5, box 10): at each redeployment 1 Winter marker per Magic Source held, placed
on a region of theirs or next to one (one a region): +1 defence, 1 coin less for any other
race holding it; the markers stay until the Ice Witches decline; at most the game option
winter_markers (6) on the map.
Lava (5): at redeployment 1 Lava marker per Mountain held (4 in the box), placed next to one
of them: the tokens there go back to their owner's hand and nobody may conquer the region
until the Lava player's next turn begins.

2-player map: Farmland 1 (edge, Magic), Forest 2 (edge), Mountain 5 (edge), Hill 6 (Lost
Tribe; next to 1, 2 and 5).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game, place_withdrawals

import smallworld_rules as sw
from smallworld_rules.events import Scored

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def spiders_web() -> sw.Rules:
    """The official rules, A Spider's Web and the test-only rule files."""
    return sw.load_rules(expansions=["spiders_web"], paths=[TEST_RULES])


def casts(game: sw.Game) -> set[int]:
    return {a.target for a in game.legal_actions()
            if isinstance(a, sw.UseAbility) and a.name == "cast_winter"}


def witches_redeploying(rules: sw.Rules, **options: object) -> sw.Game:
    """The Ice Witches hold Farmland 1 (a Magic Source) and Forest 2 and have begun their
    redeployment."""
    game = new_game(rules, [("ice_witches", "plain"), ("crowd", "plain2"), ("ratmen", "bulky")],
                    options=options)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(2, 1))
    return game


def test_ice_witches_banner_and_option(spiders_web: sw.Rules) -> None:
    """Ice Witches: the banner gives 5 tokens, the box holds 10; the Winter markers are
    capped by the game option winter_markers, 6 by default."""
    race = spiders_web.races["ice_witches"]
    assert (race.tokens, race.box) == (5, 10)
    assert spiders_web.options["winter_markers"].default == 6


def test_winter_marker_next_to_the_witches_defends_and_costs_a_coin(
    spiders_web: sw.Rules,
) -> None:
    """Ice Witches: one Magic Source earns one Winter marker, placed on a region of theirs
    or next to one; it adds 1 to that region's defence, and another race holding the region
    scores 1 coin less for it; the marker stays there."""
    game = witches_redeploying(spiders_web)
    assert {1, 2, 6} <= casts(game) and 21 not in casts(game)
    game.apply(sw.UseAbility("cast_winter", 6))
    assert game.region(6).pieces == {"winter": 1}
    assert casts(game) == set()  # one Magic Source, one marker
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    cost = game.explain_conquest_cost(6)
    assert cost.value == 2 + 1 + 1  # base, the Lost Tribe, the Winter marker
    game.apply(sw.Conquer(5))
    game.apply(sw.Conquer(6))
    deploy_all_and_end(game)
    score = [e for e in game.log if isinstance(e, Scored) and e.player == 1][-1]
    assert score.coins == 2 - 1
    assert game.region(6).pieces == {"winter": 1} and game.region(6).race == "crowd"


def test_winter_markers_capped_by_the_option_and_gone_at_decline_edge(
    spiders_web: sw.Rules,
) -> None:
    """Ice Witches (edge): with the option winter_markers at 0 no marker may be placed;
    with markers on the map, the Ice Witches' decline takes them all away."""
    assert casts(witches_redeploying(spiders_web, winter_markers=0)) == set()
    game = witches_redeploying(spiders_web)
    game.apply(sw.UseAbility("cast_winter", 1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1 enters far away
    game.apply(sw.Conquer(21))
    deploy_all_and_end(game)
    assert game.region(1).pieces == {"winter": 1}
    game.apply(sw.Decline())
    assert all(game.region(r).pieces.get("winter", 0) == 0
               for r in range(len(game.map.regions)))


# --------------------------------------------------------------------------- Lava


def lava_poured(rules: sw.Rules) -> sw.Game:
    """Player 0's Humans hold Farmland 1 (4 tokens) and Forest 2; player 1's Ratmen with
    Lava take Mountain 5 (next to Farmland 1 and Hill 6) and pour their Lava on Farmland 1."""
    game = new_game(rules, [("humans", "plain"), ("ratmen", "lava"), ("crowd", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(5))
    game.apply(sw.Deploy(5, 1))
    assert {a.target for a in game.legal_actions() if isinstance(a, sw.UseAbility)} == {1}
    game.apply(sw.UseAbility("pour_lava", 1))
    return game


def test_lava_badge_and_markers(spiders_web: sw.Rules) -> None:
    """Lava: the badge gives 5 tokens; the box holds 4 Lava markers, which make their
    region immune."""
    assert spiders_web.powers["lava"].tokens == 5
    piece = spiders_web.pieces["lava"]
    assert (piece.supply, piece.immune) == (4, True)


def test_lava_empties_the_region_beside_a_mountain_until_the_next_turn(
    spiders_web: sw.Rules,
) -> None:
    """Lava: one Lava marker per Mountain held, placed next to it (never on a Lost Tribe's
    Hill 6 or the Sea): the tokens there go back to their owner, none lost, and nobody may
    conquer the region."""
    game = lava_poured(spiders_web)
    assert game.region(1).pieces == {"lava": 1} and game.region(1).race is None
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())  # 1 Mountain
    deploy_all_and_end(game)
    place_withdrawals(game)
    assert game.to_move == 0
    assert game.region(2).tokens + game.hand(0) == 5  # the Humans lost none
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(1))


def test_lava_lifted_when_its_holders_turn_begins_edge(spiders_web: sw.Rules) -> None:
    """Lava (edge): the markers are lifted when the Lava player's next turn begins: the
    region may be conquered again, and the marker is back in the supply."""
    game = lava_poured(spiders_web)
    deploy_all_and_end(game)
    place_withdrawals(game)
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    assert game.to_move == 1
    assert game.region(1).pieces == {}
    assert sw.Conquer(1) in game.legal_actions()
