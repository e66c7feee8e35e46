"""Warnings of ``smallworld check``: what a rule file may say but surely does not mean.

These never stop a file from loading (the semantic pass, :mod:`~smallworld_rules.dsl.
semantics`, reports the errors); they are labelled like errors, with a position and a hint.
"""

from __future__ import annotations

from collections.abc import Iterator

from smallworld_rules.dsl import ast
from smallworld_rules.dsl.formatter import pred as pred_source
from smallworld_rules.dsl.parser import normalize_source
from smallworld_rules.dsl.semantics import _Checker, _exprs, _pred_nodes
from smallworld_rules.errors import RuleFileError

__all__ = ["warnings"]


def warnings(
    rule_file: ast.RuleFile, source: str, largest_power_tokens: int = 0
) -> list[RuleFileError]:
    """What is legal but surely not meant (``smallworld check`` prints these as warnings):
    a filter that can never match, and a box too small for the tokens a combo gives.

    Args:
        rule_file: the parsed, checked file.
        source: its text.
        largest_power_tokens: the most tokens a loaded power gives (for the box of a race).
    """
    checker = _Checker(rule_file, normalize_source(source), frozenset(), frozenset())
    for pred in _all_predicates(rule_file):
        for node in _pred_nodes(pred):
            if isinstance(node, ast.And):
                _contradiction(checker, node)
    tokens = next((s for s in rule_file.statements if isinstance(s, ast.Tokens)), None)
    box = next((s for s in rule_file.statements if isinstance(s, ast.Box)), None)
    extra = sum(s.value for s in rule_file.statements if isinstance(s, ast.ConquestTokens))
    if rule_file.kind == "race" and tokens is not None and box is not None:
        given = tokens.value + extra + largest_power_tokens
        if box.value < given:
            checker.error(
                box.pos,
                "box-caps-combo",
                f"with a power giving {largest_power_tokens} tokens the combo gives {given}, "
                f"but the box holds {box.value}: the combo gets only {box.value}",
                f"make the box at least {given} tokens if every token is meant to be given",
            )
    return sorted(checker.errors, key=lambda error: (error.line, error.column))


def _conjuncts(node: ast.Pred) -> list[ast.Pred]:
    out: list[ast.Pred] = []
    stack: list[ast.Pred] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.And):
            stack.extend((item.right, item.left))
        else:
            out.append(item)
    return out


def _contradiction(checker: _Checker, node: ast.And) -> None:
    """Warn about ``terrain A and terrain B`` (one terrain a region) and ``P and not P``."""
    parts = _conjuncts(node)
    terrains = {p.name for p in parts if isinstance(p, ast.Terrain)}
    negated = {pred_source(p.operand) for p in parts if isinstance(p, ast.Not)}
    plain = {pred_source(p) for p in parts if not isinstance(p, ast.Not)}
    if len(terrains) > 1 or negated & plain:
        checker.error(
            node.pos,
            "filter-never-matches",
            f"the condition {pred_source(node)!r} can never hold",
            "a region has one terrain, and 'P and not P' is always false; did you mean 'or'?",
        )


def _all_predicates(rule_file: ast.RuleFile) -> Iterator[ast.Pred]:
    """Every predicate written in the file (conditions, filters of counted region sets)."""
    exprs: list[ast.Expr] = []
    for st in rule_file.statements:
        if isinstance(st, ast.Modifier):
            exprs.append(st.value)
            if st.condition is not None:
                yield st.condition
        elif isinstance(st, ast.Trigger | ast.Immune | ast.Flag | ast.Link):
            if st.condition is not None:
                yield st.condition
            if isinstance(st, ast.Trigger):
                exprs.extend(e.amount for e in st.effects if e.amount is not None)
        elif isinstance(st, ast.Ability):
            target = st.target
            if target is not None and target.condition is not None:
                yield target.condition
            exprs.extend(e.amount for e in st.effects if e.amount is not None)
    for expr in exprs:
        for node in _exprs(expr):
            if isinstance(node, ast.Count | ast.TokensIn) and node.regions.filter is not None:
                yield node.regions.filter
