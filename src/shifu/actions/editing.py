"""Apply a user's card edits: validate them again and re-resolve what the server owns.

Only a tool's editable fields may change; an edited assignee name is looked up again among
the supervisor's projects, so an edit can never widen scope. The result says which required
fields are still missing (a memory also needs its PRIVATE/COMPANY choice at confirmation).
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from shifu.actions.builders import PayloadBuilder, rebuilt_fields
from shifu.actions.model import ActionDraft
from shifu.actions.payloads import Visibility, apply_edits, load_payload, payload_fields
from shifu.contracts.common import ToolCode
from shifu.contracts.context import ExecutionContext
from shifu.errors import Forbidden


def required_missing(tool: ToolCode, fields: dict[str, Any]) -> list[str]:
    """Required fields of `tool` that are still empty."""

    def blank(name: str) -> bool:
        return not str(fields.get(name) or "").strip()

    if tool in (ToolCode.CAPTURE_MEMORY_DRAFT, ToolCode.WORK_REPORT_DRAFT):
        return ["content"] if blank("content") else []
    if tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT:
        return [name for name, key in (("assigneeName", "assigneeId"), ("topic", "topic")) if blank(key)]
    return [name for name, key in (("project", "projectId"), ("recipient", "recipientId")) if blank(key)]


def edited_fields(
    builder: PayloadBuilder,
    ctx: ExecutionContext,
    draft: ActionDraft,
    edits: dict[str, JsonValue] | None,
    visibility: Visibility | None,
    *,
    need_visibility: bool,
) -> tuple[dict[str, Any], list[str]]:
    """The draft's fields after `edits` (validated, re-resolved) and what is still missing."""
    payload = apply_edits(draft.tool, load_payload(draft.tool, draft.payload), edits)
    fields: dict[str, Any] = payload_fields(payload)
    changes = edits or {}
    renamed = "assigneeName" in changes and changes["assigneeName"] != draft.payload.get("assigneeName")
    if draft.tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT and (renamed or not fields.get("assigneeId")):
        built = rebuilt_fields(builder, ctx, draft.tool, fields)
        if built.forbidden or built.payload is None:
            raise Forbidden(built.message or Forbidden.message, code=built.reason_code or Forbidden.code)
        fields = payload_fields(built.payload)
    if draft.tool is ToolCode.CAPTURE_MEMORY_DRAFT and visibility is not None:
        fields["visibility"] = visibility.value
    missing = required_missing(draft.tool, fields)
    if need_visibility and draft.tool is ToolCode.CAPTURE_MEMORY_DRAFT and not fields.get("visibility"):
        missing.append("visibility")
    return fields, missing
