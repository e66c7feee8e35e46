"""Hook points not covered by an official file yet, and core options."""

from __future__ import annotations

import pytest
from helpers import both_enter, deploy_all_and_end, new_game

import smallworld_rules as sw


def test_defence_hook_adds_to_the_defenders_regions(rules: sw.Rules) -> None:
    """The hook point `defence`: a defender's modifier raises the cost of its own regions only,
    folded with the core terms and named by file and line in the Breakdown (rule 1.7)."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "hillguard")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Hillguard Crowd
    game.apply(sw.Conquer(4))  # a Hill
    game.apply(sw.Conquer(10))  # a Forest
    deploy_all_and_end(game)
    b = game.explain_conquest_cost(4)
    hill = [c for c in b.contributions if c.path.endswith("hillguard.swr")]
    assert [(c.op, c.amount, c.line) for c in hill] == [("add", 1, 5)]
    assert b.value == 2 + game.region(4).tokens + 1
    forest = game.explain_conquest_cost(10).contributions
    assert not any(c.path.endswith("hillguard.swr") for c in forest)


def test_defence_hook_with_always_works_in_decline(rules: sw.Rules) -> None:
    """A modifier marked `always` keeps working in decline, and its power keeps its badge."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "hillguard")])
    both_enter(game, 1, 4)
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # the Crowd decline with one token on the Hill
    assert game.active_player == 0 and game.region(4).declined
    assert game.conquest_cost(4) == 2 + 1 + 1
    assert game.rules.powers["hillguard"].works_in_decline


def test_option_abandon_mid_conquest_a5(rules: sw.Rules) -> None:
    """A5: by default regions are abandoned only before the first conquest; the option
    `abandon_mid_conquest` allows it later in the conquest phase."""
    for allowed in (False, True):
        game = new_game(rules, [("ratmen", "plain")], options={"abandon_mid_conquest": allowed})
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(1))
        game.apply(sw.Conquer(2))
        assert (sw.Abandon(1) in game.legal_actions()) is allowed
        if allowed:
            game.apply(sw.Abandon(1))
            assert game.region(1).race is None
        else:
            with pytest.raises(sw.IllegalAction, match="before the first conquest"):
                game.apply(sw.Abandon(1))
