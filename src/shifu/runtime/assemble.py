"""Builds the parts of an AgentResponse from what the run produced.

Citations, source bar, structured data and trace are derived only from gated evidence,
verified facts and structured codes — never from model text.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from shifu.contracts.common import DecisionStatus, SourceType, ToolCode, ToolStatus
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import DocumentEvidence, ToolResult, VerifiedFact
from shifu.contracts.messages import Citation, Resource, SourceSummaryItem, TraceToolCall
from shifu.runtime.rounds import RunOutcome

QUOTE_CHARS = 240
"""Longest quoted span on a citation card."""

RESOURCE_URL = "/api/aihr/agent/resources/{resource_id}"


def documents_of(results: Sequence[ToolResult]) -> list[DocumentEvidence]:
    """Every document evidence of the run, first occurrence of each citation kept."""
    seen: set[str] = set()
    documents: list[DocumentEvidence] = []
    for result in results:
        for doc in result.documents:
            if doc.citation_id not in seen:
                seen.add(doc.citation_id)
                documents.append(doc)
    return documents


def facts_of(results: Sequence[ToolResult]) -> list[VerifiedFact]:
    """Every verified fact of the run."""
    return [fact for result in results for fact in result.facts]


def citations_for(order: Sequence[str], documents: Sequence[DocumentEvidence]) -> list[Citation]:
    """Citation cards in the order the answer's [n] markers use."""
    by_id = {doc.citation_id: doc for doc in documents}
    cards: list[Citation] = []
    for citation_id in order:
        doc = by_id.get(citation_id)
        if doc is None:
            continue
        quote = doc.text if len(doc.text) <= QUOTE_CHARS else doc.text[: QUOTE_CHARS - 1] + "…"
        cards.append(
            Citation(
                citation_id=doc.citation_id,
                document_key=doc.document_key,
                title=doc.title,
                locator=doc.locator,
                version=doc.version,
                authority=doc.authority,
                quote=quote,
            )
        )
    return cards


def resources_of(results: Sequence[ToolResult]) -> list[Resource]:
    """Download cards for the resources a tool issued."""
    return [
        Resource(
            resource_id=ref.resource_id,
            document_key=ref.document_key,
            title=ref.title,
            kind=ref.kind,
            url=RESOURCE_URL.format(resource_id=ref.resource_id),
            expires_at=ref.expires_at,
        )
        for result in results
        for ref in result.resources
    ]


def source_summary(
    results: Sequence[ToolResult], decision: DecisionResult | None, citations: Sequence[Citation]
) -> list[SourceSummaryItem]:
    """The source bar: live data read, knowledge consulted, capability read, drafts."""
    items: list[SourceSummaryItem] = []
    facts = [f for f in facts_of(results) if decision is None or f.fact_ref in decision.qualified_fact_refs]
    labels: dict[str, list[VerifiedFact]] = {}
    for fact in facts:
        labels.setdefault(fact.label, []).append(fact)
    for label, group in labels.items():
        source = (
            SourceType.CAPABILITY if group[0].fact_type.startswith("CAPABILITY") else SourceType.LIVE_DATA
        )
        items.append(
            SourceSummaryItem(
                type=source, label=label, verified_at=max(f.queried_at for f in group), count=len(group)
            )
        )
    searched = any(r.call.tool is ToolCode.KNOWLEDGE_SEARCH for r in results)
    if searched:
        label = "已查内部制度与法规" if citations else "已查内部制度与法规（无合格依据）"
        items.append(
            SourceSummaryItem(
                type=SourceType.KNOWLEDGE,
                label=label,
                count=len(citations),
                decision=decision.status if decision else DecisionStatus.NO_EVIDENCE,
            )
        )
    if any(r.draft for r in results):
        items.append(SourceSummaryItem(type=SourceType.DRAFT, label="待你确认", count=1))
    return items


def live_data(results: Sequence[ToolResult], decision: DecisionResult | None) -> dict[str, JsonValue]:
    """Structured data of the live facts (state, counts, items) for the client to render."""
    facts = facts_of(results)
    if not facts:
        return {}
    data: dict[str, JsonValue] = {}
    items: list[JsonValue] = []
    for fact in facts:
        if fact.fact_type == "NO_TASKS":
            data.update({"state": "NO_TASKS", "taskCount": 0})
        elif fact.fact_type == "TASKS_SUMMARY":
            data.update({"state": "TASKS", "taskCount": fact.value.get("count", 0)})
        elif fact.fact_type.startswith("NO_"):
            data.setdefault("state", fact.fact_type)
        else:
            items.append({"factRef": fact.fact_ref, "type": fact.fact_type, **fact.value})
    data.setdefault("state", facts[0].fact_type)
    data["items"] = items
    if decision is not None and decision.domain_result:
        data["domainResult"] = decision.domain_result
    return data


def trace_calls(outcome: RunOutcome, refused: Sequence[tuple[ToolResult, int]] = ()) -> list[TraceToolCall]:
    """Every call with its normalized arguments, status and round (refused calls included)."""
    calls = [
        TraceToolCall(
            tool=r.call.tool.value,
            arguments=dict(r.call.arguments),
            status=r.status,
            round=record.number,
            reason_code=r.reason_code,
            elapsed_ms=round(r.elapsed_ms, 3),
        )
        for record in outcome.rounds
        for r in record.results
    ]
    calls += [
        TraceToolCall(tool=r.call.tool.value, arguments=dict(r.call.arguments), status=r.status, round=n,
                      reason_code=r.reason_code)
        for r, n in refused
    ]  # fmt: skip
    return calls


def worst_tool_status(results: Sequence[ToolResult]) -> ToolStatus | None:
    """The failure that decides the response status, in order FORBIDDEN > UNAVAILABLE > FAILED."""
    statuses = {r.status for r in results}
    for status in (ToolStatus.FORBIDDEN, ToolStatus.TIMEOUT, ToolStatus.UNAVAILABLE, ToolStatus.FAILED,
                   ToolStatus.INVALID_ARGUMENTS):  # fmt: skip
        if status in statuses:
            return status
    return None
