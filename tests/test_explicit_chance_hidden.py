"""Explicit chance and face-down pieces: with chance="explicit" a draw from a bag of hidden
pieces (the Skags' Loot markers, A Spider's Web) is a chance node, answered with DrawPiece
once the conquest that drew is done; each kind left in the bag is as likely as its supply is
large.

2-player map: Farmland 1 (edge) borders the Sea 0, Forest 2, Mountain 5 and Hill 6.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers import check_invariants

import smallworld_rules as sw
from smallworld_rules.action_space import action_space
from smallworld_rules.events import PieceMoved

BAG = ("skag_attack", "loot_0", "loot_1", "loot_2", "loot_3")


@pytest.fixture(scope="module")
def box() -> sw.Rules:
    return sw.load_rules(expansions=["spiders_web"])


def at_the_draw(rules: sw.Rules, seed: int = 1) -> sw.Game:
    """Player 0's Skags (Alchemist) conquer Farmland 1: the draw's chance node."""
    game = sw.Game.new(players=2, seed=seed, rules=rules, chance="explicit",
                       combos=[("skags", "alchemist"), ("orcs", "flying")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    return game


def test_a_skags_conquest_is_a_chance_node_with_the_bag_as_outcomes(box: sw.Rules) -> None:
    """Skags: each region they conquer gets a Loot marker drawn at random; with explicit
    chance the draw waits for the conquest to be done, then the chance node lists each kind
    with its supply's share of the bag (3 Skag Attacks, 2 chests of each value: 10)."""
    game = at_the_draw(box)
    assert game.to_move == sw.CHANCE
    assert game.region(1).owner == 0 and not any(n in BAG for n in game.region(1).pieces)
    outcomes = dict(game.chance_outcomes())
    supply = {name: box.pieces[name].supply for name in BAG}
    assert outcomes == {sw.DrawPiece(n): supply[n] / sum(supply.values()) for n in BAG}
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert list(game.legal_actions()) == [a for a, _ in game.chance_outcomes()]


def test_drawing_a_kind_puts_it_face_down_and_play_goes_on(box: sw.Rules) -> None:
    """Skags: the drawn marker lies face down on the conquered region, out of the bag; the
    other player sees only a marker of the Skags' file, and the conquest goes on."""
    game = at_the_draw(box)
    before = game._state.piece_supply["loot_2"]
    game.apply(sw.DrawPiece("loot_2"))
    assert game.to_move == 0 and game.phase is sw.Phase.CONQUEST
    assert game.region(1).pieces.get("loot_2") == 1
    assert game._state.piece_supply["loot_2"] == before - 1
    assert isinstance(game.log[-1], PieceMoved) and game.log[-1].piece == "?skags"
    seen = game.observation(1)["regions"][1]["pieces"]
    assert "loot_2" not in seen and seen == {"?skags": 1}
    assert "loot_2" in game.observation(0)["regions"][1]["pieces"]


def test_a_kind_not_in_the_bag_is_refused_and_changes_nothing_edge(box: sw.Rules) -> None:
    """Skags (edge): the chance node takes only a kind left in the bag; a die face or a
    kind with no piece left is refused with the reason, the game exactly as it was."""
    game = at_the_draw(box)
    game._state.piece_supply = {**game._state.piece_supply, "loot_3": 0}
    before = game.to_json()
    assert sw.DrawPiece("loot_3") not in game.legal_actions()
    for bad in (sw.DrawPiece("loot_3"), sw.DrawPiece("dragon"), sw.RollDie(1)):
        with pytest.raises(sw.IllegalAction, match=r"bag holds no|answer with DrawPiece"):
            game.apply(bad)
        assert game.to_json() == before
    later = at_the_draw(box)
    later.apply(sw.DrawPiece("loot_1"))
    with pytest.raises(sw.IllegalAction, match="no face-down piece is being drawn"):
        later.apply(sw.DrawPiece("loot_1"))


