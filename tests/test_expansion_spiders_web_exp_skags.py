"""A Spider's Web (expansions/spiders_web/skags.swr): the Skags, who leave a face-down Loot
marker, drawn from a bag, on each region they conquer; whoever conquers it turns it over.

2-player map: Farmland 1 (edge) borders the Sea 0, Forest 2, Mountain 5 and Hill 6.
"""

from __future__ import annotations

import json

import pytest
from helpers import deploy_all_and_end

import smallworld_rules as sw
from smallworld_rules.events import PieceRevealed
from smallworld_rules.observation import game_from_observation

BAG = ("skag_attack", "loot_0", "loot_1", "loot_2", "loot_3")


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    return sw.load_rules(expansions=["spiders_web"])


def skags_on_farmland(rules: sw.Rules, seed: int) -> sw.Game:
    """Player 0's Skags (Alchemist) take Farmland 1; player 1 holds Orcs (Flying)."""
    game = sw.Game.new(players=2, seed=seed, rules=rules,
                       combos=[("skags", "alchemist"), ("orcs", "flying")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    return game


def drawn(game: sw.Game, region: int) -> str:
    (name,) = [n for n in game.region(region).pieces if n in BAG]
    return name


def with_marker(rules: sw.Rules, kind: str) -> sw.Game:
    """The first seed whose draw puts ``kind`` on Farmland 1 (the draw is the game's)."""
    for seed in range(200):
        game = skags_on_farmland(rules, seed)
        if drawn(game, 1) == kind:
            return game
    raise AssertionError(f"no seed draws {kind}")


def orcs_attack_farmland(game: sw.Game) -> None:
    """The Skags take Forest 2 too and place the rest of their tokens there, leaving 2 on
    Farmland 1; player 1 picks the Orcs."""
    game.apply(sw.Conquer(2))
    while sw.EndTurn() not in game.legal_actions():
        game.apply(sw.Deploy(2, game._state.races["skags"].hand))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))


def test_skags_banner_and_bag(box: sw.Rules) -> None:
    """Skags: 6 tokens on the banner, 11 in the box; the bag holds 10 markers: 3 Skag
    Attacks and chests of 0, 0, 1, 1, 2, 2 and 3 coins."""
    race = box.races["skags"]
    assert (race.tokens, race.box) == (6, 11)
    bag = {name: box.pieces[name] for name in BAG}
    assert all(p.hidden and p.stays and p.holder == "skags" for p in bag.values())
    assert bag["skag_attack"].supply == 3 and bag["skag_attack"].repels == 1
    coins = sorted(c for p in bag.values() if not p.repels for c in [p.loot] * p.supply)
    assert coins == [0, 0, 1, 1, 2, 2, 3]


def test_a_conquest_draws_one_marker_from_the_bag(box: sw.Rules) -> None:
    """Skags: each region they conquer gets one Loot marker, drawn with the game's seeded
    generator: the same seed draws the same marker, and the bag holds one fewer."""
    game = skags_on_farmland(box, 7)
    name = drawn(game, 1)
    assert game._state.piece_supply[name] == box.pieces[name].supply - 1
    assert sum(game._state.piece_supply[n] for n in BAG) == 9
    assert drawn(skags_on_farmland(box, 7), 1) == name
    kinds = {drawn(skags_on_farmland(box, seed), 1) for seed in range(40)}
    assert kinds == set(BAG)  # every kind of the bag can come


def test_the_marker_is_hidden_from_the_other_player(box: sw.Rules) -> None:
    """Skags: the marker lies face down: the Skags' owner sees which it is; the other player
    sees only that a Skags marker lies there, and the bag as one count."""
    game = skags_on_farmland(box, 7)
    name = drawn(game, 1)
    own, other = game.observation(0), game.observation(1)
    assert own["state"]["pieces"]["1"] == {name: 1}
    assert other["state"]["pieces"]["1"] == {"?skags": 1}
    assert other["regions"][1]["pieces"] == {"?skags": 1}
    assert other["state"]["piece_supply"]["?skags"] == 9
    assert not set(BAG) & set(other["state"]["piece_supply"])
    assert not set(BAG) & set(json.dumps(other["regions"]).split('"'))


def test_the_tensors_of_the_other_player_do_not_tell_the_marker(box: sw.Rules) -> None:
    """Skags: the other player's tensors are the same whichever marker was drawn."""
    from smallworld_rules.tensors import observation_tensor
    game = skags_on_farmland(box, 7)
    name = drawn(game, 1)
    other = next(n for n in BAG if n != name)
    doc = json.loads(game.to_json())  # the same position with the other marker drawn
    doc["state"]["pieces"]["1"] = {other: 1}
    supply = doc["state"]["piece_supply"]
    supply[name], supply[other] = supply[name] + 1, supply[other] - 1
    swapped = sw.Game.from_json(json.dumps(doc), rules=box)
    assert observation_tensor(swapped, 1) == observation_tensor(game, 1)
    assert observation_tensor(swapped, 0) != observation_tensor(game, 0)


