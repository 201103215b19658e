"""Small builders for plans, documents, facts and tool results used by the evidence and answer tests."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from shifu.contracts.common import (
    Authority,
    ClaimType,
    EvidenceNeed,
    Intent,
    Lifecycle,
    Role,
    ToolCode,
    ToolStatus,
    Verification,
)
from shifu.contracts.entities import (
    AmountCaliber,
    Comparator,
    ComparatorOp,
    ExtractedEntities,
    MoneyAmount,
    VersionRef,
)
from shifu.contracts.evidence import (
    AuthorizationSnapshot,
    DocumentEvidence,
    DocumentScope,
    FactScope,
    ToolResult,
    VerifiedFact,
)
from shifu.contracts.plan import SemanticQueryPlan, ToolCall

TODAY = date(2026, 8, 4)
NOW = datetime.fromisoformat("2026-08-04T10:00:00+08:00")


def doc(
    citation_id: str,
    text: str,
    *,
    needs: tuple[EvidenceNeed, ...] = (EvidenceNeed.AMOUNT_RULE,),
    claims: tuple[ClaimType, ...] | None = None,
    **overrides: Any,
) -> DocumentEvidence:
    """A governed, effective company-policy fragment unless overridden."""
    fields: dict[str, Any] = {
        "citation_id": citation_id,
        "fragment_id": f"frag-{citation_id}",
        "document_id": f"docv-{citation_id}",
        "document_key": f"key-{citation_id}",
        "title": "费用报销管理制度",
        "locator": "三、报销标准",
        "version": "2025版",
        "authority": Authority.COMPANY_POLICY,
        "kind": "制度",
        "effective_from": date(2025, 1, 1),
        "effective_to": None,
        "scope": DocumentScope(tenant_id="demo", space_id="space-all-staff"),
        "lifecycle": Lifecycle.PUBLISHED,
        "verification": Verification.HUMAN_VERIFIED,
        "environment": "production",
        "text": text,
        "supported_need_codes": needs,
        "claim_types": claims if claims is not None else tuple(_claim(need) for need in needs),
    }
    fields.update(overrides)
    return DocumentEvidence(**fields)


def _claim(need: EvidenceNeed) -> ClaimType:
    from shifu.contracts.common import NEED_CLAIM_TYPE

    return NEED_CLAIM_TYPE[need]


def fact(
    fact_ref: str = "fact-1",
    *,
    queried_at: datetime = NOW,
    ttl_seconds: int = 300,
    role: Role = Role.EMPLOYEE,
    fact_type: str = "TASK",
) -> VerifiedFact:
    """A live task fact read for 张三 under the EMPLOYEE role."""
    return VerifiedFact(
        fact_ref=fact_ref,
        fact_type=fact_type,
        item_key="task-1",
        label="我的当前待办",
        value={"title": "电梯月度巡检", "dueDate": "2026-08-05"},
        source_system="embedded-demo",
        queried_at=queried_at,
        ttl_seconds=ttl_seconds,
        scope=FactScope(tenant_id="demo", user_id="u-zhangsan", project_ids=("proj-huafu",)),
        authorization=AuthorizationSnapshot(role=role, project_ids=("proj-huafu",), policy="SELF_ONLY"),
    )


def plan(
    question: str,
    needs: list[EvidenceNeed],
    *,
    amount: str | None = None,
    comparator: ComparatorOp | None = None,
    calibers: list[AmountCaliber] | None = None,
    versions: list[str] | None = None,
    tools: tuple[ToolCode, ...] = (ToolCode.KNOWLEDGE_SEARCH,),
) -> SemanticQueryPlan:
    """A knowledge plan with the entities the deterministic extractor would have found."""
    entities = ExtractedEntities(
        amounts=[MoneyAmount(value=Decimal(amount), text=amount)] if amount else [],
        comparators=[Comparator(op=comparator, text="以下")] if comparator else [],
        calibers=calibers or [],
        versions=[VersionRef(value=v, text=v) for v in versions or []],
    )
    calls = [
        ToolCall(tool=tool, arguments={"query": question} if tool is ToolCode.KNOWLEDGE_SEARCH else {})
        for tool in tools
    ]
    return SemanticQueryPlan(
        question=question,
        normalized_question=question,
        intent=Intent.KNOWLEDGE_QA,
        confidence=0.9,
        domain="REIMBURSEMENT",
        entities=entities,
        evidence_needs=needs,
        tool_calls=calls,
    )


def search_result(*docs: DocumentEvidence) -> ToolResult:
    """A successful KNOWLEDGE_SEARCH carrying these fragments."""
    return ToolResult(
        call=ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": "q"}),
        status=ToolStatus.OK if docs else ToolStatus.NO_RESULT,
        documents=list(docs),
    )


def facts_result(*facts: VerifiedFact, status: ToolStatus = ToolStatus.OK) -> ToolResult:
    """A MY_CURRENT_TASKS result carrying these facts."""
    return ToolResult(call=ToolCall(tool=ToolCode.MY_CURRENT_TASKS), status=status, facts=list(facts))
