"""Identity → org snapshot → trusted ExecutionContext, resolved server-side only.

The token says who logged in (tenant, app, external id); everything else — role, projects,
supervised projects, knowledge spaces — is read from the org snapshot here. A selected
project from the client is honoured only when it is one of the user's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from shifu.contracts.common import Role
from shifu.contracts.context import ExecutionContext
from shifu.errors import ClientMismatch, ProjectNotAllowed, Unauthenticated
from shifu.store.tables.org import AppRow, KnowledgeSpaceRow, ProjectMemberRow, ProjectRow, UserRow

OPERATOR_PREFIX = "operator:"


@dataclass(frozen=True)
class Principal:
    """What a verified token asserts: nothing more is trusted from the client."""

    tenant_id: str
    app_id: str
    external_id: str


@dataclass(frozen=True)
class OrgSnapshot:
    """A user's current org facts."""

    user_id: str
    external_id: str
    display_name: str
    role: Role
    project_ids: tuple[str, ...]
    supervised_project_ids: tuple[str, ...]
    space_ids: tuple[str, ...]


def visible_space_ids(
    spaces: list[KnowledgeSpaceRow], role: Role, project_ids: tuple[str, ...]
) -> tuple[str, ...]:
    """Spaces a principal may read, by each space's audience rule."""
    visible: list[str] = []
    for space in spaces:
        audience = space.audience
        if (
            role is Role.OPERATOR
            or (audience == "ALL_STAFF" and role in (Role.EMPLOYEE, Role.SUPERVISOR))
            or (audience == "PROJECT" and space.project_id in project_ids)
            or (audience == "SUPERVISORS" and role is Role.SUPERVISOR)
            or (audience == "CANDIDATES" and role is Role.CANDIDATE)
        ):
            visible.append(space.id)
    return tuple(sorted(visible))


def load_snapshot(session: Session, tenant_id: str, external_id: str) -> OrgSnapshot:
    """Read the org snapshot of an active user; unknown or inactive → Unauthenticated."""
    user = session.scalars(
        select(UserRow).where(UserRow.tenant_id == tenant_id, UserRow.external_id == external_id)
    ).first()
    if user is None or not user.active:
        raise Unauthenticated()
    memberships = session.scalars(select(ProjectMemberRow).where(ProjectMemberRow.user_id == user.id)).all()
    project_ids = tuple(sorted(m.project_id for m in memberships))
    role = Role(user.role)
    if role is Role.OPERATOR:
        # The operator previews the tenant's content: every space (`visible_space_ids`) with the
        # documents scoped to its projects, as `knowledge.access` reads them. Its tools are read-only
        # knowledge tools (`policy.rules.ROLE_TOOLS`), so no live data of any project is reached.
        project_ids = tuple(
            sorted(session.scalars(select(ProjectRow.id).where(ProjectRow.tenant_id == tenant_id)))
        )
    supervised = tuple(
        sorted(m.project_id for m in memberships if m.is_supervisor and role is Role.SUPERVISOR)
    )
    spaces = list(session.scalars(select(KnowledgeSpaceRow).where(KnowledgeSpaceRow.tenant_id == tenant_id)))
    return OrgSnapshot(
        user_id=user.id,
        external_id=user.external_id,
        display_name=user.display_name,
        role=role,
        project_ids=project_ids,
        supervised_project_ids=supervised,
        space_ids=visible_space_ids(spaces, role, project_ids),
    )


def tenant_project_names(session: Session, tenant_id: str) -> dict[str, str]:
    """Project id → name for every project of the tenant (the user's or not)."""
    rows = session.scalars(select(ProjectRow).where(ProjectRow.tenant_id == tenant_id))
    return {row.id: row.name for row in rows}


def build_execution_context(
    session: Session,
    principal: Principal,
    *,
    client_id: str | None,
    selected_project_id: str | None,
    run_id: str,
    now: datetime,
    timezone: str,
) -> ExecutionContext:
    """The trusted context of one request.

    Raises ClientMismatch when the client id differs from the token's app, and
    ProjectNotAllowed when the selected project is not one of the user's.
    """
    if client_id is not None and client_id != principal.app_id:
        raise ClientMismatch()
    app = session.get(AppRow, principal.app_id)
    if app is None or app.tenant_id != principal.tenant_id:
        raise Unauthenticated()
    snapshot = load_snapshot(session, principal.tenant_id, principal.external_id)
    if selected_project_id is not None and selected_project_id not in snapshot.project_ids:
        raise ProjectNotAllowed()
    selected = selected_project_id or (snapshot.project_ids[0] if snapshot.project_ids else None)
    is_operator = snapshot.role is Role.OPERATOR
    return ExecutionContext(
        run_id=run_id,
        tenant_id=principal.tenant_id,
        app_id=principal.app_id,
        user_id=f"{OPERATOR_PREFIX}{snapshot.user_id}" if is_operator else snapshot.user_id,
        external_id=snapshot.external_id,
        display_name=snapshot.display_name,
        role=snapshot.role,
        project_ids=snapshot.project_ids,
        supervised_project_ids=snapshot.supervised_project_ids,
        selected_project_id=selected,
        space_ids=snapshot.space_ids,
        project_names=tenant_project_names(session, principal.tenant_id),
        is_operator_preview=is_operator,
        now=now,
        timezone=timezone,
    )
