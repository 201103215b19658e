"""Small builders for context-layer tests: a principal, tool results and states."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from shifu.context.state import CitationRefRecord, ConversationState, FactRefRecord, QuestionFrame, RefScope
from shifu.contracts.common import Authority, Intent, Lifecycle, Role, ToolCode, ToolStatus, Verification
from shifu.contracts.context import ExecutionContext
from shifu.contracts.entities import ExtractedEntities
from shifu.contracts.evidence import (
    AuthorizationSnapshot,
    DocumentEvidence,
    DocumentScope,
    FactScope,
    ToolResult,
    VerifiedFact,
)
from shifu.contracts.plan import ToolCall

NOW = datetime(2026, 7, 15, 2, 0, tzinfo=UTC)
CONVERSATION = "conv_test"


def principal(**changes: Any) -> ExecutionContext:
    """张三, an employee of 华府, in conversation `conv_test`."""
    values: dict[str, Any] = {
        "run_id": "run-1",
        "tenant_id": "demo",
        "app_id": "staff-app",
        "user_id": "u-zhangsan",
        "external_id": "u-zhangsan",
        "display_name": "张三",
        "role": Role.EMPLOYEE,
        "project_ids": ("proj-huafu",),
        "selected_project_id": "proj-huafu",
        "conversation_id": CONVERSATION,
        "now": NOW,
    }
    values.update(changes)
    return ExecutionContext(**values)


def task_fact(index: int, *, title: str = "巡检3栋电梯", queried_at: datetime = NOW) -> VerifiedFact:
    """A live task fact whose body must never reach the conversation state."""
    return VerifiedFact(
        fact_ref=f"fr-{index}",
        fact_type="TASK",
        item_key=f"task-{index}",
        label="我的当前待办",
        value={"title": title, "due": "2026-07-16"},
        source_system="embedded-demo",
        queried_at=queried_at,
        ttl_seconds=300,
        scope=FactScope(tenant_id="demo", user_id="u-zhangsan", project_ids=("proj-huafu",)),
        authorization=AuthorizationSnapshot(
            role=Role.EMPLOYEE, project_ids=("proj-huafu",), policy="SELF_ONLY"
        ),
    )


def tasks_result(count: int, *, queried_at: datetime = NOW) -> ToolResult:
    """MY_CURRENT_TASKS returning `count` tasks."""
    return ToolResult(
        call=ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "THIS_MONTH"}),
        status=ToolStatus.OK,
        facts=[task_fact(i, title=f"待办正文{i}", queried_at=queried_at) for i in range(1, count + 1)],
    )


def document(citation_id: str, key: str, *, version: str = "2025版") -> DocumentEvidence:
    """A cited fragment whose text must never reach the conversation state."""
    return DocumentEvidence(
        citation_id=citation_id,
        fragment_id=f"frag-{citation_id}",
        document_id=f"doc-{key}-{version}",
        document_key=key,
        title="费用报销管理制度",
        locator="三、报销标准",
        version=version,
        authority=Authority.COMPANY_POLICY,
        kind="制度",
        scope=DocumentScope(tenant_id="demo", space_id="space-all-staff"),
        lifecycle=Lifecycle.PUBLISHED,
        verification=Verification.HUMAN_VERIFIED,
        environment="production",
        text="单笔500元以下由项目经理审批。",
    )


def search_result(*docs: DocumentEvidence) -> ToolResult:
    """KNOWLEDGE_SEARCH returning `docs`."""
    return ToolResult(
        call=ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": "报销审批"}),
        status=ToolStatus.OK,
        documents=list(docs),
    )


def fact_ref(index: int = 1, **changes: Any) -> FactRefRecord:
    """A stored reference to task `index`, created by 张三 in `conv_test`."""
    values: dict[str, Any] = {
        "ref_id": f"fr-{index}",
        "tool": ToolCode.MY_CURRENT_TASKS,
        "arguments": {"dateRange": "THIS_MONTH"},
        "item_key": f"task-{index}",
        "item_index": index,
        "fact_type": "TASK",
        "queried_at": NOW,
        "ttl_seconds": 300,
        "scope": RefScope(
            tenant_id="demo",
            app_id="staff-app",
            user_id="u-zhangsan",
            conversation_id=CONVERSATION,
            project_id="proj-huafu",
        ),
        "authorization": AuthorizationSnapshot(
            role=Role.EMPLOYEE, project_ids=("proj-huafu",), policy="SELF_ONLY"
        ),
        "audit_ref": "run-0",
    }
    values.update(changes)
    return FactRefRecord(**values)


def citation(citation_id: str, key: str, *, version: str = "2025版") -> CitationRefRecord:
    """A stored citation."""
    return CitationRefRecord(
        citation_id=citation_id,
        fragment_id=f"frag-{citation_id}",
        document_key=key,
        document_version=version,
        cited_at=NOW,
        audit_ref="run-0",
    )


def frame(
    question: str, entities: ExtractedEntities | None = None, intent: Intent | None = None
) -> QuestionFrame:
    """The previous planned question."""
    return QuestionFrame(question=question, intent=intent, entities=entities or ExtractedEntities())


def state_with(
    *,
    facts: int = 0,
    citations: tuple[CitationRefRecord, ...] = (),
    previous: QuestionFrame | None = None,
) -> ConversationState:
    """A state remembering `facts` listed tasks, some citations and a frame."""
    return ConversationState(
        frame=previous,
        fact_refs=tuple(fact_ref(i) for i in range(1, facts + 1)),
        citations=citations,
    )


def later(**kwargs: float) -> datetime:
    """NOW plus a timedelta."""
    return NOW + timedelta(**kwargs)
