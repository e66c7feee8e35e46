"""The bound on every value a rule file can compute, in one place.

A rule file's expressions (a score, a defence, a price, a supply …) are checked before the
file is accepted: the largest value each can take in any game, worked out from the bounds of
its parts, must not exceed :data:`VALUE_LIMIT`. So what ``smallworld check`` accepts, play can
run and explain (a product of large numbers is refused with its line and column, instead of a
game whose only legal action raises).

The parts are bounded as follows: a number by itself; every count (regions, tokens, powers)
by :data:`COUNT_LIMIT`; a game option's whole-number value by :data:`OPTION_LIMIT` (``Game.new``
refuses more); ``a + b`` and ``a - b`` by the sum of the bounds, ``a * b`` by their product,
``a / b`` by the bound of ``a``, ``min(…)`` and ``max(…)`` by the largest bound of
their values.

>>> from smallworld_rules.dsl.parser import parse
>>> def bound(text):
...     return value_bound(parse(f'race r "R" {{\\n score add {text}\\n}}').statements[0].value)
>>> bound("count(own regions) * 2 + 1"), bound("999999 * 2") > VALUE_LIMIT
(2001, True)
"""

from __future__ import annotations

import typing

import attrs

from smallworld_rules.dsl import ast

#: No value a rule file computes may be larger than this (or smaller than its negative).
VALUE_LIMIT = 1_000_000
#: What any count stands for at most in the bound of an expression: the regions of a board,
#: the tokens of a race, the powers of a role.
COUNT_LIMIT = 1_000
#: The largest whole-number value of a game option (in a rule file's default, or given to
#: ``Game.new``).
OPTION_LIMIT = 10_000

_COUNTS = (ast.Count, ast.CountPowers, ast.CountTokens)


def value_bound(expr: ast.Expr) -> int:
    """The largest absolute value ``expr`` can take in any game, or ``VALUE_LIMIT + 1`` if
    that is more than :data:`VALUE_LIMIT` (so that no huge integer is ever built).

    A kind of expression this function does not know is bounded by the product of the bounds
    of the expressions in it (which covers sums, products, minima and maxima), or by
    :data:`COUNT_LIMIT` if it holds none.
    """
    over = VALUE_LIMIT + 1
    bounds: dict[int, int] = {}
    # Bottom-up on an explicit stack: hand-made trees may be deeper than Python's stack.
    stack: list[tuple[ast.Expr, bool]] = [(expr, False)]
    while stack:
        node, visited = stack.pop()
        parts = _parts(node)
        if parts and not visited:
            stack.append((node, True))
            stack.extend((part, False) for part in parts)
            continue
        if isinstance(node, ast.Number):
            bound = abs(node.value)
        elif isinstance(node, _COUNTS):
            bound = COUNT_LIMIT
        elif isinstance(node, ast.OptionValue):
            bound = OPTION_LIMIT
        elif isinstance(node, ast.BinOp):
            left, right = bounds[id(node.left)], bounds[id(node.right)]
            if node.op in ("+", "-"):
                bound = left + right
            elif node.op == "*":
                bound = left * right
            else:  # "/" rounds down, and a division by 0 gives 0
                bound = left
        elif isinstance(node, ast.Call):  # min and max take one of their values
            bound = max(bounds[id(part)] for part in parts)
        elif parts:
            bound = 1
            for part in parts:
                bound = min(bound * bounds[id(part)], over)
        else:
            bound = COUNT_LIMIT
        bounds[id(node)] = min(bound, over)
    return bounds[id(expr)]


def _parts(node: ast.Expr) -> list[ast.Expr]:
    """The expressions directly inside ``node``."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    kinds = typing.get_args(ast.Expr)
    if isinstance(node, ast.Number | ast.OptionValue | ast.Count) or not attrs.has(type(node)):
        return []
    parts: list[ast.Expr] = []
    for value in attrs.astuple(node, recurse=False):
        values = value if isinstance(value, tuple | list) else (value,)
        parts.extend(v for v in values if isinstance(v, kinds))
    return parts
