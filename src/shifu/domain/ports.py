"""Read ports of the company's domain systems (tasks, training, work results, hiring).

Each port has two adapters: `shifu.domain.embedded` over the SQL store (demo data) and
`shifu.domain.http` for real systems. Every method takes the scope explicitly; callers
pass only scope from the trusted ExecutionContext, never from a plan. Adapters raise
`shifu.errors.Unavailable` (down), `ToolTimeout` (slow), `Forbidden` (refused) or
`Failure` (anything else) — never an empty answer in place of an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Protocol

from shifu.domain.records import CandidateProgressRecord, PracticeRecord, TaskRecord, WorkResultRecord


class TaskReads(Protocol):
    """Reads a principal's own to-do list: work tasks and the trainings assigned to them.

    Seed 001 §6.2: "我今天有什么待办" is answered with 待办与训练任务, so a training a supervisor
    assigned is on the assignee's list (kind 训练) until it is done.
    """

    @property
    def source_system(self) -> str:
        """Name of the system of record, stamped on every fact."""
        ...

    def tasks_of(
        self, *, tenant_id: str, user_id: str, start: date | None, end: date | None
    ) -> list[TaskRecord]:
        """Tasks assigned to `user_id` whose due day is within [start, end] (None = open-ended);
        work with no due day is open in every window."""
        ...


class PracticeReads(Protocol):
    """Reads training practice, own or over a set of projects."""

    @property
    def source_system(self) -> str:
        """Name of the system of record."""
        ...

    def practice_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> list[PracticeRecord]:
        """Practice of one user in the half-open window [start, end)."""
        ...

    def team_practice(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> list[PracticeRecord]:
        """Practice of everyone in `project_ids` in the window."""
        ...


class WorkResultReads(Protocol):
    """Reads submitted work results, own or over a set of projects."""

    @property
    def source_system(self) -> str:
        """Name of the system of record."""
        ...

    def results_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> list[WorkResultRecord]:
        """Results of one user submitted in the window."""
        ...

    def team_results(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> list[WorkResultRecord]:
        """Results of everyone in `project_ids` submitted in the window."""
        ...


class CandidateProgressReads(Protocol):
    """Reads a candidate's own hiring progress."""

    @property
    def source_system(self) -> str:
        """Name of the system of record."""
        ...

    def progress_of(self, *, tenant_id: str, user_id: str) -> CandidateProgressRecord | None:
        """The candidate's progress, or None when there is no hiring record."""
        ...
