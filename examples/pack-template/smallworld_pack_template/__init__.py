"""An example rule pack for smallworld_rules.

The pack registers :data:`RULES` in the ``smallworld_rules.packs`` entry-point group (see
``pyproject.toml``), so that::

    import smallworld_rules as sw
    rules = sw.load_rules(packs=["template"])

loads its rule files next to the official races and powers. This module holds no rules itself:
everything the pack adds is in the ``.swr`` files under ``rules/``.
"""

from pathlib import Path

#: The folder of the pack's rule files (searched recursively for ``*.swr``).
RULES = Path(__file__).resolve().parent / "rules"

__all__ = ["RULES"]
