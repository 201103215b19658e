"""The planner's output contract (seed 001 §6.2, seed 000 SemanticQueryPlan)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, JsonValue

from shifu.contracts.common import Contract, EvidenceNeed, Intent, ToolCode
from shifu.contracts.entities import ExtractedEntities


class ResponseStyle(StrEnum):
    """How the answer should be shaped."""

    FACT = "FACT"
    STEPS = "STEPS"
    LIST = "LIST"
    SHORT = "SHORT"


class ToolCall(Contract):
    """A tool code and business arguments only; scope is injected from ExecutionContext."""

    tool: ToolCode
    """Registered tool code."""
    arguments: dict[str, JsonValue] = Field(default_factory=dict)
    """Business arguments, validated against the tool's registered schema."""


class SemanticQueryPlan(Contract):
    """What the question means and which whitelisted tools answer it."""

    question: str
    """The original question, verbatim."""
    normalized_question: str
    """The question rewritten for retrieval; must preserve every number, date and negation."""
    intent: Intent
    """Execution strategy."""
    confidence: float = Field(ge=0.0, le=1.0)
    """Calibrated probability of the intent."""
    domain: str | None = None
    """Business domain (REIMBURSEMENT, PROCUREMENT, LABOR_LAW …)."""
    entities: ExtractedEntities = Field(default_factory=ExtractedEntities)
    """Entities the plan relies on."""
    evidence_needs: list[EvidenceNeed] = Field(default_factory=list)
    """Evidence slots that must be covered to answer."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    """Whitelisted tool calls, in order."""
    missing_fields: list[str] = Field(default_factory=list)
    """Fields the user must supply before anything runs."""
    clarification_options: list[Intent] = Field(default_factory=list)
    """For CLARIFY: the most likely intents, best first."""
    requires_confirmation: bool = False
    """True when a tool call drafts a write."""
    requires_external_consent: bool = False
    """True when a tool call sends data outside the company."""
    response_style: ResponseStyle = ResponseStyle.FACT
    """Shape of the answer."""
