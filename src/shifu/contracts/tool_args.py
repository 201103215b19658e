"""Registered argument schemas of every tool (invariant 9).

Shared by the planners' validators and by the tool registry, which validates again at
execution. None of these models has a scope field: tenant, user, project, space and app
are injected from ExecutionContext only.
"""

from __future__ import annotations

from datetime import date
from enum import StrEnum

from pydantic import Field, model_validator

from shifu.contracts.common import Contract, ToolCode


class DateRangeName(StrEnum):
    """Named relative date ranges a live-data tool accepts."""

    TODAY = "TODAY"
    TOMORROW = "TOMORROW"
    YESTERDAY = "YESTERDAY"
    THIS_WEEK = "THIS_WEEK"
    LAST_WEEK = "LAST_WEEK"
    NEXT_WEEK = "NEXT_WEEK"
    THIS_MONTH = "THIS_MONTH"
    LAST_MONTH = "LAST_MONTH"
    NEXT_MONTH = "NEXT_MONTH"


class TaskStatusFilter(StrEnum):
    """Task states MY_CURRENT_TASKS can filter on."""

    OPEN = "OPEN"
    OVERDUE = "OVERDUE"
    DONE = "DONE"
    ALL = "ALL"


class _DateWindow(Contract):
    """A date window given by name or by explicit bounds, never both."""

    date_range: DateRangeName | None = None
    """Named relative range, resolved server-side."""
    start_date: date | None = None
    """Explicit first day, inclusive."""
    end_date: date | None = None
    """Explicit last day, inclusive."""

    @model_validator(mode="after")
    def _one_kind_of_window(self) -> _DateWindow:
        if self.date_range is not None and (self.start_date or self.end_date):
            raise ValueError("give dateRange or startDate/endDate, not both")
        if self.start_date and self.end_date and self.start_date > self.end_date:
            raise ValueError("startDate is after endDate")
        return self


class KnowledgeSearchArgs(Contract):
    """KNOWLEDGE_SEARCH takes a query and a domain, nothing else (never a date range)."""

    query: str = Field(min_length=1, max_length=500)
    """What to search for."""
    domain: str | None = Field(default=None, max_length=40)
    """Business domain hint."""
    focus: str | None = Field(default=None, max_length=40)
    """Keyword cues for one evidence slot (金额 标准), added to the keyword leg only: a follow-up
    round searches the same question again, so the question's meaning (its vector) is unchanged."""


class ResourceKind(StrEnum):
    """What kind of original a resource is."""

    FILE = "FILE"
    VIDEO = "VIDEO"


class KnowledgeResourceArgs(Contract):
    """Deliver the original of a cited document: by citation reference or by search query."""

    citation_id: str | None = Field(default=None, max_length=80)
    """Citation id from this conversation's state (resolved server-side)."""
    query: str | None = Field(default=None, max_length=500)
    """Search query naming the document when no citation is referenced."""
    kind: ResourceKind = ResourceKind.FILE
    """File or video."""

    @model_validator(mode="after")
    def _needs_target(self) -> KnowledgeResourceArgs:
        if not self.citation_id and not self.query:
            raise ValueError("citationId or query is required")
        return self


class MyCurrentTasksArgs(_DateWindow):
    """MY_CURRENT_TASKS: dateRange/startDate/endDate, status and kind only."""

    status: TaskStatusFilter | None = None
    """Which tasks; default open ones."""
    kind: str | None = Field(default=None, min_length=1, max_length=20)
    """Only tasks of this kind or naming it in their title ("我的回访任务" → 回访)."""


class PracticeSummaryArgs(_DateWindow):
    """MY_PRACTICE_SUMMARY: a date window only."""


class TeamPracticeArgs(_DateWindow):
    """TEAM_PRACTICE_SUMMARY: a date window, optionally one member of the supervised team."""

    member_name: str | None = Field(default=None, max_length=40)
    """Only this member's records ("孙八最近练得怎么样"); resolved inside the authorized projects."""


class WorkResultsArgs(_DateWindow):
    """MY_WORK_RESULTS and TEAM_WORK_RESULTS: a date window only."""


class NoArgs(Contract):
    """A tool that takes no business arguments."""


class CapabilityQueryArgs(Contract):
    """CAPABILITY_QUERY: optionally, the system the user asked about (e.g. CRM)."""

    requested_system: str | None = Field(default=None, max_length=40)
    """A system name mentioned in the question."""


class CaptureMemoryDraftArgs(Contract):
    """CAPTURE_MEMORY_DRAFT: what to remember."""

    content: str = Field(min_length=1, max_length=500)
    """The note as the user phrased it."""


class PracticeAssignmentDraftArgs(Contract):
    """PRACTICE_ASSIGNMENT_DRAFT: assign a training to a team member (resolved in scope)."""

    assignee_name: str | None = Field(default=None, max_length=40)
    """Name of the team member; resolved by the tool within the supervisor's projects."""
    topic: str | None = Field(default=None, max_length=100)
    """Training topic."""
    due_date: date | None = None
    """When it is due."""


class ReviewDraftArgs(_DateWindow):
    """REVIEW_DRAFT: send the list of pending reviews to a recipient role."""

    recipient: str | None = Field(default=None, max_length=40)
    """Recipient as the user named it (主管, 项目经理); resolved by the tool."""


class WorkReportDraftArgs(Contract):
    """WORK_REPORT_DRAFT: submit a work result."""

    title: str | None = Field(default=None, max_length=100)
    """Short title."""
    content: str = Field(min_length=1, max_length=1000)
    """What was done."""


class MediaAnalyzeArgs(Contract):
    """MEDIA_ANALYZE: the question about the current attachment(s)."""

    question: str = Field(min_length=1, max_length=500)
    """What to look for."""


class WebResearchArgs(Contract):
    """WEB_RESEARCH: the query to send outside, after consent."""

    query: str = Field(min_length=1, max_length=500)
    """The outbound query; never contains personal data."""


TOOL_ARGUMENT_MODELS: dict[ToolCode, type[Contract]] = {
    ToolCode.KNOWLEDGE_SEARCH: KnowledgeSearchArgs,
    ToolCode.KNOWLEDGE_RESOURCE: KnowledgeResourceArgs,
    ToolCode.MY_CURRENT_TASKS: MyCurrentTasksArgs,
    ToolCode.MY_PRACTICE_SUMMARY: PracticeSummaryArgs,
    ToolCode.TEAM_PRACTICE_SUMMARY: TeamPracticeArgs,
    ToolCode.MY_WORK_RESULTS: WorkResultsArgs,
    ToolCode.TEAM_WORK_RESULTS: WorkResultsArgs,
    ToolCode.MY_CANDIDATE_PROGRESS: NoArgs,
    ToolCode.CAPABILITY_QUERY: CapabilityQueryArgs,
    ToolCode.CAPTURE_MEMORY_DRAFT: CaptureMemoryDraftArgs,
    ToolCode.PRACTICE_ASSIGNMENT_DRAFT: PracticeAssignmentDraftArgs,
    ToolCode.REVIEW_DRAFT: ReviewDraftArgs,
    ToolCode.WORK_REPORT_DRAFT: WorkReportDraftArgs,
    ToolCode.MEDIA_ANALYZE: MediaAnalyzeArgs,
    ToolCode.WEB_RESEARCH: WebResearchArgs,
}
"""The one server-registered schema per tool code."""
