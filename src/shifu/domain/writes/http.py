"""Domain writes over HTTP: the company's systems, reached with an `Idempotency-Key` header.

Wire format (JSON, camelCase): `POST {base}/memories | /practice-assignments |
/review-dispatches | /work-reports`, answered `2xx {"id", "status", "createdAt"}`.
A 4xx answer is a definite refusal (`DomainRejected`); a timeout, transport error, 5xx or
unreadable answer leaves the outcome unknown (`DomainUnavailable`), and the caller retries
with the same key so the domain system de-duplicates.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel
from sqlalchemy.orm import Session

from shifu.config import Settings
from shifu.domain.writes.ports import DomainReceipt, DomainRejected, DomainUnavailable
from shifu.errors import ConfigurationError

logger = logging.getLogger(__name__)


class _DomainAnswer(BaseModel):
    """The part of a domain answer we rely on."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")
    id: str
    status: str
    created_at: datetime


class HttpDomainWriter:
    """All four write ports against the domain systems' HTTP API."""

    joins_store_transaction = False

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 3.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), headers=headers, timeout=timeout_s, transport=transport
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> HttpDomainWriter:
        """Build from `SHIFU_DOMAIN_*`; refuses to start without a base URL."""
        if not settings.domain_base_url:
            raise ConfigurationError("SHIFU_DOMAIN_BASE_URL is not set")
        return cls(
            settings.domain_base_url, api_key=settings.domain_api_key, timeout_s=settings.domain_timeout_s
        )

    def close(self) -> None:
        """Release the connection pool."""
        self._client.close()

    def _post(self, kind: str, path: str, body: dict[str, Any], key: str) -> DomainReceipt:
        try:
            response = self._client.post(path, json=body, headers={"Idempotency-Key": key})
        except httpx.TimeoutException as exc:
            logger.warning("domain write timed out", extra={"kind": kind})
            raise DomainUnavailable(code="DOMAIN_TIMEOUT") from exc
        except httpx.HTTPError as exc:
            logger.warning("domain write transport error", extra={"kind": kind, "error": type(exc).__name__})
            raise DomainUnavailable(code="DOMAIN_TRANSPORT") from exc
        if 400 <= response.status_code < 500:
            logger.info("domain write rejected", extra={"kind": kind, "http_status": response.status_code})
            raise DomainRejected(code="DOMAIN_REJECTED")
        if response.status_code >= 300:
            logger.warning("domain write failed", extra={"kind": kind, "http_status": response.status_code})
            raise DomainUnavailable(code="DOMAIN_HTTP_ERROR")
        try:
            answer = _DomainAnswer.model_validate_json(response.content)
        except ValidationError as exc:
            raise DomainUnavailable(code="DOMAIN_INVALID_ANSWER") from exc
        return DomainReceipt(kind=kind, record_id=answer.id, status=answer.status, at=answer.created_at)

    def save_memory(
        self,
        *,
        tenant_id: str,
        owner_id: str,
        project_id: str | None,
        content: str,
        location: str | None,
        visibility: str,
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """POST /memories."""
        body = {
            "tenantId": tenant_id,
            "ownerId": owner_id,
            "projectId": project_id,
            "content": content,
            "location": location,
            "visibility": visibility,
        }
        return self._post("MEMORY", "/memories", body, idempotency_key)

    def assign_practice(
        self,
        *,
        tenant_id: str,
        project_id: str,
        assigner_id: str,
        assignee_id: str,
        topic: str,
        due_date: date | None,
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """POST /practice-assignments."""
        body = {
            "tenantId": tenant_id,
            "projectId": project_id,
            "assignerId": assigner_id,
            "assigneeId": assignee_id,
            "topic": topic,
            "dueDate": due_date.isoformat() if due_date else None,
        }
        return self._post("PRACTICE_ASSIGNMENT", "/practice-assignments", body, idempotency_key)

    def dispatch_review(
        self,
        *,
        tenant_id: str,
        project_id: str,
        sender_id: str,
        recipient_id: str,
        items: Sequence[Mapping[str, str | int]],
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """POST /review-dispatches."""
        body = {
            "tenantId": tenant_id,
            "projectId": project_id,
            "senderId": sender_id,
            "recipientId": recipient_id,
            "items": [dict(item) for item in items],
        }
        return self._post("REVIEW_DISPATCH", "/review-dispatches", body, idempotency_key)

    def submit_work_report(
        self,
        *,
        tenant_id: str,
        author_id: str,
        project_id: str | None,
        title: str,
        content: str,
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """POST /work-reports."""
        body = {
            "tenantId": tenant_id,
            "authorId": author_id,
            "projectId": project_id,
            "title": title,
            "content": content,
        }
        return self._post("WORK_REPORT", "/work-reports", body, idempotency_key)
