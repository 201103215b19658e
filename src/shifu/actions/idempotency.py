"""Idempotency records: per (tenant, user, key) the request hash, the command and the saved response.

IN_FLIGHT records carry a lease: while it runs, a second request with the same key answers
409 IN_FLIGHT; after it lapses (the worker died), a retry resumes the recorded command with
the same key, which the domain system de-duplicates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from shifu.store.engine import transaction
from shifu.store.tables.actions import ActionIdempotencyRow


class RecordState(StrEnum):
    """IN_FLIGHT until the domain answered; COMPLETED with the saved response after."""

    IN_FLIGHT = "IN_FLIGHT"
    COMPLETED = "COMPLETED"


@dataclass(frozen=True)
class IdempotencyRecord:
    """One key's record."""

    tenant_id: str
    user_id: str
    key: str
    draft_id: str
    request_hash: str
    state: RecordState
    expected_version: int
    command: dict[str, Any]
    response: dict[str, Any] | None
    lease_until: datetime


def _record(row: ActionIdempotencyRow) -> IdempotencyRecord:
    return IdempotencyRecord(
        tenant_id=row.tenant_id,
        user_id=row.user_id,
        key=row.key,
        draft_id=row.draft_id,
        request_hash=row.request_hash,
        state=RecordState(row.state),
        expected_version=row.expected_version,
        command=dict(row.command),
        response=row.response,
        lease_until=row.lease_until,
    )


def _where(record: IdempotencyRecord) -> tuple[Any, ...]:
    return (
        ActionIdempotencyRow.tenant_id == record.tenant_id,
        ActionIdempotencyRow.user_id == record.user_id,
        ActionIdempotencyRow.key == record.key,
    )


class IdempotencyLedger:
    """The `action_idempotency` table; every method can join the caller's session."""

    def __init__(self, session_factory: sessionmaker[Session]):
        self._sessions = session_factory

    def get(self, tenant_id: str, user_id: str, key: str) -> IdempotencyRecord | None:
        """The record of a key, or None."""
        with self._sessions() as session:
            row = session.get(ActionIdempotencyRow, (tenant_id, user_id, key))
            return _record(row) if row is not None else None

    def insert(self, record: IdempotencyRecord, session: Session, *, now: datetime) -> None:
        """Insert; a concurrent insert of the same key raises IntegrityError at flush."""
        session.add(
            ActionIdempotencyRow(
                tenant_id=record.tenant_id,
                user_id=record.user_id,
                key=record.key,
                draft_id=record.draft_id,
                request_hash=record.request_hash,
                state=record.state.value,
                expected_version=record.expected_version,
                command=record.command,
                response=record.response,
                lease_until=record.lease_until,
                created_at=now,
                updated_at=now,
            )
        )
        session.flush()

    def complete(
        self, record: IdempotencyRecord, response: dict[str, Any], session: Session, *, now: datetime
    ) -> None:
        """Save the response; from now on the key replays it."""
        stmt = (
            update(ActionIdempotencyRow)
            .where(*_where(record))
            .values(state=RecordState.COMPLETED.value, response=response, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        session.execute(stmt)

    def take_lease(self, record: IdempotencyRecord, *, until: datetime, now: datetime) -> bool:
        """Claim a lapsed IN_FLIGHT record for a resume; False when someone else holds it."""
        stmt = (
            update(ActionIdempotencyRow)
            .where(
                *_where(record),
                ActionIdempotencyRow.state == RecordState.IN_FLIGHT.value,
                ActionIdempotencyRow.lease_until <= now,
            )
            .values(lease_until=until, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        with transaction(self._sessions) as session:
            return bool(session.execute(stmt).rowcount == 1)  # type: ignore[attr-defined]

    def release(self, record: IdempotencyRecord, *, now: datetime) -> None:
        """Let the next retry resume at once (the domain answer was unknown)."""
        stmt = (
            update(ActionIdempotencyRow)
            .where(*_where(record), ActionIdempotencyRow.state == RecordState.IN_FLIGHT.value)
            .values(lease_until=now, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        with transaction(self._sessions) as session:
            session.execute(stmt)

    def forget(self, record: IdempotencyRecord) -> None:
        """Drop an IN_FLIGHT record whose command provably never reached the domain."""
        stmt = delete(ActionIdempotencyRow).where(
            *_where(record), ActionIdempotencyRow.state == RecordState.IN_FLIGHT.value
        )
        with transaction(self._sessions) as session:
            session.execute(stmt)

    def in_flight_for(self, draft_id: str) -> list[IdempotencyRecord]:
        """IN_FLIGHT records of a draft (for diagnostics and tests)."""
        with self._sessions() as session:
            stmt = select(ActionIdempotencyRow).where(
                ActionIdempotencyRow.draft_id == draft_id,
                ActionIdempotencyRow.state == RecordState.IN_FLIGHT.value,
            )
            return [_record(row) for row in session.scalars(stmt)]
