"""Elves (rule 2): active Elves keep every token when conquered; a Sorcerer
conversion still costs them the token (ruling 21); declined Elves lose tokens normally.

2-player map: region 1 is an empty Farmland on the edge next to Forest 2; Swamp 3 (Lost
Tribe, edge) borders 2 and Hill 4; Hill 17 (edge) is far from them.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered


def last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


def elves_box(game: sw.Game) -> int:
    return int(saved_state(game)["box"]["elves"])


def test_elves_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 table / rule 1.1: the Elves banner gives 6 tokens; the box holds 11."""
    elves = rules.races["elves"]
    assert (elves.tokens, elves.box) == (6, 11)
    game = new_game(rules, [("elves", "plain")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 6 and elves_box(game) == 5


def test_active_elves_keep_every_token_section_2(rules: sw.Rules) -> None:
    """Rule 2 Elves: conquered while active, the Elves lose nothing (the core loses 1, ruling 7):
    all 3 tokens go back to their owner, who places them in his other Elf region."""
    game = new_game(rules, [("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(4, 1, 3, race="elves")
    game.put(17, 1, 1)
    box = elves_box(game)
    assert game.conquest_cost(4) == 2 + 3
    game.apply(sw.Conquer(4))
    event = last(game, Conquered)
    assert (event.defender, event.defender_race, event.lost, event.returned) == (1, "elves", 0, 3)
    assert elves_box(game) == box
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 1
    game.apply(sw.Deploy(17, 3))
    assert game.active_player == 1  # player 1's turn starts: tokens beyond 1 are readied
    assert game.region(17).tokens + game.hand(1) == 1 + 3
    assert elves_box(game) == box


def test_lone_active_elf_is_kept_too_section_2(rules: sw.Rules) -> None:
    """Rule 2 Elves (edge) / ruling 9: even a lone Elf in the Elves' only region is not lost; with
    no region left, its owner keeps it in hand and re-enters next turn."""
    game = new_game(rules, [("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(4, 1, 1, race="elves")
    box = elves_box(game)
    game.apply(sw.Conquer(4))  # 2 + 1
    event = last(game, Conquered)
    assert (event.lost, event.returned) == (0, 1)
    deploy_all_and_end(game)
    assert game.active_player == 1 and game.active_race(1) == "elves"
    assert game.hand(1) == 1 and elves_box(game) == box


def test_sorcerer_conversion_costs_the_elf_its_token_ruling_21(rules: sw.Rules) -> None:
    """Ruling 21: a Sorcerer conversion replaces the lone active Elf, which goes back to the
    box although active Elves lose nothing to an ordinary conquest."""
    game = new_game(rules, [("sorcerers", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(2, 1, 1, race="elves")
    game.put(17, 1, 2)
    box = elves_box(game)
    game.apply(sw.Conquer(1))
    assert sw.UseAbility("convert", 2) in game.legal_actions()
    game.apply(sw.UseAbility("convert", 2))
    event = last(game, Conquered)
    assert (event.region, event.defender_race, event.lost, event.returned) == (2, "elves", 1, 0)
    assert game.region(2).race == "sorcerers" and elves_box(game) == box + 1
    assert game.tokens_on_map(1) == 2  # only region 17 is left


def test_declined_elves_lose_tokens_normally_section_2(rules: sw.Rules) -> None:
    """Rule 2 Elves ("active only") / ruling 10: once in decline, the Elf in a conquered region
    goes back to the box, as for any declined race."""
    game = new_game(rules, [("elves", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Crowd: 8 tokens
    game.apply(sw.Conquer(3))  # 2 + Lost Tribe
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # the Elves keep 1 token in each of 1 and 2
    assert (game.region(1).tokens, game.region(2).tokens) == (1, 1)
    box = elves_box(game)
    assert game.conquest_cost(2) == 2 + 1
    game.apply(sw.Conquer(2))
    event = last(game, Conquered)
    assert (event.defender, event.defender_race, event.lost, event.returned) == (0, "elves", 1, 0)
    assert elves_box(game) == box + 1 and game.region(1).race == "elves"


def test_active_elves_conquered_in_a_real_turn_section_2(rules: sw.Rules) -> None:
    """Rule 2 Elves: the same Crowd attack on the Elves while they are still active takes no Elf
    out of the game (compare with the declined case above)."""
    game = new_game(rules, [("elves", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)  # Elves: 1 (5 tokens), 2 (1 token)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))
    box = elves_box(game)
    game.apply(sw.Conquer(2))
    assert last(game, Conquered).lost == 0 and elves_box(game) == box
    deploy_all_and_end(game)
    assert game.to_move == 0 and game.phase is sw.Phase.WITHDRAWAL
    game.apply(sw.Deploy(1, 1))  # player 0 places the returned Elf
    assert game.active_player == 0 and game.region(1).tokens + game.hand(0) == 6


def test_two_elves_are_not_a_lone_token_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 with Elves (edge): two Elves in a region are not a lone token: no conversion."""
    game = new_game(rules, [("sorcerers", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(2, 1, 2, race="elves")
    game.apply(sw.Conquer(1))
    assert sw.UseAbility("convert", 2) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("convert", 2))
    assert game.to_json() == before
