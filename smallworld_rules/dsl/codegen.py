"""Compiled rules as generated Python source: one function per expression or predicate.

The compiler (:mod:`smallworld_rules.dsl.compiler`) turns each node of a checked rule into a
closure that calls the closures of its parts: ``count(powers) + count(tokens on map)`` is
three calls deep before it asks the context anything. For an expression the rule files use
at the top (a modifier's value or condition, a price, a harvest), this module writes the
same computation as the source of one function and compiles it once: one call, then only
the context's own methods.

A rule file stays data. The source is written from a fixed set of templates chosen by the
type of each node of the parsed, checked tree; every name or word the file gives (a
terrain, a piece, a zone, an option, a counter's key) is passed to the function as a value
(``k0``, ``k1`` … are the parameters of its maker), and a number is written only as the
decimal of an ``int``. Nothing of the file's text is ever part of the source, and the
functions see no builtins but the few named here. A tree too deep for one function, or a
node this module does not know, keeps the compiler's closures (:func:`generated` returns
``None``).

Each result is the closure's, in the same order of evaluation: the closures are the general
path, which ``tests/test_fast_paths_perf_roles2.py`` compares with these on seeded games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smallworld_rules.dsl import ast
from smallworld_rules.dsl.bounds import VALUE_LIMIT
from smallworld_rules.dsl.vocabulary import PAST_PROPERTIES
from smallworld_rules.hooks import EvalContext, IntFn
from smallworld_rules.language import groups

#: Nodes nested deeper than this keep the closures (Python's own parser limits nesting).
MAX_DEPTH = 40
#: Makers kept by source, so that a source seen before is not compiled again.
_MAKERS_KEPT = 4096

_COMPARE = {"<": "<", "<=": "<=", "=": "==", "!=": "!=", ">=": ">=", ">": ">"}
_ARITHMETIC = {"+": "+", "-": "-"}


def bounded(value: int) -> int:
    """Keep a product within ``±VALUE_LIMIT`` at run time too (the checker bounds every
    expression from its parts; this holds whatever the game makes of them)."""
    return VALUE_LIMIT if value > VALUE_LIMIT else -VALUE_LIMIT if value < -VALUE_LIMIT else value


def divide(a: int, b: int) -> int:
    """``a / b`` of the rule language: division by zero gives 0 (documented in the rule
    language page; the checker refuses a divisor that is 0 whatever the game)."""
    return a // b if b else 0


def at_distance(c: EvalContext, regions: int, steps: int) -> int:
    """Regions exactly ``steps`` borders from the nearest region of ``regions``."""
    near = regions
    for _ in range(steps - 1):
        near |= c.adjacent_mask(near)
    return c.adjacent_mask(near) & ~near


#: The only names a generated function sees besides its constants.
_GLOBALS: dict[str, Any] = {
    "__builtins__": {},
    "_bounded": bounded,
    "_divide": divide,
    "_at_distance": at_distance,
    "_groups": groups.count,
    "_int": int,
    "_bool": bool,
    "_min": min,
    "_max": max,
}
_makers: dict[str, Callable[..., Any]] = {}


class _TooDeep(Exception):
    """A tree this module leaves to the closures."""


class _Writer:
    """The source of one function, and the values its constants stand for."""

    def __init__(self, counter_key: Callable[[str], tuple[str, bool]]) -> None:
        self.counter_key = counter_key
        self.values: list[object] = []
        self.depth = 0

    def const(self, value: object) -> str:
        self.values.append(value)
        return f"k{len(self.values) - 1}"

    def number(self, value: object) -> str:
        if type(value) is int:  # written as the decimal of an int, nothing else
            return f"({int(value)})"
        return self.const(value)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _TooDeep

    def pred(self, pred: ast.Pred, past: bool) -> str:
        self.enter()
        try:
            return self._pred(pred, past)
        finally:
            self.depth -= 1

    def _pred(self, pred: ast.Pred, past: bool) -> str:
        if isinstance(pred, ast.Terrain):
            return f"c.terrain_mask({self.const(pred.name)})"
        if isinstance(pred, ast.Feature):
            return f"c.feature_mask({self.const(pred.name)})"
        if isinstance(pred, ast.HasPiece):
            method = "past_piece_mask" if past else "piece_mask"
            return f"c.{method}({self.const(pred.name)})"
        if isinstance(pred, ast.Property):
            if past and pred.name in PAST_PROPERTIES:
                if pred.name == "non_empty":
                    return "c.conquests_mask(True)"
                return f"c.past_mask({self.const(pred.name)})"
            return f"c.property_mask({self.const(pred.name)})"
        if isinstance(pred, ast.OptionIs):
            return f"(c.all_mask if c.option({self.const(pred.name)}) else 0)"
        if isinstance(pred, ast.AdjacentTo):
            method = "conquest_adjacent_mask" if pred.links else "adjacent_mask"
            return f"c.{method}({self.regions(pred.regions)})"
        if isinstance(pred, ast.Distance):
            regions = self.regions(pred.regions)
            return f"_at_distance(c, {regions}, {self.number(pred.steps)})"
        if isinstance(pred, ast.Not):
            return f"(c.all_mask & ~{self.pred(pred.operand, past)})"
        if isinstance(pred, ast.And | ast.Or):
            op = "&" if isinstance(pred, ast.And) else "|"
            return f"({self.pred(pred.left, past)} {op} {self.pred(pred.right, past)})"
        if isinstance(pred, ast.Compare):
            left, right = self.expr(pred.left, past), self.expr(pred.right, past)
            return f"(c.all_mask if {left} {_COMPARE[pred.op]} {right} else 0)"
        if isinstance(pred, ast.HoldsTokens):
            amount = self.expr(pred.amount, past)
            test = f"(lambda held: held {_COMPARE[pred.op]} {amount})"
            return f"c.holding_mask({test}, {past})"
        raise _TooDeep  # a node this module does not know: the closures

    def regions(self, regions: ast.RegionSet) -> str:
        self.enter()
        try:
            flt = regions.filter
            past = regions.base == "conquests"
            if past:
                if isinstance(flt, ast.Property) and flt.name == "non_empty":
                    return "c.conquests_mask(True)"
                base = "c.conquests_mask(False)"
            elif regions.base == "own":
                base = "c.own_mask()"
            else:
                base = "c.all_mask"
            if flt is None:
                return base
            return f"({base} & {self.pred(flt, past)})"
        finally:
            self.depth -= 1

    def expr(self, expr: ast.Expr, past: bool) -> str:
        self.enter()
        try:
            return self._expr(expr, past)
        finally:
            self.depth -= 1

    def _expr(self, expr: ast.Expr, past: bool) -> str:
        if isinstance(expr, ast.Number):
            return self.number(expr.value)
        if isinstance(expr, ast.Count):
            regions = self.regions(expr.regions)
            if expr.groups:
                return f"_groups(c.adjacent_mask, {regions})"
            return f"{regions}.bit_count()"
        if isinstance(expr, ast.OptionValue):
            return f"_bounded(_int(c.option({self.const(expr.name)})))"
        if isinstance(expr, ast.CountPowers):
            return "c.powers_count()"
        if isinstance(expr, ast.CountTokens):
            return f"c.tokens_in({self.const(expr.place)})"
        if isinstance(expr, ast.Value):
            if expr.name == "target_tokens" and past:
                return "c.past_tokens(1 << c.target if c.target >= 0 else 0)"
            return f"c.value({self.const(expr.name)})"
        if isinstance(expr, ast.CounterRef):
            key, per_turn = self.counter_key(expr.name)
            return f"c.counter({self.const(key)}, {bool(per_turn)})"
        if isinstance(expr, ast.TokensIn):
            regions = self.regions(expr.regions)
            if expr.regions.base == "conquests":
                return f"c.past_tokens({regions})"
            return f"c.tokens_on({regions})"
        if isinstance(expr, ast.Call):
            pick = "_min" if expr.fn == "min" else "_max"
            args = "".join(f"{self.expr(a, past)}, " for a in expr.args)
            return f"{pick}(({args}))"
        if isinstance(expr, ast.BinOp):
            left, right = self.expr(expr.left, past), self.expr(expr.right, past)
            if expr.op == "*":
                return f"_bounded({left} * {right})"
            if expr.op == "/":
                return f"_divide({left}, {right})"
            return f"({left} {_ARITHMETIC[expr.op]} {right})"
        raise _TooDeep  # a node this module does not know: the closures


def _function(body: str, values: list[object]) -> Any:
    """``lambda c: body`` with the constants ``k0`` … bound to ``values``, its maker
    compiled once per source."""
    params = ", ".join(f"k{i}" for i in range(len(values)))
    source = f"def make({params}):\n    return lambda c: {body}\n"
    make = _makers.get(source)
    if make is None:
        if len(_makers) >= _MAKERS_KEPT:  # a process loading many files: start afresh
            _makers.clear()
        namespace = dict(_GLOBALS)
        exec(compile(source, "<compiled rule>", "exec"), namespace)  # templates only: see above
        make = _makers[source] = namespace["make"]
    return make(*values)


def generated(
    write: Callable[[_Writer], str], counter_key: Callable[[str], tuple[str, bool]]
) -> Any | None:
    """The function ``write`` gives the body of, or ``None`` for the closures."""
    writer = _Writer(counter_key)
    try:
        body = write(writer)
    except _TooDeep:
        return None
    return _function(body, writer.values)


def expression(
    expr: ast.Expr, past: bool, counter_key: Callable[[str], tuple[str, bool]]
) -> IntFn | None:
    """An expression as one generated function, or ``None``."""
    fn: IntFn | None = generated(lambda w: w.expr(expr, past), counter_key)
    return fn


def predicate(
    pred: ast.Pred, past: bool, counter_key: Callable[[str], tuple[str, bool]]
) -> IntFn | None:
    """A predicate's bitmask as one generated function, or ``None``."""
    fn: IntFn | None = generated(lambda w: w.pred(pred, past), counter_key)
    return fn


