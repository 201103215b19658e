"""The embedded team directory over the org snapshot tables (server-side name resolution)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from shifu.store.tables.org import ProjectMemberRow, ProjectRow, UserRow

_SUPERVISOR_LABELS = frozenset({"主管", "项目经理", "经理", "领导", "上级"})


@dataclass(frozen=True)
class DirectoryPerson:
    """A person as the directory answers it."""

    user_id: str
    display_name: str
    project_ids: tuple[str, ...]


class SqlTeamDirectory:
    """`TeamDirectory` over `org_users`, `projects` and `project_members`."""

    def __init__(self, session_factory: sessionmaker[Session]):
        self._sessions = session_factory

    def _person(self, session: Session, user: UserRow) -> DirectoryPerson:
        stmt = select(ProjectMemberRow.project_id).where(ProjectMemberRow.user_id == user.id)
        projects = tuple(sorted(session.scalars(stmt)))
        return DirectoryPerson(user.id, user.display_name, projects)

    def people_named(self, tenant_id: str, name: str) -> Sequence[DirectoryPerson]:
        """Active people of the tenant with exactly this display name."""
        with self._sessions() as session:
            stmt = select(UserRow).where(
                UserRow.tenant_id == tenant_id, UserRow.display_name == name.strip(), UserRow.active.is_(True)
            )
            return [self._person(session, user) for user in session.scalars(stmt)]

    def is_member(self, tenant_id: str, project_id: str, user_id: str) -> bool:
        """Whether the active user belongs to the project."""
        with self._sessions() as session:
            stmt = (
                select(ProjectMemberRow.user_id)
                .join(UserRow, UserRow.id == ProjectMemberRow.user_id)
                .where(
                    ProjectMemberRow.project_id == project_id,
                    ProjectMemberRow.user_id == user_id,
                    UserRow.tenant_id == tenant_id,
                    UserRow.active.is_(True),
                )
            )
            return session.scalars(stmt).first() is not None

    def resolve_recipient(
        self, tenant_id: str, sender_id: str, project_id: str, label: str | None
    ) -> DirectoryPerson | None:
        """主管/项目经理 (or no label): the sender's manager, else another supervisor of the
        project, else the sender when they supervise it themselves; any other label → None."""
        if label is not None and label.strip() not in _SUPERVISOR_LABELS:
            return None
        with self._sessions() as session:
            sender = session.get(UserRow, sender_id)
            if sender is None or sender.tenant_id != tenant_id:
                return None
            if sender.manager_id:
                manager = session.get(UserRow, sender.manager_id)
                if manager is not None and manager.active and manager.tenant_id == tenant_id:
                    return self._person(session, manager)
            stmt = (
                select(UserRow)
                .join(ProjectMemberRow, ProjectMemberRow.user_id == UserRow.id)
                .where(
                    ProjectMemberRow.project_id == project_id,
                    ProjectMemberRow.is_supervisor.is_(True),
                    UserRow.tenant_id == tenant_id,
                    UserRow.active.is_(True),
                )
                .order_by(UserRow.id)
            )
            supervisors = list(session.scalars(stmt))
            others = [user for user in supervisors if user.id != sender_id]
            chosen = others[0] if others else (supervisors[0] if supervisors else None)
            return self._person(session, chosen) if chosen is not None else None

    def staff(self, tenant_id: str, project_ids: Sequence[str]) -> Mapping[str, str]:
        """User id → display name of the active staff (not the supervisors) of `project_ids`."""
        stmt = (
            select(UserRow.id, UserRow.display_name)
            .join(ProjectMemberRow, ProjectMemberRow.user_id == UserRow.id)
            .where(
                ProjectMemberRow.project_id.in_(list(project_ids)),
                ProjectMemberRow.is_supervisor.is_(False),
                UserRow.tenant_id == tenant_id,
                UserRow.active.is_(True),
            )
        )
        with self._sessions() as session:
            return {user_id: name for user_id, name in session.execute(stmt)}

    def project_name(self, tenant_id: str, project_id: str) -> str | None:
        """Display name of a project of the tenant."""
        with self._sessions() as session:
            project = session.get(ProjectRow, project_id)
            return project.name if project is not None and project.tenant_id == tenant_id else None
