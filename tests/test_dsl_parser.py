"""The rule-language parser: grammar, AST shape, positions, and a printer round trip."""

from __future__ import annotations

from pathlib import Path

import lark
import pytest
from helpers import GIANTS
from hypothesis import given, settings
from hypothesis import strategies as st

from smallworld_rules.dsl import ast, check, parse, parse_file
from smallworld_rules.dsl.formatter import format_tree
from smallworld_rules.dsl.parser import build_parser
from smallworld_rules.errors import RuleFileError

# Positions are excluded from node equality, so expected trees can use any position.
P = ast.Pos(1, 1)
ROOT = Path(__file__).resolve().parent.parent

FOREST = """\
power forest "Forest" {
    tokens 4
    text "+1 coin per Forest region you occupy at the end of your turn."
    score add count(own regions with terrain forest)
}
"""
WEALTHY = 'power wealthy "Wealthy" { tokens 4  text "..."  score add 7 when first_turn }'
ELVES = 'race elves "Elves" { tokens 6 box 11 text "..." losses set 0 while active }'
FORTIFIED = """\
power fortified "Fortified" {
    tokens 3
    piece fortress supply 6 { defence 1 one_per_region survives_decline }
    score add count(own regions with piece fortress) while active
}
"""


def rule_file(kind: str, ident: str, name: str, *statements: ast.Statement) -> ast.RuleFile:
    return ast.RuleFile(kind, ident, name, tuple(statements), path="<string>", pos=P)


def condition_of(pred: str, hook: str = "conquest_cost") -> ast.Pred | None:
    """Parse ``pred`` as the condition of a modifier and return it."""
    statement = parse(f'race x "X" {{ {hook} add 1 when {pred} }}').statements[0]
    assert isinstance(statement, ast.Modifier)
    return statement.condition


def value_of(expr: str) -> ast.Expr:
    statement = parse(f'race x "X" {{ score add {expr} }}').statements[0]
    assert isinstance(statement, ast.Modifier)
    return statement.value


def n(value: int) -> ast.Number:
    return ast.Number(value, P)


def own(filter_: ast.Pred | None = None) -> ast.RegionSet:
    return ast.RegionSet("own", filter_, P)


def prop(name: str) -> ast.Property:
    return ast.Property(name, P)


# --------------------------------------------------------------------------- the grammar


def test_grammar_builds_strict_lalr_without_conflicts_or_collisions() -> None:
    parser = build_parser(strict=True)
    assert isinstance(parser, lark.Lark)
    assert parser.options.parser == "lalr"
    # The strict parser accepts the same language as the runtime one.
    tree = parser.parse(GIANTS)
    assert tree.data == "start"


def test_runtime_parser_is_built_once() -> None:
    from smallworld_rules.dsl import parser as parser_module

    assert parser_module._runtime_parser() is parser_module._runtime_parser()


# --------------------------------------------------------------------------- the spec examples


def test_giants() -> None:
    assert parse(GIANTS) == rule_file(
        "race",
        "giants",
        "Giants",
        ast.Tokens(6, P),
        ast.Box(11, P),
        ast.Text(
            "Conquer a region adjacent to a Mountain region your Giants occupy for 1 token less.",
            P,
        ),
        ast.Modifier(
            "conquest_cost",
            "sub",
            n(1),
            ast.AdjacentTo(own(ast.Terrain("mountain", P)), P),
            "active",
            P,
        ),
    )


def test_forest() -> None:
    assert parse(FOREST).statements[2] == ast.Modifier(
        "score", "add", ast.Count(own(ast.Terrain("forest", P)), P), None, "active", P
    )


def test_wealthy() -> None:
    result = parse(WEALTHY)
    assert result.kind == "power"
    assert result.statements == (
        ast.Tokens(4, P),
        ast.Text("...", P),
        ast.Modifier("score", "add", n(7), prop("first_turn"), "active", P),
    )


def test_elves() -> None:
    assert parse(ELVES).statements[-1] == ast.Modifier("losses", "set", n(0), None, "active", P)


