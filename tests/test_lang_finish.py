"""Rule-language constructs for the expansions, tested with invented races and powers
(tests/rules_finish/): the event ``any_lost`` and the effect ``unmark WHOM``.

2-player map: Farmland 1 (edge), Forest 2 (edge, next to 1 and 6), Hill 6, Forest 21 (edge).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game, place_withdrawals

import smallworld_rules as sw

HERE = Path(__file__).parent
FINISH, TEST_RULES = HERE / "rules_finish", HERE / "rules"


@pytest.fixture(scope="module")
def rules() -> sw.Rules:
    return sw.load_rules(paths=[FINISH, TEST_RULES])


def marks(game: sw.Game, race: str) -> int:
    uses: dict[str, int] = json.loads(game.to_json())["state"]["races"][race]["uses"]
    return uses.get("@marked", 0)


def declined_humans_attacked(rules: sw.Rules) -> sw.Game:
    """Player 0's Humans hold Forest 2 in decline, his Ratmen with Avenging hold Forest 21;
    player 1's Crowd (Farmland 1, Hill 6) has just conquered Forest 2 from the declined
    Humans, and it is player 0's turn again."""
    combos = [("humans", "plain"), ("crowd", "plain2"), ("ratmen", "avenging"),
              ("giants", "bulky")]
    game = new_game(rules, combos)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    game.apply(sw.Conquer(6))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(21))
    deploy_all_and_end(game)
    game.apply(sw.Conquer(2))  # the Crowd take the declined Humans' Forest
    deploy_all_and_end(game)
    place_withdrawals(game)
    assert game.to_move == 0 and game.active_race(0) == "ratmen"
    return game


def test_any_lost_fires_for_a_region_of_another_race_of_the_owner(rules: sw.Rules) -> None:
    """any_lost: a conquest of a region of the player's declined race fires the trigger of
    his active race, with the conqueror as the other player (here: marked)."""
    game = declined_humans_attacked(rules)
    assert marks(game, "ratmen") == 1 << 1
    breakdown = game.explain_conquest_cost(1)
    assert [(c.op, c.amount) for c in breakdown.contributions][-1] == ("sub", 1)
    assert breakdown.value == 2 + game.region(1).tokens - 1


def test_unmark_lifts_the_mark_at_the_end_of_the_turn_edge(rules: sw.Rules) -> None:
    """unmark (edge): ``on turn_end do unmark opponents`` clears every mark when the owner's
    turn ends, so the discount lasts one turn; nothing is left in the save."""
    game = declined_humans_attacked(rules)
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert marks(game, "ratmen") == 0
    assert "@marked" not in json.loads(game.to_json())["state"]["races"]["ratmen"]["uses"]


def test_a_player_conquering_his_own_declined_race_marks_nobody_edge(rules: sw.Rules) -> None:
    """any_lost (edge): the player's active race taking a region of his own declined race
    is no attack by another player: nobody is marked."""
    combos = [("humans", "plain"), ("crowd", "plain2"), ("ratmen", "avenging"),
              ("giants", "bulky")]
    game = new_game(rules, combos)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(21))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    game.apply(sw.Conquer(6))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(21))  # his own declined Humans
    assert marks(game, "ratmen") == 0


# --------------------------------------------------------------------------- evict


def blasted(rules: sw.Rules) -> sw.Game:
    """Player 0's Humans hold Farmland 1 (4 tokens) and Forest 2; player 1's Ratmen with
    Eruptive take Mountain 5 (next to Farmland 1) and have begun redeploying."""
    game = new_game(rules, [("humans", "plain"), ("ratmen", "eruptive"), ("crowd", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(5))
    game.apply(sw.Deploy(5, 1))
    assert game.region(1).tokens == 4
    return game


def test_evict_sends_the_tokens_back_to_their_owner(rules: sw.Rules) -> None:
    """evict: the target's tokens go back to their owner's hand, none lost; he places them
    as after losing a region; the piece placed after makes the region immune."""
    game = blasted(rules)
    game.apply(sw.UseAbility("blast", 1))
    assert (game.region(1).race, game.region(1).pieces) == (None, {"cinders": 1})
    assert game.hand(0) == 4
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 0
    place_withdrawals(game)  # all four on Forest 2; his turn readies them again
    assert game.region(2).tokens + game.hand(0) == 5  # none lost
    assert sw.Conquer(1) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="immune"):
        game.apply(sw.Conquer(1))


def test_lifted_at_turn_start_and_a_lost_tribe_evicted_edge(rules: sw.Rules) -> None:
    """lifted_at_turn_start (edge): the piece goes back to its supply when its holder's
    next turn begins; evict (edge): a Lost Tribe's token leaves the game."""
    game = blasted(rules)
    game.apply(sw.UseAbility("blast", 1))
    deploy_all_and_end(game)
    place_withdrawals(game)
    game.apply(sw.Conquer(3))
    deploy_all_and_end(game)
    assert game.to_move == 1
    assert game.region(1).pieces == {}
    assert json.loads(game.to_json())["state"]["piece_supply"]["cinders"] == 2
    game = blasted(rules)
    assert game.region(6).lost_tribe
    game.apply(sw.UseAbility("blast", 6))
    assert (game.region(6).lost_tribe, game.region(6).tokens) == (False, 0)
    assert game.region(6).pieces == {"cinders": 1}


def test_random_games_with_the_invented_files_keep_every_invariant(rules: sw.Rules) -> None:
    """any_lost, unmark, evict and lifted_at_turn_start in random games: the invariants
    hold after every action and saves load back to the same game."""
    import random

    for seed in range(12):
        combos = [("ratmen", "eruptive"), ("humans", "avenging"), ("crowd", "bulky"),
                  ("giants", "plain")]
        game = new_game(rules, combos, players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
            game._engine.check_invariants(game._state)
            if len(game.log) % 9 == 0:
                text = game.to_json()
                assert sw.Game.from_json(text, rules=rules).to_json() == text


# --------------------------------------------------------------------------- misuse


def _power_errors(*body: str) -> list[tuple[str, int, int]]:
    from smallworld_rules.dsl.parser import parse
    from smallworld_rules.dsl.semantics import check

    lines = ("tokens 1", 'text "Test."', *body)
    source = 'power oops "Oops" {\n' + "".join(f"    {line}\n" for line in lines) + "}\n"
    official = sw.load_rules()
    return [(e.label, e.line, e.column)
            for e in check(parse(source), source, set(official.pieces), set(official.options))]


def test_misused_constructs_are_refused_with_their_place() -> None:
    """evict, unmark and any_lost (edge): evict in a trigger or without a target region,
    and unmark of a player the event does not know, are refused at their line and column;
    the correct forms pass."""
    assert _power_errors("on any_lost do mark conqueror", "on turn_end do unmark opponents",
                         "ability a { during redeploy target region evict }") == []
    assert _power_errors("on conquest do evict") == [("effect-not-in-trigger", 4, 20)]
    assert _power_errors("ability a { during redeploy evict }") == [
        ("ability-without-target", 4, 33)
    ]
    assert _power_errors("on redeploy do unmark conqueror") == [("unknown-player", 4, 20)]
