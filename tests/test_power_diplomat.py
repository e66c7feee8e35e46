"""Diplomat (rule 3): at redeployment choose an opponent whose active race you did not
attack this turn (`choose_ally`); until your next turn his active race may not attack your
active race; declined races are not bound — ruling 26.

Positions on the 2-player map: 11 (Farmland, edge) and 12 (Forest, interior) hold Lost
Tribes and border each other; 6 (interior Hill) borders 1, 2, 5, 11 and 12; 17 (edge Hill)
borders 11 and 12.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import AbilityUsed


def _refused(game: sw.Game, action: sw.Action, match: str) -> None:
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _allies(game: sw.Game) -> set[int]:
    return {a.target for a in game.legal_actions()
            if isinstance(a, sw.UseAbility) and a.name == "choose_ally"}


def _diplomats(rules: sw.Rules, opponent: tuple[str, str]) -> sw.Game:
    """Player 0 (Ratmen + Diplomat, 13 tokens) takes 11 and 12 and starts redeploying with
    everything on 11, so that 12 keeps a lone token."""
    game = new_game(rules, [("ratmen", "diplomat"), opponent])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(11))
    game.apply(sw.Conquer(12))
    game.apply(sw.Deploy(11, 13 - 2))
    return game


def test_diplomat_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Diplomat badge gives 5 tokens."""
    assert rules.powers["diplomat"].tokens == 5
    game = new_game(rules, [("ratmen", "diplomat")])
    game.apply(sw.PickCombo(0))
    assert game.hand(0) == 8 + 5


