"""Who is searching: the server-resolved scope every knowledge read is filtered by.

`access_for_user` derives it from the org snapshot (users, project memberships, knowledge
space audiences); nothing a client sends can widen it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from shifu.contracts.common import Role
from shifu.knowledge.index.base import AccessFilter, day_number
from shifu.store.tables.org import KnowledgeSpaceRow, ProjectMemberRow, ProjectRow, UserRow


@dataclass(frozen=True)
class SearchAccess:
    """The caller's knowledge scope: tenant, readable spaces, projects, role and the query date."""

    tenant_id: str
    space_ids: tuple[str, ...]
    project_ids: tuple[str, ...]
    role: Role
    on_date: date

    def to_filter(self) -> AccessFilter:
        """The engine-side filter; an operator preview is not narrowed by document roles."""
        return AccessFilter(
            tenant_id=self.tenant_id,
            space_ids=tuple(sorted(self.space_ids)),
            project_ids=tuple(sorted(self.project_ids)),
            role=None if self.role == Role.OPERATOR else self.role.value,
            on_day=day_number(self.on_date, 0),
        )


_STAFF = {Role.EMPLOYEE, Role.SUPERVISOR}


def _space_allowed(space: KnowledgeSpaceRow, role: Role, projects: set[str]) -> bool:
    if role == Role.OPERATOR:
        return True
    if space.audience == "ALL_STAFF":
        return role in _STAFF
    if space.audience == "PROJECT":
        return role in _STAFF and space.project_id is not None and space.project_id in projects
    if space.audience == "SUPERVISORS":
        return role == Role.SUPERVISOR
    if space.audience == "CANDIDATES":
        return role == Role.CANDIDATE
    return False


def access_for_user(session: Session, tenant_id: str, user_id: str, on_date: date) -> SearchAccess | None:
    """The scope of an active user of `tenant_id`, or None when the user is unknown or inactive."""
    user = session.get(UserRow, user_id)
    if user is None or user.tenant_id != tenant_id or not user.active:
        return None
    role = Role(user.role)
    if role == Role.OPERATOR:
        projects = set(session.scalars(select(ProjectRow.id).where(ProjectRow.tenant_id == tenant_id)))
    else:
        projects = set(
            session.scalars(select(ProjectMemberRow.project_id).where(ProjectMemberRow.user_id == user_id))
        )
    spaces = session.scalars(select(KnowledgeSpaceRow).where(KnowledgeSpaceRow.tenant_id == tenant_id))
    allowed = tuple(sorted(space.id for space in spaces if _space_allowed(space, role, projects)))
    return SearchAccess(tenant_id, allowed, tuple(sorted(projects)), role, on_date)


def access_for_actor(session: Session, tenant_id: str, actor_key: str, on_date: date) -> SearchAccess | None:
    """The scope of the demo actor `actor_key` (org_users.actor_key), or None when unknown."""
    user_id = session.scalar(
        select(UserRow.id).where(UserRow.tenant_id == tenant_id, UserRow.actor_key == actor_key)
    )
    return None if user_id is None else access_for_user(session, tenant_id, user_id, on_date)
