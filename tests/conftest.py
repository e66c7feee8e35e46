"""Shared fixtures: the official rules plus the test-only rule files of tests/rules/."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="session")
def rules() -> sw.Rules:
    """Official rule files plus test-only ones (plain powers, Miners, Raiders, Warded …)."""
    return sw.load_rules(paths=[TEST_RULES])


@pytest.fixture(scope="session")
def official() -> sw.Rules:
    """The official rule files alone."""
    return sw.load_rules()


def _box(name: str) -> sw.Rules:
    return sw.load_rules(expansions=[name], paths=[TEST_RULES])


@pytest.fixture(scope="session")
def underground() -> sw.Rules:
    """The official rules, the Underground box and the test-only rule files."""
    return _box("underground")


@pytest.fixture(scope="session")
def cursed() -> sw.Rules:
    """The official rules, the Cursed! box and the test-only rule files."""
    return _box("cursed")


@pytest.fixture(scope="session")
def royal() -> sw.Rules:
    """The official rules, the Royal Bonus box and the test-only rule files."""
    return _box("royal_bonus")


@pytest.fixture(scope="session")
def be_not_afraid() -> sw.Rules:
    """The official rules, the Be Not Afraid... box and the test-only rule files."""
    return _box("be_not_afraid")


# --------------------------------------------------------------------------- Hypothesis profiles
#
# Select one with the environment variable HYPOTHESIS_PROFILE (or pytest's
# --hypothesis-profile=NAME): ``ci`` (the default: fast enough for CI), ``dev`` (a quick smoke
# run) or ``thorough`` (long: many thousands of random games). Tests that set their own
# ``max_examples`` keep it; the property-based modules (test_state_machine, test_illegal_actions,
# test_determinism, test_rule_file_fuzz) scale their budgets by the profile's name. The ``ci``
# profile's seed rotates daily (see ci_seed); the others draw a fresh one every run.

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


def ci_seed() -> int:
    """The seed of the ``ci`` profile: ``HYPOTHESIS_SEED`` if set (a CI run may pass its run
    number), else the UTC date as YYYYMMDD. It rotates, so that runs on successive days play
    other random games than the day before, and it is known, so that a failure is replayed with
    ``--hypothesis-seed=N`` (pytest's header shows N)."""
    given = os.environ.get("HYPOTHESIS_SEED", "").strip()
    if given.isdigit():
        return int(given)
    return int(datetime.now(UTC).strftime("%Y%m%d"))


@pytest.hookimpl(tryfirst=True)  # before the Hypothesis plugin reads --hypothesis-seed
def pytest_configure(config: pytest.Config) -> None:
    if settings.get_current_profile_name() == "ci" and config.option.hypothesis_seed is None:
        config.option.hypothesis_seed = str(ci_seed())


def pytest_report_header(config: pytest.Config) -> str | None:
    seed = config.option.hypothesis_seed
    if seed is None:
        return None
    return f"hypothesis seed {seed} (replay a failure with --hypothesis-seed={seed})"
