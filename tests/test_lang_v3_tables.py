"""One place per construct: every name of the rule language's vocabulary of version 3 has its
entry, with its handler, in one table of smallworld_rules.language (and no table has an entry
the vocabulary lacks)."""

from __future__ import annotations

from smallworld_rules.dsl import vocabulary
from smallworld_rules.language import effects, events, values


def test_every_event_has_its_firing_step() -> None:
    """Each event of the vocabulary names the engine step that fires it."""
    assert set(events.EVENTS) == set(vocabulary.EVENTS)


def test_every_new_effect_has_a_handler() -> None:
    """The effects of version 3 are carried out by the language's table (`roll` by the
    trigger runner, which may wait for a chance node); the others by the engine."""
    engine_verbs = {"place", "move", "conquer", "convert", "roll_die", "truce", "gain"}
    assert set(effects.EFFECTS) | {"roll"} | engine_verbs == set(vocabulary.EFFECTS)
    assert not set(effects.EFFECTS) & engine_verbs


def test_every_value_and_region_property_has_a_handler() -> None:
    """Each value an expression reads, each new region property and each property read in
    the past tense has its handler."""
    assert set(values.VALUES) == {
        "round", "rounds_left", "die", "coins", "declined_races", "tokens_lost", "target_tokens",
        "coins_taken", "players",
    }
    assert set(values.REGION_PROPERTIES) <= set(vocabulary.REGION_PROPERTIES)
    assert set(values.PAST) | {"non_empty"} == set(vocabulary.PAST_PROPERTIES)
