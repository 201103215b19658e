"""The embedded adapter filters by tenant, user, project and window."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy.orm import Session, sessionmaker

from shifu.domain.embedded import EmbeddedDomain
from shifu.store.engine import transaction
from shifu.store.tables.domain import TaskRow
from shifu.store.tables.org import TenantRow


def test_tasks_window_is_inclusive(embedded: EmbeddedDomain, today: date) -> None:
    tasks = embedded.tasks_of(tenant_id="demo", user_id="u-zhangsan", start=today, end=today)
    assert [t.task_id for t in tasks] == ["t-zs-today"]


def test_rows_of_another_tenant_are_never_read(seeded: sessionmaker[Session], today: date) -> None:
    with transaction(seeded) as session:
        session.merge(TenantRow(id="other", name="其他公司"))
        session.flush()
        session.merge(
            TaskRow(
                id="t-other",
                tenant_id="other",
                project_id="proj-huafu",
                assignee_id="u-zhangsan",
                title="别家的任务",
                kind="工单",
                status="OPEN",
                due_date=today,
                created_at=datetime(2025, 6, 1, tzinfo=UTC),
            )
        )
    domain = EmbeddedDomain(seeded)
    assert "t-other" not in {
        t.task_id for t in domain.tasks_of(tenant_id="demo", user_id="u-zhangsan", start=None, end=None)
    }
    assert [
        t.task_id for t in domain.tasks_of(tenant_id="other", user_id="u-zhangsan", start=None, end=None)
    ] == ["t-other"]


def test_team_reads_stay_inside_the_given_projects(embedded: EmbeddedDomain) -> None:
    huafu = embedded.team_practice(tenant_id="demo", project_ids=["proj-huafu"], start=None, end=None)
    assert huafu and all(r.project_id == "proj-huafu" for r in huafu)
    results = embedded.team_results(tenant_id="demo", project_ids=["proj-huafu"], start=None, end=None)
    assert "u-zhaoliu" not in {r.user_id for r in results}
    assert embedded.team_practice(tenant_id="demo", project_ids=[], start=None, end=None) == []


def test_practice_window_is_half_open(embedded: EmbeddedDomain) -> None:
    start = datetime(2025, 6, 17, 0, 0, tzinfo=UTC)
    rows = embedded.practice_of(tenant_id="demo", user_id="u-zhangsan", start=start, end=None)
    assert {r.record_id for r in rows} == {"p-zs-2"}
    assert embedded.progress_of(tenant_id="demo", user_id="u-zhangsan") is None
    assert date(2025, 6, 17) == rows[0].practiced_at.astimezone(UTC).date()
