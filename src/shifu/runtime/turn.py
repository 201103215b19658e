"""What one turn produced, before it is stamped with the conversation version."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import JsonValue

from shifu.contracts.answer import GroundedAnswer
from shifu.contracts.common import DecisionStatus, Intent, PlannerKind, ResponseStatus
from shifu.contracts.entities import ExtractedEntities
from shifu.contracts.evidence import ToolResult
from shifu.contracts.messages import (
    ActionDraftCard,
    AgentResponse,
    Citation,
    Clarification,
    Resource,
    SourceSummaryItem,
    Trace,
    TraceToolCall,
)


@dataclass
class TurnResult:
    """The response content of a turn plus what the conversation state must remember."""

    intent: Intent
    status: ResponseStatus
    answer: str
    planner: PlannerKind = PlannerKind.DETERMINISTIC
    planner_reason: str = "NOT_PLANNED"
    confidence: float = 1.0
    entities: ExtractedEntities = field(default_factory=ExtractedEntities)
    decision: DecisionStatus | None = None
    grounded: GroundedAnswer | None = None
    citations: list[Citation] = field(default_factory=list)
    resources: list[Resource] = field(default_factory=list)
    sources: list[SourceSummaryItem] = field(default_factory=list)
    data: dict[str, JsonValue] = field(default_factory=dict)
    draft: ActionDraftCard | None = None
    clarification: Clarification | None = None
    next_actions: list[str] = field(default_factory=list)
    tool_calls: list[TraceToolCall] = field(default_factory=list)
    rounds: int = 0
    reason_codes: list[str] = field(default_factory=list)
    results: list[ToolResult] = field(default_factory=list)
    """Results whose facts become references (only for turns that served data)."""
    pending_draft_id: str | None = None
    awaiting_draft_input: bool = False
    """The draft asked for a missing field; the next short reply supplies it."""
    keeps_frame: bool = False
    """The turn only answered about the open draft ("确认"): the request it belongs to stays the goal."""
    keeps_listing: bool = False
    """The turn re-read an item of the last listing (第二项怎么做): that listing is still pointed into. The
    question asked of the item is carried to the next item only when it read (a draft needs its own
    request: 记一下第一项… then 第二项呢 does not draft a second note)."""
    pending_clarification: bool = False
    model_calls: int = 0

    def response(self, *, run_id: str, conversation_id: str, context_version: int) -> AgentResponse:
        """The AgentResponse of this turn."""
        return AgentResponse(
            run_id=run_id,
            conversation_id=conversation_id,
            context_version=context_version,
            intent=self.intent,
            status=self.status,
            answer=self.answer,
            source_summary=self.sources,
            citations=self.citations,
            resources=self.resources,
            data=self.data,
            action_draft=self.draft,
            clarification=self.clarification,
            next_actions=self.next_actions,
            decision=self.decision,
            grounded_answer=self.grounded,
            trace=Trace(
                intent=self.intent,
                planner=self.planner,
                planner_reason=self.planner_reason,
                confidence=round(self.confidence, 4),
                tool_calls=self.tool_calls,
                rounds=self.rounds,
                reason_codes=list(dict.fromkeys(self.reason_codes)),
            ),
        )
