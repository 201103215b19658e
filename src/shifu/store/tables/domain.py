"""Embedded demo domain data: tasks, practice records, work results and candidate progress.

These tables stand in for the company's real systems when no `domain_base_url` is set; the
embedded domain adapters read them, the HTTP adapters read the same shapes over the wire.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Date, Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from shifu.store.base import Base, UtcDateTime, utcnow


class TaskRow(Base):
    """A to-do of one employee (工单, 巡检, 回访 …) in one project."""

    __tablename__ = "domain_tasks"
    __table_args__ = (Index("ix_domain_tasks_tenant_assignee", "tenant_id", "assignee_id"),)
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"))
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"))
    assignee_id: Mapped[str] = mapped_column(ForeignKey("org_users.id"))
    title: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    due_date: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class PracticeRecordRow(Base):
    """One training practice of one employee; `review_done` is whether the 复盘 happened."""

    __tablename__ = "domain_practice_records"
    __table_args__ = (
        Index("ix_domain_practice_records_tenant_user", "tenant_id", "user_id"),
        Index("ix_domain_practice_records_tenant_project", "tenant_id", "project_id"),
    )
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"))
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"))
    user_id: Mapped[str] = mapped_column(ForeignKey("org_users.id"))
    course_title: Mapped[str] = mapped_column(String(200))
    score: Mapped[float] = mapped_column(Float)
    practiced_at: Mapped[datetime] = mapped_column(UtcDateTime())
    review_done: Mapped[bool] = mapped_column(Boolean, default=False)
    reviewed_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class WorkResultRow(Base):
    """A work result an employee submitted for review."""

    __tablename__ = "domain_work_results"
    __table_args__ = (
        Index("ix_domain_work_results_tenant_user", "tenant_id", "user_id"),
        Index("ix_domain_work_results_tenant_project", "tenant_id", "project_id"),
    )
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"))
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"))
    user_id: Mapped[str] = mapped_column(ForeignKey("org_users.id"))
    title: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16))
    submitted_at: Mapped[datetime] = mapped_column(UtcDateTime())


class CandidateProgressRow(Base):
    """A candidate's hiring stage and the status of each required document."""

    __tablename__ = "domain_candidate_progress"
    __table_args__ = (Index("ix_domain_candidate_progress_tenant_user", "tenant_id", "user_id", unique=True),)
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"))
    user_id: Mapped[str] = mapped_column(ForeignKey("org_users.id"))
    stage: Mapped[str] = mapped_column(String(32))
    stage_status: Mapped[str] = mapped_column(String(32))
    documents: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    next_step: Mapped[str | None] = mapped_column(String(200), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
