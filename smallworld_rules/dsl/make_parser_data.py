"""Print the parser data file (see :mod:`smallworld_rules.dsl.parser_data`)::

    python -m smallworld_rules.dsl.make_parser_data > smallworld_rules/dsl/parser_data.json
"""

from __future__ import annotations

from smallworld_rules.dsl.parser import build_parser
from smallworld_rules.dsl.parser_data import grammar_text, serialize

if __name__ == "__main__":  # pragma: no cover - a command
    print(serialize(build_parser(validate=False), grammar_text()), end="")