def test_fortified() -> None:
    result = parse(FORTIFIED)
    assert result.statements[1] == ast.PieceDecl(
        "fortress",
        6,
        (
            ast.PieceProperty("defence", 1, P),
            ast.PieceProperty("one_per_region", None, P),
            ast.PieceProperty("survives_decline", None, P),
        ),
        P,
    )
    assert result.statements[2] == ast.Modifier(
        "score", "add", ast.Count(own(ast.HasPiece("fortress", P)), P), None, "active", P
    )
    # The example leaves out the rules text, which the semantic pass requires.
    assert [error.label for error in check(result, FORTIFIED)] == ["missing-text"]


@pytest.mark.parametrize(
    "path",
    sorted(
        str(p.relative_to(ROOT))
        for folder in ("races", "powers", "expansions", "tests/rules")
        for p in (ROOT / folder).glob("*.swr")
    )
    or ["<none>"],
)
def test_shipped_rule_files_parse_and_check_clean(path: str) -> None:
    if path == "<none>":
        pytest.skip("no rule files shipped yet")
    files = [ROOT / folder for folder in ("races", "powers", "expansions", "tests/rules")]
    pieces = {
        statement.name
        for folder in files
        for other in folder.glob("*.swr")
        for statement in parse_file(other).statements
        if isinstance(statement, ast.PieceDecl)
    }
    result = parse_file(ROOT / path)
    errors = check(result, (ROOT / path).read_text(encoding="utf-8"), pieces)
    assert errors == [], "\n".join(str(error) for error in errors)


# --------------------------------------------------------------------------- statements


def test_header_kinds_and_alias_and_flags() -> None:
    result = parse(
        'expansion grand_dames "Grand Dames" { alias "GD" alias "Dames" flag enter_water }'
    )
    assert result.kind == "expansion"
    assert result.name == "Grand Dames"
    assert result.statements == (
        ast.Alias("GD", P),
        ast.Alias("Dames", P),
        ast.Flag("enter_water", P),
    )


def test_conquest_tokens() -> None:
    result = parse('race amazons "Amazons" { tokens 6 conquest_tokens 4 box 15 }')
    assert result.statements[1] == ast.ConquestTokens(4, P)


def test_text_joins_strings_and_collapses_whitespace() -> None:
    result = parse('power p "P" { text "  one\n   two  " "three" \n "" "four\tfive" }')
    assert result.statements == (ast.Text("one two three four five", P),)


def test_string_escapes() -> None:
    result = parse(r'power p "A \"quoted\" name \\ here" { alias "back\\slash" }')
    assert result.name == 'A "quoted" name \\ here'
    assert result.statements == (ast.Alias("back\\slash", P),)


def test_comments_and_free_layout() -> None:
    source = (
        '# a comment\npower   p\n"P"#c\n{tokens\n3# after\ntext "has # no comment"\n'
        "score\nadd\n1\nwhen\nfirst_turn\nalways}# end"
    )
    assert parse(source).statements == (
        ast.Tokens(3, P),
        ast.Text("has # no comment", P),
        ast.Modifier("score", "add", n(1), prop("first_turn"), "always", P),
    )


def test_windows_line_endings_give_the_same_positions() -> None:
    unix = parse(GIANTS)
    windows = parse(GIANTS.replace("\n", "\r\n"))
    assert windows == unix
    assert [s.pos for s in windows.statements] == [s.pos for s in unix.statements]


@pytest.mark.parametrize(
    ("suffix", "status"),
    [
        ("", "active"),
        ("while active", "active"),
        ("while declined", "declined"),
        ("always", "always"),
    ],
)
def test_statuses(suffix: str, status: str) -> None:
    statement = parse(f'race x "X" {{ defence add 1 when coastal {suffix} }}').statements[0]
    assert isinstance(statement, ast.Modifier)
    assert statement.status == status
    assert statement.condition == prop("coastal")


def test_status_without_condition() -> None:
    statement = parse('race x "X" { losses sub 1 while declined }').statements[0]
    assert statement == ast.Modifier("losses", "sub", n(1), None, "declined", P)


def test_target_is_only_for_readability() -> None:
    assert condition_of("target coastal") == condition_of("coastal") == prop("coastal")


