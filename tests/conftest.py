"""Shared fixtures: the official rules plus the test-only rule files of tests/rules/."""

from __future__ import annotations

from pathlib import Path

import pytest

import smallworld_rules as sw

TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="session")
def rules() -> sw.Rules:
    """Official rule files plus test-only ones (plain powers, Miners, Raiders, Warded …)."""
    return sw.load_rules(paths=[TEST_RULES])
