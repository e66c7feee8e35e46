"""Berserk (rule 3): the die before each conquest — ruling 35 (roll first, then choose
the region), A6 (no normal final die; a failed attempt ends the conquests), ruling 4.

Positions on the 2-player map: 1 and 2 are empty edge regions, 5 an empty edge Mountain,
6 an interior Hill with a Lost Tribe; after taking 1, 2, 5 and 6 every region next to them
(3, 8, 11, 12) costs 3, and 7 is the Lake.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import DieRolled


def _berserk(rules: sw.Rules, race: str = "ratmen", **kwargs: Any) -> sw.Game:
    """Player 0 picks ``race`` + Berserk with explicit chance (the test chooses the faces)."""
    game = new_game(rules, [(race, "berserk"), ("crowd", "plain2")], chance="explicit", **kwargs)
    game.apply(sw.PickCombo(0))
    return game


def _roll(game: sw.Game, face: int) -> None:
    game.apply(sw.UseAbility("berserk_roll"))
    assert game.to_move == sw.CHANCE
    game.apply(sw.RollDie(face))


def _refused(game: sw.Game, action: sw.Action, match: str) -> None:
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _two_left(game: sw.Game) -> None:
    """Conquer 1, 2, 5, 6 (2 + 2 + 3 + 3): 2 tokens left, every neighbour costs 3."""
    for region in (1, 2, 5, 6):
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 2
    assert {game.conquest_cost(r) for r in (3, 8, 11, 12)} == {3}


def test_berserk_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Berserk badge gives 4 tokens."""
    assert rules.powers["berserk"].tokens == 4
    assert _berserk(rules).hand(0) == 8 + 4


def test_roll_is_a_chance_node_in_explicit_mode(rules: sw.Rules) -> None:
    """Rule 3 Berserk with chance="explicit": the roll is a chance node with the die's faces."""
    game = _berserk(rules)
    assert sw.UseAbility("berserk_roll") in game.legal_actions()
    game.apply(sw.UseAbility("berserk_roll"))
    assert game.to_move == sw.CHANCE and game.phase is sw.Phase.DIE_ROLL
    assert {a.face: p for a, p in game.chance_outcomes()} == {0: 0.5, 1: 1 / 6, 2: 1 / 6,
                                                              3: 1 / 6}
    game.apply(sw.RollDie(2))
    assert game.to_move == 0 and game.phase is sw.Phase.CONQUEST


def test_roll_first_then_choose_the_region_ruling_35(rules: sw.Rules) -> None:
    """Ruling 35: the roll names no region; after it every region is still a choice and the
    next conquest costs the roll less; the bonus is spent by that conquest."""
    game = _berserk(rules)
    _refused(game, sw.UseAbility("berserk_roll", 5), "takes no target")
    _roll(game, 2)
    assert [e for e in game.log if isinstance(e, DieRolled)][-1].region == -1  # no target
    targets = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert targets == {1, 2, 3, 4, 5, 10, 11, 15, 16, 17, 18, 19, 20, 21}
    b = game.explain_conquest_cost(5)  # Mountain: 3 - 2
    assert b.value == 1
    assert [(c.label, c.op, c.amount) for c in b.contributions][-1] == ("die roll", "sub", 2)
    game.apply(sw.Conquer(5))
    assert game.region(5).tokens == 1 and game.hand(0) == 11
    assert game.conquest_cost(6) == 3  # the roll was for one conquest only
    assert game.conquest_cost(1) == 2


def test_roll_discount_clamps_at_one_section_3(rules: sw.Rules) -> None:
    """Rule 3 Berserk (edge): cost − die is at least 1 (2 − 3 → 1)."""
    game = _berserk(rules)
    _roll(game, 3)
    b = game.explain_conquest_cost(1)
    assert b.value == 1 and b.clamped_from == -1
    game.apply(sw.Conquer(1))
    assert game.region(1).tokens == 1


def test_no_final_die_attempt_a6(rules: sw.Rules) -> None:
    """A6: Berserk replaces the final die — ConquerWithDie is never offered, and refused,
    where a race without Berserk may attempt it."""
    plain = new_game(rules, [("ratmen", "plain")], chance="explicit")
    plain.apply(sw.PickCombo(0))
    for region in (1, 2, 5):  # 2 + 2 + 3 of Ratmen's 8
        plain.apply(sw.Conquer(region))
    assert plain.hand(0) == 1 and plain.conquest_cost(11) == 3
    assert sw.ConquerWithDie(11) in plain.legal_actions()  # the control: 2 short
    game = _berserk(rules)
    _two_left(game)
    assert not any(isinstance(a, sw.ConquerWithDie) for a in game.legal_actions())
    _refused(game, sw.ConquerWithDie(11), "no final die")
    _roll(game, 1)
    assert not any(isinstance(a, sw.ConquerWithDie) for a in game.legal_actions())
    _refused(game, sw.ConquerWithDie(8), "no final die")


