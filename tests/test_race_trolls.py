"""Trolls (rule 2): a Lair in every region they conquer (+1 defence); the Lairs stay
in decline and are removed when their region is abandoned or conquered — ruling 31; a Lair
does not protect a lone token from the Sorcerers — ruling 19.

Positions are on the 2-player map: region 1 is an empty Farmland on the edge, 2 an empty Forest
on the edge next to 1, 3 a Swamp with a Lost Tribe on the edge next to 2, 5 an empty Mountain
next to 1, 6 a Hill with a Lost Tribe next to 1 and 2, 20 an empty Swamp on the edge far away.
``plain``/``plain2``/``crowd`` are test rule files (tests/rules/).
"""

from __future__ import annotations

from pathlib import Path

from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered, PieceMoved


def _trolls(rules: sw.Rules, second: str = "crowd", **kwargs: object) -> sw.Game:
    """Player 0 has just picked Trolls (5 tokens); player 1 will get ``second``."""
    game = new_game(rules, [("trolls", "plain"), (second, "plain2")], **kwargs)
    game.apply(sw.PickCombo(0))
    return game


def _lair_supply(game: sw.Game) -> int:
    supply: int = saved_state(game)["piece_supply"]["lair"]
    return supply


def _lairs(game: sw.Game) -> set[int]:
    return {r for r in range(len(game.map.regions)) if game.region(r).pieces.get("lair")}


def _first_turns(game: sw.Game) -> None:
    """Trolls take 1 and 2 (4 tokens in 1, 1 in 2); player 1 takes region 20."""
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 3))  # 1 in hand + 2 lifted
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)


def test_trolls_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 Trolls: banner 5 tokens, 10 in the box; the 10 Lairs of rule 1.1."""
    assert (rules.races["trolls"].tokens, rules.races["trolls"].box) == (5, 10)
    assert rules.pieces["lair"].supply == 10
    game = _trolls(rules)
    assert game.hand(0) == 5 and _lair_supply(game) == 10


def test_lair_in_every_conquered_region_section_2(rules: sw.Rules) -> None:
    """Rule 2 Trolls: each region the Trolls conquer, empty or not, gets one Lair at once."""
    game = _trolls(rules)
    game.apply(sw.Conquer(1))
    assert game.region(1).pieces == {"lair": 1}
    game.apply(sw.Conquer(6))  # Lost Tribe: 3
    assert _lairs(game) == {1, 6} and _lair_supply(game) == 8
    moved = [e for e in game.log if isinstance(e, PieceMoved)]
    assert [(e.piece, e.region) for e in moved] == [("lair", 1), ("lair", 6)]
    game.apply(sw.Deploy(1, 2))  # redeployment moves tokens, not Lairs
    assert _lairs(game) == {1, 6}


def test_lair_placed_after_a_final_die_conquest_section_2(rules: sw.Rules) -> None:
    """Rule 2 Trolls / ruling 5: a region taken with the reinforcement die gets a Lair too; a
    failed attempt places none."""
    game = _trolls(rules, chance="explicit")
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.ConquerWithDie(5))  # a Mountain: 3, with 1 in hand
    failed = game.clone()
    game.apply(sw.RollDie(2))
    assert game.region(5).pieces == {"lair": 1} and _lair_supply(game) == 7
    failed.apply(sw.RollDie(0))
    assert failed.region(5).race is None and _lairs(failed) == {1, 2}


def test_lair_adds_one_defence_section_2(rules: sw.Rules) -> None:
    """Rule 2 Trolls: a Lair is +1 defence, like an extra token: 4 Trolls in region 1 cost an
    enemy 2 + 4 + 1 = 7; the breakdown names races/trolls.swr and the Lair's line."""
    game = _trolls(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 3))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    b = game.explain_conquest_cost(1)
    assert b.value == 2 + 4 + 1 and game.conquest_cost(2) == 2 + 1 + 1
    lair = [c for c in b.contributions if c.label == "lair"]
    assert len(lair) == 1 and (lair[0].op, lair[0].amount) == ("add", 1)
    lines = Path(rules.races["trolls"].path).read_text(encoding="utf-8").splitlines()
    assert Path(lair[0].path).as_posix().endswith("races/trolls.swr")
    assert lines[lair[0].line - 1].strip().startswith("piece lair")


