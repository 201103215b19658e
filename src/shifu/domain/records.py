"""Records the domain systems return: the shapes on the wire and in the embedded store.

They are frozen contracts (camelCase JSON) so that the embedded adapter and the HTTP
adapter hand back exactly the same values, and the fake domain server can serve them.
"""

from __future__ import annotations

from datetime import date, datetime

from shifu.contracts.common import Contract


class TaskRecord(Contract):
    """One to-do of the principal."""

    task_id: str
    """Id in the task system."""
    project_id: str
    """Project the task belongs to."""
    title: str
    """Task title."""
    kind: str
    """工单, 巡检, 回访 …"""
    status: str
    """OPEN or DONE."""
    due_date: date | None
    """Due day; None for work with no deadline (a training assigned without one)."""
    created_at: datetime
    """When the task was created."""


class PracticeRecord(Contract):
    """One training practice and whether its review (复盘) is done."""

    record_id: str
    """Id in the training system."""
    user_id: str
    """Who practised."""
    user_name: str
    """Display name of who practised."""
    project_id: str
    """Project of the practice."""
    course_title: str
    """Course practised."""
    score: float
    """Score of the practice."""
    practiced_at: datetime
    """When it happened."""
    review_done: bool
    """Whether the 复盘 is done."""
    reviewed_at: datetime | None = None
    """When the 复盘 was done."""


class WorkResultRecord(Contract):
    """One submitted work result."""

    result_id: str
    """Id in the work-result system."""
    user_id: str
    """Submitter."""
    user_name: str
    """Display name of the submitter."""
    project_id: str
    """Project."""
    title: str
    """Title."""
    status: str
    """SUBMITTED, APPROVED or REJECTED."""
    submitted_at: datetime
    """When it was submitted."""


class CandidateDocument(Contract):
    """One document a candidate must provide."""

    name: str
    """Document name (身份证复印件 …)."""
    status: str
    """已提交, 待补充 or 已审核."""


class CandidateProgressRecord(Contract):
    """A candidate's hiring stage and document status."""

    user_id: str
    """The candidate."""
    stage: str
    """初试, 复试, 体检 or 入职."""
    stage_status: str
    """Status within the stage."""
    documents: tuple[CandidateDocument, ...] = ()
    """Required documents and their status."""
    next_step: str | None = None
    """What happens next."""
    updated_at: datetime
    """Last change."""