def equal(
    left: ast.Expr, right: ast.Expr, counter_key: Callable[[str], tuple[str, bool]]
) -> Callable[[EvalContext], bool] | None:
    """Whether two expressions are equal (a role's ``win``), as one generated function, or
    ``None``."""
    fn: Callable[[EvalContext], bool] | None = generated(
        lambda w: f"{w.expr(left, False)} == {w.expr(right, False)}", counter_key
    )
    return fn


def places_read(*exprs: ast.Expr) -> tuple[str, ...] | None:
    """The places of the ``count(tokens in …)`` an expression reads, when it reads nothing
    else of the game (numbers, those counts, arithmetic, ``min``/``max``); else ``None``.
    A role's win of that kind can change only when the tray or a pile it counts does."""
    places: list[str] = []
    todo = list(exprs)
    while todo:
        expr = todo.pop()
        if isinstance(expr, ast.CountTokens):
            places.append(expr.place)
        elif isinstance(expr, ast.BinOp):
            todo += (expr.left, expr.right)
        elif isinstance(expr, ast.Call):
            todo += expr.args
        elif not isinstance(expr, ast.Number):
            return None
    return tuple(sorted(set(places)))


def condition(
    pred: ast.Pred, past: bool, targeted: bool, counter_key: Callable[[str], tuple[str, bool]]
) -> Callable[[EvalContext], bool] | None:
    """A modifier's condition (see ``compiler._compile_condition``) as one generated
    function, or ``None``."""

    def write(w: _Writer) -> str:
        mask = w.pred(pred, past)
        return f"_bool(({mask} >> c.target) & 1)" if targeted else f"{mask} != 0"

    fn: Callable[[EvalContext], bool] | None = generated(write, counter_key)
    return fn
