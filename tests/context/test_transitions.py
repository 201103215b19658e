"""After a turn only references survive: no fact or fragment body reaches the state."""

from __future__ import annotations

import pytest

from context.builders import (
    NOW,
    document,
    frame,
    principal,
    search_result,
    state_with,
    task_fact,
    tasks_result,
)
from shifu.context.state import ConversationState, PendingItem, PendingKind, dump_state
from shifu.context.transitions import cancel_pending, invalidate_fact_refs, ref_scope, state_after_turn
from shifu.contracts.common import ToolCode, ToolStatus
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall
from shifu.errors import BadRequest


def test_listed_facts_become_numbered_references_without_bodies() -> None:
    ctx = principal(run_id="run-7")
    state = state_after_turn(
        ConversationState(), frame=frame("我这个月的待办"), results=[tasks_result(3)], ctx=ctx, now=NOW
    )
    assert [(r.ref_id, r.item_index, r.item_key) for r in state.fact_refs] == [
        ("fr-1", 1, "task-1"),
        ("fr-2", 2, "task-2"),
        ("fr-3", 3, "task-3"),
    ]
    record = state.fact_refs[1]
    assert record.tool is ToolCode.MY_CURRENT_TASKS
    assert record.arguments == {"dateRange": "THIS_MONTH"}
    assert record.audit_ref == "run-7"
    assert record.scope == ref_scope(ctx)
    stored = dump_state(state)
    for body in ("待办正文", "2026-07-16", "我的当前待办", "embedded-demo"):
        assert body not in stored


def test_what_the_account_can_use_is_not_a_listing_a_later_第一项_could_read_again() -> None:
    capability = task_fact(1).model_copy(
        update={"fact_type": "CAPABILITY", "item_key": "capability:u-zhangsan"}
    )
    result = ToolResult(
        call=ToolCall(tool=ToolCode.CAPABILITY_QUERY, arguments={"requestedSystem": "团队待办"}),
        status=ToolStatus.OK,
        facts=[capability],
    )
    before = state_with(facts=2, previous=frame("我今天的待办"))
    after = state_after_turn(
        before, frame=frame("我组里谁有待办"), results=[result], ctx=principal(), now=NOW
    )
    assert after.fact_refs == before.fact_refs, "the last real listing is still what 第一项 means"
    fresh = state_after_turn(ConversationState(), frame=None, results=[result], ctx=principal(), now=NOW)
    assert fresh.fact_refs == ()


def test_citations_keep_version_but_not_text() -> None:
    results = [search_result(document("c1", "baoxiao"), document("c2", "caigou"), document("c1", "baoxiao"))]
    state = state_after_turn(ConversationState(), frame=None, results=results, ctx=principal(), now=NOW)
    assert [(c.citation_id, c.document_key, c.document_version) for c in state.citations] == [
        ("c1", "baoxiao", "2025版"),
        ("c2", "caigou", "2025版"),
    ]
    stored = dump_state(state)
    assert "单笔500元" not in stored
    assert "费用报销管理制度" not in stored


def test_cited_ids_narrow_citations_to_those_the_answer_used() -> None:
    results = [search_result(document("c1", "baoxiao"), document("c2", "caigou"))]
    state = state_after_turn(
        ConversationState(), frame=None, results=results, ctx=principal(), now=NOW, cited_ids=["c2"]
    )
    assert [c.citation_id for c in state.citations] == ["c2"]


def test_a_turn_without_facts_keeps_the_last_listing_and_frame() -> None:
    before = state_with(facts=2, previous=frame("我今天的待办"))
    after = state_after_turn(before, frame=None, results=[], ctx=principal(), now=NOW)
    assert after.fact_refs == before.fact_refs
    assert after.frame == before.frame


def test_a_new_listing_replaces_the_old_one() -> None:
    before = state_with(facts=5)
    after = state_after_turn(before, frame=None, results=[tasks_result(2)], ctx=principal(), now=NOW)
    assert len(after.fact_refs) == 2


def test_pending_item_is_replaced_by_the_turn() -> None:
    pending = PendingItem(kind=PendingKind.DRAFT, item_id="draft-1", created_at=NOW)
    opened = state_after_turn(
        ConversationState(), frame=None, results=[], ctx=principal(), now=NOW, pending=pending
    )
    assert opened.pending == pending
    closed = state_after_turn(opened, frame=None, results=[], ctx=principal(), now=NOW)
    assert closed.pending is None


def test_correction_and_cancel_helpers() -> None:
    pending = PendingItem(kind=PendingKind.CLARIFICATION, item_id="clar-1", created_at=NOW)
    state = state_with(facts=3).model_copy(update={"pending": pending})
    assert invalidate_fact_refs(state).fact_refs == ()
    cleared, cancelled = cancel_pending(state)
    assert cleared.pending is None
    assert cancelled == pending
    assert cancel_pending(cleared) == (cleared, None)


def test_references_need_a_conversation() -> None:
    with pytest.raises(BadRequest):
        state_after_turn(
            ConversationState(),
            frame=None,
            results=[tasks_result(1)],
            ctx=principal(conversation_id=None),
            now=NOW,
        )
