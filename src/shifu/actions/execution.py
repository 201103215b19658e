"""Run one confirmed command through the matching domain write port."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from shifu.actions.model import ExecutionReceipt
from shifu.actions.payloads import Visibility
from shifu.actions.ports import DomainWritePorts, Receipt
from shifu.contracts.common import ToolCode


def run_command(
    writers: DomainWritePorts,
    *,
    tenant_id: str,
    user_id: str,
    tool: ToolCode,
    fields: dict[str, Any],
    idempotency_key: str,
    session: Session | None,
) -> ExecutionReceipt:
    """Call the port for `tool` with exactly the confirmed fields and the user's key."""
    receipt: Receipt
    if tool is ToolCode.CAPTURE_MEMORY_DRAFT:
        receipt = writers.save_memory(
            tenant_id=tenant_id,
            owner_id=user_id,
            project_id=fields.get("projectId"),
            content=str(fields["content"]),
            location=fields.get("location"),
            visibility=str(fields.get("visibility") or Visibility.PRIVATE.value),
            idempotency_key=idempotency_key,
            session=session,
        )
    elif tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT:
        due = fields.get("dueDate")
        receipt = writers.assign_practice(
            tenant_id=tenant_id,
            project_id=str(fields["projectId"]),
            assigner_id=user_id,
            assignee_id=str(fields["assigneeId"]),
            topic=str(fields["topic"]),
            due_date=date.fromisoformat(due) if due else None,
            idempotency_key=idempotency_key,
            session=session,
        )
    elif tool is ToolCode.REVIEW_DRAFT:
        items: list[dict[str, str | int]] = [
            {"userId": str(i["userId"]), "name": str(i["name"]), "pendingCount": int(i["pendingCount"])}
            for i in fields.get("items", [])
        ]
        receipt = writers.dispatch_review(
            tenant_id=tenant_id,
            project_id=str(fields["projectId"]),
            sender_id=user_id,
            recipient_id=str(fields["recipientId"]),
            items=items,
            idempotency_key=idempotency_key,
            session=session,
        )
    else:
        receipt = writers.submit_work_report(
            tenant_id=tenant_id,
            author_id=user_id,
            project_id=fields.get("projectId"),
            title=str(fields.get("title") or str(fields["content"])[:20]),
            content=str(fields["content"]),
            idempotency_key=idempotency_key,
            session=session,
        )
    return ExecutionReceipt(
        kind=receipt.kind, record_id=receipt.record_id, status=receipt.status, at=receipt.at
    )
