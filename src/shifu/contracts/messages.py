"""HTTP request and response of the agent (seed 001 §10), plus additive fields."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field, JsonValue, field_validator

from shifu.contracts.answer import GroundedAnswer
from shifu.contracts.common import (
    Authority,
    Contract,
    DecisionStatus,
    Intent,
    PlannerKind,
    ResponseStatus,
    SourceType,
    ToolCode,
    ToolStatus,
)

MAX_QUESTION_CHARS = 2000


class AgentRequest(Contract):
    """A message to the agent; identity, role and scope come from the token, never from here."""

    text: str = Field(max_length=MAX_QUESTION_CHARS)
    """The question, 1–2000 characters after trimming."""
    conversation_id: str | None = Field(default=None, max_length=64)
    """Conversation to continue; omitted → a new one."""
    context_version: int | None = Field(default=None, ge=0)
    """The conversation version the client last saw (optimistic concurrency)."""
    project_id: str | None = Field(default=None, max_length=64)
    """Selected project; honoured only when it is one of the user's."""
    consent_id: str | None = Field(default=None, max_length=64)
    """A consent the user gave for external research, if any."""

    @field_validator("text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        stripped = value.strip()
        if not stripped:
            raise ValueError("text must not be empty")
        return stripped


class Citation(Contract):
    """A cited fragment as the client shows it."""

    citation_id: str
    """Id statements refer to."""
    document_key: str
    """Stable document key (file stem for folder ingests)."""
    title: str
    """Document title."""
    locator: str
    """Where in the document (第十九条)."""
    version: str
    """Document version."""
    authority: Authority
    """Source authority."""
    quote: str
    """The quoted span."""


class Resource(Contract):
    """A protected original the client may download while the link lives."""

    resource_id: str
    """Opaque short-lived id."""
    document_key: str
    """Stable document key."""
    title: str
    """Document title."""
    kind: str
    """FILE or VIDEO."""
    url: str
    """Relative download path (no storage path)."""
    expires_at: datetime
    """When the link stops working."""


class SourceSummaryItem(Contract):
    """One entry of the source bar (已查内部 SOP, 已读取我的待办 …)."""

    type: SourceType
    """Source category."""
    label: str
    """Chinese label."""
    verified_at: datetime | None = None
    """When live data was read."""
    count: int = 0
    """How many items of this source were used."""
    decision: DecisionStatus | None = None
    """The evidence decision, for knowledge sources."""


class ClarificationOption(Contract):
    """One choice on a clarification card."""

    label: str
    """What the user sees."""
    value: str
    """What the client sends back as the next message."""


class Clarification(Contract):
    """A clarification card: at most three fields or a few options."""

    question: str
    """The question back to the user."""
    options: list[ClarificationOption] = Field(default_factory=list, max_length=5)
    """Choices."""
    missing_fields: list[str] = Field(default_factory=list, max_length=3)
    """Fields to fill."""


class ActionDraftCard(Contract):
    """A confirmation card: what will be done, to whom, with what, and whether it can be undone."""

    draft_id: str
    """Opaque ticket, valid 30 minutes."""
    version: int
    """Version to send back as expectedVersion."""
    tool: ToolCode
    """The draft tool."""
    status: str
    """DRAFT, NEEDS_INPUT, CONFIRMED, EXECUTED, FAILED or DISMISSED."""
    title: str
    """What will be done (Chinese)."""
    scope: str
    """Where it applies (project, private/company)."""
    target: str
    """Who or what it is for."""
    fields: dict[str, JsonValue]
    """The editable payload."""
    missing_fields: list[str] = Field(default_factory=list)
    """Fields still needed."""
    source: str
    """Where the content came from (用户输入, 我的待复盘 …)."""
    undoable: bool
    """Whether it can be undone after execution."""
    visibility_options: list[str] = Field(default_factory=list)
    """PRIVATE / COMPANY where it applies."""
    payload_hash: str
    """SHA-256 of the shown payload; exactly this executes."""
    expires_at: datetime
    """When the ticket lapses."""


class TraceToolCall(Contract):
    """One tool call in the trace: code, normalized arguments, status."""

    tool: str
    """Tool code as planned (unknown codes are recorded, never run)."""
    arguments: dict[str, JsonValue] = Field(default_factory=dict)
    """Normalized business arguments."""
    status: ToolStatus
    """How it ended."""
    round: int
    """Runtime round (1–3)."""
    reason_code: str | None = None
    """Why, when not OK."""
    elapsed_ms: float = 0.0
    """Wall time."""


class Trace(Contract):
    """Structured codes only: never model reasoning or personal text (invariant 7)."""

    intent: Intent
    """Intent that ran."""
    planner: PlannerKind
    """Which planner produced the plan."""
    planner_reason: str
    """Why that planner (MODEL_NOT_CONFIGURED, MODEL_TIMEOUT, FIDELITY_VIOLATION …)."""
    confidence: float
    """Intent confidence."""
    tool_calls: list[TraceToolCall] = Field(default_factory=list)
    """Every call, including refused and de-duplicated ones."""
    rounds: int = 0
    """Runtime rounds used."""
    reason_codes: list[str] = Field(default_factory=list)
    """Structured reasons collected during the run."""


class AgentResponse(Contract):
    """Seed 001 §10.2 exactly, plus additive `decision`, `groundedAnswer` and `trace`."""

    run_id: str
    """Id of this run."""
    conversation_id: str
    """Conversation id."""
    context_version: int
    """Conversation version after this turn."""
    intent: Intent
    """Execution strategy used."""
    status: ResponseStatus
    """COMPLETED / NEEDS_INPUT / NEEDS_CONFIRMATION / NO_EVIDENCE / FORBIDDEN / UNAVAILABLE / FAILED."""
    answer: str
    """User-facing Chinese text, rendered from gated inputs only."""
    source_summary: list[SourceSummaryItem] = Field(default_factory=list)
    """Source bar."""
    citations: list[Citation] = Field(default_factory=list)
    """Cited fragments."""
    resources: list[Resource] = Field(default_factory=list)
    """Protected originals."""
    data: dict[str, JsonValue] = Field(default_factory=dict)
    """Structured result (state, counts, items)."""
    action_draft: ActionDraftCard | None = None
    """Confirmation card, when a write was drafted."""
    clarification: Clarification | None = None
    """Clarification card, when input is needed."""
    next_actions: list[str] = Field(default_factory=list)
    """Suggested next steps."""
    decision: DecisionStatus | None = None
    """Evidence decision (additive)."""
    grounded_answer: GroundedAnswer | None = None
    """Structured grounded answer (additive)."""
    trace: Trace
    """Structured trace (additive)."""


class ErrorBody(Contract):
    """JSON body of every error response: a stable code and a Chinese message."""

    code: str
    """Stable machine-readable code."""
    message: str
    """Chinese message safe to show."""
    current_version: int | None = None
    """For version conflicts: the current version."""
