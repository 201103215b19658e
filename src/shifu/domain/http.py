"""HTTP domain adapter: the company's real task, training, result and hiring systems.

The base URL, bearer key and timeout come from Settings (`domain_base_url`,
`domain_api_key`, `domain_timeout_s`). Errors are typed so the executor can tell them apart:

    httpx.TimeoutException        → ToolTimeout   (UNAVAILABLE, slow)
    other httpx.TransportError    → Unavailable   (down, connection refused)
    HTTP 502/503/504              → Unavailable   (the system says it is down)
    HTTP 401/403                  → Forbidden     (the system refused our scope)
    any other non-2xx, bad JSON   → Failure
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from shifu.config import Settings
from shifu.domain.records import CandidateProgressRecord, PracticeRecord, TaskRecord, WorkResultRecord
from shifu.errors import ConfigurationError, Failure, Forbidden, ToolTimeout, Unavailable

logger = logging.getLogger(__name__)

HTTP_SOURCE = "domain-http"
_UNAVAILABLE_STATUSES = frozenset({502, 503, 504})

RecordT = TypeVar("RecordT", bound=BaseModel)

Params = list[tuple[str, str | int | float | bool | None]]


def _window_params(start: date | datetime | None, end: date | datetime | None) -> Params:
    params: Params = []
    if start is not None:
        params.append(("start", start.isoformat()))
    if end is not None:
        params.append(("end", end.isoformat()))
    return params


class HttpDomain:
    """Reads the domain systems over HTTP; satisfies the same four ports as EmbeddedDomain."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None,
        timeout_s: float,
        source_system: str = HTTP_SOURCE,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), headers=headers, timeout=timeout_s, transport=transport
        )
        self._source = source_system

    @classmethod
    def from_settings(cls, settings: Settings) -> HttpDomain:
        """The adapter for the configured company systems."""
        if not settings.domain_base_url:
            raise ConfigurationError("SHIFU_DOMAIN_BASE_URL is not set")
        return cls(
            settings.domain_base_url, api_key=settings.domain_api_key, timeout_s=settings.domain_timeout_s
        )

    @property
    def source_system(self) -> str:
        """Name stamped on facts read here."""
        return self._source

    def close(self) -> None:
        """Release the connection pool."""
        self._client.close()

    def _get(self, path: str, params: Params) -> Any:
        try:
            response = self._client.get(path, params=params)
        except httpx.TimeoutException as exc:
            logger.warning("domain call timed out", extra={"path": path})
            raise ToolTimeout(code="DOMAIN_TIMEOUT") from exc
        except httpx.TransportError as exc:
            logger.warning("domain system unreachable", extra={"path": path, "error": type(exc).__name__})
            raise Unavailable(code="DOMAIN_UNAVAILABLE") from exc
        status = response.status_code
        if status in (401, 403):
            raise Forbidden(code="DOMAIN_FORBIDDEN")
        if status in _UNAVAILABLE_STATUSES:
            raise Unavailable(code="DOMAIN_UNAVAILABLE")
        if status >= 400:
            logger.warning("domain call failed", extra={"path": path, "status": status})
            raise Failure(code="DOMAIN_HTTP_ERROR")
        try:
            return response.json()
        except ValueError as exc:
            raise Failure(code="DOMAIN_INVALID_RESPONSE") from exc

    def _items(self, path: str, params: Params, model: type[RecordT]) -> list[RecordT]:
        body = self._get(path, params)
        try:
            items = body["items"]
            return [model.model_validate(item) for item in items]
        except (KeyError, TypeError, ValidationError) as exc:
            raise Failure(code="DOMAIN_INVALID_RESPONSE") from exc

    def tasks_of(
        self, *, tenant_id: str, user_id: str, start: date | None, end: date | None
    ) -> list[TaskRecord]:
        """GET /v1/tasks for one user."""
        params = [("tenantId", tenant_id), ("userId", user_id), *_window_params(start, end)]
        return self._items("/v1/tasks", params, TaskRecord)

    def practice_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> list[PracticeRecord]:
        """GET /v1/practice for one user."""
        params = [("tenantId", tenant_id), ("userId", user_id), *_window_params(start, end)]
        return self._items("/v1/practice", params, PracticeRecord)

    def team_practice(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> list[PracticeRecord]:
        """GET /v1/team-practice over projects."""
        params = [
            ("tenantId", tenant_id),
            *[("projectId", p) for p in project_ids],
            *_window_params(start, end),
        ]
        return self._items("/v1/team-practice", params, PracticeRecord)

    def results_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> list[WorkResultRecord]:
        """GET /v1/work-results for one user."""
        params = [("tenantId", tenant_id), ("userId", user_id), *_window_params(start, end)]
        return self._items("/v1/work-results", params, WorkResultRecord)

    def team_results(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> list[WorkResultRecord]:
        """GET /v1/team-work-results over projects."""
        params = [
            ("tenantId", tenant_id),
            *[("projectId", p) for p in project_ids],
            *_window_params(start, end),
        ]
        return self._items("/v1/team-work-results", params, WorkResultRecord)

    def progress_of(self, *, tenant_id: str, user_id: str) -> CandidateProgressRecord | None:
        """GET /v1/candidate-progress for one candidate."""
        body = self._get("/v1/candidate-progress", [("tenantId", tenant_id), ("userId", user_id)])
        try:
            item = body["item"]
            return None if item is None else CandidateProgressRecord.model_validate(item)
        except (KeyError, TypeError, ValidationError) as exc:
            raise Failure(code="DOMAIN_INVALID_RESPONSE") from exc
