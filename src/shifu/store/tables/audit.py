"""One row per agent run: ids, codes, counts, timings and a question hash — never text."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from shifu.store.base import Base, UtcDateTime, utcnow


class AgentRunRow(Base):
    """Minimal run audit (seed 001 §12.1, seed 000 shadow audit rules)."""

    __tablename__ = "agent_runs"
    run_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(64), index=True)
    app_id: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[str] = mapped_column(String(128), index=True)
    conversation_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    context_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scope_sha256: Mapped[str] = mapped_column(String(64))
    question_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)
    intent: Mapped[str | None] = mapped_column(String(40), nullable=True)
    planner: Mapped[str | None] = mapped_column(String(20), nullable=True)
    tools: Mapped[list[str]] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(32))
    decision: Mapped[str | None] = mapped_column(String(20), nullable=True)
    source_types: Mapped[list[str]] = mapped_column(JSON, default=list)
    reason_codes: Mapped[list[str]] = mapped_column(JSON, default=list)
    counts: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    timings_ms: Mapped[dict[str, float]] = mapped_column(JSON, default=dict)
    error_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow, index=True)
