"""Game options: the judgement calls the rules leave open ("A1" to "A20"), each with a name and a
default.

The core declares its own here; rule files declare theirs with
``option NAME default VALUE "meaning"``. ``Game.new(options={...})`` refuses unknown names
with the list of known ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from smallworld_rules.dsl.bounds import OPTION_LIMIT
from smallworld_rules.errors import RulesError, excerpt
from smallworld_rules.hooks import CORE
from smallworld_rules.ruledefs import OptionDef

#: The core's options.
CORE_OPTIONS: dict[str, OptionDef] = {
    option.name: option
    for option in (
        OptionDef(
            "abandon_mid_conquest",
            False,
            "A5: regions may be abandoned after the first conquest of the turn too "
            "(default: only before it)",
            CORE,
        ),
        OptionDef(
            "end_of_turn_decline_when_picked",
            True,
            "Ruling 34: a race that may decline at the end of a turn (flag "
            "decline_at_turn_end) may do so at the end of the turn it was picked too "
            "(the rules are silent; default: yes, it is a normal expansion turn)",
            CORE,
        ),
        OptionDef(
            "converted_token_is_lost",
            True,
            "A16: the token a convert effect replaces is lost to a conquest, so it goes where "
            "an expansion sends lost tokens (the Well of an expansion zone); false: to its box "
            "(the base game sends both to the box)",
            CORE,
        ),
    )
}


def resolve_options(
    declared: Mapping[str, OptionDef],
    given: Mapping[str, Any] | None,
    defaults: Mapping[str, bool | int] | None = None,
) -> dict[str, bool | int]:
    """Every option's value, by name in sorted order: the defaults of ``declared`` overridden
    by ``given``.

    ``defaults`` are those defaults when the caller has them already (``Rules.option_defaults``,
    worked out once per load): a new game then does not sort and copy the declarations again.

    Raises:
        RulesError: an unknown option (listing the known ones) or a value of the wrong type.
    """
    if defaults is None:
        defaults = {name: declared[name].default for name in sorted(declared)}
    values = dict(defaults)
    if not given:
        return values
    for name, value in given.items():
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            raise RulesError(f"unknown game option {excerpt(name)} (known options: {known})")
        default = declared[name].default
        if type(value) is not type(default):
            kind = "true or false" if isinstance(default, bool) else "a whole number"
            raise RulesError(f"option {name!r} takes {kind}, not {excerpt(value)}")
        if not isinstance(value, bool) and abs(value) > OPTION_LIMIT:
            raise RulesError(
                f"option {name!r} is a whole number from -{OPTION_LIMIT} to {OPTION_LIMIT}"
            )
        values[name] = value
    return values
