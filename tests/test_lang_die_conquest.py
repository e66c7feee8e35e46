"""The rule language's effect ``conquer with die``, with the invented rule file of
tests/rules_die/ (no published race is named here).

``conquer with die``: an ability aimed at a region names the region, then rolls the
reinforcement die for it; the region costs the face less (at least 1 token). If the tokens
in hand pay that, the race conquers it at once, whatever the roll, and its conquests go on;
if they do not, its conquests end. Offered only for a region the race may conquer now and
could pay with the die's best face (3).

2-player map: Forest 2 (edge), Swamp 3 (edge, Lost Tribe), Hill 4 (edge), Mountain 5
(edge), Hill 6 (Lost Tribe), Farmland 1 (edge), Mountain 19 (edge), Hill 17 (edge).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import new_game, play_pair_at_random
from test_lang_v3_errors import _errors, _race

import smallworld_rules as sw
from smallworld_rules.dsl.formatter import format_source
from smallworld_rules.events import AbilityUsed, Conquered, DieRolled

DIE_RULES = Path(__file__).parent / "rules_die"
TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def rules() -> sw.Rules:
    """The official rules, the invented file of tests/rules_die and the test-only ones."""
    return sw.load_rules(paths=[DIE_RULES, TEST_RULES])


def lampbearers(rules: sw.Rules, **kwargs: str) -> sw.Game:
    game = new_game(rules, [("lampbearers", "plain"), ("crowd", "plain2")], **kwargs)
    game.apply(sw.PickCombo(0))
    return game


def targets(game: sw.Game) -> list[int | None]:
    return [
        a.target for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name == "lantern"
    ]


def test_the_roll_lowers_the_named_region_and_conquests_go_on(rules: sw.Rules) -> None:
    """conquer with die: named Hill 4 (cost 2) rolled a 1: conquered with 1 token, the roll
    is logged for that region, and the race goes on conquering."""
    game = lampbearers(rules, chance="explicit")
    assert 4 in targets(game)
    game.apply(sw.UseAbility("lantern", 4))
    assert game.to_move is sw.CHANCE
    game.apply(sw.RollDie(1))
    rolled = [e for e in game.log if isinstance(e, DieRolled)][-1]
    assert (rolled.region, rolled.face, rolled.success) == (4, 1, True)
    assert (game.region(4).race, game.region(4).tokens, game.hand(0)) == ("lampbearers", 1, 5)
    assert game.phase == "conquest" and sw.Conquer(3) in game.legal_actions()


def test_the_region_is_conquered_whatever_the_roll(rules: sw.Rules) -> None:
    """conquer with die: with enough tokens in hand, a roll of 0 still conquers the named
    region, at its full cost (Hill 6 next to Mountain 5: 2 + 1 Lost Tribe = 3)."""
    game = lampbearers(rules, chance="explicit")
    assert 6 not in targets(game)  # no Mountain held yet, and not on the edge
    game.apply(sw.Conquer(5))
    assert 6 in targets(game)
    game.apply(sw.UseAbility("lantern", 6))
    game.apply(sw.RollDie(0))
    assert (game.region(6).race, game.region(6).tokens, game.hand(0)) == ("lampbearers", 3, 0)
    conquered = [e for e in game.log if isinstance(e, Conquered)][-1]
    assert (conquered.region, conquered.tokens) == (6, 3)


def test_a_roll_that_falls_short_ends_the_conquests(rules: sw.Rules) -> None:
    """conquer with die: 1 token in hand for Hill 6 (2 + 1 Lost Tribe, next to Mountain 5):
    a roll of 1 leaves it costing 2, so it stays the Lost Tribe's and the conquests end (the
    race redeploys)."""
    game = lampbearers(rules, chance="explicit")
    game.apply(sw.Conquer(5))  # 3 tokens: 3 left
    game.apply(sw.Conquer(1))  # 2 tokens: 1 left
    assert game.hand(0) == 1 and 6 in targets(game)
    game.apply(sw.UseAbility("lantern", 6))
    game.apply(sw.RollDie(1))
    rolled = [e for e in game.log if isinstance(e, DieRolled)][-1]
    assert (rolled.region, rolled.face, rolled.success) == (6, 1, False)
    assert game.region(6).lost_tribe
    assert game.phase == "redeploy"
    assert not any(isinstance(a, sw.Conquer) for a in game.legal_actions())


def test_no_roll_when_even_the_best_face_falls_short(rules: sw.Rules) -> None:
    """conquer with die: Hill 6 holding 5 Lost Tribe tokens costs 7; with 3 in hand even a
    3 falls short, so it is not offered, and asking is refused with the game unchanged."""
    game = new_game(rules, [("lampbearers", "plain"), ("crowd", "plain2")])
    game.put(6, None, 5)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(5))  # 3 tokens: 3 left
    assert game.conquest_cost(6) == 7 and 6 not in targets(game)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="best face"):
        game.apply(sw.UseAbility("lantern", 6))
    assert game.to_json() == before


def test_the_roll_comes_from_the_seed_and_a_save_waits_for_it(rules: sw.Rules) -> None:
    """conquer with die: seeded games roll the same face; with chance="explicit" a game
    saved while the roll waits resumes at the same chance node and resolves the same way."""
    faces = set()
    for _ in range(2):
        game = lampbearers(rules)
        game.apply(sw.UseAbility("lantern", 4))
        faces.add([e for e in game.log if isinstance(e, DieRolled)][-1].face)
    assert len(faces) == 1
    game = lampbearers(rules, chance="explicit")
    game.apply(sw.UseAbility("lantern", 4))
    copy = sw.Game.from_json(game.to_json(), rules=rules)
    assert copy.to_move is sw.CHANCE
    assert list(copy.legal_actions()) == [sw.RollDie(f) for f in (0, 1, 2, 3)]
    for g in (game, copy):
        g.apply(sw.RollDie(3))
    assert game.to_json() == copy.to_json()
    assert game.region(4).tokens == 1


def test_misuse_is_a_rule_file_error() -> None:
    """conquer with die: it must be the ability's last effect (what follows would run before
    the roll), and the ability is used during conquest only."""
    later = _errors(_race(
        "ability a { during conquest target region conquer with die gain 1 coins }"
    ))
    assert [e.label for e in later] == ["die-conquest-not-last"]
    assert "last effect" in str(later[0]) and later[0].hint
    when = _errors(_race("ability a { during redeploy target region conquer with die }"))
    assert [e.label for e in when] == ["die-conquest-phase"]
    aimless = _errors(_race("ability a { during conquest conquer with die }"))
    assert [e.label for e in aimless] == ["ability-without-target"]
    again = _errors(_race(
        "ability a { during conquest target region conquer with die not final gain 1 coins }"
    ))
    assert [e.label for e in again] == ["die-conquest-not-last"]


def test_the_formatter_keeps_the_effect() -> None:
    """conquer with die (and again): `smallworld fmt` writes the effect back as it is read."""
    for name, words in (("lampbearers", "conquer with die\n"),
                        ("wanderlights", "conquer with die not final\n")):
        source = (DIE_RULES / f"{name}.swr").read_text()
        assert words in format_source(source) and format_source(source) == source


@pytest.mark.parametrize(("race", "ability"), [("lampbearers", "lantern"),
                                              ("wanderlights", "glimmer")])
def test_random_games_keep_every_invariant(rules: sw.Rules, race: str, ability: str) -> None:
    """conquer with die (and again): whole random games with the invented races keep every
    invariant, and their rolls for a conquest happen in them."""
    used = 0
    for seed in range(6):
        game = play_pair_at_random(rules, race, "plain", seed)
        used += sum(isinstance(e, AbilityUsed) and e.ability == ability for e in game.log)
    assert used > 0


def test_again_a_roll_that_falls_short_lets_the_conquests_go_on(rules: sw.Rules) -> None:
    """conquer with die not final: Hill 4 holding 3 Lost Tribe tokens (5) with 3 in hand and a
    roll of 0 takes nothing, and the conquests go on: the same region may be rolled for
    again, and a 2 then takes it with the 3 tokens."""
    game = new_game(rules, [("wanderlights", "plain"), ("crowd", "plain2")], chance="explicit")
    game.put(4, None, 3)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # Swamp 3: 2 + 1 Lost Tribe, 3 left
    game.apply(sw.UseAbility("glimmer", 4))
    game.apply(sw.RollDie(0))
    assert [e for e in game.log if isinstance(e, DieRolled)][-1].success is False
    assert game.phase == "conquest" and game.region(4).lost_tribe and game.hand(0) == 3
    game.apply(sw.UseAbility("glimmer", 4))
    game.apply(sw.RollDie(2))
    assert (game.region(4).race, game.region(4).tokens, game.hand(0)) == ("wanderlights", 3, 0)
