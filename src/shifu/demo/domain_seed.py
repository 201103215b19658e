"""Demo domain data: tasks, practice, work results and candidate progress for the demo actors.

Idempotent (fixed ids, merged), and every date is relative to `today`, so the demo reads
the same on any day: 张三 has open tasks due today, overdue and later this month; 赵六
has none (the NO_TASKS case); 华府 team members have practice waiting for 复盘; 王五 is a
candidate with documents in every state. Org rows must be seeded first.
"""

from __future__ import annotations

import calendar
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from shifu.store.tables.domain import CandidateProgressRow, PracticeRecordRow, TaskRow, WorkResultRow

TENANT = "demo"
HUAFU = "proj-huafu"
JIANGWAN = "proj-jiangwan"
_TZ = ZoneInfo("Asia/Shanghai")


def _at(day: date, hour: int) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=_TZ).astimezone(UTC)


def _later_this_month(today: date) -> date:
    last = date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])
    return min(today + timedelta(days=5), last)


def _tasks(today: date) -> list[TaskRow]:
    created = _at(today - timedelta(days=7), 9)
    rows = [
        ("t-zs-today", "3栋1单元消防通道巡检", "巡检", "OPEN", today),
        ("t-zs-overdue", "2栋1201业主报修回访", "回访", "OPEN", today - timedelta(days=2)),
        ("t-zs-later", "地下车库照明维修工单", "工单", "OPEN", _later_this_month(today)),
        ("t-zs-done", "5栋电梯年检资料整理", "工单", "DONE", today - timedelta(days=1)),
    ]
    return [
        TaskRow(
            id=task_id,
            tenant_id=TENANT,
            project_id=HUAFU,
            assignee_id="u-zhangsan",
            title=title,
            kind=kind,
            status=status,
            due_date=due,
            created_at=created,
        )
        for task_id, title, kind, status, due in rows
    ]


def _practice(today: date) -> list[PracticeRecordRow]:
    """Practice of the 华府 team and of 赵六; 孙八's waits for 复盘 since midnight today, so
    "这周/本月没复盘的人" has someone to list even on a Monday or on the first of a month."""
    rows = [
        ("p-zs-1", "u-zhangsan", HUAFU, "业主投诉接待话术", 86.0, 3, 10, True),
        ("p-zs-2", "u-zhangsan", HUAFU, "电梯困人应急处置", 72.0, 1, 10, False),
        ("p-sb-1", "u-sunba", HUAFU, "消防巡检标准流程", 65.0, 0, 0, False),
        ("p-zj-1", "u-zhoujiu", HUAFU, "业主投诉接待话术", 78.0, 1, 10, False),
        ("p-zl-1", "u-zhaoliu", JIANGWAN, "装修管理规范", 90.0, 2, 10, False),
    ]
    return [
        PracticeRecordRow(
            id=record_id,
            tenant_id=TENANT,
            project_id=project,
            user_id=user,
            course_title=course,
            score=score,
            practiced_at=_at(today - timedelta(days=days_ago), hour),
            review_done=done,
            reviewed_at=_at(today - timedelta(days=days_ago), hour + 6) if done else None,
        )
        for record_id, user, project, course, score, days_ago, hour, done in rows
    ]


def _results(today: date) -> list[WorkResultRow]:
    rows = [
        ("w-zs-1", "u-zhangsan", HUAFU, "华府2栋漏水处置总结", "SUBMITTED", 1),
        ("w-sb-1", "u-sunba", HUAFU, "华府消防巡检月报", "APPROVED", 4),
        ("w-zl-1", "u-zhaoliu", JIANGWAN, "江湾装修巡查记录", "SUBMITTED", 2),
    ]
    return [
        WorkResultRow(
            id=result_id,
            tenant_id=TENANT,
            project_id=project,
            user_id=user,
            title=title,
            status=status,
            submitted_at=_at(today - timedelta(days=days_ago), 15),
        )
        for result_id, user, project, title, status, days_ago in rows
    ]


def _candidate(today: date) -> CandidateProgressRow:
    return CandidateProgressRow(
        id="c-wangwu",
        tenant_id=TENANT,
        user_id="u-wangwu",
        stage="复试",
        stage_status="待面试",
        documents=[
            {"name": "身份证复印件", "status": "已审核"},
            {"name": "学历证明", "status": "已提交"},
            {"name": "健康证", "status": "待补充"},
        ],
        next_step="携带健康证原件参加复试",
        updated_at=_at(today - timedelta(days=1), 11),
    )


def seed_domain(session: Session, *, today: date) -> None:
    """Upsert the demo domain rows, dated relative to `today` (org rows must exist)."""
    for row in [*_tasks(today), *_practice(today), *_results(today), _candidate(today)]:
        session.merge(row)
    session.flush()