def test_choose_ally_at_redeployment_ruling_26(rules: sw.Rules) -> None:
    """Ruling 26: the choice is made at redeployment, of one opponent, once per turn."""
    game = new_game(rules, [("ratmen", "diplomat"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(11))
    assert _allies(game) == set()
    _refused(game, sw.UseAbility("choose_ally", 1), "during redeploy")
    game.apply(sw.Deploy(11, 1))
    assert _allies(game) == {1}
    _refused(game, sw.UseAbility("choose_ally", 0), "cannot target player 0")  # yourself
    _refused(game, sw.UseAbility("choose_ally"), "needs a target")
    game.apply(sw.UseAbility("choose_ally", 1))
    assert [e for e in game.log if isinstance(e, AbilityUsed)][-1] == AbilityUsed(
        0, "ratmen", "choose_ally", 1
    )
    assert saved_state(game)["truces"] == [[0, 1]]
    assert _allies(game) == set()
    _refused(game, sw.UseAbility("choose_ally", 1), "already used this turn")


def test_only_an_opponent_not_attacked_this_turn_ruling_26(rules: sw.Rules) -> None:
    """Ruling 26 (edge): an opponent whose active race you attacked this turn cannot be
    chosen; attacking only an opponent's declined race does not count as attacking him."""
    game = new_game(rules, [("ratmen", "diplomat"), ("crowd", "plain2"), ("elves", "plain")],
                    players=3, map="2p")
    game.apply(sw.PickCombo(0))
    game.put(1, 1, 1, race="crowd")  # player 1's active race
    game.put(2, 2, 1, declined=True, race="elves")  # player 2's declined race
    game.apply(sw.Conquer(1))  # 2 + 1
    game.apply(sw.Conquer(2))  # 2 + 1
    game.apply(sw.Deploy(1, 1))
    assert _allies(game) == {2}
    _refused(game, sw.UseAbility("choose_ally", 1), "cannot target player 1")
    game.apply(sw.UseAbility("choose_ally", 2))
    assert saved_state(game)["truces"] == [[0, 2]]


def test_truce_bars_the_allys_active_race_ruling_26(rules: sw.Rules) -> None:
    """Ruling 26: until the Diplomat's next turn the chosen player's active race may not
    conquer his active race's regions — no Conquer, no Dragon attack, no Sorcerer conversion;
    other regions, and the Diplomat's declined race, stay open."""
    game = _diplomats(rules, ("sorcerers", "dragon_master"))
    game.apply(sw.UseAbility("choose_ally", 1))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Sorcerers + Dragon Master, 10 tokens
    game.put(6, 1, 2)  # next to 11 and 12
    game.put(5, 0, 1, declined=True, race="crowd")  # the Diplomat's declined race, next to 6
    assert game.region(12).tokens == 1 and game.conquest_cost(12) == 3 <= game.hand(1)
    for action in (sw.Conquer(12), sw.Conquer(11)):
        assert action not in game.legal_actions()
        _refused(game, action, "truce")
    for name in ("convert", "dragon_attack"):
        assert sw.UseAbility(name, 12) not in game.legal_actions()
        _refused(game, sw.UseAbility(name, 12), f"{name} cannot target region 12")
    assert sw.Conquer(1) in game.legal_actions()  # an empty region
    assert sw.UseAbility("dragon_attack", 5) in game.legal_actions()
    game.apply(sw.Conquer(5))  # the declined Crowd are not protected: 2 + 1 + Mountain
    assert game.region(5).race == "sorcerers"


def test_declined_ghouls_still_attack_the_diplomat_ruling_26(rules: sw.Rules) -> None:
    """Ruling 26 / rule 2 Ghouls (Diplomat + declined Ghouls): the ally's declined Ghouls may
    attack the Diplomat's active race; his active race may not."""
    game = new_game(rules, [("ratmen", "diplomat"), ("sorcerers", "plain2")])
    game.apply(sw.PickCombo(0))
    game.put(17, 1, 5, declined=True, race="ghouls")  # next to 11 and 12
    game.apply(sw.Conquer(11))
    game.apply(sw.Conquer(12))
    game.apply(sw.Deploy(11, 13 - 2))
    game.apply(sw.UseAbility("choose_ally", 1))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Sorcerers; the declined Ghouls act first (4 readied)
    assert sw.Conquer(12) in game.legal_actions()
    game.apply(sw.Conquer(12))  # 2 + 1
    assert game.region(12).race == "ghouls" and game.region(12).declined
    deploy_all_and_end(game)  # the Ghouls end; the Sorcerers act
    assert game.phase is sw.Phase.CONQUEST and game.hand(1) == 5
    _refused(game, sw.Conquer(11), "truce")


def test_truce_ends_at_the_diplomats_next_turn_ruling_26(rules: sw.Rules) -> None:
    """Ruling 26 (edge): the truce lasts until the Diplomat's next turn starts; if he does
    not choose again, the former ally may attack him in the following turn."""
    game = _diplomats(rules, ("crowd", "plain2"))
    game.apply(sw.UseAbility("choose_ally", 1))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # Crowd, 8 tokens
    game.apply(sw.Conquer(16))
    assert saved_state(game)["truces"] == [[0, 1]]
    _refused(game, sw.Conquer(11), "truce")
    deploy_all_and_end(game)
    assert game.active_player == 0 and saved_state(game)["truces"] == []
    deploy_all_and_end(game)  # no new choice this time
    game.apply(sw.Conquer(17))
    game.apply(sw.Conquer(12))  # 2 + 1 lone Ratman
    assert game.region(12).race == "crowd"


def test_sorcerer_conversion_counts_as_an_attack_a7(rules: sw.Rules) -> None:
    """A7 with ruling 26 (edge): a Sorcerer conversion is an attack, so the converted player
    cannot be chosen as the Diplomat's ally that turn."""
    game = new_game(rules, [("sorcerers", "diplomat"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.put(2, 1, 1, race="crowd")  # a lone active token of player 1
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("convert", 2))
    assert game.region(2).race == "sorcerers"
    game.apply(sw.Deploy(1, 1))
    assert _allies(game) == set()
    _refused(game, sw.UseAbility("choose_ally", 1), "cannot target player 1")
