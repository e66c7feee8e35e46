"""The fixed cost of every game and every action, cut by fast paths that must give exactly
what the plain code gives: the game options a new game is played with, the opening position,
the copy a move is applied to and the undo history.

Each test compares the fast path with the general one (or the old result) on seeded games
with the official rules, every folder of test rule files and every expansion.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.options import resolve_options

#: every folder of test rule files (tests/rules, tests/rules_v3, tests/rules_market …)
RULE_SETS = rule_sets()


def _option_choices(rules: sw.Rules) -> list[dict[str, Any]]:
    """Options a game may be asked for: none, each option set to another value, all at
    once, in declaration order and reversed."""
    changed = {
        name: (not o.default) if isinstance(o.default, bool) else o.default + 1
        for name, o in rules.options.items()
    }
    return [
        {},
        *({name: value} for name, value in changed.items()),
        changed,
        dict(reversed(changed.items())),
    ]


@RULE_SETS
def test_options_resolved_from_the_kept_defaults_are_those_of_the_declarations(
    how: dict[str, object],
) -> None:
    """A game's options are the declared defaults overridden by those it is asked for. The
    defaults the rules keep (worked out once per load) are the declarations' defaults by name
    in sorted order, and the options resolved from them are those resolved from the
    declarations, in the same order, for any options asked; each resolution is a fresh dict
    (the kept defaults stay as they were), and a bad option is refused with the same
    message either way."""
    rules, _ = rules_and_players(how)
    declared = rules.options
    assert list(rules.option_defaults.items()) == sorted(
        (name, o.default) for name, o in declared.items()
    )
    kept = dict(rules.option_defaults)
    for given in [None, *_option_choices(rules)]:
        plain = resolve_options(declared, given)
        fast = resolve_options(declared, given, rules.option_defaults)
        assert list(fast.items()) == list(plain.items())
        assert fast is not rules.option_defaults
        fast[next(iter(fast))] = 7  # the caller's to change
        assert dict(rules.option_defaults) == kept
    for bad, message in (
        ({"no_such_option": True}, "unknown game option 'no_such_option'"),
        ({next(iter(sorted(declared))): "yes"}, "takes"),
    ):
        for defaults in (None, rules.option_defaults):
            with pytest.raises(sw.RulesError, match=message):
                resolve_options(declared, bad, defaults)


@RULE_SETS
def test_engines_are_shared_by_the_options_in_force(how: dict[str, object]) -> None:
    """Games asked for the same options (however ordered) share one engine, with those
    options in force, and save alike; games asked for other options get another engine."""
    rules, players = rules_and_players(how)
    count = players[0]
    engines = {}
    for given in _option_choices(rules):
        game = sw.Game.new(players=count, seed=3, rules=rules, options=given)
        expected = resolve_options(rules.options, given)
        assert game.options == expected
        backwards = dict(reversed(given.items()))
        again = sw.Game.new(players=count, seed=3, rules=rules, options=backwards)
        assert again._engine is game._engine and again.to_json() == game.to_json()
        engines[tuple(sorted(expected.items()))] = game._engine
    assert len({id(e) for e in engines.values()}) == len(engines)
    new = sw.Game.new(players=count, seed=3, rules=rules)
    assert sw.Game.from_json(new.to_json(), rules)._engine is new._engine  # a save's options
