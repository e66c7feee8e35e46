"""Be Not Afraid... (expansions/be_not_afraid/): the Homunculi.

Homunculi (5, box 18): each time a player picks a combo below them, a Homunculus token from
the box joins the coin on their banner; whoever picks them takes those tokens too.
"""

from __future__ import annotations

import json

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw


def test_homunculi_banner_and_box(be_not_afraid: sw.Rules) -> None:
    """Homunculi: the banner gives 5 tokens; the box holds 18."""
    race = be_not_afraid.races["homunculi"]
    assert (race.tokens, race.box) == (5, 18)


def test_homunculi_passed_over_gather_tokens_for_their_picker(be_not_afraid: sw.Rules) -> None:
    """Homunculi: each combo picked below them puts a Homunculus token on their banner,
    beside the coin; the player who picks them takes the tokens with the coins."""
    combos = [("homunculi", "plain"), ("crowd", "plain2"), ("ratmen", "bulky")]
    game = new_game(be_not_afraid, combos, players=2)
    game.apply(sw.PickCombo(1))  # passes over the Homunculi: a coin and a token
    assert json.loads(game.to_json())["state"]["lang"]["banner"] == {"homunculi": 1}
    deploy_all_and_end(game)
    coins = game.coins(1)
    game.apply(sw.PickCombo(0))
    assert game.active_race(1) == "homunculi"
    assert game.hand(1) == 5 + be_not_afraid.powers["plain"].tokens + 1
    assert game.coins(1) == coins + 1


def test_homunculi_untouched_when_picked_first_edge(be_not_afraid: sw.Rules) -> None:
    """Homunculi (edge): picked at the top of the market, nothing was passed over: the
    banner brings only its own 5 tokens and the badge's."""
    combos = [("homunculi", "plain"), ("crowd", "plain2"), ("ratmen", "bulky")]
    game = new_game(be_not_afraid, combos, players=2)
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 5 + be_not_afraid.powers["plain"].tokens
    assert "banner" not in json.loads(game.to_json())["state"].get("lang", {})
