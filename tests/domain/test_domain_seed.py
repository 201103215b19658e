"""The demo domain seed: idempotent, relative to today, and shaped for the demo stories."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from shifu.demo.domain_seed import seed_domain
from shifu.demo.org_seed import seed_org
from shifu.domain.embedded import EmbeddedDomain
from shifu.store.engine import transaction
from shifu.store.tables.domain import CandidateProgressRow, PracticeRecordRow, TaskRow, WorkResultRow


def _counts(factory: sessionmaker[Session]) -> tuple[int, ...]:
    with factory() as session:
        return tuple(
            session.scalar(select(func.count()).select_from(table)) or 0
            for table in (TaskRow, PracticeRecordRow, WorkResultRow, CandidateProgressRow)
        )


@pytest.mark.parametrize("today", [date(2025, 6, 18), date(2025, 6, 1), date(2025, 6, 30), date(2024, 2, 29)])
def test_seed_is_idempotent_and_relative_to_today(
    session_factory: sessionmaker[Session], today: date
) -> None:
    with transaction(session_factory) as session:
        seed_org(session)
        seed_domain(session, today=today)
    first = _counts(session_factory)
    with transaction(session_factory) as session:
        seed_domain(session, today=today)
    assert _counts(session_factory) == first
    domain = EmbeddedDomain(session_factory)
    tasks = domain.tasks_of(tenant_id="demo", user_id="u-zhangsan", start=None, end=None)
    open_tasks = [t for t in tasks if t.status == "OPEN"]
    assert len(open_tasks) >= 3
    assert any(t.due_date == today for t in open_tasks)
    assert any(t.due_date < today for t in open_tasks)
    assert any(t.due_date >= today and t.due_date.month == today.month for t in open_tasks)
    assert [t for t in tasks if t.status == "DONE"]


def test_seed_shapes_the_demo_stories(embedded: EmbeddedDomain) -> None:
    assert embedded.tasks_of(tenant_id="demo", user_id="u-zhaoliu", start=None, end=None) == []
    team = embedded.team_practice(tenant_id="demo", project_ids=["proj-huafu"], start=None, end=None)
    pending = {r.user_id for r in team if not r.review_done}
    assert {"u-sunba", "u-zhoujiu"} <= pending
    own = embedded.results_of(tenant_id="demo", user_id="u-zhangsan", start=None, end=None)
    assert [r.status for r in own] == ["SUBMITTED"]
    progress = embedded.progress_of(tenant_id="demo", user_id="u-wangwu")
    assert progress is not None
    assert {d.status for d in progress.documents} == {"已提交", "待补充", "已审核"}
