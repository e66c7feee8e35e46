"""Bivouacking (rule 3): 5 Encampments placed at redeployment (`encamp`), several per
region, +1 defence each, placed again every turn, never lost (ruling 25), removed on decline,
not counted in the tie-break (ruling 14), and they protect a lone token from the Sorcerers
(ruling 19).

Positions on the 2-player map: 1 (Farmland), 2 (Forest) and 5 (Mountain) are empty edge
regions; 6 is the interior Hill bordering all three.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import AbilityUsed, PieceMoved


def _refused(game: sw.Game, action: sw.Action, match: str) -> None:
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _encampments(game: sw.Game) -> dict[int, int]:
    return {
        r: n
        for r in range(len(game.map.regions))
        if (n := game.region(r).pieces.get("encampment", 0))
    }


def _bivouac(rules: sw.Rules, opponent: str = "crowd") -> sw.Game:
    """Player 0 (Ratmen + Bivouacking, 13 tokens) takes 1 and 2, starts redeploying (one
    token on 2), and camps 3 Encampments on 2 and 2 on 1; 10 tokens stay in hand."""
    game = new_game(rules, [("ratmen", "bivouacking"), (opponent, "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))
    for region in (2, 2, 2, 1, 1):
        game.apply(sw.UseAbility("encamp", region))
    return game


def test_bivouacking_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Bivouacking badge gives 5 tokens."""
    assert rules.powers["bivouacking"].tokens == 5
    game = new_game(rules, [("ratmen", "bivouacking")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 5


def test_encamp_at_redeployment_several_per_region_section_3(rules: sw.Rules) -> None:
    """Rule 3 Bivouacking: during redeployment the 5 Encampments go on own regions, several in
    one region if you like."""
    game = new_game(rules, [("ratmen", "bivouacking")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())
    _refused(game, sw.UseAbility("encamp", 1), "during redeploy")
    game.apply(sw.Deploy(1, 1))
    assert {a for a in game.legal_actions() if isinstance(a, sw.UseAbility)} == {
        sw.UseAbility("encamp", 1), sw.UseAbility("encamp", 2)
    }
    for region in (2, 2, 2, 1, 1):
        game.apply(sw.UseAbility("encamp", region))
    assert _encampments(game) == {1: 2, 2: 3}
    assert saved_state(game)["piece_supply"]["encampment"] == 0
    assert [e for e in game.log if isinstance(e, AbilityUsed)][-1].ability == "encamp"


def test_encamp_limits_section_3(rules: sw.Rules) -> None:
    """Rule 3 Bivouacking (edge): only 5 Encampments, only on the race's own regions."""
    game = _bivouac(rules)
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())
    _refused(game, sw.UseAbility("encamp", 1), "no encampment is left")
    game2 = new_game(rules, [("ratmen", "bivouacking")])
    game2.apply(sw.PickCombo(0))
    game2.apply(sw.Conquer(1))
    game2.apply(sw.Deploy(1, 1))
    _refused(game2, sw.UseAbility("encamp", 2), "cannot target region 2")  # not held
    _refused(game2, sw.UseAbility("encamp"), "needs a target")


def test_each_encampment_adds_one_defence_section_1_7(rules: sw.Rules) -> None:
    """Rule 1.7 / rule 3: each Encampment adds 1 to the cost of its region: 2 + 1 token + 3 = 6,
    named by bivouacking.swr."""
    game = _bivouac(rules)
    game.apply(sw.Deploy(1, 10))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Crowd, 8 tokens
    b = game.explain_conquest_cost(2)
    assert b.value == 2 + 1 + 3
    camp = next(c for c in b.contributions if c.label == "encampment")
    assert camp.amount == 3 and camp.path.endswith("bivouacking.swr")
    assert game.conquest_cost(1) == 2 + 12 + 2


def test_encampments_lifted_and_placed_again_each_turn_section_3(rules: sw.Rules) -> None:
    """Rule 3 Bivouacking: at the race's next redeployment its Encampments come back to the
    supply, to be placed again (elsewhere if you like)."""
    game = _bivouac(rules)
    game.apply(sw.Deploy(1, 10))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert _encampments(game) == {1: 2, 2: 3}  # they stood through the opponent's turn
    game.apply(sw.Conquer(6))
    game.apply(sw.Deploy(6, 1))
    assert _encampments(game) == {}
    assert saved_state(game)["piece_supply"]["encampment"] == 5
    lifted = [e for e in game.log if isinstance(e, PieceMoved) and e.region == -1]
    assert sorted(e.source for e in lifted) == [1, 2]
    for _ in range(5):
        game.apply(sw.UseAbility("encamp", 6))
    assert _encampments(game) == {6: 5}


def test_encampments_never_lost_replaced_in_withdrawal_ruling_25(rules: sw.Rules) -> None:
    """Ruling 25: when an encamped region falls, its Encampments go back to the owner, who
    places them again at the end of that turn (its withdrawal step)."""
    game = _bivouac(rules)
    game.apply(sw.Deploy(1, 10))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Crowd, 8 tokens
    game.apply(sw.Conquer(2))  # 2 + 1 + 3 encampments = 6
    assert game.region(2).pieces == {}
    assert saved_state(game)["piece_supply"]["encampment"] == 3
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 0
    assert game.hand(0) == 0  # the lone Ratman was lost; only the Encampments come back
    assert set(game.legal_actions()) == {sw.UseAbility("encamp", 1), sw.EndTurn()}
    for _ in range(3):
        game.apply(sw.UseAbility("encamp", 1))
    assert _encampments(game) == {1: 5}
    assert game.active_player == 0 and game.phase is sw.Phase.CONQUEST  # withdrawal over


def test_encampments_wait_when_no_region_is_left_ruling_25(rules: sw.Rules) -> None:
    """Ruling 25 (edge): a race whose last region fell cannot place its Encampments at
    once; they stay in its supply and no withdrawal step is made."""
    game = new_game(rules, [("ratmen", "bivouacking"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 1))
    game.apply(sw.UseAbility("encamp", 1))
    game.apply(sw.Deploy(1, game.hand(0)))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.put(1, 0, 1, pieces={"encampment": 1})  # shrink the Ratmen to one token
    assert game.region(1).pieces == {"encampment": 1} and game.conquest_cost(1) == 4
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert game.active_player == 0 and game.phase is sw.Phase.CONQUEST
    assert saved_state(game)["piece_supply"]["encampment"] == 5


def test_encampments_removed_on_decline_section_1_12(rules: sw.Rules) -> None:
    """Rule 1.12 / rule 3 (After decline: removed): declining takes every Encampment off the map."""
    game = _bivouac(rules)
    game.apply(sw.Deploy(1, 10))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert _encampments(game) == {}
    assert saved_state(game)["piece_supply"]["encampment"] == 5
    assert game.region(1).declined and game.region(2).declined


def test_encampments_not_counted_in_tie_break_ruling_14(rules: sw.Rules) -> None:
    """Ruling 14 (edge): the tie-break counts race tokens on the map, not Encampments."""
    game = _bivouac(rules)
    game.apply(sw.Deploy(1, 10))
    assert sum(_encampments(game).values()) == 5
    assert game.region(1).tokens + game.region(2).tokens == 13
    assert game.tokens_on_map(0) == 13


def test_encampment_protects_lone_token_from_sorcerers_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 (Sorcerers + Encampment): a lone token with an Encampment cannot be
    converted; a lone token without one can."""
    game = new_game(rules, [("ratmen", "bivouacking"), ("sorcerers", "plain2")])
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 5):
        game.apply(sw.Conquer(region))
    game.apply(sw.Deploy(1, 1))
    game.apply(sw.UseAbility("encamp", 2))
    game.apply(sw.Deploy(1, game.hand(0)))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Sorcerers
    game.put(6, 1, 2)  # next to 1, 2 and 5
    assert (game.region(2).tokens, game.region(5).tokens) == (1, 1)
    converts = {a.target for a in game.legal_actions()
                if isinstance(a, sw.UseAbility) and a.name == "convert"}
    assert converts == {5}
    _refused(game, sw.UseAbility("convert", 2), "cannot target region 2")
    game.apply(sw.UseAbility("convert", 5))
    assert game.region(5).race == "sorcerers"


def test_abandoned_region_returns_its_encampments_section_1_6(rules: sw.Rules) -> None:
    """Rule 1.6 (Encampments in an abandoned region go back to the supply for the next
    redeployment)."""
    game = _bivouac(rules)
    game.apply(sw.Deploy(1, 10))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Abandon(2))
    assert game.region(2).race is None and game.region(2).pieces == {}
    assert saved_state(game)["piece_supply"]["encampment"] == 3
    assert _encampments(game) == {1: 2}


def test_withdrawal_places_only_the_encampments_lost_ruling_25(rules: sw.Rules) -> None:
    """Ruling 25 / rule 3 Bivouacking (edge): in the attacker's turn the defender places again
    only the Encampments of the region it lost, not spare ones it never placed."""
    game = new_game(rules, [("ratmen", "bivouacking"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))
    game.apply(sw.UseAbility("encamp", 1))  # 1 placed, 4 left unplaced
    game.apply(sw.Deploy(2, 1))  # region 2: 2 tokens, no Encampment
    game.apply(sw.Deploy(1, game.hand(0)))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))  # 2 + 2: no Encampment is lost
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 0  # 1 survivor to place
    assert not any(isinstance(a, sw.UseAbility) for a in game.legal_actions())
    _refused(game, sw.UseAbility("encamp", 1), "ruling 25")
    game.apply(sw.Deploy(1, 1))
    assert game.active_player == 0 and _encampments(game) == {1: 1}
