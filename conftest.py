"""pytest, for the whole checkout: the doctests of the framework adapters need the ``ai``
extra, so their modules are not collected where it is not installed (the tests of
``tests/`` skip themselves with ``pytest.importorskip``)."""

from __future__ import annotations

import importlib.util

#: adapter module -> the package of the ``ai`` extra it imports
_ADAPTERS = {
    "smallworld_rules/openspiel.py": "pyspiel",
    "smallworld_rules/pettingzoo.py": "pettingzoo",
    "smallworld_rules/gymnasium.py": "gymnasium",
}

collect_ignore = [
    module for module, package in _ADAPTERS.items() if importlib.util.find_spec(package) is None
]