def test_a_game_rebuilt_from_an_observation_draws_the_marker_again(box: sw.Rules) -> None:
    """Skags: a game rebuilt from the other player's observation holds a marker from the
    bag on Farmland 1 and the rest of the bag in the supply, guessed by the seed."""
    game = skags_on_farmland(box, 7)
    rebuilt = game_from_observation(game.observation(1), rules=box, seed=3)
    assert drawn(rebuilt, 1) in BAG
    assert sum(rebuilt._state.piece_supply[n] for n in BAG) == 9


def test_a_chest_pays_its_coins_to_the_conqueror(box: sw.Rules) -> None:
    """Skags: a race that conquers a region with a Loot chest turns it over and takes its
    coins; the marker goes back to the bag."""
    game = with_marker(box, "loot_2")
    orcs_attack_farmland(game)
    before = game.coins(1)
    in_bag = game._state.piece_supply["loot_2"]  # the other chest may lie on Forest 2
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "orcs"
    assert game.coins(1) == before + 2
    assert PieceRevealed("loot_2", 1, 1) in game.log
    assert "loot_2" not in game.region(1).pieces
    assert game._state.piece_supply["loot_2"] == in_bag + 1


def test_a_skag_attack_stops_the_conquest(box: sw.Rules) -> None:
    """Skags: a Skag Attack stops the conquest (the region stays the Skags'), the conqueror
    loses 1 token and may not try that region again this turn."""
    game = with_marker(box, "skag_attack")
    orcs_attack_farmland(game)
    hand, tray = game._state.races["orcs"].hand, game._state.box["orcs"]
    skags = game.region(1).tokens
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "skags" and game.region(1).tokens == skags
    assert game._state.races["orcs"].hand == hand - 1
    assert game._state.box["orcs"] == tray + 1
    assert PieceRevealed("skag_attack", 1, 1) in game.log
    assert sw.Conquer(1) not in game.legal_actions()
    with pytest.raises(sw.IllegalAction, match="may not try it again"):
        game.apply(sw.Conquer(1))
    saved = json.loads(game.to_json())
    assert saved["state"]["lang"]["repelled"] == {"orcs": 2}


def test_the_skags_own_region_keeps_its_marker_and_decline_empties_the_map(
    box: sw.Rules,
) -> None:
    """Skags: markers stay face down on their regions until the Skags decline; then they go
    back to the bag."""
    game = skags_on_farmland(box, 7)
    name = drawn(game, 1)
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert name not in game.region(1).pieces
    assert sum(game._state.piece_supply[n] for n in BAG) == 10


def test_saves_keep_the_marker_and_refuse_a_corrupt_repelled_field(box: sw.Rules) -> None:
    """Skags: a save keeps the face-down marker; a save whose repelled regions are not a
    bitmask of the map is refused with a short message."""
    game = skags_on_farmland(box, 7)
    again = sw.Game.from_json(game.to_json(), rules=box)
    assert again.region(1).pieces == game.region(1).pieces
    doc = json.loads(game.to_json())
    doc["state"]["lang"] = {"repelled": {"orcs": -1}}
    with pytest.raises(sw.RulesError, match="repelled"):
        sw.Game.from_json(json.dumps(doc), rules=box)


def test_a_skag_attack_stops_a_sorcerers_conversion(box: sw.Rules) -> None:
    """Skags: a Skag Attack stops any conquest, a Sorcerers' conversion too: the Skags keep
    the region and the Sorcerers take no token from their box for it."""
    for seed in range(200):
        game = sw.Game.new(players=2, seed=seed, rules=box,
                           combos=[("skags", "alchemist"), ("sorcerers", "flying")])
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(1))
        if drawn(game, 1) == "skag_attack":
            break
    game.apply(sw.Conquer(2))
    while sw.EndTurn() not in game.legal_actions():
        game.apply(sw.Deploy(2, game._state.races["skags"].hand))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(6))  # Hill 6 borders Farmland 1
    tray = game._state.box["sorcerers"]
    if sw.UseAbility("convert", 1) not in game.legal_actions():
        pytest.skip("Farmland 1 is not a lone-token region here")
    game.apply(sw.UseAbility("convert", 1))
    assert game.region(1).race == "skags"
    assert game._state.box["sorcerers"] == tray + 1  # the one token lost
