"""The declarative rule language: parse a rule file, then check it.

Typical use::

    rule_file = parse(source, path)
    errors = check(rule_file, source, known_pieces)
"""

from smallworld_rules.dsl.parser import parse, parse_file
from smallworld_rules.dsl.semantics import check

__all__ = ["check", "parse", "parse_file"]
