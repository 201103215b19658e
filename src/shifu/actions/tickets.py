"""Opaque 30-minute draft tickets: Redis when configured, else the `action_drafts` table.

A ticket id is 32 random URL-safe bytes and says nothing about its owner or content.
Every change is a compare-and-set on the version, so two confirmations of one draft can
never both move it. The SQL store can join the caller's transaction (`session`); Redis
writes immediately, so the service orders its steps to stay safe across a crash.
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import timedelta
from typing import Any, Protocol

import redis
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions.model import ActionDraft
from shifu.actions.states import DraftStatus
from shifu.contracts.common import ToolCode
from shifu.store.engine import transaction
from shifu.store.tables.actions import ActionDraftRow

logger = logging.getLogger(__name__)

REDIS_GRACE = timedelta(hours=1)
"""Redis keeps a lapsed ticket this long so a late confirm answers 410 instead of 404."""


DRAFT_ID_PREFIX = "d_"


def new_draft_id() -> str:
    """An opaque, unguessable ticket id."""
    return DRAFT_ID_PREFIX + secrets.token_urlsafe(24)


def is_draft_id(value: str) -> bool:
    """True for a ticket id (a conversation's pending item may also hold a run id)."""
    return value.startswith(DRAFT_ID_PREFIX)


class TicketStore(Protocol):
    """Where draft tickets live for their 30 minutes."""

    @property
    def shares_sql_transaction(self) -> bool:
        """True when writes ride the caller's SQL session."""
        ...

    def create(self, draft: ActionDraft, *, session: Session | None = None) -> None:
        """Store a new ticket."""
        ...

    def load(self, draft_id: str, *, session: Session | None = None) -> ActionDraft | None:
        """The ticket, or None when unknown."""
        ...

    def replace(self, draft: ActionDraft, *, expected_version: int, session: Session | None = None) -> bool:
        """Store `draft` only if the stored version is still `expected_version`."""
        ...


def _row_to_draft(row: ActionDraftRow) -> ActionDraft:
    return ActionDraft(
        draft_id=row.id,
        tenant_id=row.tenant_id,
        user_id=row.user_id,
        tool=ToolCode(row.tool),
        status=DraftStatus(row.status),
        version=row.version,
        payload=dict(row.payload),
        missing_fields=tuple(row.missing_fields),
        payload_hash=row.payload_hash,
        created_at=row.created_at,
        updated_at=row.updated_at,
        expires_at=row.expires_at,
        claim_key=row.claim_key,
        receipt=row.receipt,
        error_code=row.error_code,
    )


def _mutable_columns(draft: ActionDraft) -> dict[str, Any]:
    return {
        "status": draft.status.value,
        "version": draft.version,
        "payload": draft.payload,
        "missing_fields": list(draft.missing_fields),
        "payload_hash": draft.payload_hash,
        "claim_key": draft.claim_key,
        "receipt": draft.receipt,
        "error_code": draft.error_code,
        "updated_at": draft.updated_at,
    }


class SqlTicketStore:
    """Tickets in `action_drafts` (the embedded default); expiry is a column."""

    shares_sql_transaction = True

    def __init__(self, session_factory: sessionmaker[Session]):
        self._sessions = session_factory

    def create(self, draft: ActionDraft, *, session: Session | None = None) -> None:
        """Insert the ticket row."""
        row = ActionDraftRow(
            id=draft.draft_id,
            tenant_id=draft.tenant_id,
            user_id=draft.user_id,
            tool=draft.tool.value,
            created_at=draft.created_at,
            expires_at=draft.expires_at,
            **_mutable_columns(draft),
        )
        if session is not None:
            session.add(row)
            session.flush()
            return
        with transaction(self._sessions) as own:
            own.add(row)

    def load(self, draft_id: str, *, session: Session | None = None) -> ActionDraft | None:
        """Read the ticket row."""
        stmt = select(ActionDraftRow).where(ActionDraftRow.id == draft_id)
        if session is not None:
            row = session.scalars(stmt).first()
            return _row_to_draft(row) if row is not None else None
        with self._sessions() as own:
            row = own.scalars(stmt).first()
            return _row_to_draft(row) if row is not None else None

    def replace(self, draft: ActionDraft, *, expected_version: int, session: Session | None = None) -> bool:
        """UPDATE … WHERE version = expected_version; True when one row moved."""
        stmt = (
            update(ActionDraftRow)
            .where(ActionDraftRow.id == draft.draft_id, ActionDraftRow.version == expected_version)
            .values(**_mutable_columns(draft))
            .execution_options(synchronize_session=False)
        )
        if session is not None:
            return bool(session.execute(stmt).rowcount == 1)  # type: ignore[attr-defined]
        with transaction(self._sessions) as own:
            return bool(own.execute(stmt).rowcount == 1)  # type: ignore[attr-defined]


class RedisTicketStore:
    """Tickets as JSON values in Redis with a TTL; versions compared under WATCH."""

    shares_sql_transaction = False

    def __init__(self, client: redis.Redis, *, prefix: str = "shifu:draft:"):
        self._redis = client
        self._prefix = prefix

    @classmethod
    def from_url(cls, url: str) -> RedisTicketStore:
        """Connect to `SHIFU_REDIS_URL`."""
        return cls(redis.Redis.from_url(url, socket_timeout=2.0))

    def _key(self, draft_id: str) -> str:
        return self._prefix + draft_id

    def create(self, draft: ActionDraft, *, session: Session | None = None) -> None:
        """SET NX with a TTL of the ticket's lifetime plus a short grace."""
        ttl = max(1, int((draft.expires_at - draft.created_at + REDIS_GRACE).total_seconds()))
        self._redis.set(
            self._key(draft.draft_id), json.dumps(draft.to_json(), ensure_ascii=False), ex=ttl, nx=True
        )

    def load(self, draft_id: str, *, session: Session | None = None) -> ActionDraft | None:
        """GET and decode."""
        raw = self._redis.get(self._key(draft_id))
        if raw is None:
            return None
        return ActionDraft.from_json(json.loads(raw))

    def replace(self, draft: ActionDraft, *, expected_version: int, session: Session | None = None) -> bool:
        """WATCH, compare the version, SET KEEPTTL in MULTI; False on a lost race or a lapsed key."""
        key = self._key(draft.draft_id)
        with self._redis.pipeline() as pipe:
            try:
                pipe.watch(key)  # type: ignore[no-untyped-call]
                raw = pipe.get(key)
                if raw is None or int(json.loads(raw)["version"]) != expected_version:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.set(key, json.dumps(draft.to_json(), ensure_ascii=False), keepttl=True)
                pipe.execute()
                return True
            except redis.WatchError:
                logger.info("draft ticket changed concurrently", extra={"store": "redis"})
                return False
