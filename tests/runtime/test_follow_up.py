"""The follow-up search: same question, the uncovered slot's keyword cues as `focus`."""

from __future__ import annotations

from datetime import date
from typing import Any, cast

from shifu.contracts.common import EvidenceNeed, Intent, ToolCode, ToolStatus
from shifu.contracts.entities import ExtractedEntities
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.evidence.evaluator import EvidenceEvaluator
from shifu.runtime.follow_up import NEED_QUERY_HINTS, knowledge_follow_up


def test_an_uncovered_slot_is_searched_again_with_the_same_query_and_its_cues() -> None:
    question = "装修进场要走什么流程"
    search = ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": question})
    the_plan = SemanticQueryPlan(
        question=question,
        normalized_question=question,
        intent=Intent.KNOWLEDGE_QA,
        confidence=0.9,
        domain="DECORATION",
        entities=ExtractedEntities(),
        evidence_needs=[EvidenceNeed.PROCESS_STEPS],
        tool_calls=[search],
    )
    nothing = ToolResult(call=search, status=ToolStatus.NO_RESULT, documents=[])
    decision = EvidenceEvaluator().evaluate(the_plan, [nothing], on_date=date(2026, 12, 2))
    follow_up = cast(Any, knowledge_follow_up(the_plan))(decision, [nothing])
    assert follow_up is not None and follow_up.target == EvidenceNeed.PROCESS_STEPS.value
    (call,) = follow_up.calls
    assert call.tool is ToolCode.KNOWLEDGE_SEARCH
    assert call.arguments["query"] == question
    assert call.arguments["focus"] == NEED_QUERY_HINTS[EvidenceNeed.PROCESS_STEPS]