def test_failed_roll_ends_the_conquests_a6(rules: sw.Rules) -> None:
    """Rule 3 Berserk / A6 (edge): if after the roll no region is affordable, that attempt was
    the last: the race goes to redeployment."""
    game = _berserk(rules)
    _two_left(game)
    lucky = game.clone()
    _roll(game, 0)  # every neighbour still costs 3 > 2
    event = [e for e in game.log if isinstance(e, DieRolled)][-1]
    assert (event.face, event.success) == (0, False)
    assert game.phase is sw.Phase.REDEPLOY
    assert game.hand(0) == 2 + 1 + 1 + 2 + 2  # the surplus is taken back for redeployment
    _refused(game, sw.Conquer(3), "conquest phase")
    _roll(lucky, 1)  # 3 - 1 = 2 ≤ 2: the conquests go on
    assert lucky.phase is sw.Phase.CONQUEST
    lucky.apply(sw.Conquer(12))
    assert lucky.region(12).tokens == 2 and lucky.hand(0) == 0


def test_roll_needs_a_token_in_hand_ruling_4(rules: sw.Rules) -> None:
    """Ruling 4 (edge): with no token in hand the roll is neither offered nor accepted."""
    game = _berserk(rules)
    _two_left(game)
    _roll(game, 1)
    game.apply(sw.Conquer(3))  # 3 - 1 = 2: the last two tokens
    assert game.hand(0) == 0 and game.phase is sw.Phase.CONQUEST
    assert sw.UseAbility("berserk_roll") not in game.legal_actions()
    _refused(game, sw.UseAbility("berserk_roll"), "ruling 4")


def test_second_roll_refused_while_one_waits_section_3(rules: sw.Rules) -> None:
    """Rule 3 Berserk (edge): one roll per conquest — a second roll before conquering is
    refused; after the conquest the race may roll again. Not during redeployment."""
    game = _berserk(rules)
    _roll(game, 1)
    assert sw.UseAbility("berserk_roll") not in game.legal_actions()
    _refused(game, sw.UseAbility("berserk_roll"), "already waits")
    game.apply(sw.Conquer(1))
    assert sw.UseAbility("berserk_roll") in game.legal_actions()
    game.apply(sw.Deploy(1, 1))
    assert game.phase is sw.Phase.REDEPLOY
    _refused(game, sw.UseAbility("berserk_roll"), "during conquest")


def test_seeded_roll_resolves_at_once(rules: sw.Rules) -> None:
    """Rule 3 Berserk with chance="seeded": the game rolls itself; the same seed gives the same
    face, and the face lowers the next cost."""
    faces = []
    for _ in range(2):
        game = new_game(rules, [("ratmen", "berserk")], seed=5)
        game.apply(sw.PickCombo(0))
        game.apply(sw.UseAbility("berserk_roll"))
        assert game.to_move == 0 and game.phase is sw.Phase.CONQUEST
        face = [e for e in game.log if isinstance(e, DieRolled)][-1].face
        assert game.conquest_cost(5) == max(1, 3 - face)
        faces.append(face)
    assert faces[0] == faces[1]


def test_amazons_berserk_failed_roll_still_holds_four_back_ruling_13(rules: sw.Rules) -> None:
    """Amazons + Berserk (ruling 13 with A6): the +4 tokens conquer with the roll like any
    other; when a failed roll ends the conquests, four Amazons are still held back."""
    game = _berserk(rules, race="amazons")
    assert game.hand(0) == 6 + 4 + 4
    _roll(game, 2)
    game.apply(sw.Conquer(5))  # Mountain: 3 - 2 = 1
    for region in (1, 2, 6, 3):  # 2 + 2 + 3 + 3
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 14 - 1 - 10 == 3
    _roll(game, 0)
    assert game.phase is sw.Phase.CONQUEST  # 4 and 9 cost 2 ≤ 3
    game.apply(sw.Conquer(9))
    assert game.hand(0) == 1
    _roll(game, 0)  # every neighbour costs ≥ 2 > 1: conquests end
    assert game.phase is sw.Phase.REDEPLOY
    on_map = sum(game.region(r).tokens for r in range(len(game.map.regions))
                 if game.region(r).race == "amazons")
    assert game.hand(0) + on_map == 14 and on_map == 6  # one per region, 8 in hand
    assert sw.EndTurn() not in game.legal_actions()
    assert max(a.count for a in game.legal_actions() if isinstance(a, sw.Deploy)) == 8 - 4
    game.apply(sw.Deploy(1, 4))
    game.apply(sw.EndTurn())
    assert saved_state(game)["races"]["amazons"]["held"] == 4
    assert game.tokens_on_map(0) == 10
