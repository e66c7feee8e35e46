"""Royal Bonus (expansions/royal_bonus/), the items of the market, markers and pools of
tokens: Igors.

Igors: every token lost to a conquest, anyone's, goes to the Igors' pile while they are
active; at the start of their turn each as many tokens of it as there are players give one
new Igor from the box.

2-player map: Lost Tribes on 3, 6, 10, 11, 12, 13, 14, 16, 18; Swamp 3 (edge) borders 2, 4,
8, 9; Hill 4 borders 3, 9, 10; Forest 10 (edge) borders 4, 9, 14, 15.
"""

from __future__ import annotations

import json

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Exchanged, TokensToZone


def igors_took_two_tribes(rules: sw.Rules) -> sw.Game:
    """Commando Igors conquer the Lost Tribes of 3 and 10 (and the empty Hill 4 between)."""
    game = new_game(rules, [("igors", "commando"), ("crowd", "plain2"), ("ratmen", "bulky")])
    game.apply(sw.PickCombo(0))
    for region in (3, 4, 10):
        game.apply(sw.Conquer(region))
    return game


def take_a_tribe(game: sw.Game) -> None:
    """The acting race conquers the first Lost Tribe region it may."""
    game.apply(next(a for a in game.legal_actions() if isinstance(a, sw.Conquer)
                    and game.region(a.region).lost_tribe))


def test_igors_banner_and_box(royal: sw.Rules) -> None:
    """Igors: the banner gives 4 tokens; the box holds 15; the pile starts empty."""
    race = royal.races["igors"]
    assert (race.tokens, race.box) == (4, 15)
    game = new_game(royal, [("igors", "plain"), ("crowd", "plain2")])
    assert game.zone("igor_pile") == {}


def test_igors_collect_the_lost_tribes_they_conquer(royal: sw.Rules) -> None:
    """Igors: every token lost to a conquest goes to the Igors' pile, Lost Tribes included."""
    game = igors_took_two_tribes(royal)
    assert game.zone("igor_pile") == {"#lost_tribe": 2}
    assert TokensToZone("igor_pile", ("#lost_tribe",)) in game.log


def test_igors_trade_as_many_tokens_as_players_for_one_igor(royal: sw.Rules) -> None:
    """Igors: at the start of their turn, 2 tokens of the pile (2 players) give 1 new Igor
    from the box, in hand for the conquests."""
    game = igors_took_two_tribes(royal)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    deploy_all_and_end(game)
    box = json.loads(game.to_json())["state"]["box"]["igors"]
    assert game.to_move == 0
    assert game.zone("igor_pile") == {}
    trade = [e for e in game.log if isinstance(e, Exchanged)]
    assert trade == [Exchanged("igor_pile", ("#lost_tribe", "#lost_tribe"), "igors", 1)]
    assert box == 15 - 8 - 1  # the banner's and the badge's tokens, and the new Igor


def test_igors_collect_tokens_lost_by_anyone(royal: sw.Rules) -> None:
    """Igors: the tokens another race loses to a third race's conquest join the pile too, and
    with 3 players 3 tokens make one trade."""
    combos = [("igors", "commando"), ("crowd", "plain2"), ("ratmen", "bulky")]
    game = new_game(royal, combos, players=3)
    game.apply(sw.PickCombo(0))
    take_a_tribe(game)
    take_a_tribe(game)
    deploy_all_and_end(game)
    assert game.zone("igor_pile") == {"#lost_tribe": 2}
    game.apply(sw.PickCombo(0))  # player 1: the Crowd enter and take a Lost Tribe
    take_a_tribe(game)
    assert game.zone("igor_pile") == {"#lost_tribe": 3}
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    deploy_all_and_end(game)  # player 2; then the Igors' turn: 3 tokens, 3 players
    assert game.to_move == 0
    assert game.zone("igor_pile") == {}
    assert [e.gained for e in game.log if isinstance(e, Exchanged)] == [1]


def test_igors_keep_a_short_pile_edge(royal: sw.Rules) -> None:
    """Igors (edge): fewer tokens than players in the pile: no trade, the pile waits."""
    combos = [("igors", "commando"), ("crowd", "plain2"), ("ratmen", "bulky")]
    game = new_game(royal, combos, players=3)
    game.apply(sw.PickCombo(0))
    take_a_tribe(game)
    deploy_all_and_end(game)
    for _ in range(2):
        game.apply(sw.PickCombo(0))
        deploy_all_and_end(game)
    assert game.to_move == 0
    assert game.zone("igor_pile") == {"#lost_tribe": 1}
    assert not [e for e in game.log if isinstance(e, Exchanged)]


def test_declined_igors_collect_nothing_edge(royal: sw.Rules) -> None:
    """Igors (edge): in decline the Igors collect no more; lost tokens go to their box."""
    game = igors_took_two_tribes(royal)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # the Igors' second turn
    assert game.to_move == 1
    take_a_tribe(game)
    assert game.zone("igor_pile") == {}


def test_the_pile_is_saved_and_a_corrupt_one_refused(royal: sw.Rules) -> None:
    """Igors: the pile is saved and loaded with the game; a pile holding an unknown kind of
    token is refused with a short message."""
    game = igors_took_two_tribes(royal)
    text = game.to_json()
    again = sw.Game.from_json(text, rules=royal)
    assert again.zone("igor_pile") == {"#lost_tribe": 2}
    data = json.loads(text)
    data["state"]["zones"]["igor_pile"] = ["#lost_tribe", "dragons?"]
    with pytest.raises(sw.RulesError) as caught:
        sw.Game.from_json(json.dumps(data), rules=royal)
    assert "zones[igor_pile]" in str(caught.value) and len(str(caught.value)) < 200
