"""Shared fixtures: the official rules plus the test-only rule files of tests/rules/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="session")
def rules() -> sw.Rules:
    """Official rule files plus test-only ones (plain powers, Miners, Raiders, Warded …)."""
    return sw.load_rules(paths=[TEST_RULES])


# --------------------------------------------------------------------------- Hypothesis profiles
#
# Select one with the environment variable HYPOTHESIS_PROFILE (or pytest's
# --hypothesis-profile=NAME): ``ci`` (the default: fast enough for CI), ``dev`` (a quick smoke
# run) or ``thorough`` (long: many thousands of random games). Tests that set their own
# ``max_examples`` keep it; the property-based modules (test_state_machine, test_illegal_actions,
# test_determinism, test_rule_file_fuzz) scale their budgets by the profile's name.

settings.register_profile("ci", deadline=None)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# Modules whose doctests need an optional extra: skipped, not failed, when it is missing (the
# suite runs without the extras; the tests of those modules skip with importorskip).
_DOCTESTS_NEED = {"smallworld_rules.selfplay": "numpy"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    import importlib.util

    for item in items:
        for module, extra in _DOCTESTS_NEED.items():
            named = item.name == module or item.name.startswith(module + ".")
            if named and importlib.util.find_spec(extra) is None:
                item.add_marker(pytest.mark.skip(reason=f"needs {extra} (an optional extra)"))
