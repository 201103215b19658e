"""Validated payloads of the four draft tools, their editable fields and their hash.

A card shows `fields` = the payload dumped to JSON (camelCase); `payload_hash` is the
SHA-256 of the canonical JSON of tool + fields, so what executes is provably what was
shown. Server-resolved fields (project, assignee id, recipient, pending list) are never
editable: an edited assignee name is resolved again on the server.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from enum import StrEnum
from typing import Any

from pydantic import Field, JsonValue, ValidationError

from shifu.contracts.common import Contract, ToolCode
from shifu.errors import BadRequest


class Visibility(StrEnum):
    """Who may see a confirmed memory: only me, or the company after review."""

    PRIVATE = "PRIVATE"
    COMPANY = "COMPANY"


class MemoryPayload(Contract):
    """CAPTURE_MEMORY_DRAFT: a note to remember, optionally tied to a place and project."""

    content: str | None = Field(default=None, max_length=500)
    """The note."""
    location: str | None = Field(default=None, max_length=100)
    """A place parsed from the note (3栋1201)."""
    project_id: str | None = None
    """The user's current project, set by the server."""
    project_name: str | None = None
    """Its name, for the card."""
    visibility: Visibility | None = None
    """Chosen at confirmation: PRIVATE or COMPANY."""


class PracticeAssignmentPayload(Contract):
    """PRACTICE_ASSIGNMENT_DRAFT: one training for one member of a supervised project."""

    project_id: str | None = None
    """Supervised project the assignee belongs to (server-resolved)."""
    project_name: str | None = None
    """Its name, for the card."""
    assignee_id: str | None = None
    """Resolved member id (server-resolved)."""
    assignee_name: str | None = Field(default=None, max_length=40)
    """Name as shown and edited."""
    topic: str | None = Field(default=None, max_length=100)
    """Training topic."""
    due_date: date | None = None
    """Due date."""


class ReviewItem(Contract):
    """One team member with pending reviews."""

    user_id: str
    """Member id."""
    name: str
    """Member name."""
    pending_count: int = Field(ge=0)
    """How many reviews are pending."""


class ReviewPayload(Contract):
    """REVIEW_DRAFT: the pending-review list of one supervised project, to one recipient."""

    project_id: str | None = None
    """Supervised project (server-resolved)."""
    project_name: str | None = None
    """Its name, for the card."""
    recipient_id: str | None = None
    """Recipient id (server-resolved)."""
    recipient_name: str | None = None
    """Recipient name."""
    items: list[ReviewItem] = Field(default_factory=list)
    """Members with pending reviews, read from the domain at draft time."""
    start_date: date | None = None
    """Window start, if one was asked for."""
    end_date: date | None = None
    """Window end, if one was asked for."""
    note: str | None = Field(default=None, max_length=200)
    """Optional note to the recipient."""


class WorkReportPayload(Contract):
    """WORK_REPORT_DRAFT: an employee's work result; never a memory."""

    project_id: str | None = None
    """The user's current project, set by the server."""
    project_name: str | None = None
    """Its name, for the card."""
    title: str | None = Field(default=None, max_length=100)
    """Short title."""
    content: str | None = Field(default=None, max_length=1000)
    """What was done."""


PAYLOAD_MODELS: dict[ToolCode, type[Contract]] = {
    ToolCode.CAPTURE_MEMORY_DRAFT: MemoryPayload,
    ToolCode.PRACTICE_ASSIGNMENT_DRAFT: PracticeAssignmentPayload,
    ToolCode.REVIEW_DRAFT: ReviewPayload,
    ToolCode.WORK_REPORT_DRAFT: WorkReportPayload,
}
"""The payload model of each draft tool."""

EDITABLE_FIELDS: dict[ToolCode, frozenset[str]] = {
    ToolCode.CAPTURE_MEMORY_DRAFT: frozenset({"content", "location"}),
    ToolCode.PRACTICE_ASSIGNMENT_DRAFT: frozenset({"assigneeName", "topic", "dueDate"}),
    ToolCode.REVIEW_DRAFT: frozenset({"note"}),
    ToolCode.WORK_REPORT_DRAFT: frozenset({"title", "content"}),
}
"""Fields a user may edit on the card (camelCase, as shown)."""


def canonical_json(value: Any) -> str:
    """Sorted-key, compact, UTF-8 JSON: the one byte form every hash is taken over."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def sha256_hex(value: Any) -> str:
    """SHA-256 of the canonical JSON of `value`."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def payload_fields(payload: Contract) -> dict[str, JsonValue]:
    """The payload as the card shows it (camelCase JSON)."""
    dumped: dict[str, JsonValue] = payload.model_dump(mode="json", by_alias=True)
    return dumped


def payload_hash(tool: ToolCode, payload: Contract) -> str:
    """SHA-256 of the shown payload; exactly this executes."""
    return sha256_hex({"tool": tool.value, "fields": payload_fields(payload)})


def load_payload(tool: ToolCode, fields: dict[str, Any]) -> Contract:
    """Validate stored or edited fields into the tool's payload model."""
    try:
        return PAYLOAD_MODELS[tool].model_validate(fields)
    except ValidationError as exc:
        raise BadRequest("草稿内容不符合要求，请检查后再确认。", code="INVALID_DRAFT_FIELDS") from exc


def apply_edits(tool: ToolCode, payload: Contract, edits: dict[str, JsonValue] | None) -> Contract:
    """The payload with the user's edits applied and validated again; non-editable fields refused."""
    if not edits:
        return payload
    refused = sorted(set(edits) - EDITABLE_FIELDS[tool])
    if refused:
        raise BadRequest("这些内容不能在确认卡上修改：" + "、".join(refused), code="FIELD_NOT_EDITABLE")
    merged = payload_fields(payload) | dict(edits)
    return load_payload(tool, merged)
