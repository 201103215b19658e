"""Embedded domain writes over the SQL store (the demo's stand-in for the domain systems).

Each write checks its table for the idempotency key first and answers with the existing
record when there is one, so it is safe both inside the caller's transaction (the action
service's one-transaction path) and on its own.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from shifu.domain.writes.ports import DomainReceipt
from shifu.store.base import utcnow
from shifu.store.engine import transaction
from shifu.store.tables.actions import MemoryRow, PracticeAssignmentRow, ReviewDispatchRow, WorkReportRow

logger = logging.getLogger(__name__)

_Row = TypeVar("_Row", MemoryRow, PracticeAssignmentRow, ReviewDispatchRow, WorkReportRow)

MEMORY_ACTIVE = "ACTIVE"
MEMORY_PENDING = "PENDING"
ASSIGNED = "ASSIGNED"
SENT = "SENT"
SUBMITTED = "SUBMITTED"


def _new_id(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(6)}"


class EmbeddedDomainWriter:
    """All four write ports over the local SQL store; joins the caller's transaction when given one."""

    joins_store_transaction = True

    def __init__(self, session_factory: sessionmaker[Session], *, clock: Callable[[], datetime] = utcnow):
        self._sessions = session_factory
        self._clock = clock

    @contextmanager
    def _session(self, session: Session | None) -> Iterator[Session]:
        if session is not None:
            yield session
        else:
            with transaction(self._sessions) as own:
                yield own

    def _existing(self, session: Session, table: type[_Row], tenant_id: str, key: str) -> _Row | None:
        stmt = select(table).where(table.tenant_id == tenant_id, table.idempotency_key == key)
        return session.scalars(stmt).first()

    def _store(self, session: Session, kind: str, row: Any) -> DomainReceipt:
        session.add(row)
        session.flush()
        logger.info("domain write stored", extra={"kind": kind, "record_id": row.id})
        return DomainReceipt(kind=kind, record_id=row.id, status=row.status, at=row.created_at)

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
        """PRIVATE memories are ACTIVE at once; COMPANY ones wait as PENDING review."""
        with self._session(session) as s:
            found = self._existing(s, MemoryRow, tenant_id, idempotency_key)
            if found is not None:
                return DomainReceipt("MEMORY", found.id, found.status, found.created_at)
            status = MEMORY_ACTIVE if visibility == "PRIVATE" else MEMORY_PENDING
            row = MemoryRow(
                id=_new_id("mem"),
                tenant_id=tenant_id,
                owner_id=owner_id,
                project_id=project_id,
                content=content,
                location=location,
                visibility=visibility,
                status=status,
                idempotency_key=idempotency_key,
                created_at=self._clock(),
            )
            return self._store(s, "MEMORY", row)

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
        """Record the assignment as ASSIGNED."""
        with self._session(session) as s:
            found = self._existing(s, PracticeAssignmentRow, tenant_id, idempotency_key)
            if found is not None:
                return DomainReceipt("PRACTICE_ASSIGNMENT", found.id, found.status, found.created_at)
            row = PracticeAssignmentRow(
                id=_new_id("asg"),
                tenant_id=tenant_id,
                project_id=project_id,
                assigner_id=assigner_id,
                assignee_id=assignee_id,
                topic=topic,
                due_date=due_date,
                status=ASSIGNED,
                idempotency_key=idempotency_key,
                created_at=self._clock(),
            )
            return self._store(s, "PRACTICE_ASSIGNMENT", row)

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
        """Record the dispatch as SENT (the embedded inbox is the table itself)."""
        with self._session(session) as s:
            found = self._existing(s, ReviewDispatchRow, tenant_id, idempotency_key)
            if found is not None:
                return DomainReceipt("REVIEW_DISPATCH", found.id, found.status, found.created_at)
            row = ReviewDispatchRow(
                id=_new_id("rvw"),
                tenant_id=tenant_id,
                project_id=project_id,
                sender_id=sender_id,
                recipient_id=recipient_id,
                items=[dict(item) for item in items],
                status=SENT,
                idempotency_key=idempotency_key,
                created_at=self._clock(),
            )
            return self._store(s, "REVIEW_DISPATCH", row)

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
        """Record the work report as SUBMITTED."""
        with self._session(session) as s:
            found = self._existing(s, WorkReportRow, tenant_id, idempotency_key)
            if found is not None:
                return DomainReceipt("WORK_REPORT", found.id, found.status, found.created_at)
            row = WorkReportRow(
                id=_new_id("wr"),
                tenant_id=tenant_id,
                author_id=author_id,
                project_id=project_id,
                title=title,
                content=content,
                status=SUBMITTED,
                idempotency_key=idempotency_key,
                created_at=self._clock(),
            )
            return self._store(s, "WORK_REPORT", row)
