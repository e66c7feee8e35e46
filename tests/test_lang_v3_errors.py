"""Errors that teach (rule language v3): what misled a first author is now either valid or
reported with a hint that says what to write."""

from __future__ import annotations

from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules.dsl.compiler import compile_file
from smallworld_rules.dsl.lint import warnings
from smallworld_rules.dsl.parser import parse
from smallworld_rules.dsl.semantics import check
from smallworld_rules.errors import RuleFileError

DOCS = Path(__file__).parent.parent / "docs"


def _race(*body: str) -> str:
    lines = ("tokens 5", "box 12", 'text "Test."', *body)
    return 'race scouts "Scouts" {\n' + "".join(f"    {line}\n" for line in lines) + "}\n"


def _errors(source: str) -> list[RuleFileError]:
    official = sw.load_rules()
    return check(parse(source), source, set(official.pieces), set(official.options))


def test_a_comparison_in_a_condition_is_valid() -> None:
    """A comparison in a condition once read "unexpected '(' after 'count'": it is part of
    the language now."""
    assert _errors(_race("score add 2 when count(own regions) >= 3")) == []
    assert _errors(_race("conquest_cost sub 1 when target lone and count(coins) < 4")) == []


def test_min_and_max_are_values_and_a_misspelling_is_named() -> None:
    """`max(` once got a hint about digits; it is a value now, and `maxi(` is asked
    whether it meant 'max'."""
    assert _errors(_race("score add max(1, count(own regions)) - min(2, round)")) == []
    with pytest.raises(RuleFileError) as caught:
        parse(_race("score add maxi(1, 2)"))
    assert caught.value.label == "missing-value"
    assert "did you mean 'max'?" in caught.value.hint


def test_a_trigger_may_fire_once_per_turn() -> None:
    """The parser offered `once_per_turn` after `on conquest` and the checker refused it:
    a trigger now takes it."""
    assert _errors(_race("on conquest once_per_turn do gain 1")) == []
    errors = _errors(_race("on conquest once_per_player_per_turn do gain 1"))
    assert [e.label for e in errors] == ["bad-limit"]
    assert "once_per_turn" in errors[0].hint


def test_an_ability_may_have_a_price() -> None:
    """`price` in an ability was "did you mean 'truce'?": it is the ability's cost in coins."""
    assert _errors(_race("ability bribe { during conquest price 2 gain 2 }")) == []


def test_the_score_condition_hint_names_game_options_and_comparisons() -> None:
    """The hint of a score condition testing a region listed only first_turn and on_map."""
    errors = _errors(_race("score add 1 when coastal"))
    assert [e.label for e in errors] == ["impossible-condition"]
    assert "option NAME" in errors[0].hint and ">=" in errors[0].hint


def test_the_docs_say_that_text_is_required() -> None:
    """A missing `text` is refused, and the rule-language page says it is required."""
    assert [e.label for e in _errors('race scouts "S" {\n    tokens 5\n    box 9\n}\n')] == [
        "missing-text"
    ]
    page = (DOCS / "rule-language.md").read_text(encoding="utf-8")
    assert "**required**: the printed rules text" in page


def test_division_by_zero_gives_zero_as_documented() -> None:
    """A division by an expression that is 0 in the game gives 0 (the documented rule); a
    divisor that is always 0 is refused."""
    source = _race("score add 6 / count(conquests)")
    assert _errors(source) == []
    rule = compile_file(parse(source))
    game = sw.Game.new(players=2, seed=1)
    modifier = rule.modifiers["score"][0]
    assert modifier.value(game._engine.context(game._state, "scouts")) == 0
    assert [e.label for e in _errors(_race("score add 6 / (2 - 2)"))] == ["division-by-zero"]
    page = (DOCS / "rule-language.md").read_text(encoding="utf-8")
    assert "a division by zero gives 0" in page


def test_check_warns_of_a_box_that_caps_a_combo() -> None:
    """The box silently capped the tokens a combo gives: `smallworld check` warns."""
    source = 'race scouts "S" {\n    tokens 6\n    box 8\n    text "T."\n}\n'
    found = warnings(parse(source), source, largest_power_tokens=5)
    assert [(w.label, w.line) for w in found] == [("box-caps-combo", 3)]
    assert "gets only 8" in found[0].message
    assert warnings(parse(source), source, largest_power_tokens=2) == []


def test_check_warns_of_a_filter_that_cannot_match() -> None:
    """`terrain hill and terrain forest` can never hold: `smallworld check` warns."""
    source = _race("score add count(own regions with terrain hill and terrain forest)")
    found = warnings(parse(source), source)
    assert [w.label for w in found] == ["filter-never-matches"]
    assert warnings(parse(_race("score add count(own regions with terrain hill)")),
                    _race("score add count(own regions with terrain hill)")) == []


def test_the_check_command_prints_warnings_and_succeeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`smallworld check` prints the warnings, and a file with warnings only is ok."""
    from smallworld_rules.cli import main

    path = tmp_path / "scouts.swr"
    path.write_text(_race("score add count(all regions with piece lair and not piece lair)"))
    assert main(["check", str(path)]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "can never hold" in err


def test_unknown_players_and_counters_are_refused() -> None:
    """`defender pays` where the event knows no defender, an undeclared counter."""
    assert [e.label for e in _errors(_race("on redeploy do defender pays 1 coin"))] == [
        "unknown-player"
    ]
    assert [e.label for e in _errors(_race("score add counter raids"))] == ["unknown-counter"]
    assert [e.label for e in _errors(_race("reach 7"))] == ["bad-reach"]


def test_region_tokens_are_checked() -> None:
    """`region_tokens min` above `max`, or either given twice, is refused."""
    assert [e.label for e in _errors(_race("region_tokens min 3", "region_tokens max 2"))] == [
        "bad-region-tokens"
    ]
    assert [e.label for e in _errors(_race("region_tokens max 3", "region_tokens max 2"))] == [
        "duplicate-statement"
    ]
    assert _errors(_race("region_tokens min 2", "region_tokens max 3")) == []


def test_own_tokens_are_for_powers() -> None:
    """`own_tokens` on a race is refused; on a power it is bounded."""
    assert [e.label for e in _errors(_race("own_tokens 2"))] == ["own-tokens-on-race"]
    power = 'power keen "Keen" {\n    tokens 2\n    text "K."\n    own_tokens 99\n}\n'
    assert [e.label for e in _errors(power)] == ["bad-own-tokens"]
