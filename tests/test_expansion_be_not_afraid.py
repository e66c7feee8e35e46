"""Be Not Afraid... (expansions/be_not_afraid/): the items of the box the rule language can
say today.

Pixies: once redeployed, each region of theirs holds a single Pixie; the others wait off
the map until the next turn. Barricade: 3 bonus coins at the end of a turn with 4 regions or
fewer. The other items of the box wait for constructs the language
lacks, or for sources that agree (docs/expansions.md, expansions/CATALOGUE.toml).

2-player map: Farmland 1 (edge), Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Mountain 5
(edge), Mountain 19 (edge), Swamp 20 (edge).
"""

from __future__ import annotations

import json

from helpers import deploy_all_and_end, last_score, new_game

import smallworld_rules as sw


def pixies(rules: sw.Rules) -> sw.Game:
    game = new_game(rules, [("pixies", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def held(game: sw.Game, race: str) -> int:
    held_tokens: int = json.loads(game.to_json())["state"]["races"][race]["held"]
    return held_tokens


def test_pixies_banner_and_box(be_not_afraid: sw.Rules) -> None:
    """Pixies: the banner gives 11 tokens; the box holds 16 (the banner and the largest
    badge, 5)."""
    race = be_not_afraid.races["pixies"]
    assert (race.tokens, race.box) == (11, 16)
    assert pixies(be_not_afraid).hand(0) == 11


def test_pixies_leave_one_per_region_and_keep_the_rest(be_not_afraid: sw.Rules) -> None:
    """Pixies: after conquering 2 regions with 2 tokens each, the turn ends with 1 Pixie in
    each and the other 9 off the map; they are the hand of the next turn."""
    game = pixies(be_not_afraid)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    assert (game.region(1).tokens, game.region(2).tokens, game.hand(0)) == (2, 2, 7)
    game.apply(sw.EndTurn())
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)
    assert held(game, "pixies") == 9
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert game.hand(0) == 9


def test_pixies_conquer_with_more_than_one_token_edge(be_not_afraid: sw.Rules) -> None:
    """Pixies (edge): the limit is on redeployment only: a Lost Tribe's region costs 3 Pixies
    and holds 3 during the conquests, then 1; no Deploy may add a second Pixie."""
    game = pixies(be_not_afraid)
    game.apply(sw.Conquer(3))
    assert game.region(3).tokens == 3
    assert not any(isinstance(a, sw.Deploy) for a in game.legal_actions())
    game.apply(sw.EndTurn())
    assert game.region(3).tokens == 1 and held(game, "pixies") == 10


# --------------------------------------------------------------------------- Barricade


def test_barricade_badge(be_not_afraid: sw.Rules) -> None:
    """Barricade: the badge gives 4 tokens."""
    assert be_not_afraid.powers["barricade"].tokens == 4
    game = new_game(be_not_afraid, [("ratmen", "barricade"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 4


def barricade_with(be_not_afraid: sw.Rules, regions: int) -> sw.Game:
    """Skeletons with Barricade, set up on the first ``regions`` of 1, 2, 5, 19, 20; the turn
    ends."""
    game = new_game(be_not_afraid, [("skeletons", "barricade"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 5, 19, 20)[:regions]:
        game.put(region, 0, 1)
    deploy_all_and_end(game)
    return game


def test_barricade_scores_three_for_a_small_kingdom(be_not_afraid: sw.Rules) -> None:
    """Barricade: 4 regions at the end of the turn score 4 + 3 bonus coins."""
    game = barricade_with(be_not_afraid, 4)
    assert last_score(game, 0).coins == 4 + 3


def test_barricade_no_bonus_for_five_regions_edge(be_not_afraid: sw.Rules) -> None:
    """Barricade (edge): 5 regions, one more than the limit, score 5 and no bonus."""
    game = barricade_with(be_not_afraid, 5)
    assert last_score(game, 0).coins == 5