def test_keywords_are_names_where_only_a_name_fits() -> None:
    # The contextual lexer reads keywords as IDs after `terrain`, `piece`, `flag`, …
    result = parse(
        'race score "X" { flag when piece supply supply 2 { defence 1 score } '
        "defence add 1 when terrain not or piece text or feature own }"
    )
    assert result.id == "score"
    assert result.statements == (
        ast.Flag("when", P),
        ast.PieceDecl(
            "supply",
            2,
            (ast.PieceProperty("defence", 1, P), ast.PieceProperty("score", None, P)),
            P,
        ),
        ast.Modifier(
            "defence",
            "add",
            n(1),
            ast.Or(
                ast.Or(ast.Terrain("not", P), ast.HasPiece("text", P), P),
                ast.Feature("own", P),
                P,
            ),
            "active",
            P,
        ),
    )


def test_piece_property_values_are_optional_in_the_grammar() -> None:
    # `defence` without a number and `immune 2` parse; the semantic pass refuses them.
    statement = parse('power p "P" { piece w supply 1 { defence immune 2 } }').statements[0]
    assert isinstance(statement, ast.PieceDecl)
    assert statement.properties == (
        ast.PieceProperty("defence", None, P),
        ast.PieceProperty("immune", 2, P),
    )


# --------------------------------------------------------------------------- expressions


def test_arithmetic_precedence_and_left_associativity() -> None:
    assert value_of("1 + 2 * 3") == ast.BinOp("+", n(1), ast.BinOp("*", n(2), n(3), P), P)
    assert value_of("8 - 2 - 1") == ast.BinOp("-", ast.BinOp("-", n(8), n(2), P), n(1), P)
    assert value_of("8 / 2 / 2") == ast.BinOp("/", ast.BinOp("/", n(8), n(2), P), n(2), P)
    assert value_of("(1 + 2) * 3") == ast.BinOp("*", ast.BinOp("+", n(1), n(2), P), n(3), P)
    assert value_of("((7))") == n(7)


def test_count_of_each_region_set() -> None:
    assert value_of("count(own region)") == ast.Count(own(), P)
    assert value_of("count(all regions)") == ast.Count(ast.RegionSet("all", None, P), P)
    assert value_of("count(conquests with non_empty)") == ast.Count(
        ast.RegionSet("conquests", prop("non_empty"), P), P
    )
    assert value_of("count(own regions with coastal or water) / 2") == ast.BinOp(
        "/", ast.Count(own(ast.Or(prop("coastal"), prop("water"), P)), P), n(2), P
    )


# --------------------------------------------------------------------------- predicates


def test_predicate_precedence() -> None:
    a, b, c = prop("a"), prop("b"), prop("c")
    assert condition_of("a or b and c") == ast.Or(a, ast.And(b, c, P), P)
    assert condition_of("a and b or c") == ast.Or(ast.And(a, b, P), c, P)
    assert condition_of("not a and b") == ast.And(ast.Not(a, P), b, P)
    assert condition_of("not (a and b)") == ast.Not(ast.And(a, b, P), P)
    assert condition_of("a or b or c") == ast.Or(ast.Or(a, b, P), c, P)
    assert condition_of("a and (b or c)") == ast.And(a, ast.Or(b, c, P), P)
    assert condition_of("not not a") == ast.Not(ast.Not(a, P), P)


def test_atoms() -> None:
    assert condition_of("terrain hill") == ast.Terrain("hill", P)
    assert condition_of("feature cavern") == ast.Feature("cavern", P)
    assert condition_of("piece fortress") == ast.HasPiece("fortress", P)
    assert condition_of("border") == prop("border")
    assert condition_of("adjacent_to all regions") == ast.AdjacentTo(
        ast.RegionSet("all", None, P), P
    )


def test_adjacent_to_filter_binds_tightly() -> None:
    mountain = ast.Terrain("mountain", P)
    assert condition_of("adjacent_to own regions with terrain mountain and coastal") == ast.And(
        ast.AdjacentTo(own(mountain), P), prop("coastal"), P
    )
    assert condition_of("adjacent_to own regions with (terrain mountain and coastal)") == (
        ast.AdjacentTo(own(ast.And(mountain, prop("coastal"), P)), P)
    )
    assert condition_of("adjacent_to own regions with not coastal or water") == ast.Or(
        ast.AdjacentTo(own(ast.Not(prop("coastal"), P)), P), prop("water"), P
    )
    # Nested: the inner adjacent_to takes the atom, the outer takes the inner.
    assert condition_of("adjacent_to own regions with adjacent_to all regions with water") == (
        ast.AdjacentTo(own(ast.AdjacentTo(ast.RegionSet("all", prop("water"), P), P)), P)
    )


