"""The org snapshot: tenants, apps, users, projects, memberships and knowledge spaces.

Identity is resolved server-side from these rows; nothing in a request body can change them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from shifu.store.base import Base, UtcDateTime, utcnow


class TenantRow(Base):
    """A customer company."""

    __tablename__ = "tenants"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))


class AppRow(Base):
    """A client application (staff app, admin console) tokens are issued to."""

    __tablename__ = "apps"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"))
    name: Mapped[str] = mapped_column(String(200))


class UserRow(Base):
    """A person in the org snapshot; `phone` maps the authenticated login to `external_id`."""

    __tablename__ = "org_users"
    __table_args__ = (UniqueConstraint("tenant_id", "external_id"), UniqueConstraint("tenant_id", "phone"))
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    external_id: Mapped[str] = mapped_column(String(64))
    phone: Mapped[str] = mapped_column(String(32))
    display_name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(32))
    manager_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    actor_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow, onupdate=utcnow)


class ProjectRow(Base):
    """A managed property project (华府, 江湾)."""

    __tablename__ = "projects"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))


class ProjectMemberRow(Base):
    """Membership of a user in a project; `is_supervisor` grants team scope over it."""

    __tablename__ = "project_members"
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("org_users.id"), primary_key=True)
    is_supervisor: Mapped[bool] = mapped_column(Boolean, default=False)


class KnowledgeSpaceRow(Base):
    """A knowledge space with an audience rule.

    `audience` is ALL_STAFF (employees and supervisors), PROJECT (members of
    `project_id`), SUPERVISORS or CANDIDATES.
    """

    __tablename__ = "knowledge_spaces"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    audience: Mapped[str] = mapped_column(String(32))
    project_id: Mapped[str | None] = mapped_column(ForeignKey("projects.id"), nullable=True)
