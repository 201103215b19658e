"""Conversation storage behind one Protocol: the SQL table by default, Redis for hot state.

Every backend keeps nothing in process memory, so several server processes can serve one
conversation; every write is a compare-and-set on the conversation version, so two
requests carrying the same contextVersion cannot both win.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from pydantic import TypeAdapter
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from shifu.context.state import ConversationState, Turn, dump_state, parse_state
from shifu.errors import VersionConflict
from shifu.store.engine import transaction
from shifu.store.tables.conversation import ConversationRow

_TURNS = TypeAdapter(tuple[Turn, ...])


@dataclass(frozen=True)
class ConversationRecord:
    """One stored conversation as the stores exchange it."""

    conversation_id: str
    tenant_id: str
    app_id: str
    user_id: str
    project_id: str | None
    version: int
    turns: tuple[Turn, ...]
    state: ConversationState
    state_version: int
    created_at: datetime
    last_active_at: datetime


def dump_turns(turns: tuple[Turn, ...]) -> str:
    """Serialize turns for storage."""
    return _TURNS.dump_json(turns, by_alias=True).decode()


def parse_turns(raw: str) -> tuple[Turn, ...]:
    """Parse stored turns (unknown fields refused)."""
    return _TURNS.validate_json(raw)


class ConversationStore(Protocol):
    """Where conversations live; implementations must not cache state in process."""

    def get(self, conversation_id: str) -> ConversationRecord | None:
        """The stored conversation, or None when unknown (or evicted)."""
        ...

    def insert(self, record: ConversationRecord) -> None:
        """Store a new conversation; raises VersionConflict if the id exists."""
        ...

    def compare_and_set(self, record: ConversationRecord, *, expected_version: int) -> None:
        """Replace the conversation only if its stored version is `expected_version`.

        Raises VersionConflict(current=…) and writes nothing otherwise.
        """
        ...

    def delete_inactive(self, before: datetime) -> int:
        """Remove conversations idle since before `before`; returns how many."""
        ...


class SqlConversationStore:
    """Conversations in the `conversations` table (SQLite or PostgreSQL)."""

    def __init__(self, session_factory: sessionmaker[Session]) -> None:
        self._sessions = session_factory

    def get(self, conversation_id: str) -> ConversationRecord | None:
        """Read one conversation row."""
        with self._sessions() as session:
            row = session.get(ConversationRow, conversation_id)
            return None if row is None else _from_row(row)

    def insert(self, record: ConversationRecord) -> None:
        """Insert a new conversation row."""
        try:
            with transaction(self._sessions) as session:
                session.add(_to_row(record))
        except IntegrityError as exc:
            raise VersionConflict(code="CONVERSATION_EXISTS", current=self._version(record)) from exc

    def compare_and_set(self, record: ConversationRecord, *, expected_version: int) -> None:
        """`UPDATE … WHERE id = ? AND version = ?`; zero rows means someone else won."""
        statement = (
            update(ConversationRow)
            .where(ConversationRow.id == record.conversation_id, ConversationRow.version == expected_version)
            .values(
                version=record.version,
                turns_json=dump_turns(record.turns),
                state_json=dump_state(record.state),
                state_version=record.state_version,
                last_active_at=record.last_active_at,
            )
            .execution_options(synchronize_session=False)
        )
        with transaction(self._sessions) as session:
            updated = session.execute(statement).rowcount  # type: ignore[attr-defined]
        if updated != 1:
            raise VersionConflict(current=self._version(record))

    def delete_inactive(self, before: datetime) -> int:
        """Delete idle conversations (their turns are user content; keep them no longer than needed)."""
        with transaction(self._sessions) as session:
            result = session.execute(
                delete(ConversationRow)
                .where(ConversationRow.last_active_at < before)
                .execution_options(synchronize_session=False)
            )
            return int(result.rowcount)  # type: ignore[attr-defined]

    def _version(self, record: ConversationRecord) -> int | None:
        with self._sessions() as session:
            return session.scalar(
                select(ConversationRow.version).where(ConversationRow.id == record.conversation_id)
            )


def _to_row(record: ConversationRecord) -> ConversationRow:
    return ConversationRow(
        id=record.conversation_id,
        tenant_id=record.tenant_id,
        app_id=record.app_id,
        user_id=record.user_id,
        project_id=record.project_id,
        version=record.version,
        turns_json=dump_turns(record.turns),
        state_json=dump_state(record.state),
        state_version=record.state_version,
        created_at=record.created_at,
        last_active_at=record.last_active_at,
    )


def _from_row(row: ConversationRow) -> ConversationRecord:
    return ConversationRecord(
        conversation_id=row.id,
        tenant_id=row.tenant_id,
        app_id=row.app_id,
        user_id=row.user_id,
        project_id=row.project_id,
        version=row.version,
        turns=parse_turns(row.turns_json),
        state=parse_state(row.state_json),
        state_version=row.state_version,
        created_at=row.created_at,
        last_active_at=row.last_active_at,
    )
