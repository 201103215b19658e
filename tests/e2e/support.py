"""Helpers shared by the end-to-end tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.demo.setup import demo_token, principal_for
from shifu.runtime.wiring import Services
from shifu.store.base import Base
from shifu.store.engine import transaction
from shifu.store.tables.org import ProjectMemberRow

INVOKED = {"OK", "NO_RESULT", "TIMEOUT", "UNAVAILABLE", "FAILED"}
"""Trace statuses meaning a tool was actually invoked (refused or de-duplicated calls were not)."""


def called(response: dict[str, Any]) -> set[str]:
    """Tools actually invoked in a response."""
    return {c["tool"] for c in response["trace"]["toolCalls"] if c["status"] in INVOKED}


class FakeClock:
    """A server clock a test moves forward; starts at the real now."""

    def __init__(self) -> None:
        self._now = datetime.now(UTC)
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, **delta: float) -> None:
        """Move the clock forward by a `timedelta(**delta)`."""
        with self._lock:
            self._now += timedelta(**delta)


@contextmanager
def membership_removed(sessions: sessionmaker[Session], user_id: str, project_id: str) -> Iterator[None]:
    """Revoke a user's project membership in the org tables; restore it on exit."""
    with sessions() as session:
        row = session.get(ProjectMemberRow, (project_id, user_id))
        assert row is not None, f"{user_id} is not a member of {project_id}"
        saved = {"project_id": row.project_id, "user_id": row.user_id, "is_supervisor": row.is_supervisor}
    with transaction(sessions) as session:
        session.execute(
            delete(ProjectMemberRow).where(
                ProjectMemberRow.project_id == project_id, ProjectMemberRow.user_id == user_id
            )
        )
    try:
        yield
    finally:
        with transaction(sessions) as session:
            session.merge(ProjectMemberRow(**saved))


def row_counts(sessions: sessionmaker[Session]) -> dict[str, int]:
    """Rows per table of the ORM metadata."""
    with sessions() as session:
        return {
            name: int(session.scalar(select(func.count()).select_from(table)) or 0)
            for name, table in Base.metadata.tables.items()
        }


def auth_headers(settings: Settings, key: str) -> dict[str, str]:
    """Bearer token and client id of a demo actor."""
    _, client_id = principal_for(key)
    return {"Authorization": f"Bearer {demo_token(settings, key)}", "X-Client-Id": client_id}


@dataclass
class SmallDeployment:
    """A separate demo deployment without the law corpus, served through the real app."""

    settings: Settings
    services: Services
    client: TestClient

    def headers(self, key: str) -> dict[str, str]:
        """Auth headers of a demo actor in this deployment."""
        return auth_headers(self.settings, key)

    def ask(self, key: str, text: str, **extra: Any) -> dict[str, Any]:
        """One message in a new conversation; the JSON response (status 200 asserted)."""
        response = self.client.post(
            "/api/aihr/agent/messages", json={"text": text, **extra}, headers=self.headers(key)
        )
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data
