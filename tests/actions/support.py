"""Shared builders for the action tests: the demo org, contexts and a pending-review fake."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from sqlalchemy.orm import Session, sessionmaker

from shifu.contracts.common import Role
from shifu.contracts.context import ExecutionContext
from shifu.store.engine import transaction
from shifu.store.tables.org import ProjectMemberRow, ProjectRow, TenantRow, UserRow

NOW = datetime(2026, 7, 24, 6, 0, tzinfo=UTC)

_USERS = [
    ("u-zhangsan", "张三", "EMPLOYEE", "u-lisi", [("proj-huafu", False)]),
    ("u-zhaoliu", "赵六", "EMPLOYEE", None, [("proj-jiangwan", False)]),
    ("u-lisi", "李四", "SUPERVISOR", None, [("proj-huafu", True)]),
    ("u-wangwu", "王五", "CANDIDATE", None, []),
    ("u-sunba", "孙八", "EMPLOYEE", "u-lisi", [("proj-huafu", False)]),
    ("u-zhoujiu", "周九", "EMPLOYEE", "u-lisi", [("proj-huafu", False)]),
]


def seed_org(factory: sessionmaker[Session]) -> None:
    """The demo tenant, its two projects and the actors of interfaces.md."""
    with transaction(factory) as s:
        s.add(TenantRow(id="demo", name="银城物业 demo"))
        s.flush()
        s.add(ProjectRow(id="proj-huafu", tenant_id="demo", name="华府"))
        s.add(ProjectRow(id="proj-jiangwan", tenant_id="demo", name="江湾"))
        s.flush()
        for index, (uid, name, role, manager, _) in enumerate(_USERS):
            s.add(
                UserRow(
                    id=uid,
                    tenant_id="demo",
                    external_id=f"ext-{uid}",
                    phone=f"1380000000{index}",
                    display_name=name,
                    role=role,
                    manager_id=manager,
                )
            )
        s.flush()
        for uid, _, _, _, memberships in _USERS:
            for project, supervises in memberships:
                s.add(ProjectMemberRow(project_id=project, user_id=uid, is_supervisor=supervises))


def make_ctx(actor: str, **changes: object) -> ExecutionContext:
    """ExecutionContext of a demo actor, as the runtime would build it for one request."""
    base: dict[str, dict[str, object]] = {
        "employee": {
            "user_id": "u-zhangsan",
            "display_name": "张三",
            "role": Role.EMPLOYEE,
            "project_ids": ("proj-huafu",),
        },
        "employee_other_project": {
            "user_id": "u-zhaoliu",
            "display_name": "赵六",
            "role": Role.EMPLOYEE,
            "project_ids": ("proj-jiangwan",),
        },
        "supervisor": {
            "user_id": "u-lisi",
            "display_name": "李四",
            "role": Role.SUPERVISOR,
            "project_ids": ("proj-huafu",),
            "supervised_project_ids": ("proj-huafu",),
        },
        "candidate": {
            "user_id": "u-wangwu",
            "display_name": "王五",
            "role": Role.CANDIDATE,
            "project_ids": (),
        },
        "operator": {
            "user_id": "operator:u-chenqi",
            "display_name": "陈七",
            "role": Role.OPERATOR,
            "project_ids": (),
            "is_operator_preview": True,
        },
    }[actor]
    values: dict[str, object] = {
        "run_id": "run-test",
        "tenant_id": "demo",
        "app_id": "staff-app",
        "external_id": f"ext-{base['user_id']}",
        "now": NOW,
        **base,
    }
    if values["project_ids"]:
        values["selected_project_id"] = values["project_ids"][0]  # type: ignore[index]
    values.update(changes)
    return ExecutionContext.model_validate(values)


@dataclass(frozen=True)
class Pending:
    """A pending-review row."""

    user_id: str
    display_name: str
    pending_count: int


@dataclass
class FakePendingReviews:
    """PendingReviewSource fake: fixed rows per project; records the windows it was asked for."""

    rows: dict[str, list[Pending]] = field(
        default_factory=lambda: {
            "proj-huafu": [
                Pending("u-zhangsan", "张三", 2),
                Pending("u-sunba", "孙八", 1),
                Pending("u-zhoujiu", "周九", 0),
            ]
        }
    )
    asked: list[tuple[str, date | None, date | None]] = field(default_factory=list)

    def pending_reviews(
        self, tenant_id: str, project_id: str, *, start: date | None, end: date | None
    ) -> Sequence[Pending]:
        """Rows of the project."""
        self.asked.append((project_id, start, end))
        return self.rows.get(project_id, [])
