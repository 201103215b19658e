"""The draft as stored, the confirm/dismiss/revise bodies and what they answer."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pydantic import Field, JsonValue

from shifu.actions.payloads import Visibility
from shifu.actions.states import DraftStatus
from shifu.contracts.common import Contract, ResponseStatus, ToolCode
from shifu.contracts.messages import ActionDraftCard

TICKET_TTL_S = 30 * 60
"""Draft tickets are valid 30 minutes (seed 001 §5.1, §12.1)."""


class ExecutionReceipt(Contract):
    """The domain system's answer to an executed draft: its real id, status and time."""

    kind: str
    """MEMORY, PRACTICE_ASSIGNMENT, REVIEW_DISPATCH or WORK_REPORT."""
    record_id: str
    """The domain system's record id."""
    status: str
    """The domain system's status (ACTIVE, PENDING, ASSIGNED, SENT, SUBMITTED …)."""
    at: datetime
    """When the domain system recorded it."""


@dataclass(frozen=True)
class ActionDraft:
    """One draft ticket: who owns it, what it will do, where it is in its life."""

    draft_id: str
    tenant_id: str
    user_id: str
    tool: ToolCode
    status: DraftStatus
    version: int
    payload: dict[str, Any]
    missing_fields: tuple[str, ...]
    payload_hash: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime
    claim_key: str | None = None
    receipt: dict[str, Any] | None = None
    error_code: str | None = None

    def moved(self, status: DraftStatus, *, now: datetime, **changes: Any) -> ActionDraft:
        """A copy in `status`, one version later (callers check the transition table first)."""
        return replace(self, status=status, version=self.version + 1, updated_at=now, **changes)

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict (the Redis ticket value)."""
        return {
            "draftId": self.draft_id,
            "tenantId": self.tenant_id,
            "userId": self.user_id,
            "tool": self.tool.value,
            "status": self.status.value,
            "version": self.version,
            "payload": self.payload,
            "missingFields": list(self.missing_fields),
            "payloadHash": self.payload_hash,
            "createdAt": self.created_at.isoformat(),
            "updatedAt": self.updated_at.isoformat(),
            "expiresAt": self.expires_at.isoformat(),
            "claimKey": self.claim_key,
            "receipt": self.receipt,
            "errorCode": self.error_code,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ActionDraft:
        """Inverse of `to_json`."""
        return cls(
            draft_id=data["draftId"],
            tenant_id=data["tenantId"],
            user_id=data["userId"],
            tool=ToolCode(data["tool"]),
            status=DraftStatus(data["status"]),
            version=int(data["version"]),
            payload=dict(data["payload"]),
            missing_fields=tuple(data["missingFields"]),
            payload_hash=data["payloadHash"],
            created_at=datetime.fromisoformat(data["createdAt"]),
            updated_at=datetime.fromisoformat(data["updatedAt"]),
            expires_at=datetime.fromisoformat(data["expiresAt"]),
            claim_key=data.get("claimKey"),
            receipt=data.get("receipt"),
            error_code=data.get("errorCode"),
        )


class ConfirmRequest(Contract):
    """Body of `POST /actions/{draftId}/confirm`."""

    expected_version: int = Field(ge=0)
    """The card version the user saw."""
    idempotency_key: str = Field(min_length=8, max_length=128, pattern=r"^[A-Za-z0-9_.:\-]+$")
    """Client-generated key; a retry with the same key and body answers the saved response."""
    edited_fields: dict[str, JsonValue] | None = None
    """Edits to the card's editable fields, validated again before anything runs."""
    visibility: Visibility | None = None
    """PRIVATE or COMPANY, for memory drafts."""


class DismissRequest(Contract):
    """Body of `POST /actions/{draftId}/dismiss`."""

    expected_version: int = Field(ge=0)
    """The card version the user saw."""


class ReviseRequest(Contract):
    """Edit a draft without confirming it (fills NEEDS_INPUT, revises FAILED)."""

    expected_version: int = Field(ge=0)
    """The card version the user saw."""
    edited_fields: dict[str, JsonValue] = Field(default_factory=dict)
    """Edits to the card's editable fields."""


class ConfirmResult(Contract):
    """What a confirmation answers; saved per idempotency key and replayed verbatim."""

    status: DraftStatus
    """EXECUTED or FAILED."""
    message: str
    """Chinese text; quotes the domain's real id and status when EXECUTED."""
    draft: ActionDraftCard
    """The card after the confirmation."""
    receipt: ExecutionReceipt | None = None
    """The domain system's answer, when it executed."""
    error_code: str | None = None
    """Why it failed, when it did."""


@dataclass(frozen=True)
class DraftOutcome:
    """What a draft tool call produced for the runtime to render."""

    status: ResponseStatus
    """NEEDS_CONFIRMATION, NEEDS_INPUT, FORBIDDEN or COMPLETED (nothing to draft)."""
    answer: str
    """Chinese text; never claims anything was done."""
    card: ActionDraftCard | None = None
    """The confirmation card, when a ticket was issued."""
    missing_fields: tuple[str, ...] = ()
    """At most three fields the user must add."""
    reason_code: str | None = None
    """Structured reason (ASSIGNEE_NOT_FOUND, ASSIGNEE_OUT_OF_SCOPE, NO_PENDING_REVIEWS …)."""
