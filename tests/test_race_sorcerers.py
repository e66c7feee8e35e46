"""Sorcerers (rule 2): the ``convert`` ability — rulings 19–23, A7 and A8.

Positions are on the 2-player map unless said otherwise. The Sorcerers enter at region 1 (an
empty Farmland on the edge), whose neighbours are 2 (an empty Forest), 5 (an empty Mountain)
and 6 (a Hill with a Lost Tribe); region 17 (an empty Hill on the edge) is far from 1. The
opponent's lone tokens are set up with ``game.put``. On the 3-player map the Sorcerers enter at
region 3 (an empty Farmland on the edge), next to 2, 4 and 10. ``plain``/``plain2`` and
``crowd`` are test rule files (tests/rules/): powers with no effect, a race with no ability.
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import AbilityUsed, Conquered, Scored


def _sorcerers(rules: sw.Rules, power: str = "plain", **kwargs: object) -> sw.Game:
    """Player 0 has just picked Sorcerers; the opponents' races come in by ``game.put``."""
    game = new_game(rules, [("sorcerers", power), ("crowd", "plain2")], **kwargs)
    game.apply(sw.PickCombo(0))
    return game


def _box(game: sw.Game, race: str) -> int:
    box: int = saved_state(game)["box"][race]
    return box


def _converts(game: sw.Game) -> set[int | None]:
    return {a.target for a in game.legal_actions() if isinstance(a, sw.UseAbility)}


def _refused(game: sw.Game, action: sw.Action, match: str) -> None:
    """The action is illegal, not offered, and changes nothing."""
    assert action not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _last(game: sw.Game, kind: type) -> object:
    return [e for e in game.log if isinstance(e, kind)][-1]


def test_sorcerers_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 Sorcerers: banner 5 tokens, 18 in the box."""
    assert (rules.races["sorcerers"].tokens, rules.races["sorcerers"].box) == (5, 18)
    game = _sorcerers(rules)
    assert game.hand(0) == 5 and _box(game, "sorcerers") == 18 - 5


def test_convert_replaces_a_lone_active_token_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19: a lone active enemy token next to a Sorcerer region is replaced by a
    Sorcerer from the box; the replaced token goes to its race's box; no hand token is
    spent; it is logged as a conquest."""
    game = _sorcerers(rules)
    game.put(2, 1, 1, race="ratmen")
    game.apply(sw.Conquer(1))
    assert sw.UseAbility("convert", 2) in game.legal_actions()
    hand, ratmen_box = game.hand(0), _box(game, "ratmen")
    game.apply(sw.UseAbility("convert", 2))
    view = game.region(2)
    assert (view.owner, view.race, view.tokens, view.declined) == (0, "sorcerers", 1, False)
    assert game.hand(0) == hand == 3
    assert _box(game, "sorcerers") == 18 - 5 - 1
    assert _box(game, "ratmen") == ratmen_box + 1
    assert _last(game, AbilityUsed) == AbilityUsed(0, "sorcerers", "convert", 2)
    event = _last(game, Conquered)
    assert (event.region, event.defender, event.defender_race) == (2, 1, "ratmen")
    assert (event.tokens, event.lost, event.returned) == (1, 1, 0)
    assert game.active_race(1) == "ratmen" and game.region(2).race == "sorcerers"


def test_convert_needs_no_token_in_hand_ruling_20(rules: sw.Rules) -> None:
    """Ruling 20: with an empty hand (no ordinary conquest possible, ruling 4) the
    Sorcerers may still convert."""
    game = _sorcerers(rules)
    game.put(2, 1, 1, race="ratmen")
    game.apply(sw.Conquer(1))  # 2
    game.apply(sw.Conquer(6))  # Lost Tribe: 3
    assert game.hand(0) == 0
    assert not any(isinstance(a, sw.Conquer | sw.ConquerWithDie) for a in game.legal_actions())
    assert _converts(game) == {2}
    game.apply(sw.UseAbility("convert", 2))
    assert game.region(2).race == "sorcerers" and game.hand(0) == 0


