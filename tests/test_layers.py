"""The package's layers: no import circle among its modules, and the rule language below the
loader, the engine and the façade.

The import graph is read from the source with :mod:`ast` (nothing is imported to build it):
one node per module of ``smallworld_rules/`` (a package is its ``__init__``), one edge per
``import`` or ``from … import`` of another one. ``from package import name`` points at the
submodule ``package.name`` when there is one, else at the package itself.

* Imports inside functions count as edges, like those at module level: they run whenever the
  function is called, and a circle through them is still a circle (the façade calling a
  module that calls the façade back).
* Imports under ``if TYPE_CHECKING:`` do not count: they never run, they only name types
  for annotations (the engine's rule modules name the ``Engine`` they are bound to that way).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import smallworld_rules

PACKAGE = Path(smallworld_rules.__file__).parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.AST, known: set[str]) -> Iterator[str]:
    """The modules of the package ``tree`` imports (see the module docstring)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                yield from _imported(child, known)
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                target = sub if sub in known else node.module
                if target in known:
                    yield target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield alias.name
        yield from _imported(node, known)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = _modules()
    known = set(modules)
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = set(_imported(tree, known)) - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order, the first repeated), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        path.append(node)
        for nxt in sorted(graph[node]):
            if nxt in path:
                return [*path[path.index(nxt):], nxt]
            if nxt not in done:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            found = visit(start)
            if found:
                return found
    return None


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_graph_sees_the_imports_it_should() -> None:
    """The graph is not empty by mistake: known module-level and function-level imports are
    edges, and a ``TYPE_CHECKING`` one is not."""
    graph = import_graph()
    assert "smallworld_rules.engine.core" in graph["smallworld_rules.engine"]
    assert "smallworld_rules.engine.conquest" in graph["smallworld_rules.engine.core"]
    assert "smallworld_rules.hidden" in graph["smallworld_rules.game"]
    # a TYPE_CHECKING import, for the annotations of the rule modules only
    assert "smallworld_rules.engine.core" not in graph["smallworld_rules.engine.conquest"]
    function_level = ast.parse("def f():\n    from smallworld_rules.game import Game\n")
    assert set(_imported(function_level, set(graph))) == {"smallworld_rules.game"}


def test_a_circle_is_found() -> None:
    """find_cycle reports a circle, through any number of modules."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle_among_the_modules() -> None:
    """No module imports, directly or through others, a module that imports it: each layer
    uses only those below it (the façade never calls back into observation or records)."""
    assert find_cycle(import_graph()) is None


def test_the_rule_language_imports_no_loader_engine_or_facade() -> None:
    """``smallworld_rules/dsl/`` (the rule language: grammar, parser, checker, compiler) sits
    below the loader that reads rule files, the engine that plays them and the façade: nothing
    it imports, directly or through other modules, is one of those."""
    graph = import_graph()
    above = {
        "smallworld_rules",  # the package's __init__ imports every layer
        "smallworld_rules.rules",
        "smallworld_rules.packs",
        "smallworld_rules.game",
        "smallworld_rules.saved",
        "smallworld_rules.observation",
        "smallworld_rules.hidden",
        "smallworld_rules.records",
        "smallworld_rules.recording",
        "smallworld_rules.bots",
        "smallworld_rules.cli",
    }
    above |= {m for m in graph if m.startswith("smallworld_rules.engine")}
    language = sorted(m for m in graph if m.startswith("smallworld_rules.dsl"))
    assert len(language) > 5
    wrong = {m: sorted(reachable(graph, m) & above) for m in language}
    assert {m: found for m, found in wrong.items() if found} == {}
