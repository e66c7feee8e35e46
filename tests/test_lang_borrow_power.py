"""The rule language's `target combo` and `borrow power` (docs/rule-language.md, "A badge
borrowed from the market"), through the invented power Mimics
(tests/rules_borrow/mimics.swr)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import new_game

import smallworld_rules as sw
from smallworld_rules.dsl.formatter import format_source

MIMICS = Path(__file__).parent / "rules_borrow" / "mimics.swr"


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> sw.Rules:
    folder = tmp_path_factory.mktemp("mimics")
    (folder / "mimics.swr").write_text(MIMICS.read_text())
    return sw.load_rules(paths=[folder], expansions=["spiders_web"])


def _mimics(rules: sw.Rules, market: list[tuple[str, str]]) -> sw.Game:
    game = new_game(rules, [("ratmen", "mimics"), *market])
    game.apply(sw.PickCombo(0))
    return game


def test_borrow_power_adds_the_badges_modifiers(rules: sw.Rules) -> None:
    """`borrow power`: the race plays by the target combo's badge as well as its own (here
    Mounted: Farmland and Hills cost 1 token less), not by its tokens."""
    game = _mimics(rules, [("humans", "mounted"), ("elves", "flying")])
    hand = game.observation(0)["players"][0]["hand"]
    assert game.explain_conquest_cost(1).value == 2
    game.apply(sw.UseAbility("mimic", 0))
    assert game.powers(0) == ["mimics", "mounted"]
    assert game.explain_conquest_cost(1).value == 1
    assert game.explain_conquest_cost(2).value == 2  # a Forest: Mounted does not apply
    assert game.observation(0)["players"][0]["hand"] == hand  # no tokens of the badge


def test_borrow_power_adds_the_badges_flags(rules: sw.Rules) -> None:
    """`borrow power`: a borrowed badge's flags work too (Flying: any region in reach)."""
    game = _mimics(rules, [("humans", "flying")])
    conquers = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    game.apply(sw.UseAbility("mimic", 0))
    flown = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert conquers < flown


def test_a_borrowing_badge_cannot_be_borrowed(rules: sw.Rules) -> None:
    """`borrow power`: a badge that borrows badges itself is never borrowed (no chain)."""
    game = _mimics(rules, [("humans", "copycat"), ("elves", "flying")])
    targets = {a.target for a in game.legal_actions() if isinstance(a, sw.UseAbility)}
    assert 0 not in targets and 1 in targets
    with pytest.raises(sw.IllegalAction, match="borrows badges itself"):
        game.apply(sw.UseAbility("mimic", 0))


def test_borrow_power_round_trips_through_the_formatter() -> None:
    """`target combo` and `borrow power` print back as written."""
    text = MIMICS.read_text()
    assert format_source(text) == text


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("target combo when coastal\n borrow power", 5, "aims at a combo of the market"),
        ("target region\n borrow power", 6, "needs a target combo"),
        ("borrow power", 5, "needs a target, but the ability"),
    ],
)
def test_misuse_of_borrow_power_is_a_rule_file_error(
    tmp_path: Path, body: str, line: int, message: str
) -> None:
    """`borrow power` needs `target combo`, which takes no condition: a clear error at its
    line."""
    (tmp_path / "bad.swr").write_text(
        'power bad "Bad" {\n tokens 1\n text "Test."\n'
        f" ability copy {{ during conquest once_per_turn\n {body} }}\n}}\n"
    )
    with pytest.raises(sw.RuleFileError) as caught:
        sw.load_rules(paths=[tmp_path])
    assert caught.value.line == line and message in str(caught.value)
    assert caught.value.hint


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_borrowed_badges_keep_every_invariant(rules: sw.Rules, seed: int) -> None:
    """`borrow power`: seeded random 3-player games where Mimics borrow any badge of the
    market end, the invariants hold after every action and every save loads back equal."""
    races = ["humans", "elves", "dwarves", "orcs", "giants", "tritons", "wizards"]
    powers = ["commando", "dragon_master", "wealthy", "forest", "fortified", "heroic",
              "bivouacking", "diplomat", "flying", "berserk", "stout"]
    rng = random.Random(seed)
    rng.shuffle(races)
    rng.shuffle(powers)
    combos = [("ratmen", "mimics"), *zip(races, powers, strict=False)]
    game = new_game(rules, combos, players=3, seed=seed)
    game.apply(sw.PickCombo(0))  # the Mimics are in play from the first turn
    borrowed = 0
    while not game.is_over:
        if game.to_move is sw.CHANCE:
            outcomes = game.chance_outcomes()
            game.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            options = list(game.legal_actions())
            mimic = [a for a in options if isinstance(a, sw.UseAbility) and a.name == "mimic"]
            action = rng.choice(mimic) if mimic and rng.random() < 0.7 else rng.choice(options)
            borrowed += action in mimic
            game.apply(action)
        game._engine.check_invariants(game._state)
        if len(game.log) % 7 == 0:
            text = game.to_json()
            assert sw.Game.from_json(text, rules=rules).to_json() == text
    assert game.winners and borrowed > 0
