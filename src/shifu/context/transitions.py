"""How the conversation state changes after a turn: keep references, drop bodies.

The runtime calls `state_after_turn` with the tool results of the turn; only references
(factRef, citationId) and the planned question frame survive into the next turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from shifu.context.state import (
    MAX_ANSWER_ITEMS,
    MAX_CITATIONS,
    MAX_FACT_REFS,
    MAX_MEDIA_FACTS,
    AnswerItemRecord,
    CitationRefRecord,
    ConversationState,
    FactRefRecord,
    MediaFact,
    PendingItem,
    QuestionFrame,
    RefScope,
)
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import ToolResult
from shifu.errors import BadRequest


def ref_scope(ctx: ExecutionContext) -> RefScope:
    """The scope references created in this request are bound to."""
    if ctx.conversation_id is None:
        raise BadRequest("会话尚未建立。", code="CONVERSATION_REQUIRED")
    return RefScope(
        tenant_id=ctx.tenant_id,
        app_id=ctx.app_id,
        user_id=ctx.user_id,
        conversation_id=ctx.conversation_id,
        project_id=ctx.selected_project_id,
    )


_NEVER_LISTED = frozenset({"CAPABILITY"})
"""Facts about the assistant itself (what this account can use): there is no 第一项 of them to read again."""


def is_listed_item(fact_type: str) -> bool:
    """Whether a fact is an item the user sees numbered (第二项), not a summary or an empty marker."""
    return (
        fact_type not in _NEVER_LISTED
        and not fact_type.endswith("SUMMARY")
        and not fact_type.startswith("NO_")
    )


def fact_ref_records(results: Sequence[ToolResult], ctx: ExecutionContext) -> tuple[FactRefRecord, ...]:
    """References to every fact the turn listed, numbered in listing order (第一项 = 1)."""
    scope = ref_scope(ctx)
    records: list[FactRefRecord] = []
    for result in results:
        for fact in result.facts:
            if not is_listed_item(fact.fact_type):
                continue
            records.append(
                FactRefRecord(
                    ref_id=fact.fact_ref,
                    tool=result.call.tool,
                    arguments=dict(result.call.arguments),
                    item_key=fact.item_key,
                    item_index=len(records) + 1,
                    fact_type=fact.fact_type,
                    queried_at=fact.queried_at,
                    ttl_seconds=fact.ttl_seconds,
                    scope=scope,
                    authorization=fact.authorization,
                    audit_ref=ctx.run_id,
                )
            )
    return tuple(records[:MAX_FACT_REFS])


def citation_records(
    results: Sequence[ToolResult], ctx: ExecutionContext, now: datetime
) -> tuple[CitationRefRecord, ...]:
    """References to every document fragment the turn cited, in order, without their text."""
    seen: set[str] = set()
    records: list[CitationRefRecord] = []
    for result in results:
        for doc in result.documents:
            if doc.citation_id in seen:
                continue
            seen.add(doc.citation_id)
            records.append(
                CitationRefRecord(
                    citation_id=doc.citation_id,
                    fragment_id=doc.fragment_id,
                    document_key=doc.document_key,
                    document_version=doc.version,
                    cited_at=now,
                    audit_ref=ctx.run_id,
                )
            )
    return tuple(records[:MAX_CITATIONS])


def state_after_turn(
    state: ConversationState,
    *,
    frame: QuestionFrame | None,
    results: Sequence[ToolResult],
    ctx: ExecutionContext,
    now: datetime,
    cited_ids: Sequence[str] | None = None,
    pending: PendingItem | None = None,
    answer_items: Sequence[AnswerItemRecord] = (),
    keeps_listing: bool = False,
    item_question: str | None = None,
) -> ConversationState:
    """The state for the next turn.

    A turn that listed facts replaces the remembered listing (第二项 always means the last
    list the user saw); a turn that cited documents replaces the remembered citations.
    `cited_ids` narrows citations to those the answer actually used. `answer_items` are the
    numbered items the answer showed: an answer that numbered items makes them the last list
    (the listed facts before it are forgotten), listed facts make the answer items go, and an
    answer that cites without numbering anything leaves no answer items. The pending item is
    replaced by `pending` (a turn that opens no draft or clarification closes the old one).
    A turn that re-read one item of the listing (`keeps_listing`: 第二项怎么做) keeps that listing,
    so 第三项呢 still points into it; the steps it answered with are remembered beside it (第三步),
    and so is the question asked of the item (`item_question`), until another listing replaces it.
    """
    facts = fact_ref_records(results, ctx)
    citations = citation_records(results, ctx, now)
    if cited_ids is not None:
        wanted = set(cited_ids)
        citations = tuple(c for c in citations if c.citation_id in wanted)
    cited = {c.citation_id for c in citations}
    items = tuple(item for item in answer_items if item.citation_id in cited)[:MAX_ANSWER_ITEMS]
    fact_refs, kept_items, asked_of_item = state.fact_refs, state.answer_items, state.item_question
    if keeps_listing and state.fact_refs:
        kept_items, asked_of_item = items, item_question or asked_of_item
    elif facts:
        fact_refs, kept_items, asked_of_item = facts, (), None
    elif items:
        fact_refs, kept_items = (), items
    elif citations:
        kept_items = ()
    return state.model_copy(
        update={
            "frame": frame if frame is not None else state.frame,
            "fact_refs": fact_refs,
            "citations": citations if citations else state.citations,
            "answer_items": kept_items,
            "pending": pending,
            "item_question": asked_of_item,
        }
    )


def invalidate_fact_refs(state: ConversationState) -> ConversationState:
    """Drop every remembered fact reference (a correction makes them answer the wrong question)."""
    return state.model_copy(update={"fact_refs": ()})


def cancel_pending(state: ConversationState) -> tuple[ConversationState, PendingItem | None]:
    """Clear the pending draft or clarification; returns what was cancelled, if anything."""
    return state.model_copy(update={"pending": None}), state.pending


def with_media_fact(state: ConversationState, fact: MediaFact) -> ConversationState:
    """Remember one attachment label for this conversation, keeping the newest few."""
    kept = tuple(m for m in state.media_facts if m.media_fact_id != fact.media_fact_id)
    return state.model_copy(update={"media_facts": (*kept, fact)[-MAX_MEDIA_FACTS:]})
