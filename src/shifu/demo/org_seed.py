"""The demo org: tenant `demo`, its apps, projects, knowledge spaces and actors.

Idempotent: every row has a fixed id and is upserted, so `shifu demo seed` can run on
every start. Actors are addressable by key (`employee`, `supervisor` …) for demo tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from shifu.contracts.common import Role
from shifu.store.tables.org import (
    AppRow,
    KnowledgeSpaceRow,
    ProjectMemberRow,
    ProjectRow,
    TenantRow,
    UserRow,
)

TENANT_ID = "demo"
STAFF_APP_ID = "staff-app"
ADMIN_APP_ID = "admin-console"
HUAFU = "proj-huafu"
JIANGWAN = "proj-jiangwan"


@dataclass(frozen=True)
class DemoUser:
    """One seeded person; `actor_key` is set for the five demo actors."""

    user_id: str
    external_id: str
    phone: str
    name: str
    role: Role
    projects: tuple[str, ...]
    supervises: tuple[str, ...] = ()
    manager_id: str | None = None
    actor_key: str | None = None
    app_id: str = STAFF_APP_ID


DEMO_USERS: tuple[DemoUser, ...] = (
    DemoUser(
        "u-zhangsan",
        "ext-1001",
        "13800000001",
        "张三",
        Role.EMPLOYEE,
        (HUAFU,),
        manager_id="u-lisi",
        actor_key="employee",
    ),
    DemoUser(
        "u-zhaoliu",
        "ext-1002",
        "13800000002",
        "赵六",
        Role.EMPLOYEE,
        (JIANGWAN,),
        actor_key="employee_other_project",
    ),
    DemoUser(
        "u-lisi",
        "ext-2001",
        "13800000003",
        "李四",
        Role.SUPERVISOR,
        (HUAFU,),
        supervises=(HUAFU,),
        actor_key="supervisor",
    ),
    DemoUser("u-wangwu", "ext-3001", "13800000004", "王五", Role.CANDIDATE, (), actor_key="candidate"),
    DemoUser(
        "u-chenqi",
        "ext-9001",
        "13800000005",
        "陈七",
        Role.OPERATOR,
        (),
        actor_key="operator",
        app_id=ADMIN_APP_ID,
    ),
    DemoUser("u-sunba", "ext-1003", "13800000006", "孙八", Role.EMPLOYEE, (HUAFU,), manager_id="u-lisi"),
    DemoUser("u-zhoujiu", "ext-1004", "13800000007", "周九", Role.EMPLOYEE, (HUAFU,), manager_id="u-lisi"),
)
"""Everyone in the demo tenant."""

DEMO_SPACES: tuple[tuple[str, str, str, str | None], ...] = (
    ("space-laws", "法律法规", "ALL_STAFF", None),
    ("space-all-staff", "全员制度", "ALL_STAFF", None),
    ("space-huafu", "华府项目", "PROJECT", HUAFU),
    ("space-supervisors", "主管资料", "SUPERVISORS", None),
    ("space-candidates", "候选人岗前学习", "CANDIDATES", None),
)
"""Knowledge spaces: id, name, audience rule, project."""


def actor(key: str) -> DemoUser:
    """The demo user with an actor key; unknown key → KeyError naming the valid keys."""
    for user in DEMO_USERS:
        if user.actor_key == key:
            return user
    keys = ", ".join(u.actor_key for u in DEMO_USERS if u.actor_key)
    raise KeyError(f"unknown actor {key!r}; choose one of: {keys}")


def actor_keys() -> list[str]:
    """All actor keys in a stable order."""
    return [u.actor_key for u in DEMO_USERS if u.actor_key]


def seed_org(session: Session) -> None:
    """Upsert the demo tenant, apps, projects, spaces, users and memberships."""
    session.merge(TenantRow(id=TENANT_ID, name="银城物业（演示）"))
    session.merge(AppRow(id=STAFF_APP_ID, tenant_id=TENANT_ID, name="员工端"))
    session.merge(AppRow(id=ADMIN_APP_ID, tenant_id=TENANT_ID, name="管理端"))
    session.merge(ProjectRow(id=HUAFU, tenant_id=TENANT_ID, name="华府"))
    session.merge(ProjectRow(id=JIANGWAN, tenant_id=TENANT_ID, name="江湾"))
    session.flush()
    for space_id, name, audience, project in DEMO_SPACES:
        session.merge(
            KnowledgeSpaceRow(
                id=space_id, tenant_id=TENANT_ID, name=name, audience=audience, project_id=project
            )
        )
    for user in DEMO_USERS:
        session.merge(
            UserRow(
                id=user.user_id,
                tenant_id=TENANT_ID,
                external_id=user.external_id,
                phone=user.phone,
                display_name=user.name,
                role=user.role.value,
                manager_id=user.manager_id,
                active=True,
                actor_key=user.actor_key,
            )
        )
    session.flush()
    for user in DEMO_USERS:
        for project in user.projects:
            session.merge(
                ProjectMemberRow(
                    project_id=project, user_id=user.user_id, is_supervisor=project in user.supervises
                )
            )