def test_count_filter_is_a_whole_predicate() -> None:
    assert value_of("count(own regions with adjacent_to all regions with water and coastal)") == (
        ast.Count(
            own(
                ast.And(
                    ast.AdjacentTo(ast.RegionSet("all", prop("water"), P), P), prop("coastal"), P
                )
            ),
            P,
        )
    )


# --------------------------------------------------------------------------- positions


def test_positions() -> None:
    result = parse(GIANTS)
    assert result.pos == ast.Pos(1, 1)
    tokens, box, text, modifier = result.statements
    assert (tokens.pos, box.pos, text.pos) == (ast.Pos(2, 5), ast.Pos(3, 5), ast.Pos(4, 5))
    assert isinstance(modifier, ast.Modifier)
    assert modifier.pos == ast.Pos(6, 5)
    assert modifier.value.pos == ast.Pos(6, 23)
    condition = modifier.condition
    assert isinstance(condition, ast.AdjacentTo)
    assert condition.pos == ast.Pos(6, 37)  # `adjacent_to`
    assert condition.regions.pos == ast.Pos(6, 49)  # `own`
    assert condition.regions.filter is not None
    assert condition.regions.filter.pos == ast.Pos(6, 73)  # the name `mountain`


def test_name_nodes_point_at_the_name() -> None:
    result = parse('power p "P" {\n  flag  enter_water\n  piece w supply 1 {  immune }\n}')
    flag, piece = result.statements
    assert flag.pos == ast.Pos(2, 9)
    assert isinstance(piece, ast.PieceDecl)
    assert piece.pos == ast.Pos(3, 3)
    assert piece.properties[0].pos == ast.Pos(3, 23)


# --------------------------------------------------------------------------- parse_file


def test_parse_file(tmp_path: Path) -> None:
    path = tmp_path / "giants.swr"
    path.write_text(GIANTS, encoding="utf-8")
    result = parse_file(path)
    assert result == parse(GIANTS)
    assert result.path == str(path)


def test_parse_file_ignores_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "giants.swr"
    path.write_bytes(b"\xef\xbb\xbf" + GIANTS.encode("utf-8"))
    assert parse_file(path).pos == ast.Pos(1, 1)


def test_parse_file_refuses_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "giants.swr"
    path.write_bytes(b'race giants "G\xe9ants" {}')
    with pytest.raises(RuleFileError) as info:
        parse_file(path)
    assert (info.value.label, info.value.line, info.value.column) == ("bad-encoding", 1, 15)
    assert info.value.path == str(path)


def test_parse_file_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as info:
        parse_file(tmp_path / "nope.swr")
    assert info.value.label == "unreadable-file"


def test_parse_file_refuses_a_huge_file_without_decoding_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.swr"
    path.write_bytes(b"\xff" * (1024 * 1024 + 1))
    with pytest.raises(RuleFileError) as info:
        parse_file(path)
    assert info.value.label == "file-too-large"


# --------------------------------------------------------------------------- printer round trip

# The library formatter prints the fewest parentheses the grammar needs: parsing its output must
# give back the same tree, which checks precedence, associativity and the tight adjacent_to
# filter at once.

# Any word may be a name after `terrain`, `piece`, `flag` … (keywords included); property
# names stand where keywords also fit, so they come from the vocabulary.
KEYWORDISH = st.sampled_from(["score", "not", "when", "own", "defence", "piece", "regions"])
NAMES = st.one_of(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True), KEYWORDISH)
PROPERTIES = st.sampled_from(["coastal", "border", "non_empty", "water", "first_turn", "odd"])
INTS = st.integers(min_value=0, max_value=999_999)
TEXTS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), max_size=20
).map(lambda text: " ".join(text.split()))


def region_sets(preds: st.SearchStrategy[ast.Pred]) -> st.SearchStrategy[ast.RegionSet]:
    return st.builds(
        ast.RegionSet,
        st.sampled_from(["own", "all", "conquests"]),
        st.none() | preds,
        st.just(P),
    )


