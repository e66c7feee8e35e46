"""Game options: every judgement call the rules leave open is a named option; rule files declare
their own with ``option NAME default VALUE "meaning"`` and test them in conditions."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.dsl import check, parse
from smallworld_rules.events import Scored


def _drifters(rules: sw.Rules, **options: bool | int) -> sw.Game:
    game = new_game(rules, [("ratmen", "drifters")], options=options)
    game.apply(sw.PickCombo(0))
    return game


def test_rule_file_options_are_listed_with_their_defaults(rules: sw.Rules) -> None:
    """`game.options` names every option in force, the core's and the rule files'."""
    game = _drifters(rules)
    assert game.options["drifters_enter_anywhere"] is True
    assert game.options["drifters_bonus"] == 2
    assert game.options["abandon_mid_conquest"] is False
    declared = rules.options["drifters_bonus"]
    assert declared.path.endswith("drifters.swr") and declared.line == 6


def test_conditional_flag_follows_its_option(rules: sw.Rules) -> None:
    """`flag … when option …`: the flag holds only while the option is on (A1-style)."""
    assert sw.Conquer(13) in _drifters(rules).legal_actions()  # interior first conquest
    off = _drifters(rules, drifters_enter_anywhere=False)
    assert sw.Conquer(13) not in off.legal_actions()
    with pytest.raises(sw.IllegalAction, match="border"):
        off.apply(sw.Conquer(13))


@pytest.mark.parametrize(
    ("options", "bonus"),
    [({}, 2), ({"drifters_bonus": 5}, 5), ({"drifters_enter_anywhere": False}, 0)],
)
def test_integer_option_in_a_modifier(
    rules: sw.Rules, options: dict[str, bool | int], bonus: int
) -> None:
    """`option NAME` as a number and as a condition in a modifier."""
    game = _drifters(rules, **options)
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert [e for e in game.log if isinstance(e, Scored)][-1].coins == 1 + bonus


def test_bad_option_values_are_refused(rules: sw.Rules) -> None:
    """Unknown option names are refused with the list of known ones; wrong types too."""
    with pytest.raises(sw.RulesError, match="drifters_bonus") as info:
        _drifters(rules, drifters_bonnus=3)
    assert "unknown game option 'drifters_bonnus'" in str(info.value)
    with pytest.raises(sw.RulesError, match="true or false"):
        _drifters(rules, drifters_enter_anywhere=1)
    with pytest.raises(sw.RulesError, match="whole number"):
        _drifters(rules, drifters_bonus=True)


def test_options_survive_a_save(rules: sw.Rules) -> None:
    """Options are part of the saved game."""
    game = _drifters(rules, drifters_bonus=4)
    again = sw.Game.from_json(game.to_json(), rules=rules)
    assert again.options == game.options and again.to_json() == game.to_json()


def _errors(text: str, options: tuple[str, ...] = ()) -> list[tuple[str, int, int]]:
    return [(e.label, e.line, e.column) for e in check(parse(text), text, (), options)]


def test_option_mistakes_in_rule_files() -> None:
    """The semantic pass: unknown options (with a suggestion), flags depending on the board,
    options declared twice."""
    text = (
        'power p "P" {\n'
        "  tokens 1\n"
        '  text "t"\n'
        '  option p_on default true "x"\n'
        "  flag enter_water when option p_no\n"
        "  flag enter_anywhere when terrain hill\n"
        '  option p_on default false "y"\n'
        "}\n"
    )
    assert _errors(text) == [
        ("unknown-option", 5, 32),
        ("impossible-condition", 6, 36),
        ("duplicate-statement", 7, 10),
    ]
    hint = check(parse(text), text)[0].hint
    assert "p_on" in hint
    known = 'power p "P" { tokens 1 text "t" score add option other }'
    assert _errors(known, ("other",)) == []


def test_an_option_declared_by_two_files_is_refused(tmp_path: Path) -> None:
    """Two loaded files may not declare one option name: the later file is at fault (a
    RuleFileError labelled duplicate-option, pointing at its declaration)."""
    for name in ("one", "two"):
        (tmp_path / f"{name}.swr").write_text(
            f'power {name} "{name}" {{ tokens 1 text "t" option shared default 1 "s" }}'
        )
    with pytest.raises(sw.RuleFileError, match=r"already declared by .*one\.swr") as info:
        sw.load_rules(paths=[tmp_path])
    error = info.value
    assert error.label == "duplicate-option" and error.path.endswith("two.swr")
    assert (error.line, error.column) == (1, 44)  # the name of the second declaration
