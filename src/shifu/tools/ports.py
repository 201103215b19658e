"""Ports the tools read through, declared here so that tools never import an adapter package.

Domain adapters (`shifu.domain.embedded`, `shifu.domain.http`) and the knowledge base
satisfy these structurally; the runtime wires them. Record views are read-only Protocols
so any record type with these attributes fits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from shifu.contracts.common import Role
from shifu.contracts.evidence import DocumentEvidence, ResourceRef


class TaskView(Protocol):
    """A task as the task system reports it."""

    @property
    def task_id(self) -> str: ...
    @property
    def project_id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def due_date(self) -> date | None: ...


class PracticeView(Protocol):
    """A practice record as the training system reports it."""

    @property
    def record_id(self) -> str: ...
    @property
    def user_id(self) -> str: ...
    @property
    def user_name(self) -> str: ...
    @property
    def project_id(self) -> str: ...
    @property
    def course_title(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def practiced_at(self) -> datetime: ...
    @property
    def review_done(self) -> bool: ...


class WorkResultView(Protocol):
    """A work result as the work-result system reports it."""

    @property
    def result_id(self) -> str: ...
    @property
    def user_id(self) -> str: ...
    @property
    def user_name(self) -> str: ...
    @property
    def project_id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def submitted_at(self) -> datetime: ...


class CandidateDocumentView(Protocol):
    """One required hiring document."""

    @property
    def name(self) -> str: ...
    @property
    def status(self) -> str: ...


class CandidateProgressView(Protocol):
    """A candidate's hiring progress."""

    @property
    def stage(self) -> str: ...
    @property
    def stage_status(self) -> str: ...
    @property
    def documents(self) -> Sequence[CandidateDocumentView]: ...
    @property
    def next_step(self) -> str | None: ...
    @property
    def updated_at(self) -> datetime: ...


class TaskSource(Protocol):
    """Reads the principal's own tasks (see shifu.domain.ports.TaskReads)."""

    @property
    def source_system(self) -> str: ...

    def tasks_of(
        self, *, tenant_id: str, user_id: str, start: date | None, end: date | None
    ) -> Sequence[TaskView]: ...


class PracticeSource(Protocol):
    """Reads practice records, own or team (see shifu.domain.ports.PracticeReads)."""

    @property
    def source_system(self) -> str: ...

    def practice_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> Sequence[PracticeView]: ...

    def team_practice(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> Sequence[PracticeView]: ...


class TeamRoster(Protocol):
    """Who belongs to a set of projects (the org snapshot, not the practice system)."""

    def staff(self, tenant_id: str, project_ids: Sequence[str]) -> Mapping[str, str]:
        """User id → display name of the active staff (not the supervisors) of `project_ids`."""
        ...


class WorkResultSource(Protocol):
    """Reads work results, own or team (see shifu.domain.ports.WorkResultReads)."""

    @property
    def source_system(self) -> str: ...

    def results_of(
        self, *, tenant_id: str, user_id: str, start: datetime | None, end: datetime | None
    ) -> Sequence[WorkResultView]: ...

    def team_results(
        self, *, tenant_id: str, project_ids: Sequence[str], start: datetime | None, end: datetime | None
    ) -> Sequence[WorkResultView]: ...


class CandidateProgressSource(Protocol):
    """Reads the candidate's own progress (see shifu.domain.ports.CandidateProgressReads)."""

    @property
    def source_system(self) -> str: ...

    def progress_of(self, *, tenant_id: str, user_id: str) -> CandidateProgressView | None: ...


@dataclass(frozen=True, slots=True)
class KnowledgeAccess:
    """The trusted scope a knowledge search runs under, built from ExecutionContext only."""

    tenant_id: str
    user_id: str
    role: Role
    space_ids: tuple[str, ...]
    project_ids: tuple[str, ...]
    conversation_id: str | None
    now: datetime
    on_date: date
    """The user's calendar day (in ExecutionContext.timezone), for effective-date filtering."""


class KnowledgeSearchPort(Protocol):
    """Governed knowledge search (implemented by the knowledge base, adapted by the runtime)."""

    def search(
        self, query: str, *, domain: str | None, access: KnowledgeAccess, focus: str | None = None
    ) -> list[DocumentEvidence]:
        """Gated fragments the access may read, best first (`focus` steers the keyword leg only)."""
        ...


class KnowledgeResourcePort(Protocol):
    """Issues short-lived links to protected originals, re-authorized at issue time."""

    def issue_resource(
        self, *, access: KnowledgeAccess, citation_id: str | None, query: str | None, kind: str
    ) -> list[ResourceRef]:
        """Resources the access may download now; empty when none is authorized."""
        ...