def test_a_save_at_the_draw_loads_and_a_corrupt_one_is_refused(box: sw.Rules) -> None:
    """Saves: a game saved at the draw's chance node loads there, with the same outcomes;
    a save whose ``drawing`` names no region, whose drawing race is not in play or has an
    empty bag, or that waits for a draw outside a chance node, is refused with a short
    message."""
    game = at_the_draw(box)
    text = game.to_json()
    loaded = sw.Game.from_json(text, rules=box)
    assert loaded.to_move == sw.CHANCE and loaded.chance_outcomes() == game.chance_outcomes()
    loaded.apply(sw.DrawPiece("skag_attack"))
    assert loaded.region(1).pieces.get("skag_attack") == 1
    doc = json.loads(text)
    for value in (99, "1", -1):
        doc["state"]["lang"]["drawing"] = value
        with pytest.raises(sw.RulesError, match="drawing"):
            sw.Game.from_json(json.dumps(doc), rules=box)
    for roller in ("zzz", "orcs", None):
        doc = json.loads(text)
        doc["state"]["lang"]["roller"] = roller
        with pytest.raises(sw.RulesError, match=r"drawing|roller"):
            sw.Game.from_json(json.dumps(doc), rules=box)
    played = at_the_draw(box)
    played.apply(sw.DrawPiece("loot_0"))
    doc = json.loads(played.to_json())
    doc["state"]["lang"] = {**doc["state"].get("lang", {}), "drawing": 1}
    with pytest.raises(sw.RulesError, match="drawing"):
        sw.Game.from_json(json.dumps(doc), rules=box)


def test_the_action_space_has_a_draw_block_only_with_a_bag(box: sw.Rules) -> None:
    """Action space: a DrawPiece slot per face-down kind, last, only when the rules have
    face-down pieces; the official space has none."""
    game = at_the_draw(box)
    space = action_space(game)
    name, first, size = space.blocks[-1]
    assert (name, size) == ("DrawPiece", len(BAG)) and space.draw_kinds == BAG
    assert [space.action(first + i) for i in range(size)] == [sw.DrawPiece(n) for n in BAG]
    assert sum(game.legal_mask()) == len(BAG)
    official = action_space(sw.Game.new(players=2, seed=1, chance="explicit"))
    assert "DrawPiece" not in [b[0] for b in official.blocks]


def _play(rules: sw.Rules, seed: int) -> sw.Game:
    """A random explicit-chance 2-player game, the Skags first in the market, to the end;
    the chance nodes drawn with their probabilities, the invariants after every action."""
    game = sw.Game.new(players=2, seed=seed, rules=rules, chance="explicit",
                       combos=[("skags", "alchemist")])
    rng = random.Random(seed)
    step = 0
    while not game.is_over:
        assert step < 5000, "the random game does not end"
        if game.to_move == sw.CHANCE:
            outcomes = game.chance_outcomes()
            assert list(game.legal_actions()) == [a for a, _ in outcomes]
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(list(game.legal_actions()))
        game.apply(action)
        step += 1
        check_invariants(game, rules, step)
    return game


def test_random_explicit_chance_games_with_the_skags_end_soundly(box: sw.Rules) -> None:
    """Chance nodes: random games with A Spider's Web loaded and explicit chance draw
    markers as chance nodes, keep the invariants and end; the same seeds play the same."""
    drew = 0
    for seed in range(6):
        game = _play(box, seed)
        assert game.winners
        drew += sum(isinstance(a, sw.DrawPiece) for a in game.action_stack)
        assert game.to_json() == _play(box, seed).to_json()
    assert drew > 0


def test_explicit_chance_still_plays_without_a_bag_edge() -> None:
    """Chance nodes (edge): the other boxes keep explicit chance, with no draw block."""
    boxes = ["cursed", "grand_dames", "be_not_afraid", "royal_bonus", "underground"]
    game = sw.Game.new(players=2, seed=1, rules=sw.load_rules(expansions=boxes), chance="explicit")
    assert game.legal_actions()
    assert "DrawPiece" not in [b[0] for b in action_space(game).blocks]


def test_openspiel_random_simulations_with_a_bag(box: sw.Rules) -> None:
    """OpenSpiel: pyspiel.random_sim_test passes on a 2-player game with A Spider's Web; a
    draw's outcomes follow the die's faces, and another player's history hides the kind."""
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("numpy")
    import smallworld_rules.openspiel as sw_openspiel

    game = pyspiel.load_game("python_smallworld", {"players": 2, "seed": 5,
                                                   "expansions": "spiders_web"})
    assert game.max_chance_outcomes() == 4 + len(BAG)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state._held.game = at_the_draw(box)
    assert isinstance(state, sw_openspiel.SmallWorldState)
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == [4, 5, 6, 7, 8]
    state.apply_action(6)  # loot_1
    assert state.game.region(1).pieces.get("loot_1") == 1
    assert state.history_seen_by(0)[-1] == 6 and state.history_seen_by(1)[-1] == -1
