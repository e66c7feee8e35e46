"""The rule language's face-down pieces (`hidden`, `repels N`, the effect `draw`), with an
invented race (tests/rules_market/magpies.swr)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import smallworld_rules as sw

HERE = Path(__file__).parent / "rules_market"
BAG = ("bead", "ring", "trap")


@pytest.fixture(scope="module")
def rules() -> sw.Rules:
    return sw.load_rules(paths=[HERE])


def magpies(rules: sw.Rules, seed: int) -> sw.Game:
    game = sw.Game.new(players=2, seed=seed, rules=rules,
                       combos=[("magpies", "alchemist"), ("orcs", "flying")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    return game


def trinket(game: sw.Game) -> str:
    (name,) = [n for n in game.region(1).pieces if n in BAG]
    return name


def test_draw_is_the_seeded_generator_s() -> None:
    """`draw`: one piece of the file's bag on the conquered region, drawn with the game's
    seeded generator (the same seed, the same piece), each kind as likely as its supply."""
    rules = sw.load_rules(paths=[HERE])
    assert [trinket(magpies(rules, s)) for s in range(30)] == [
        trinket(magpies(rules, s)) for s in range(30)
    ]
    counts = {n: 0 for n in BAG}
    for s in range(300):
        counts[trinket(magpies(rules, s))] += 1
    assert counts["trap"] < counts["bead"] and counts["trap"] < counts["ring"]
    assert counts["trap"] > 0


def test_hidden_pieces_show_as_the_file_s_placeholder(rules: sw.Rules) -> None:
    """`hidden`: other players see a marker of the file, not which; its owner sees it."""
    game = magpies(rules, 2)
    name = trinket(game)
    assert game.observation(0)["state"]["pieces"]["1"] == {name: 1}
    assert game.observation(1)["state"]["pieces"]["1"] == {"?magpies": 1}
    assert game.observation(1)["state"]["piece_supply"]["?magpies"] == 4


def test_a_trap_repels_the_conquest_and_costs_its_tokens(rules: sw.Rules) -> None:
    """`repels N`: the conquest that turns the piece over stops, the conqueror loses N
    tokens from hand to its box, and the piece goes back to its supply."""
    game = next(g for g in (magpies(rules, s) for s in range(100)) if trinket(g) == "trap")
    game.apply(sw.Conquer(2))
    while sw.EndTurn() not in game.legal_actions():
        game.apply(sw.Deploy(2, game._state.races["magpies"].hand))
    game.apply(sw.EndTurn())
    game.apply(sw.PickCombo(0))
    hand = game._state.races["orcs"].hand
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "magpies"
    assert game._state.races["orcs"].hand == hand - 2
    assert game._state.piece_supply["trap"] == 1


def test_saves_keep_the_drawn_piece(rules: sw.Rules) -> None:
    """`draw`: the drawn piece and the bag's supplies are saved and loaded."""
    game = magpies(rules, 2)
    again = sw.Game.from_json(game.to_json(), rules=rules)
    assert again.region(1).pieces == game.region(1).pieces
    assert json.loads(again.to_json()) == json.loads(game.to_json())


@pytest.mark.parametrize(("source", "message"), [
    ('race jays "Jays" {\n    tokens 5\n    box 5\n    text "x"\n    on conquest do draw\n}\n',
     "declares no hidden piece"),
    ('race jays "Jays" {\n    tokens 5\n    box 5\n    text "x"\n'
     '    piece snare supply 2 { repels 1 }\n}\n', "'repels' belongs to a face-down piece"),
])
def test_misuse_is_a_rule_file_error(tmp_path: Path, source: str, message: str) -> None:
    """`draw` needs a bag (hidden pieces) in its file; `repels` needs `hidden`."""
    (tmp_path / "jays.swr").write_text(source)
    with pytest.raises(sw.RuleFileError, match=message) as info:
        sw.load_rules(paths=[tmp_path])
    assert "jays.swr" in str(info.value)
