"""Governed knowledge: document versions, their fragments and short-lived resource links.

A document row is one *version* of a file in a space; re-ingesting a changed file adds a new
row and retires the old one with its fragments. Embeddings are computed at ingest and kept
here, so the index can be rebuilt without re-embedding.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, Boolean, Date, ForeignKey, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from shifu.store.base import Base, UtcDateTime, utcnow


class KbDocumentRow(Base):
    """One version of one document, with the governance metadata every fragment inherits."""

    __tablename__ = "kb_documents"
    __table_args__ = (UniqueConstraint("tenant_id", "space_id", "document_key", "content_sha256"),)
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(64), index=True)
    space_id: Mapped[str] = mapped_column(String(64), index=True)
    document_key: Mapped[str] = mapped_column(String(200), index=True)
    title: Mapped[str] = mapped_column(String(300))
    authority: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    version: Mapped[str] = mapped_column(String(80))
    effective_from: Mapped[date | None] = mapped_column(Date, nullable=True)
    effective_to: Mapped[date | None] = mapped_column(Date, nullable=True)
    lifecycle: Mapped[str] = mapped_column(String(20))
    verification: Mapped[str] = mapped_column(String(20))
    environment: Mapped[str] = mapped_column(String(20))
    project_ids: Mapped[list[str]] = mapped_column(JSON, default=list)
    roles: Mapped[list[str]] = mapped_column(JSON, default=list)
    content_sha256: Mapped[str] = mapped_column(String(64))
    original_sha256: Mapped[str] = mapped_column(String(64))
    original_suffix: Mapped[str] = mapped_column(String(16))
    media_type: Mapped[str] = mapped_column(String(100))
    source_format: Mapped[str] = mapped_column(String(16))
    fragment_count: Mapped[int] = mapped_column(Integer, default=0)
    is_current: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    retired_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class KbFragmentRow(Base):
    """One citable fragment (an article, a section) of a document version."""

    __tablename__ = "kb_fragments"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    document_id: Mapped[str] = mapped_column(ForeignKey("kb_documents.id"), index=True)
    tenant_id: Mapped[str] = mapped_column(String(64), index=True)
    space_id: Mapped[str] = mapped_column(String(64), index=True)
    ordinal: Mapped[int] = mapped_column(Integer)
    locator: Mapped[str] = mapped_column(String(300))
    heading_path: Mapped[list[str]] = mapped_column(JSON, default=list)
    text: Mapped[str] = mapped_column(Text)
    supported_need_codes: Mapped[list[str]] = mapped_column(JSON, default=list)
    claim_types: Mapped[list[str]] = mapped_column(JSON, default=list)
    lifecycle: Mapped[str] = mapped_column(String(20))
    embedding: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    embedding_model: Mapped[str | None] = mapped_column(String(120), nullable=True)


class KbResourceRow(Base):
    """An opaque, short-lived link to a document's original, bound to tenant, user and conversation."""

    __tablename__ = "kb_resources"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(64), index=True)
    user_id: Mapped[str] = mapped_column(String(128))
    conversation_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    fragment_id: Mapped[str] = mapped_column(String(64))
    document_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())
