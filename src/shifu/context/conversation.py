"""Short-term conversations: scoped, versioned, expiring (seed 001 §9.1, §10.1).

A conversation belongs to exactly one tenant + app + user + project. A request naming an
unknown, expired or foreign conversation id silently gets a NEW conversation — never
someone else's, and never an expired one revived (so its old references resolve to
nothing). Each committed turn bumps `contextVersion` through an atomic compare-and-set; a
request carrying a stale version gets VersionConflict(current=…) and writes nothing.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.context.redis_store import RedisConversationStore
from shifu.context.state import INACTIVITY_LIMIT, MAX_TURNS, ConversationState, Turn
from shifu.context.store import ConversationRecord, ConversationStore, SqlConversationStore
from shifu.errors import VersionConflict

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ConversationScope:
    """Who a conversation belongs to; all four must match to continue it."""

    tenant_id: str
    app_id: str
    user_id: str
    project_id: str | None


@dataclass(frozen=True)
class ConversationView:
    """The conversation as one request sees it; commit with the same view."""

    conversation_id: str
    """Id to return to the client."""
    scope: ConversationScope
    """Owner."""
    version: int
    """contextVersion the request started from (0 for a new conversation)."""
    turns: tuple[Turn, ...]
    """Up to the last 6 turns, oldest first (language context only)."""
    state: ConversationState
    """Structured state (references, frame, media labels, pending item)."""
    state_version: int
    """Version of the structured state; bumps only when the state changes."""
    created_at: datetime
    """When the conversation started."""
    last_active_at: datetime
    """Last committed turn."""
    is_new: bool
    """True when this request starts the conversation (nothing stored yet)."""


def _new_id() -> str:
    return "conv_" + secrets.token_hex(12)


class ConversationService:
    """Open and commit conversations over any `ConversationStore`."""

    def __init__(self, store: ConversationStore) -> None:
        self._store = store

    def open(
        self,
        *,
        tenant_id: str,
        app_id: str,
        user_id: str,
        project_id: str | None,
        conversation_id: str | None,
        expected_version: int | None,
        now: datetime,
        current_projects: tuple[str, ...] | None = None,
    ) -> ConversationView:
        """The conversation to continue, or a new one.

        Raises VersionConflict(current=…) only when the named conversation is live, ours,
        and stored at a different version than `expected_version`.

        A live conversation of this user in a project the user has since lost (not in
        `current_projects`) is continued in its own scope, so that its references are
        refused explicitly (FORBIDDEN) instead of silently vanishing.
        """
        scope = ConversationScope(tenant_id, app_id, user_id, project_id)
        record = self._store.get(conversation_id) if conversation_id else None
        if record is not None and _revoked_project_of(record, scope, current_projects):
            scope = ConversationScope(tenant_id, app_id, user_id, record.project_id)
        if record is not None and _owned_by(record, scope) and not _expired(record, now):
            if expected_version is not None and expected_version != record.version:
                raise VersionConflict(current=record.version)
            return _view(record, scope)
        if record is not None:
            logger.info("conversation.replaced", extra={"reason": _why_not(record, scope, now)})
        return ConversationView(
            conversation_id=_new_id(),
            scope=scope,
            version=0,
            turns=(),
            state=ConversationState(),
            state_version=0,
            created_at=now,
            last_active_at=now,
            is_new=True,
        )

    def is_users(self, conversation_id: str, *, tenant_id: str, app_id: str, user_id: str) -> bool:
        """Whether the conversation is still stored and belongs to this user in this app.

        Things handed out inside a conversation (resource links) live no longer than it: once the
        retention job has purged it, or when asked for from another app, this is False.
        """
        record = self._store.get(conversation_id)
        return record is not None and (record.tenant_id, record.app_id, record.user_id) == (
            tenant_id,
            app_id,
            user_id,
        )

    def commit(self, view: ConversationView, *, turn: Turn, state: ConversationState, now: datetime) -> int:
        """Append `turn`, store `state`, and return the new contextVersion (atomic on version)."""
        changed = state != view.state
        record = ConversationRecord(
            conversation_id=view.conversation_id,
            tenant_id=view.scope.tenant_id,
            app_id=view.scope.app_id,
            user_id=view.scope.user_id,
            project_id=view.scope.project_id,
            version=view.version + 1,
            turns=(*view.turns, turn)[-MAX_TURNS:],
            state=state,
            state_version=view.state_version + (1 if changed or view.is_new else 0),
            created_at=view.created_at,
            last_active_at=now,
        )
        if view.is_new:
            self._store.insert(record)
        else:
            self._store.compare_and_set(record, expected_version=view.version)
        return record.version


def _revoked_project_of(
    record: ConversationRecord, scope: ConversationScope, current_projects: tuple[str, ...] | None
) -> bool:
    """The record is this user's, in a project the user no longer belongs to."""
    same_user = (record.tenant_id, record.app_id, record.user_id) == (
        scope.tenant_id,
        scope.app_id,
        scope.user_id,
    )
    return (
        same_user
        and current_projects is not None
        and record.project_id is not None
        and record.project_id != scope.project_id
        and record.project_id not in current_projects
    )


def _owned_by(record: ConversationRecord, scope: ConversationScope) -> bool:
    return (record.tenant_id, record.app_id, record.user_id, record.project_id) == (
        scope.tenant_id,
        scope.app_id,
        scope.user_id,
        scope.project_id,
    )


def _expired(record: ConversationRecord, now: datetime) -> bool:
    return now - record.last_active_at >= INACTIVITY_LIMIT


def _why_not(record: ConversationRecord, scope: ConversationScope, now: datetime) -> str:
    return "OTHER_SCOPE" if not _owned_by(record, scope) else "EXPIRED" if _expired(record, now) else "OTHER"


def _view(record: ConversationRecord, scope: ConversationScope) -> ConversationView:
    return ConversationView(
        conversation_id=record.conversation_id,
        scope=scope,
        version=record.version,
        turns=record.turns,
        state=record.state,
        state_version=record.state_version,
        created_at=record.created_at,
        last_active_at=record.last_active_at,
        is_new=False,
    )


def conversation_store(settings: Settings, session_factory: sessionmaker[Session]) -> ConversationStore:
    """The configured store: Redis when `redis_url` is set, else the SQL table."""
    if settings.redis_url:
        return RedisConversationStore.from_url(settings.redis_url)
    return SqlConversationStore(session_factory)
