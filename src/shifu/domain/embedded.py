"""Embedded domain adapter: the demo's tasks, training, results and hiring data in the SQL store.

One class serves all four read ports, because in the embedded deployment they share one
database. Every query is filtered by the tenant and by the user or projects it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from shifu.domain.records import (
    CandidateDocument,
    CandidateProgressRecord,
    PracticeRecord,
    TaskRecord,
    WorkResultRecord,
)
from shifu.errors import Unavailable
from shifu.store.tables.actions import PracticeAssignmentRow
from shifu.store.tables.domain import CandidateProgressRow, PracticeRecordRow, TaskRow, WorkResultRow
from shifu.store.tables.org import UserRow

EMBEDDED_SOURCE = "embedded-demo"
TRAINING_TASK_KIND = "训练"
"""Kind of the to-do a supervisor's practice assignment puts on the assignee's list."""
_ASSIGNMENT_TASK_STATUS = {"ASSIGNED": "OPEN"}
"""Assignment status → task status; any other (completed, withdrawn …) is no longer open work."""


def _window(stmt: Any, column: Any, start: Any, end: Any, *, inclusive_end: bool) -> Any:
    if start is not None:
        stmt = stmt.where(column >= start)
    if end is not None:
        stmt = stmt.where(column <= end if inclusive_end else column < end)
    return stmt


class EmbeddedDomain:
    """Reads the demo domain tables; satisfies TaskReads, PracticeReads, WorkResultReads and
    CandidateProgressReads."""

    def __init__(self, session_factory: sessionmaker[Session], *, source_system: str = EMBEDDED_SOURCE):
        self._sessions = session_factory
        self._source = source_system

    @property
    def source_system(self) -> str:
        """Name stamped on facts read here."""
        return self._source

    def _rows(self, stmt: Select[Any]) -> list[Any]:
        try:
            with self._sessions() as session:
                return list(session.execute(stmt).all())
        except SQLAlchemyError as exc:
            raise Unavailable(code="DOMAIN_STORE_UNAVAILABLE") from exc

    def tasks_of(
        self, *, tenant_id: str, user_id: str, start: date | None, end: date | None
    ) -> list[TaskRecord]:
        """Tasks of one user due within [start, end], then the trainings assigned to them.

        A training assigned without a due date is open work in every window until it is done.
        """
        stmt = select(TaskRow).where(TaskRow.tenant_id == tenant_id, TaskRow.assignee_id == user_id)
        stmt = _window(stmt, TaskRow.due_date, start, end, inclusive_end=True).order_by(
            TaskRow.due_date, TaskRow.id
        )
        tasks = [
            TaskRecord(
                task_id=row.id,
                project_id=row.project_id,
                title=row.title,
                kind=row.kind,
                status=row.status,
                due_date=row.due_date,
                created_at=row.created_at,
            )
            for (row,) in self._rows(stmt)
        ]
        return tasks + self._assigned_trainings(tenant_id, user_id, start, end)

    def _assigned_trainings(
        self, tenant_id: str, user_id: str, start: date | None, end: date | None
    ) -> list[TaskRecord]:
        stmt = (
            select(PracticeAssignmentRow)
            .where(PracticeAssignmentRow.tenant_id == tenant_id, PracticeAssignmentRow.assignee_id == user_id)
            .order_by(PracticeAssignmentRow.created_at, PracticeAssignmentRow.id)
        )
        records = [
            TaskRecord(
                task_id=row.id,
                project_id=row.project_id,
                title=row.topic,
                kind=TRAINING_TASK_KIND,
                status=_ASSIGNMENT_TASK_STATUS.get(row.status, "DONE"),
                due_date=row.due_date,
                created_at=row.created_at,
            )
            for (row,) in self._rows(stmt)
        ]
        return [
            record
            for record in records
            if record.due_date is None
            or ((start is None or record.due_date >= start) and (end is None or record.due_date <= end))
        ]

    def _practice(self, stmt: Any, start: datetime | None, end: datetime | None) -> list[PracticeRecord]:
        stmt = _window(stmt, PracticeRecordRow.practiced_at, start, end, inclusive_end=False)
        stmt = stmt.order_by(PracticeRecordRow.practiced_at.desc(), PracticeRecordRow.id)
        return [
            PracticeRecord(
                record_id=row.id,
                user_id=row.user_id,
                user_name=name,
                project_id=row.project_id,
                course_title=row.course_title,
                score=row.score,
                practiced_at=row.practiced_at,
                review_done=row.review_done,
                reviewed_at=row.reviewed_at,
            )
            for row, name in self._rows(stmt)
        ]

    def practice_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> list[PracticeRecord]:
        """Practice of one user in [start, end)."""
        stmt = (
            select(PracticeRecordRow, UserRow.display_name)
            .join(UserRow, UserRow.id == PracticeRecordRow.user_id)
            .where(PracticeRecordRow.tenant_id == tenant_id, PracticeRecordRow.user_id == user_id)
        )
        return self._practice(stmt, start, end)

    def team_practice(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> list[PracticeRecord]:
        """Practice of everyone in the given projects in [start, end)."""
        stmt = (
            select(PracticeRecordRow, UserRow.display_name)
            .join(UserRow, UserRow.id == PracticeRecordRow.user_id)
            .where(
                PracticeRecordRow.tenant_id == tenant_id, PracticeRecordRow.project_id.in_(list(project_ids))
            )
        )
        return self._practice(stmt, start, end)

    def _results(self, stmt: Any, start: datetime | None, end: datetime | None) -> list[WorkResultRecord]:
        stmt = _window(stmt, WorkResultRow.submitted_at, start, end, inclusive_end=False)
        stmt = stmt.order_by(WorkResultRow.submitted_at.desc(), WorkResultRow.id)
        return [
            WorkResultRecord(
                result_id=row.id,
                user_id=row.user_id,
                user_name=name,
                project_id=row.project_id,
                title=row.title,
                status=row.status,
                submitted_at=row.submitted_at,
            )
            for row, name in self._rows(stmt)
        ]

    def results_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> list[WorkResultRecord]:
        """Work results of one user submitted in [start, end)."""
        stmt = (
            select(WorkResultRow, UserRow.display_name)
            .join(UserRow, UserRow.id == WorkResultRow.user_id)
            .where(WorkResultRow.tenant_id == tenant_id, WorkResultRow.user_id == user_id)
        )
        return self._results(stmt, start, end)

    def team_results(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> list[WorkResultRecord]:
        """Work results in the given projects submitted in [start, end)."""
        stmt = (
            select(WorkResultRow, UserRow.display_name)
            .join(UserRow, UserRow.id == WorkResultRow.user_id)
            .where(WorkResultRow.tenant_id == tenant_id, WorkResultRow.project_id.in_(list(project_ids)))
        )
        return self._results(stmt, start, end)

    def progress_of(self, *, tenant_id: str, user_id: str) -> CandidateProgressRecord | None:
        """The candidate's hiring progress, if any."""
        stmt = select(CandidateProgressRow).where(
            CandidateProgressRow.tenant_id == tenant_id, CandidateProgressRow.user_id == user_id
        )
        rows = self._rows(stmt)
        if not rows:
            return None
        row: CandidateProgressRow = rows[0][0]
        return CandidateProgressRecord(
            user_id=row.user_id,
            stage=row.stage,
            stage_status=row.stage_status,
            documents=tuple(CandidateDocument.model_validate(doc) for doc in row.documents),
            next_step=row.next_step,
            updated_at=row.updated_at,
        )
