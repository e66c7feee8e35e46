"""Parsing of the command line's values shared by several commands (``--combos``, ``--options``).

Each function turns one option's text into what the Python API takes, or raises
:class:`~smallworld_rules.errors.RulesError` with a one-line reason; the names and values are
checked against the loaded rules later, by :meth:`Game.new <smallworld_rules.Game.new>`.

>>> parse_combos("scouts:forest, bakers:hill")
[('scouts', 'forest'), ('bakers', 'hill')]
>>> parse_options("abandon_mid_conquest=true,rounds_bonus=3")
{'abandon_mid_conquest': True, 'rounds_bonus': 3}
"""

from __future__ import annotations

from smallworld_rules.errors import RulesError
from smallworld_rules.errors import excerpt as _excerpt

#: Digits an option's number may have: more is no game option's value, and int() of a long
#: string is slow.
_MAX_DIGITS = 9


def parse_combos(text: str) -> list[tuple[str, str]]:
    """``race:power,race:power`` -> the ``combos`` of :meth:`Game.new`, top of the market first.

    Raises:
        RulesError: an item that is not ``race:power``.
    """
    combos = []
    for item in text.split(","):
        race, sep, power = item.strip().partition(":")
        if not sep or not race.strip() or not power.strip() or ":" in power:
            raise RulesError(f"--combos takes RACE:POWER pairs separated by commas, not "
                             f"{_excerpt(item.strip())}")
        combos.append((race.strip(), power.strip()))
    return combos


def parse_options(text: str) -> dict[str, bool | int]:
    """``name=value,name=value`` -> the ``options`` of :meth:`Game.new` (values ``true``,
    ``false`` or a whole number).

    Raises:
        RulesError: an item that is not ``name=value``, a value of neither kind, or a name
            given twice.
    """
    options: dict[str, bool | int] = {}
    for item in text.split(","):
        name, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not name or not value:
            raise RulesError(f"--options takes name=value pairs separated by commas, not "
                             f"{_excerpt(item.strip())}")
        if name in options:
            raise RulesError(f"--options gives {_excerpt(name)} twice")
        lowered = value.lower()
        if lowered in ("true", "false"):
            options[name] = lowered == "true"
            continue
        try:
            if len(value.lstrip("+-")) > _MAX_DIGITS:
                raise ValueError(value)
            options[name] = int(value)
        except ValueError:
            raise RulesError(
                f"--options: {_excerpt(name)} takes true, false or a whole number, not "
                f"{_excerpt(value)}"
            ) from None
    return options