def test_convert_once_per_opponent_per_turn_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19: once per turn *per opponent* — a second conversion against player 1 is
    refused, one against player 2 is allowed (3-player map)."""
    game = _sorcerers(rules, players=3)
    game.put(2, 1, 1, race="ratmen")
    game.put(4, 1, 1)
    game.put(10, 2, 1, race="elves")
    game.apply(sw.Conquer(3))
    assert _converts(game) == {2, 4, 10}
    game.apply(sw.UseAbility("convert", 2))
    assert _converts(game) == {10}
    _refused(game, sw.UseAbility("convert", 4), "already used this turn against that player")
    game.apply(sw.UseAbility("convert", 10))
    assert (game.region(4).race, game.region(10).race) == ("ratmen", "sorcerers")
    assert _converts(game) == set()


def test_convert_limit_resets_next_turn_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19: the limit is per turn — a second lone Ratman refused this turn may be
    converted in the Sorcerers' next turn."""
    game = _sorcerers(rules)
    game.put(2, 1, 1, race="ratmen")
    game.put(6, 1, 1)
    game.put(17, 1, 3)
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("convert", 2))
    assert 6 not in _converts(game)
    game.apply(sw.Deploy(1, 4))  # 3 in hand + 1 lifted from region 1
    game.apply(sw.EndTurn())
    assert game.active_player == 1 and game.hand(1) == 2  # readied from region 17
    game.apply(sw.Deploy(17, 2))
    game.apply(sw.EndTurn())
    assert game.active_player == 0 and game.region(6).tokens == 1
    assert 6 in _converts(game)
    game.apply(sw.UseAbility("convert", 6))
    assert game.region(6).race == "sorcerers"


def test_convert_refused_against_more_than_one_token_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 (edge): only a *lone* token can be converted: two Ratmen are safe."""
    game = _sorcerers(rules)
    game.put(2, 1, 2, race="ratmen")
    game.apply(sw.Conquer(1))
    _refused(game, sw.UseAbility("convert", 2), "conditions fail")


def test_convert_refused_against_declined_token_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 (edge): only an *active* token: a lone declined token is not converted (it
    may only be conquered normally)."""
    game = _sorcerers(rules)
    game.put(2, 1, 1, declined=True, race="ratmen")
    game.apply(sw.Conquer(1))
    _refused(game, sw.UseAbility("convert", 2), "conditions fail")
    assert sw.Conquer(2) in game.legal_actions()


def test_convert_refused_against_lost_tribe_and_own_tokens_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 (edge): a Lost Tribe token and the player's own declined token are no
    opponent's active token."""
    game = _sorcerers(rules)
    game.put(2, 0, 1, declined=True, race="ratmen")
    game.apply(sw.Conquer(1))
    assert game.region(6).lost_tribe and game.region(6).tokens == 1
    _refused(game, sw.UseAbility("convert", 6), "conditions fail")
    _refused(game, sw.UseAbility("convert", 2), "conditions fail")


