"""Per-request budgets: one limits object, one usage tracker, one error type.

Modelled on pydantic-ai's `UsageLimits`: the limits are plain data with a docstring per
field, and `RunBudget.check_before_call` is the single place that raises
`shifu.errors.BudgetExceeded`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from shifu.errors import BudgetExceeded


@dataclass(frozen=True, slots=True)
class RunLimits:
    """The budgets of one agent run."""

    max_tool_calls: int = 6
    """Most tool calls (handlers actually invoked) in one run; refused calls and de-duplicated
    calls do not count."""
    max_candidates: int = 60
    """Most evidence candidates (documents + facts + resources) kept across the run; extra ones are
    dropped and observed as CANDIDATES_TRUNCATED."""
    max_wall_time_s: float = 8.0
    """Wall time of the whole run; no call starts after it, and a call's timeout never passes it."""
    tool_timeout_s: float = 4.0
    """Timeout of a single tool call; a late result is discarded (TIMEOUT)."""


@dataclass
class RunBudget:
    """What one run has spent against its `RunLimits`; created once per run."""

    limits: RunLimits = field(default_factory=RunLimits)
    clock: Callable[[], float] = time.monotonic
    started_at: float = field(default=-1.0)
    tool_calls: int = 0
    candidates: int = 0
    seen_calls: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.started_at < 0:
            self.started_at = self.clock()

    def elapsed_s(self) -> float:
        """Seconds since the run started."""
        return self.clock() - self.started_at

    def remaining_s(self) -> float:
        """Seconds left of the run's wall time."""
        return self.limits.max_wall_time_s - self.elapsed_s()

    def check_before_call(self) -> None:
        """Raise BudgetExceeded when another tool call would pass a limit."""
        if self.tool_calls >= self.limits.max_tool_calls:
            raise BudgetExceeded(code="CALL_BUDGET_EXCEEDED")
        if self.remaining_s() <= 0:
            raise BudgetExceeded(code="TIME_BUDGET_EXCEEDED")
        if self.candidates >= self.limits.max_candidates:
            raise BudgetExceeded(code="CANDIDATE_BUDGET_EXCEEDED")

    def call_timeout_s(self) -> float:
        """Timeout for the next call: the tool timeout, capped by the remaining run time."""
        return max(0.0, min(self.limits.tool_timeout_s, self.remaining_s()))

    def take_candidates(self, wanted: int) -> int:
        """Reserve up to `wanted` candidates; returns how many may be kept."""
        allowed = max(0, min(wanted, self.limits.max_candidates - self.candidates))
        self.candidates += allowed
        return allowed
