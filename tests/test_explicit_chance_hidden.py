"""Explicit chance and face-down pieces: a draw from a bag of hidden pieces is not a chance
node, so a game whose rules hold such a bag is refused with chance="explicit" (a clear error
at the start, never randomness the caller cannot see)."""

from __future__ import annotations

import pytest

import smallworld_rules as sw


def test_explicit_chance_is_refused_with_a_bag_of_face_down_pieces() -> None:
    """Chance nodes: with A Spider's Web loaded (the Skags' bag), chance="explicit" is
    refused by name; the same rules play with the seeded die."""
    rules = sw.load_rules(expansions=["spiders_web"])
    with pytest.raises(sw.RulesError, match="face-down pieces"):
        sw.Game.new(players=2, seed=1, rules=rules, chance="explicit")
    game = sw.Game.new(players=2, seed=1, rules=rules)
    assert game.legal_actions()


def test_explicit_chance_still_plays_without_a_bag_edge() -> None:
    """Chance nodes (edge): the other boxes keep explicit chance."""
    boxes = ["cursed", "grand_dames", "be_not_afraid", "royal_bonus", "underground"]
    game = sw.Game.new(players=2, seed=1, rules=sw.load_rules(expansions=boxes), chance="explicit")
    assert game.legal_actions()