ATOMS: st.SearchStrategy[ast.Pred] = st.one_of(
    st.builds(ast.Terrain, NAMES, st.just(P)),
    st.builds(ast.Feature, NAMES, st.just(P)),
    st.builds(ast.HasPiece, NAMES, st.just(P)),
    st.builds(ast.Property, PROPERTIES, st.just(P)),
)
PREDS: st.SearchStrategy[ast.Pred] = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.builds(ast.Not, inner, st.just(P)),
        st.builds(ast.And, inner, inner, st.just(P)),
        st.builds(ast.Or, inner, inner, st.just(P)),
        st.builds(ast.AdjacentTo, region_sets(inner), st.just(P)),
    ),
    max_leaves=6,
)
EXPRS: st.SearchStrategy[ast.Expr] = st.recursive(
    st.builds(ast.Number, INTS, st.just(P)) | st.builds(ast.Count, region_sets(PREDS), st.just(P)),
    lambda inner: st.builds(ast.BinOp, st.sampled_from("+-*/"), inner, inner, st.just(P)),
    max_leaves=5,
)
LIMITS = st.one_of(
    st.builds(ast.Limit, st.sampled_from(["once_per_turn", "once_per_player_per_turn"]),
              st.none(), st.just(P)),
    st.builds(ast.Limit, st.just("times"), INTS, st.just(P)),
)
EFFECTS = st.one_of(
    st.builds(ast.Effect, st.sampled_from(["place", "move"]), st.just(P), piece=NAMES),
    st.builds(ast.Effect, st.sampled_from(["conquer", "gain"]), st.just(P), amount=EXPRS),
    st.builds(ast.Effect, st.sampled_from(["convert", "roll_die", "truce"]), st.just(P)),
)
ABILITY_PARTS = st.one_of(
    st.builds(
        ast.During,
        st.lists(st.sampled_from(["conquest", "redeploy", "withdrawal"]), min_size=1, max_size=3)
        .map(tuple),
        st.just(P),
    ),
    LIMITS,
    st.builds(
        ast.AbilityTarget, st.sampled_from(["own region", "region", "player"]),
        st.none() | PREDS, st.just(P),
    ),
    EFFECTS,
)
STATEMENTS: st.SearchStrategy[ast.Statement] = st.one_of(
    st.builds(ast.Link, PREDS, st.just(P)),
    st.builds(ast.Trigger, st.sampled_from(["conquest", "redeploy"]), st.none() | LIMITS,
              EFFECTS, st.just(P)),
    st.builds(ast.Ability, NAMES, st.lists(ABILITY_PARTS, max_size=5).map(tuple), st.just(P)),
    st.builds(ast.Tokens, INTS, st.just(P)),
    st.builds(ast.Box, INTS, st.just(P)),
    st.builds(ast.ConquestTokens, INTS, st.just(P)),
    st.builds(ast.Text, TEXTS, st.just(P)),
    st.builds(ast.Alias, TEXTS, st.just(P)),
    st.builds(ast.Flag, NAMES, st.just(P)),
    st.builds(
        ast.PieceDecl,
        NAMES,
        INTS,
        st.lists(st.builds(ast.PieceProperty, NAMES, st.none() | INTS, st.just(P)), max_size=3).map(
            tuple
        ),
        st.just(P),
    ),
    st.builds(
        ast.Modifier,
        st.sampled_from(["conquest_cost", "defence", "losses", "score"]),
        st.sampled_from(["add", "sub", "set"]),
        EXPRS,
        st.none() | PREDS,
        st.sampled_from(["active", "declined", "always"]),
        st.just(P),
    ),
)
FILES = st.builds(
    ast.RuleFile,
    st.sampled_from(["race", "power", "expansion"]),
    NAMES,
    TEXTS,
    st.lists(STATEMENTS, max_size=6).map(tuple),
    st.just("<string>"),
    st.just(P),
)


@settings(max_examples=300, deadline=None)
@given(FILES)
def test_printed_files_parse_back_to_the_same_tree(original: ast.RuleFile) -> None:
    """Issue 10 round trip: ``parse(format(ast)) == ast`` for any tree the grammar allows."""
    assert parse(format_tree(original)) == original


def test_printer_sanity() -> None:
    assert parse(GIANTS) == parse(format_tree(parse(GIANTS)))
