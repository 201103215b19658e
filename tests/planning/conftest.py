"""Planning fixtures: the planner trained once per session on the repository's utterance set."""

from __future__ import annotations

import pytest

from shifu.planning.deterministic import DeterministicPlanner


@pytest.fixture(scope="session")
def deterministic() -> DeterministicPlanner:
    """The deterministic planner over the real utterance set (trained once, ~2 s)."""
    planner = DeterministicPlanner()
    assert planner.classifier is not None
    return planner