def test_convert_needs_adjacency_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 (edge): the lone token must be next to a Sorcerer region — region 17 is
    not next to region 1; and before the Sorcerers hold any region nothing is adjacent."""
    game = _sorcerers(rules)
    game.put(17, 1, 1, race="ratmen")
    game.put(2, 1, 1)
    _refused(game, sw.UseAbility("convert", 2), "conditions fail")  # no Sorcerer region yet
    game.apply(sw.Conquer(1))
    _refused(game, sw.UseAbility("convert", 17), "region 17 is not adjacent to a region your race")
    assert _converts(game) == {2}


def test_no_conversion_on_water_section_1_7(rules: sw.Rules) -> None:
    """Rule 1.7 / ruling 19 (edge): a lone Seafaring Ratman on Sea 0 cannot be converted by
    Sorcerers who may not enter water; the lone Ratman on the shore next to it can."""
    game = new_game(rules, [("sorcerers", "plain"), ("ratmen", "seafaring")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(5))  # next to Sea 0 and region 1
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Seafaring Ratmen, 13 tokens
    for region in (0, 1, 2):
        game.apply(sw.Conquer(region))
    game.apply(sw.Deploy(2, 10))  # 7 in hand + 3 lifted: 0 and 1 keep 1 token each
    game.apply(sw.EndTurn())
    assert game.active_player == 0
    assert (game.region(0).race, game.region(0).tokens) == ("ratmen", 1)
    assert _converts(game) == {1}
    _refused(game, sw.UseAbility("convert", 0), "region 0 is water")


def test_flying_sorcerers_convert_anywhere_ruling_22(rules: sw.Rules) -> None:
    """Ruling 22: Flying Sorcerers may convert a lone token anywhere on the map."""
    game = _sorcerers(rules, "flying")
    game.put(17, 1, 1, race="ratmen")
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("convert", 17))
    assert game.region(17).race == "sorcerers"


@pytest.mark.parametrize(
    ("race", "region", "pieces"),
    [
        ("trolls", 2, {"lair": 1}),
        ("ratmen", 2, {"fortress": 1}),
        ("ratmen", 5, {}),  # a Mountain
    ],
    ids=["lair", "fortress", "mountain"],
)
def test_lair_fortress_and_mountain_do_not_protect_ruling_19(
    rules: sw.Rules, race: str, region: int, pieces: dict[str, int]
) -> None:
    """Ruling 19: a Troll's Lair, a Fortress or a Mountain gives a lone token no protection;
    the Lair or Fortress goes back to its supply."""
    game = _sorcerers(rules)
    game.put(region, 1, 1, race=race, pieces=pieces)
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("convert", region))
    view = game.region(region)
    assert (view.race, view.tokens, view.pieces) == ("sorcerers", 1, {})
    supply = saved_state(game)["piece_supply"]
    assert (supply["lair"], supply["fortress"]) == (10, 6)


def test_encampment_protects_a_lone_token_ruling_19(rules: sw.Rules) -> None:
    """Ruling 19 (edge): an Encampment (Bivouacking) protects a lone token from conversion;
    without it the same token can be converted. The protected region can still be conquered
    normally (2 + 1 token + 1 Encampment)."""
    game = new_game(rules, [("sorcerers", "plain"), ("ratmen", "bivouacking")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Bivouacking Ratmen, 13 tokens
    game.apply(sw.Conquer(3))  # Lost Tribe: 3
    game.apply(sw.Conquer(2))  # next to the Sorcerers: 2
    game.apply(sw.Deploy(3, 11))  # 8 in hand + 3 lifted: region 2 keeps 1 token
    unguarded = game.clone()
    game.apply(sw.UseAbility("encamp", 2))
    for g in (game, unguarded):
        g.apply(sw.EndTurn())
        assert g.active_player == 0 and g.region(2).tokens == 1
    assert game.region(2).pieces == {"encampment": 1}
    assert _converts(unguarded) == {2}
    _refused(game, sw.UseAbility("convert", 2), "conditions fail")
    assert game.conquest_cost(2) == 4


@pytest.mark.parametrize("piece", ["hero", "dragon", "hole"])
def test_immune_regions_cannot_be_converted_ruling_23(rules: sw.Rules, piece: str) -> None:
    """Ruling 23: a Hero, Dragon or Hole-in-the-Ground region is immune to the conversion."""
    game = _sorcerers(rules)
    game.put(2, 1, 1, race="ratmen", pieces={piece: 1})
    game.apply(sw.Conquer(1))
    _refused(game, sw.UseAbility("convert", 2), f"region 2 is immune \\(a {piece} is there\\)")


def test_convert_takes_the_last_sorcerer_from_the_box_ruling_40(rules: sw.Rules) -> None:
    """Rule 2 Sorcerers / ruling 40: the new Sorcerer comes from the box: with one left the
    conversion works and empties it."""
    game = _sorcerers(rules)
    game.put(1, 0, 12)  # box: 13 → 1
    game.put(2, 1, 1, race="ratmen")
    assert _box(game, "sorcerers") == 1
    game.apply(sw.UseAbility("convert", 2))
    assert _box(game, "sorcerers") == 0 and game.region(2).race == "sorcerers"


def test_convert_impossible_with_an_empty_box_ruling_40(rules: sw.Rules) -> None:
    """Rule 2 Sorcerers / ruling 40 (edge): with all 18 Sorcerers out of the box the conversion
    is refused."""
    game = _sorcerers(rules)
    game.put(1, 0, 13)  # box: 13 → 0
    game.put(2, 1, 1, race="ratmen")
    assert _box(game, "sorcerers") == 0
    _refused(game, sw.UseAbility("convert", 2), "no Sorcerers token is left in the box")


def test_converted_elf_loses_its_token_ruling_21(rules: sw.Rules) -> None:
    """Ruling 21: a converted Elf token goes to the Elves' box (an ordinary conquest of the
    same region would let the Elves keep it)."""
    game = _sorcerers(rules)
    game.put(2, 1, 1, race="elves")
    game.put(17, 1, 2)
    game.apply(sw.Conquer(1))
    conquered = game.clone()
    box = _box(game, "elves")
    game.apply(sw.UseAbility("convert", 2))
    event = _last(game, Conquered)
    assert (event.defender_race, event.lost, event.returned) == ("elves", 1, 0)
    assert _box(game, "elves") == box + 1
    conquered.apply(sw.Conquer(2))  # cost 3: the Elves keep their token (rule 2 Elves)
    event = _last(conquered, Conquered)
    assert (event.lost, event.returned) == (0, 1) and _box(conquered, "elves") == box


def test_conversion_counts_as_a_conquest_for_pillaging_a7(rules: sw.Rules) -> None:
    """A7: a conversion is a conquest of a non-empty region: Pillaging Sorcerers that take an
    empty region, convert a token and take a Lost Tribe score 3 regions + 2 = 5 coins."""
    game = _sorcerers(rules, "pillaging")  # 5 + 5 tokens
    game.put(2, 1, 1, race="ratmen")
    game.apply(sw.Conquer(1))  # empty: 2
    game.apply(sw.UseAbility("convert", 2))
    game.apply(sw.Conquer(6))  # Lost Tribe: 3
    deploy_all_and_end(game)
    assert _last(game, Scored).coins == 3 + 2 and game.coins(0) == 5 + 5


def test_conversion_counts_as_an_attack_for_diplomat_a7(rules: sw.Rules) -> None:
    """A7: a conversion attacks the opponent's active race: Diplomat Sorcerers may not then
    choose that opponent as an ally (without the conversion they may)."""
    game = _sorcerers(rules, "diplomat")
    game.put(2, 1, 1, race="ratmen")
    game.apply(sw.Conquer(1))
    peaceful = game.clone()
    game.apply(sw.UseAbility("convert", 2))
    game.apply(sw.Deploy(1, game.hand(0) + 1))
    _refused(game, sw.UseAbility("choose_ally", 1), "conditions fail")
    peaceful.apply(sw.Deploy(1, peaceful.hand(0) + 1))
    assert sw.UseAbility("choose_ally", 1) in peaceful.legal_actions()


def test_no_conversion_after_the_final_die_roll_a8(rules: sw.Rules) -> None:
    """A8: conversions are allowed during the conquests, but not after the final die roll
    (the conquests are over), whether the roll succeeded or not."""
    game = _sorcerers(rules, chance="explicit")
    game.put(2, 1, 1, race="ratmen")
    game.put(5, 1, 2)  # a Mountain with 2 Ratmen: cost 5
    game.apply(sw.Conquer(1))
    assert game.hand(0) == 3 and 2 in _converts(game)
    game.apply(sw.ConquerWithDie(5))
    assert game.to_move == sw.CHANCE
    failed = game.clone()
    game.apply(sw.RollDie(3))
    failed.apply(sw.RollDie(0))
    assert game.region(5).race == "sorcerers" and failed.region(5).race == "ratmen"
    for g in (game, failed):
        assert g.phase is sw.Phase.REDEPLOY
        _refused(g, sw.UseAbility("convert", 2), "during conquest, not now")


def test_no_conversion_in_redeployment_a8(rules: sw.Rules) -> None:
    """A8 (edge): once the conquests end with a Deploy, no conversion is offered."""
    game = _sorcerers(rules)
    game.put(2, 1, 1, race="ratmen")
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 1))
    _refused(game, sw.UseAbility("convert", 2), "during conquest, not now")


def test_declined_sorcerers_cannot_convert_section_2(rules: sw.Rules) -> None:
    """Rule 2 Sorcerers: the ability works only while active — after the decline the player's
    new race has no ``convert``, even next to the declined Sorcerers."""
    game = new_game(rules, [("sorcerers", "plain"), ("crowd", "plain2"), ("ratmen", "hill")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 0: Ratmen
    game.put(2, 1, 1)  # a lone Crowd token next to the declined Sorcerers
    game.apply(sw.Conquer(5))  # the Ratmen are next to region 2 too
    assert _converts(game) == set()
    _refused(game, sw.UseAbility("convert", 2), "no ability 'convert'")
