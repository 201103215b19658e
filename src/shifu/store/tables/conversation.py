"""Short-term conversations: the last turns as language context plus the structured state.

Turns are conversation content the user owns: they live here only, never in audit.
`state_json` holds references (factRef / citationId) and media labels, never fact bodies.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from shifu.store.base import Base, UtcDateTime


class ConversationRow(Base):
    """One conversation scoped to tenant + app + user + project, versioned for optimistic concurrency."""

    __tablename__ = "conversations"
    __table_args__ = (Index("ix_conversations_scope", "tenant_id", "app_id", "user_id"),)
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(64))
    app_id: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[str] = mapped_column(String(128))
    project_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    version: Mapped[int] = mapped_column(Integer)
    turns_json: Mapped[str] = mapped_column(Text)
    state_json: Mapped[str] = mapped_column(Text)
    state_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    last_active_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
