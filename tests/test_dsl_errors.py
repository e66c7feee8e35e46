"""Errors of the rule language: labelled syntax errors, the semantic pass, hostile input."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from helpers import GIANTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smallworld_rules.dsl import check, parse, parse_file
from smallworld_rules.dsl.parser import MAX_NESTING, SYNTAX_EXAMPLES
from smallworld_rules.errors import RuleFileError

EXAMPLES = [
    GIANTS,
    """power forest "Forest" {
    tokens 4
    text "+1 coin per Forest region you occupy at the end of your turn."
    score add count(own regions with terrain forest)
}""",
    'power wealthy "Wealthy" { tokens 4  text "..."  score add 7 when first_turn }',
    'race elves "Elves" { tokens 6 box 11 text "..." losses set 0 while active }',
    """power fortified "Fortified" {
    tokens 3
    piece fortress supply 6 { defence 1 one_per_region survives_decline }
    score add count(own regions with piece fortress) while active
}""",
]


def syntax_error(source: str, path: str = "<string>") -> RuleFileError:
    with pytest.raises(RuleFileError) as info:
        parse(source, path)
    return info.value


def where(error: RuleFileError) -> tuple[str, int, int]:
    return error.label, error.line, error.column


def semantic_errors(source: str, known_pieces: tuple[str, ...] = ()) -> list[tuple[str, int, int]]:
    return [where(error) for error in check(parse(source), source, known_pieces)]


# --------------------------------------------------------------------------- syntax errors

SYNTAX_CASES = [
    # label, source, line, column
    ("missing-brace", 'race x "X" {\n    tokens 6\n', 2, 13),
    ("missing-brace", 'race x "X" {\n    piece p supply 1 { immune\n', 2, 30),
    ("missing-brace", 'race x "X" { piece p supply 1 immune }', 1, 31),
    ("unknown-hook", 'race x "X" {\n    conquest_cots sub 1\n}', 2, 5),
    ("unknown-hook", 'race x "X" { tokens 1\n  scroe add 1 }', 2, 3),
    ("unknown-hook", 'race x "X" { tokens 1 box 2 text "a" whatever }', 1, 38),
    ("unknown-hook", 'race x "X" { conquest_token 4 }', 1, 14),
    ("unknown-operator", 'race x "X" {\n    score plus 1\n}', 2, 11),
    ("unknown-operator", 'race x "X" { tokens 1 score + 1 }', 1, 29),
    ("unknown-status", 'race x "X" { score add 1 while activ }', 1, 32),
    ("unterminated-string", 'race x "X" {\n  text "never closed\n}\n', 2, 8),
    ("unterminated-string", 'race x "X', 1, 8),
    ("bad-escape", 'race x "X" { text "a\\nb" }', 1, 21),
    ("unexpected-character", 'race x "X" {\n  tokens 6 @\n}', 2, 12),
    ("unexpected-character", 'race x "X" { tokens 6; }', 1, 22),
    ("missing-value", 'race x "X" {\n    tokens\n}', 3, 1),
    ("missing-value", 'race x "X" { tokens', 1, 20),
    ("missing-value", 'race x "X" { box six }', 1, 18),
    ("missing-value", 'race x "X" { score add when coastal }', 1, 24),
    ("missing-value", 'race x "X" { piece p supply { } }', 1, 29),
    ("missing-name", 'race x "X" { flag 3 }', 1, 19),
    ("missing-name", 'race x "X" { score add 1 when terrain }', 1, 39),
    ("trailing-input", 'race x "X" { tokens 1 }\npower y "Y" { }', 2, 1),
    ("trailing-input", 'race x "X" { tokens 1 } @', 1, 25),
    ("trailing-input", 'race x "X" { } }', 1, 16),
    ("bad-header", 'giants "Giants" { }', 1, 1),
    ("bad-header", 'rase giants "Giants" { }', 1, 1),
    ("bad-header", "", 1, 1),
    ("bad-header", "# only a comment\n", 1, 1),
    ("bad-header", 'race "Giants" { }', 1, 6),
    ("bad-header", "race giants { }", 1, 13),
    ("bad-header", "race giants", 1, 12),
    ("bad-id", 'race Giants "Giants" { }', 1, 6),
    ("bad-id", 'race my-race "X" { }', 1, 6),
    ("bad-id", 'race x "X" { flag Enter_water }', 1, 19),
    ("bad-region-set", 'race x "X" { score add count(regions) }', 1, 30),
    ("bad-region-set", 'race x "X" { score add count(own things) }', 1, 34),
    ("missing-when", 'race x "X" { score add 1 first_turn }', 1, 26),
    ("unknown-keyword", 'race x "X" { score add 1 wen first_turn }', 1, 26),
    ("unknown-property", 'race x "X" { defence add 1 when terain forest }', 1, 33),
    ("unexpected-eof", 'race x "X" { score add 1 when', 1, 30),
    ("number-too-large", 'race x "X" { tokens 1234567 }', 1, 21),
    ("number-too-large", 'race x "X" { score add 1 + 00000001 }', 1, 28),
]


@pytest.mark.parametrize(("label", "source", "line", "column"), SYNTAX_CASES)
def test_syntax_error_labels_and_positions(label: str, source: str, line: int, column: int) -> None:
    assert where(syntax_error(source)) == (label, line, column)


def test_every_required_syntax_label_is_covered() -> None:
    required = {
        "missing-brace",
        "unknown-hook",
        "unknown-operator",
        "unterminated-string",
        "unexpected-character",
        "missing-value",
        "trailing-input",
        "bad-header",
    }
    assert required <= {label for label, *_ in SYNTAX_CASES}


def test_unknown_hook_suggests_the_closest_hook() -> None:
    error = syntax_error('race x "X" {\n    conquest_cots sub 1\n}')
    assert error.hint == "did you mean 'conquest_cost'?"
    assert error.message == "unknown hook or statement 'conquest_cots'"


def test_misspelt_keyword_is_one_word_not_a_keyword_prefix() -> None:
    # Without ID in every lexer state this would read `conquest_cost` + `s`.
    error = syntax_error('race x "X" { conquest_costs sub 1 }')
    assert where(error) == ("unknown-hook", 1, 14)
    assert "'conquest_costs'" in error.message
    assert error.hint == "did you mean 'conquest_cost'?"


def test_uppercase_keyword_gets_a_suggestion() -> None:
    error = syntax_error('Race x "X" { }')
    assert where(error) == ("bad-header", 1, 1)
    assert "did you mean 'race'?" in error.hint


def test_unknown_operator_lists_the_operators() -> None:
    error = syntax_error('race x "X" { score plus 1 }')
    assert error.hint == "the operators are 'add', 'sub' and 'set'"
    assert syntax_error('race x "X" { score ad 1 }').hint == "did you mean 'add'?"


def test_missing_brace_names_the_open_brace() -> None:
    error = syntax_error('race x "X" {\n    tokens 6\n')
    assert "line 1, column 12" in error.hint


def test_error_text_has_path_caret_and_hint() -> None:
    error = syntax_error('race x "X" {\n    score plus 1\n}', "races/x.swr")
    assert str(error) == (
        "races/x.swr:2:11: unknown operator 'plus' after 'score'\n"
        "        score plus 1\n"
        "              ^\n"
        "hint: the operators are 'add', 'sub' and 'set'"
    )
    assert error.path == "races/x.swr"


def test_examples_are_real_syntax_errors() -> None:
    # Every labelled snippet must fail to parse, or match_examples would silently skip it.
    for label, snippets in SYNTAX_EXAMPLES.items():
        for snippet in snippets:
            with pytest.raises(RuleFileError):
                parse(snippet)
            assert label


# --------------------------------------------------------------------------- semantic errors

SEMANTIC_CASES = [
    (
        "unknown-terrain",
        'race x "X" { tokens 1 box 1 text "t" defence add 1 when terrain mountian }',
        1,
        65,
    ),
    (
        "unknown-feature",
        'race x "X" { tokens 1 box 1 text "t" defence add 1 when feature mines }',
        1,
        65,
    ),
    ("unknown-flag", 'race x "X" { tokens 1 box 1 text "t" flag enter_anywher }', 1, 43),
    (
        "unknown-piece-property",
        'power x "X" { tokens 1 text "t" piece p supply 1 { imune } }',
        1,
        52,
    ),
    ("unknown-property", 'race x "X" { tokens 1 box 1 text "t" defence add 1 when coastl }', 1, 57),
    (
        "unknown-piece",
        'race x "X" { tokens 1 box 1 text "t" defence add 1 when piece fortres }',
        1,
        63,
    ),
    ("missing-tokens", 'power x "X" { text "t" }', 1, 1),
    ("missing-text", 'power x "X" { tokens 1 }', 1, 1),
    ("missing-box", 'race x "X" { tokens 1 text "t" }', 1, 1),
    ("box-on-power", 'power x "X" { tokens 1 text "t" box 3 }', 1, 33),
    ("duplicate-statement", 'power x "X" { tokens 1 text "t" tokens 2 }', 1, 33),
    ("duplicate-statement", 'power x "X" {\n tokens 1 text "t"\n text "u" }', 3, 2),
    ("duplicate-statement", 'race x "X" { tokens 1 box 2 box 3 text "t" }', 1, 29),
    (
        "duplicate-statement",
        'power x "X" { tokens 1 text "t" piece p supply 1 { } piece p supply 2 { } }',
        1,
        54,
    ),
    ("box-too-small", 'race x "X" { tokens 6 box 5 text "t" }', 1, 23),
    ("box-too-small", 'race x "X" { tokens 6 conquest_tokens 4 box 9 text "t" }', 1, 41),
    (
        "duplicate-statement",
        'race x "X" { tokens 6 conquest_tokens 4 box 19 text "t" conquest_tokens 4 }',
        1,
        57,
    ),
    ("impossible-condition", 'power x "X" { tokens 1 text "t" score add 1 when coastal }', 1, 50),
    (
        "impossible-condition",
        'power x "X" { tokens 1 text "t" score add 1 when target first_turn }',
        1,
        50,
    ),
    (
        "impossible-condition",
        'power x "X" { tokens 1 text "t" score add 1 when first_turn and terrain hill }',
        1,
        73,
    ),
    (
        "impossible-condition",
        'power x "X" { tokens 1 text "t" score add 1 when not adjacent_to all regions }',
        1,
        54,
    ),
    (
        "value-on-flag-property",
        'power x "X" { tokens 1 text "t" piece p supply 1 { immune 1 } }',
        1,
        52,
    ),
    (
        "missing-property-value",
        'power x "X" { tokens 1 text "t" piece p supply 1 { defence } }',
        1,
        52,
    ),
    ("division-by-zero", 'power x "X" { tokens 1 text "t" score add 7 / (2 - 2) }', 1, 48),
    ("bad-supply", 'power x "X" { tokens 1 text "t" piece p supply 0 { } }', 1, 33),
    (
        "duplicate-property",
        'power x "X" { tokens 1 text "t" piece p supply 1 { immune immune } }',
        1,
        59,
    ),
]


@pytest.mark.parametrize(("label", "source", "line", "column"), SEMANTIC_CASES)
def test_semantic_error_labels_and_positions(
    label: str, source: str, line: int, column: int
) -> None:
    assert semantic_errors(source) == [(label, line, column)]


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        ('race x "X" { defence add 1 when terrain mountian }', "did you mean 'mountain'?"),
        ('race x "X" { defence add 1 when feature mines }', "did you mean 'mine'?"),
        ('race x "X" { flag enter_anywher }', "did you mean 'enter_anywhere'?"),
        ('race x "X" { piece p supply 1 { imune } }', "did you mean 'immune'?"),
        ('race x "X" { defence add 1 when coastl }', "did you mean 'coastal'?"),
        ('race x "X" { defence add 1 when forest }', "did you mean 'terrain forest'?"),
        ('race x "X" { defence add 1 when piece fortres }', "did you mean 'fortress'?"),
    ],
)
def test_semantic_suggestions(source: str, hint: str) -> None:
    errors = check(parse(source), source, ["fortress"])
    assert hint in [error.hint for error in errors]


def test_examples_are_sound() -> None:
    # The spec's fortified example has no text; everything else in the examples is sound.
    for source in EXAMPLES:
        labels = [label for label, *_ in semantic_errors(source)]
        assert labels in ([], ["missing-text"])


def test_conquests_and_context_properties_are_fine_in_score() -> None:
    source = (
        'power x "X" { tokens 1 text "t"\n'
        "score add count(conquests with non_empty and terrain hill) when first_turn always }"
    )
    assert semantic_errors(source) == []


def test_region_predicates_are_fine_in_hooks_with_a_target() -> None:
    source = (
        'power x "X" { tokens 1 text "t"\n'
        "defence add 1 when target coastal and adjacent_to own regions with water\n"
        "losses set 0 when target terrain hill\n"
        "conquest_cost sub 1 when target border or first_turn }"
    )
    assert semantic_errors(source) == []


def test_target_in_a_comment_or_string_is_not_the_word_target() -> None:
    source = 'power x "X" { tokens 1 text "when target" score add 1 when # target\n first_turn }'
    assert semantic_errors(source) == []


def test_pieces_from_other_files_are_known() -> None:
    source = 'race x "X" { tokens 1 box 1 text "t" defence add 1 when piece fortress }'
    assert semantic_errors(source) == [("unknown-piece", 1, 63)]
    assert semantic_errors(source, ("fortress",)) == []


def test_every_error_of_a_file_is_reported_in_order() -> None:
    source = """race x "X" {
    tokens 6
    tokens 7
    box 5
    flag enter_anywher
    piece fortress supply 6 { defence imune }
    score add count(own regions with feature mines) when target terrain forest
}"""
    assert semantic_errors(source) == [
        ("missing-text", 1, 1),
        ("duplicate-statement", 3, 5),
        ("box-too-small", 4, 5),
        ("unknown-flag", 5, 10),
        ("missing-property-value", 6, 31),
        ("unknown-piece-property", 6, 39),
        ("unknown-feature", 7, 46),
        ("impossible-condition", 7, 58),
        ("impossible-condition", 7, 73),
    ]


def test_expansion_needs_no_tokens_or_box() -> None:
    assert semantic_errors('expansion grand_dames "Grand Dames" { text "t" }') == []


def test_id_must_match_the_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "dwarves.swr"
    path.write_text('race giants "Giants" { tokens 6 box 11 text "t" }', encoding="utf-8")
    result = parse_file(path)
    errors = check(result, path.read_text(encoding="utf-8"))
    assert [where(error) for error in errors] == [("id-mismatch", 1, 6)]
    assert errors[0].path == str(path)
    renamed = tmp_path / "giants.swr"
    path.rename(renamed)
    assert check(parse_file(renamed), renamed.read_text(encoding="utf-8")) == []


def test_positions_ignore_a_byte_order_mark_and_windows_line_ends() -> None:
    source = 'race x "X" { tokens 1 box 1 text "t"\r\n  flag enter_anywher }'
    plain = [where(error) for error in check(parse(source), source)]
    marked = "\ufeff" + source
    assert (
        [where(error) for error in check(parse(marked), marked)]
        == plain
        == [("unknown-flag", 2, 8)]
    )
    assert where(syntax_error("\ufeffrace x X")) == ("bad-header", 1, 8)


def test_semantic_error_text_has_path_caret_and_hint() -> None:
    source = 'race x "X" { tokens 1 box 1 text "t"\n  flag enter_anywher }'
    [error] = check(parse(source, "<test>"), source)
    assert str(error) == (
        "<test>:2:8: unknown flag 'enter_anywher'\n"
        "      flag enter_anywher }\n"
        "           ^\n"
        "hint: did you mean 'enter_anywhere'?"
    )


# --------------------------------------------------------------------------- hostile input


def test_file_too_large() -> None:
    error = syntax_error('race x "X" { text "' + "a" * (1024 * 1024) + '" }')
    assert where(error) == ("file-too-large", 1, 1)


def test_file_too_large_counts_bytes_not_characters() -> None:
    error = syntax_error('race x "X" { text "' + "é" * (600 * 1024) + '" }')
    assert where(error) == ("file-too-large", 1, 1)


def test_deep_parentheses_are_refused_fast_at_the_offending_paren() -> None:
    start = time.perf_counter()
    error = syntax_error('race x "X" {\n  score add ' + "(" * 10_000 + "1" + ")" * 10_000 + " }")
    assert time.perf_counter() - start < 1.0
    assert where(error) == ("too-deep", 2, 13 + 32)


def test_thirty_two_parentheses_are_fine() -> None:
    parse('race x "X" { score add ' + "(" * 32 + "1" + ")" * 32 + " }")
    parse('race x "X" { score add 1 when ' + "(" * 32 + "coastal" + ")" * 32 + " }")


def test_parentheses_in_strings_and_comments_do_not_count() -> None:
    parse('race x "X" { text "' + "(" * 100 + '" # ' + "(" * 100 + "\n}")


def test_long_chains_without_parentheses_are_refused() -> None:
    error = syntax_error('race x "X" { score add 1 when ' + "not " * 1000 + "coastal }")
    assert error.label == "too-deep"
    error = syntax_error('race x "X" { score add ' + " + ".join(["1"] * 1000) + " }")
    assert error.label == "too-deep"
    # Just under the limit parses, and equality, hashing and repr of the tree are safe.
    source = 'race x "X" { score add 1 when ' + "not " * (MAX_NESTING - 5) + "first_turn }"
    assert parse(source) == parse(source)
    assert hash(parse(source)) == hash(parse(source))
    assert repr(parse(source))
    assert {error.label for error in check(parse(source), source)} == {
        "missing-tokens",
        "missing-box",
        "missing-text",
    }


def test_too_many_tokens_is_refused_fast() -> None:
    start = time.perf_counter()
    error = syntax_error('race x "X" {' + " score add 1" * 80_000 + " }")
    assert time.perf_counter() - start < 1.0
    assert error.label == "too-many-tokens"


def test_huge_number_is_refused_before_conversion() -> None:
    error = syntax_error('race x "X" { tokens ' + "9" * 100_000 + " }")
    assert where(error) == ("number-too-large", 1, 21)


# --------------------------------------------------------------------------- only RuleFileError

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def parse_and_check(source: str) -> None:
    """Parse and check; any exception but RuleFileError fails the test."""
    try:
        result = parse(source)
    except RuleFileError as error:
        assert error.line >= 1 and error.column >= 1 and error.label
        str(error)  # the rendering must not fail either
        return
    for error in check(result, source, ["fortress"]):
        assert isinstance(error, RuleFileError)
        str(error)


@FUZZ
@given(st.text(max_size=300))
def test_random_text_raises_only_rule_file_errors(source: str) -> None:
    parse_and_check(source)


# Words and symbols of the language (and a few that are not) to splice into the examples.
WORDS = """
    race power expansion tokens box text alias flag piece supply defence conquest_cost losses
    score add sub set when target while active declined always count own all conquests region
    regions with and or not terrain feature adjacent_to coastal first_turn immune
    { } ( ) + - * / # @ 0 1 1234567 x Foo
"""
VOCABULARY = [*WORDS.split(), '"', "\\", "\n"]


@st.composite
def mutated_examples(draw: st.DrawFn) -> str:
    source = draw(st.sampled_from(EXAMPLES))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=len(source)))
        action = draw(st.sampled_from(["delete", "insert", "replace", "word"]))
        span = draw(st.integers(min_value=1, max_value=8))
        if action == "delete":
            source = source[:at] + source[at + span :]
        elif action == "insert":
            source = source[:at] + draw(st.text(max_size=4)) + source[at:]
        elif action == "replace":
            source = source[:at] + draw(st.text(min_size=1, max_size=2)) + source[at + 1 :]
        else:
            source = source[:at] + " " + draw(st.sampled_from(VOCABULARY)) + " " + source[at:]
    return source


@FUZZ
@given(mutated_examples())
def test_mutated_examples_raise_only_rule_file_errors(source: str) -> None:
    parse_and_check(source)
