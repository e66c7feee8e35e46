"""Amazons (rule 2): +4 tokens for conquest only — rulings 13 and 14."""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw


def _amazons(rules: sw.Rules, power: str = "plain") -> sw.Game:
    game = new_game(rules, [("amazons", power), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    return game


def test_amazons_take_their_four_extra_tokens(rules: sw.Rules) -> None:
    """Rule 2 Amazons: the initial take is 6 + badge + 4."""
    assert _amazons(rules).hand(0) == 10
    assert _amazons(rules, "bulky").hand(0) == 15  # 6 + 5 + 4, exactly the box of 15


def test_amazons_hold_four_back_after_redeployment_ruling_13(rules: sw.Rules) -> None:
    """Ruling 13: at the end of redeployment four Amazons leave the map; they come back to
    hand at the start of the next turn and never count as tokens on the map (ruling 14)."""
    game = _amazons(rules)
    for region in (1, 2, 6):  # 2 + 2 + 3 = 7
        game.apply(sw.Conquer(region))
    assert sw.EndTurn() not in game.legal_actions()  # 3 in hand, 4 must be held
    deploys = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
    assert max(a.count for a in deploys) == 3 + 4 - 4  # 4 of the 7 available are held back
    game.apply(sw.Deploy(1, 3))
    assert game.hand(0) == 4 and sw.EndTurn() in game.legal_actions()
    game.apply(sw.EndTurn())
    assert game.tokens_on_map(0) == 6
    assert saved_state(game)["races"]["amazons"]["held"] == 4
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    game.apply(sw.Deploy(19, 7))
    game.apply(sw.EndTurn())
    # Player 0's next turn: the 4 return, plus the tokens readied from region 1 (4 → 1).
    assert game.active_player == 0 and game.hand(0) == 4 + 3
    assert saved_state(game)["races"]["amazons"]["held"] == 0


def test_amazons_must_abandon_regions_when_spread_too_thin_ruling_13(rules: sw.Rules) -> None:
    """Ruling 13 / A13: if holding four back leaves too few tokens for their regions, the
    Amazons must abandon regions, even ones just conquered."""
    game = _amazons(rules, "commando")  # 14 tokens; empty regions cost 1
    _conquer_cheapest_while_possible(game)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    _conquer_cheapest_while_possible(game)  # the held four spread the Amazons thinner
    regions = [r for r in range(23) if game.region(r).race == "amazons"]
    assert game.hand(0) + game.tokens_on_map(0) == 14 and len(regions) + 4 > 14
    game.apply(sw.EndTurn())  # conquests end, but four tokens cannot be freed yet
    assert game.phase is sw.Phase.REDEPLOY
    actions = list(game.legal_actions())
    assert sw.EndTurn() not in actions and not any(isinstance(a, sw.Deploy) for a in actions)
    assert {a.region for a in actions if isinstance(a, sw.Abandon)} == set(regions)
    while sw.EndTurn() not in game.legal_actions():
        game.apply(next(a for a in game.legal_actions() if isinstance(a, sw.Abandon)))
    game.apply(sw.EndTurn())
    assert saved_state(game)["races"]["amazons"]["held"] == 4
    assert game.tokens_on_map(0) == 10 and len(
        [r for r in range(23) if game.region(r).race == "amazons"]
    ) == 10


def _conquer_cheapest_while_possible(game: sw.Game) -> None:
    while any(isinstance(a, sw.Conquer) for a in game.legal_actions()):
        cheapest = min(
            (a for a in game.legal_actions() if isinstance(a, sw.Conquer)),
            key=lambda a: (game.conquest_cost(a.region), a.region),
        )
        game.apply(cheapest)


def test_abandon_in_redeployment_only_when_forced_ruling_13(rules: sw.Rules) -> None:
    """Ruling 13 (edge): with enough tokens in hand, redeployment offers no Abandon."""
    game = _amazons(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 4))
    assert not any(isinstance(a, sw.Abandon) for a in game.legal_actions())
    try:
        game.apply(sw.Abandon(1))
    except sw.IllegalAction as exc:
        assert "ruling 13" in str(exc)
    else:
        raise AssertionError("Abandon during redeployment was accepted")


def test_declining_amazons_return_everything_to_the_box(rules: sw.Rules) -> None:
    """Rule 1.12 with Amazons: on decline, hand and held tokens go back to the box."""
    game = _amazons(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 5))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    game.apply(sw.Deploy(19, 7))
    game.apply(sw.EndTurn())
    game.apply(sw.Decline())
    state = saved_state(game)
    assert state["box"]["amazons"] == 15 - 1 and game.region(1).tokens == 1