def test_lair_removed_when_region_conquered_ruling_31(rules: sw.Rules) -> None:
    """Ruling 31: conquering a Troll region removes its Lair (back to the supply); the
    conqueror gets no Lair and the region's cost drops accordingly."""
    game = _trolls(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 3))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))  # player 1: Crowd, 8 tokens
    game.apply(sw.Conquer(2))  # 2 + 1 + 1
    assert game.region(2).race == "crowd" and game.region(2).pieces == {}
    assert _lairs(game) == {1} and _lair_supply(game) == 9
    event = [e for e in game.log if isinstance(e, Conquered)][-1]
    assert (event.cost, event.defender_race, event.lost) == (4, "trolls", 1)


def test_lair_removed_when_region_abandoned_ruling_31(rules: sw.Rules) -> None:
    """Ruling 31 / rule 1.6: abandoning a Troll region removes its Lair."""
    game = _trolls(rules)
    _first_turns(game)
    assert game.active_player == 0 and _lairs(game) == {1, 2}
    game.apply(sw.Abandon(2))
    assert game.region(2).pieces == {} and _lairs(game) == {1}
    assert _lair_supply(game) == 9


def test_lairs_stay_and_defend_in_decline_ruling_31(rules: sw.Rules) -> None:
    """Ruling 31: the Lairs stay when the Trolls decline and still add 1 defence: a lone
    declined Troll with its Lair costs 2 + 1 + 1 = 4; conquering it removes the Lair."""
    game = _trolls(rules)
    _first_turns(game)
    game.apply(sw.Decline())
    assert _lairs(game) == {1, 2} and _lair_supply(game) == 8
    assert (game.region(1).tokens, game.region(1).declined) == (1, True)
    game.put(6, 1, 1)  # player 1's Crowd now border both Troll regions
    assert game.conquest_cost(1) == 4 and game.conquest_cost(2) == 4
    game.apply(sw.Conquer(2))
    assert _lairs(game) == {1} and _lair_supply(game) == 9


def test_declined_trolls_place_no_new_lair_section_2(rules: sw.Rules) -> None:
    """Rule 2 Trolls (edge): the Lairs are the active Trolls' — after the decline the player's new
    race conquers without placing any Lair."""
    game = new_game(rules, [("trolls", "plain"), ("crowd", "plain2"), ("ratmen", "hill")])
    game.apply(sw.PickCombo(0))
    _first_turns(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 0: Ratmen
    game.apply(sw.Conquer(17))
    game.apply(sw.Conquer(16))
    assert _lairs(game) == {1, 2} and _lair_supply(game) == 8


def test_lair_does_not_protect_from_sorcerers_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 / rule 2 Trolls: a lone Troll in a Lair region can be converted by Sorcerers
    (who could not afford the ordinary 2 + 1 + 1 = 4); the Lair goes back to the supply."""
    game = _trolls(rules, second="sorcerers")
    _first_turns_with_entry(game, 3)  # the Sorcerers enter at 3, next to region 2
    assert game.active_player == 1 and game.active_race(1) == "sorcerers"
    assert game.region(2).tokens == 1 and game.conquest_cost(2) == 4 > game.hand(1)
    assert sw.UseAbility("convert", 2) in game.legal_actions()
    game.apply(sw.UseAbility("convert", 2))
    assert game.region(2).race == "sorcerers" and game.region(2).pieces == {}
    assert _lairs(game) == {1} and _lair_supply(game) == 9


def _first_turns_with_entry(game: sw.Game, entry: int) -> None:
    """Trolls take 1 and 2 (4 tokens in 1, 1 in 2); player 1 picks the next combo and
    conquers ``entry``."""
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 3))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(entry))
