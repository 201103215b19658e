"""What every planner returns, and the one Protocol the runtime calls.

The runtime records `planner` and `reason_code` in the trace (which path ran and why),
so a fallback is never silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from shifu.contracts.common import PlannerKind
from shifu.contracts.context import ResolvedContext
from shifu.contracts.plan import SemanticQueryPlan


class ReasonCode:
    """Why the plan that ran came from the planner it came from."""

    MODEL_OK = "MODEL_OK"
    MODEL_NOT_CONFIGURED = "MODEL_NOT_CONFIGURED"
    MODEL_TIMEOUT = "MODEL_TIMEOUT"
    MODEL_TRANSPORT = "MODEL_TRANSPORT"
    MODEL_HTTP_ERROR = "MODEL_HTTP_ERROR"
    MODEL_INVALID_JSON = "MODEL_INVALID_JSON"
    SCHEMA_VIOLATION = "SCHEMA_VIOLATION"
    UNKNOWN_TOOL = "UNKNOWN_TOOL"
    AUTHORIZATION_FIELD = "AUTHORIZATION_FIELD"
    FIDELITY_VIOLATION = "FIDELITY_VIOLATION"
    DETERMINISTIC = "DETERMINISTIC"


FALLBACK_TRIGGERS: frozenset[str] = frozenset(
    {
        ReasonCode.MODEL_TIMEOUT,
        ReasonCode.MODEL_TRANSPORT,
        ReasonCode.MODEL_HTTP_ERROR,
        ReasonCode.MODEL_INVALID_JSON,
        ReasonCode.SCHEMA_VIOLATION,
        ReasonCode.UNKNOWN_TOOL,
        ReasonCode.AUTHORIZATION_FIELD,
        ReasonCode.FIDELITY_VIOLATION,
    }
)
"""Exactly the failures that make the model planner fall back to the deterministic one."""


@dataclass(frozen=True)
class PlanningOutcome:
    """A plan plus how it was made (for the trace and the bench)."""

    plan: SemanticQueryPlan
    planner: PlannerKind
    reason_code: str
    model_calls: int
    latency_ms: float


class Planner(Protocol):
    """Turns one question into a validated plan; never sees ExecutionContext or the user's role."""

    def plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> PlanningOutcome:
        """Plan one question."""
        ...
