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

    def _write_once(
        self,
        session: Session | None,
        table: type[_Row],
        *,
        kind: str,
        prefix: str,
        tenant_id: str,
        idempotency_key: str,
        status: str,
        **fields: Any,
    ) -> DomainReceipt:
        """Answer with the record stored under the key, or store exactly one new record."""
        with self._session(session) as s:
            stmt = select(table).where(table.tenant_id == tenant_id, table.idempotency_key == idempotency_key)
            found = s.scalars(stmt).first()
            if found is not None:
                return DomainReceipt(kind, found.id, found.status, found.created_at)
            row = table(
                id=_new_id(prefix),
                tenant_id=tenant_id,
                status=status,
                idempotency_key=idempotency_key,
                created_at=self._clock(),
                **fields,
            )
            s.add(row)
            s.flush()
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
        return self._write_once(
            session,
            MemoryRow,
            kind="MEMORY",
            prefix="mem",
            tenant_id=tenant_id,
            idempotency_key=idempotency_key,
            status=MEMORY_ACTIVE if visibility == "PRIVATE" else MEMORY_PENDING,
            owner_id=owner_id,
            project_id=project_id,
            content=content,
            location=location,
            visibility=visibility,
        )

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
        return self._write_once(
            session,
            PracticeAssignmentRow,
            kind="PRACTICE_ASSIGNMENT",
            prefix="asg",
            tenant_id=tenant_id,
            idempotency_key=idempotency_key,
            status=ASSIGNED,
            project_id=project_id,
            assigner_id=assigner_id,
            assignee_id=assignee_id,
            topic=topic,
            due_date=due_date,
        )

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
        return self._write_once(
            session,
            ReviewDispatchRow,
            kind="REVIEW_DISPATCH",
            prefix="rvw",
            tenant_id=tenant_id,
            idempotency_key=idempotency_key,
            status=SENT,
            project_id=project_id,
            sender_id=sender_id,
            recipient_id=recipient_id,
            items=[dict(item) for item in items],
        )

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
        return self._write_once(
            session,
            WorkReportRow,
            kind="WORK_REPORT",
            prefix="wr",
            tenant_id=tenant_id,
            idempotency_key=idempotency_key,
            status=SUBMITTED,
            author_id=author_id,
            project_id=project_id,
            title=title,
            content=content,
        )
