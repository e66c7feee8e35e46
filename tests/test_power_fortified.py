"""Fortified (rule 3): `fortify` once per turn, during the conquests or the
redeployment (A9); one Fortress per region, six on the map; +1 defence even in decline;
+1 coin per Fortress only while active (ruling 30); removed when its region is abandoned or
conquered.

Positions on the 2-player map: 1 (Farmland) and 2 (Forest) are empty, adjacent edge regions;
17 and 20 are empty edge regions far from them.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import AbilityUsed, Scored


def _refused(game: sw.Game, action: sw.Action, match: str) -> None:
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _fortify_targets(game: sw.Game) -> set[int]:
    return {a.target for a in game.legal_actions()
            if isinstance(a, sw.UseAbility) and a.name == "fortify"}


def _fortresses(game: sw.Game) -> list[int]:
    return [r for r in range(len(game.map.regions)) if game.region(r).pieces.get("fortress")]


def _last_score(game: sw.Game, player: int) -> int:
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1].coins


def _fortified(rules: sw.Rules) -> sw.Game:
    """Player 0 picks Ratmen + Fortified (8 + 3 tokens); then Crowd and Elves, no powers."""
    game = new_game(rules, [("ratmen", "fortified"), ("crowd", "plain2"), ("elves", "plain")])
    game.apply(sw.PickCombo(0))
    return game


def test_fortified_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Fortified badge gives 3 tokens."""
    assert rules.powers["fortified"].tokens == 3
    assert _fortified(rules).hand(0) == 8 + 3


def test_fortify_during_conquest_once_per_turn_a9_ruling_30(rules: sw.Rules) -> None:
    """A9 / ruling 30: a Fortress may be placed during the conquests, in a region already
    held; only one per turn."""
    game = _fortified(rules)
    assert _fortify_targets(game) == set()  # no region yet
    game.apply(sw.Conquer(1))
    assert _fortify_targets(game) == {1}
    game.apply(sw.UseAbility("fortify", 1))
    assert game.region(1).pieces == {"fortress": 1} and game.phase is sw.Phase.CONQUEST
    assert [e for e in game.log if isinstance(e, AbilityUsed)][-1].ability == "fortify"
    game.apply(sw.Conquer(2))
    assert _fortify_targets(game) == set()
    _refused(game, sw.UseAbility("fortify", 2), "already used this turn")
    game.apply(sw.Deploy(2, 1))
    _refused(game, sw.UseAbility("fortify", 2), "already used this turn")


def test_fortify_at_redeployment_a9(rules: sw.Rules) -> None:
    """A9: the Fortress may also be placed during redeployment."""
    game = _fortified(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))
    assert game.phase is sw.Phase.REDEPLOY and _fortify_targets(game) == {1, 2}
    game.apply(sw.UseAbility("fortify", 2))
    assert _fortresses(game) == [2]


def test_one_fortress_per_region_ruling_30(rules: sw.Rules) -> None:
    """Ruling 30 (edge): a region holds at most one Fortress, in a later turn too."""
    game = _fortified(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("fortify", 1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert _fortify_targets(game) == {2}
    _refused(game, sw.UseAbility("fortify", 1), "cannot target region 1")
    game.apply(sw.UseAbility("fortify", 2))
    assert _fortresses(game) == [1, 2]


def test_at_most_six_fortresses_on_the_map_ruling_30(rules: sw.Rules) -> None:
    """Ruling 30 (edge): the six Fortresses are all there is."""
    game = new_game(rules, [("skeletons", "fortified")])  # a box of 20: tokens to put
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 3, 4, 5, 6):
        game.put(region, 0, 1, pieces={"fortress": 1})
    game.put(9, 0, 1)
    assert saved_state(game)["piece_supply"]["fortress"] == 0
    assert _fortify_targets(game) == set()
    _refused(game, sw.UseAbility("fortify", 9), "no fortress is left")


def test_fortress_coins_only_while_active_ruling_30(rules: sw.Rules) -> None:
    """Ruling 30: +1 coin per Fortress at the end of each turn while active; none in the
    decline turn nor afterwards."""
    game = _fortified(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("fortify", 1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert _last_score(game, 0) == 2 + 1 and game.coins(0) == 8
    game.apply(sw.PickCombo(0))  # Crowd
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.UseAbility("fortify", 2))  # before any conquest this turn
    deploy_all_and_end(game)
    assert _last_score(game, 0) == 2 + 2 and game.coins(0) == 12
    deploy_all_and_end(game)  # player 1
    game.apply(sw.Decline())
    assert _last_score(game, 0) == 2 and game.coins(0) == 14  # regions only
    assert _fortresses(game) == [1, 2]  # they stay on the declined regions
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # Elves, no power
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    assert _last_score(game, 0) == 1 + 2 and game.coins(0) == 17  # no Fortress coin


def test_fortress_defends_even_in_decline_ruling_30(rules: sw.Rules) -> None:
    """Ruling 30: a Fortress adds 1 to its region's defence, active or declined."""
    game = _fortified(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("fortify", 1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.region(1).declined and game.region(1).tokens == 1
    b = game.explain_conquest_cost(1)  # for player 1's Crowd
    assert b.value == 2 + 1 + 1
    fortress = next(c for c in b.contributions if c.label == "fortress")
    assert fortress.amount == 1 and fortress.path.endswith("fortified.swr")
    assert game.conquest_cost(2) == 2 + 1


def test_fortress_removed_when_region_conquered_section_3(rules: sw.Rules) -> None:
    """Rule 3 Fortified: a Fortress is removed when its region is conquered."""
    game = _fortified(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.UseAbility("fortify", 2))
    deploy_all_and_end(game)  # everything on 1; 2 keeps one token
    game.apply(sw.PickCombo(0))  # Crowd, 8 tokens
    assert game.conquest_cost(2) == 2 + 1 + 1
    game.apply(sw.Conquer(2))
    assert game.region(2).pieces == {} and game.region(2).race == "crowd"
    assert saved_state(game)["piece_supply"]["fortress"] == 6


def test_fortress_removed_when_region_abandoned_section_3(rules: sw.Rules) -> None:
    """Rule 3 Fortified: a Fortress is removed when its region is abandoned."""
    game = _fortified(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.UseAbility("fortify", 2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Abandon(2))
    assert game.region(2).race is None and game.region(2).pieces == {}
    assert saved_state(game)["piece_supply"]["fortress"] == 6
