"""Live-data read tools: own tasks, practice, work results, candidate progress; team practice/results.

Each reads only the scope the policy gate authorized (user from the context, projects from
the decision) and returns VERIFIED_FACTs. Empty reads return an explicit NO_* fact, never
an empty answer: "no tasks" is a fact too (seed 001 §14.1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from typing import TypeVar
from zoneinfo import ZoneInfo

from pydantic import BaseModel, JsonValue

from shifu.contracts.common import ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import Observation, ToolResult, VerifiedFact
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import (
    DateRangeName,
    MyCurrentTasksArgs,
    PracticeSummaryArgs,
    TaskStatusFilter,
    TeamPracticeArgs,
    WorkResultsArgs,
)
from shifu.errors import Failure
from shifu.tools.facts import FactStamp
from shifu.tools.handlers import ToolHandler
from shifu.tools.ports import (
    CandidateProgressSource,
    PracticeSource,
    PracticeView,
    TaskSource,
    TaskView,
    TeamRoster,
    WorkResultSource,
    WorkResultView,
)
from shifu.tools.registry import ToolRegistry
from shifu.tools.windows import DateWindow, resolve_window, user_today

ArgsT = TypeVar("ArgsT", bound=BaseModel)

MAX_ITEMS = 20
"""Most items listed in one fact; counts always cover everything read."""

TASK_STATUS_LABELS = {"OPEN": "未完成", "DONE": "已完成", "OVERDUE": "已逾期"}
RESULT_STATUS_LABELS = {"SUBMITTED": "已提交待审核", "APPROVED": "已通过", "REJECTED": "已退回"}


def _day(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _score(value: float) -> float | int:
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded


class LiveDataTools:
    """The live-data handlers, bound to the domain read ports."""

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        tasks: TaskSource,
        practice: PracticeSource,
        results: WorkResultSource,
        candidates: CandidateProgressSource,
        roster: TeamRoster | None = None,
    ) -> None:
        self._registry = registry
        self._roster = roster
        self._tasks = tasks
        self._practice = practice
        self._results = results
        self._candidates = candidates

    def handlers(self) -> dict[ToolCode, ToolHandler]:
        """Handlers for the live-data tools."""
        return {
            ToolCode.MY_CURRENT_TASKS: self.my_current_tasks,
            ToolCode.MY_PRACTICE_SUMMARY: self.my_practice,
            ToolCode.TEAM_PRACTICE_SUMMARY: self.team_practice,
            ToolCode.MY_WORK_RESULTS: self.my_results,
            ToolCode.TEAM_WORK_RESULTS: self.team_results,
            ToolCode.MY_CANDIDATE_PROGRESS: self.candidate_progress,
        }

    def _stamp(
        self, ctx: ExecutionContext, code: ToolCode, source: str, project_ids: tuple[str, ...]
    ) -> FactStamp:
        spec = self._registry.get(code)
        return FactStamp(
            ctx=ctx,
            tool=code.value,
            label=spec.label,
            source_system=source,
            ttl_seconds=spec.ttl_seconds,
            policy=spec.authorization.value,
            project_ids=project_ids,
            queried_at=ctx.now,
        )

    @staticmethod
    def _result(call: ToolCall, facts: list[VerifiedFact], code: str, count: int) -> ToolResult:
        return ToolResult(
            call=call, status=ToolStatus.OK, facts=facts, observations=[Observation(code=code, count=count)]
        )

    # -- tasks -------------------------------------------------------------------------------

    def my_current_tasks(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """The principal's own tasks in the window, filtered by status (default: open) and kind."""
        args = _expect(args, MyCurrentTasksArgs)
        window = resolve_window(ctx, args.date_range, args.start_date, args.end_date)
        status = args.status or TaskStatusFilter.OPEN
        today = user_today(ctx)
        # "What do I have today" includes what is still open from earlier days.
        carry_overdue = args.date_range is DateRangeName.TODAY and status is TaskStatusFilter.OPEN
        rows = self._tasks.tasks_of(
            tenant_id=ctx.tenant_id,
            user_id=ctx.user_id,
            start=None if carry_overdue else window.start,
            end=window.end,
        )
        # Only work of projects the user belongs to now: a revoked membership revokes its tasks.
        selected = [
            row
            for row in rows
            if row.project_id in ctx.project_ids
            and _task_matches(row, status, today)
            and (args.kind is None or args.kind in row.kind or args.kind in row.title)
        ]
        selected.sort(key=_due_order)
        stamp = self._stamp(ctx, ToolCode.MY_CURRENT_TASKS, self._tasks.source_system, project_ids)
        bounds: dict[str, JsonValue] = {
            "startDate": _day(window.start),
            "endDate": _day(window.end),
            "statusFilter": status.value,
            **({"kindFilter": args.kind} if args.kind else {}),
        }
        if not selected:
            fact = stamp.fact("NO_TASKS", f"tasks:{ctx.user_id}:none", {"count": 0, **bounds})
            return self._result(call, [fact], "NO_TASKS", 0)
        facts = [
            stamp.fact(
                "TASKS_SUMMARY",
                f"tasks:{ctx.user_id}:summary",
                {
                    "count": len(selected),
                    "overdueCount": sum(_is_overdue(row, today) for row in selected),
                    "dueTodayCount": sum(row.due_date == today and row.status == "OPEN" for row in selected),
                    **bounds,
                },
            )
        ]
        facts += [stamp.fact("TASK", row.task_id, _task_value(row, today)) for row in selected[:MAX_ITEMS]]
        return self._result(call, facts, "TASKS", len(selected))

    # -- practice ----------------------------------------------------------------------------

    def my_practice(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """The principal's own practice records and pending reviews in the window."""
        args = _expect(args, PracticeSummaryArgs)
        window = resolve_window(ctx, args.date_range, args.start_date, args.end_date)
        rows = self._practice.practice_of(
            tenant_id=ctx.tenant_id,
            user_id=ctx.user_id,
            start=window.start_instant(),
            end=window.end_instant(),
        )
        stamp = self._stamp(ctx, ToolCode.MY_PRACTICE_SUMMARY, self._practice.source_system, project_ids)
        if not rows:
            return self._empty(call, stamp, "NO_PRACTICE_RECORDS", ctx.user_id, window)
        value: dict[str, JsonValue] = {
            "recordCount": len(rows),
            "averageScore": _score(sum(r.score for r in rows) / len(rows)),
            "pendingReviewCount": sum(not r.review_done for r in rows),
            "records": [_practice_item(r, window) for r in rows[:MAX_ITEMS]],
            **_bounds(window),
        }
        fact = stamp.fact("PRACTICE_SUMMARY", f"practice:{ctx.user_id}", value)
        return self._result(call, [fact], "PRACTICE_RECORDS", len(rows))

    def team_practice(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """Practice and pending reviews of the supervised projects the gate authorized.

        With `memberName`, only that member's records inside those projects: a name outside the
        team finds nothing, exactly like a member who did not practise. Over the whole team, the
        roster (when wired) names the members with no practice in the window ("谁还没练习").
        """
        args = _expect(args, TeamPracticeArgs)
        window = resolve_window(ctx, args.date_range, args.start_date, args.end_date)
        rows = self._practice.team_practice(
            tenant_id=ctx.tenant_id,
            project_ids=project_ids,
            start=window.start_instant(),
            end=window.end_instant(),
        )
        rows = [r for r in rows if r.project_id in project_ids]
        member = args.member_name
        if member:
            rows = [r for r in rows if r.user_name == member]
        stamp = self._stamp(ctx, ToolCode.TEAM_PRACTICE_SUMMARY, self._practice.source_system, project_ids)
        key = "team-practice:" + ",".join(project_ids) + (f":{member}" if member else "")
        named: dict[str, JsonValue] = {"memberName": member} if member else {}
        without = self._without_practice(ctx, project_ids, rows, member)
        if not rows:
            return self._empty(call, stamp, "NO_PRACTICE_RECORDS", key, window, {**named, **without})
        by_member: dict[str, list[PracticeView]] = defaultdict(list)
        for row in rows:
            by_member[row.user_name].append(row)
        pending = [r for r in rows if not r.review_done]
        value: dict[str, JsonValue] = {
            "memberCount": len(by_member),
            "recordCount": len(rows),
            "averageScore": _score(sum(r.score for r in rows) / len(rows)),
            "pendingReviewCount": len(pending),
            "pendingReview": [
                {"userName": r.user_name, **_practice_item(r, window)} for r in pending[:MAX_ITEMS]
            ],
            **named,
            **without,
            "members": [
                {
                    "userName": name,
                    "recordCount": len(items),
                    "averageScore": _score(sum(i.score for i in items) / len(items)),
                    "pendingReviewCount": sum(not i.review_done for i in items),
                }
                for name, items in sorted(by_member.items())
            ],
            **_bounds(window),
        }
        fact = stamp.fact("TEAM_PRACTICE_SUMMARY", key, value)
        return self._result(call, [fact], "PRACTICE_RECORDS", len(rows))

    def _without_practice(
        self,
        ctx: ExecutionContext,
        project_ids: tuple[str, ...],
        rows: Sequence[PracticeView],
        member: str | None,
    ) -> dict[str, JsonValue]:
        """The team's staff with no practice in the window (only over the whole team, with a roster)."""
        if member:
            return {}
        return self._staff_without(ctx, project_ids, {row.user_id for row in rows}, "membersWithoutPractice")

    def _staff_without(
        self, ctx: ExecutionContext, project_ids: tuple[str, ...], present: set[str], field: str
    ) -> dict[str, JsonValue]:
        """`field` → names of the projects' staff not among `present` (user ids), sorted; nothing
        without a roster (who is on the team is then unknown, so no one is said to be missing)."""
        if self._roster is None:
            return {}
        staff = self._roster.staff(ctx.tenant_id, project_ids)
        missing: list[JsonValue] = [
            *sorted(name for user_id, name in staff.items() if user_id not in present)
        ]
        return {field: missing}

    # -- work results ------------------------------------------------------------------------

    def my_results(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """The principal's own submitted work results in the window."""
        args = _expect(args, WorkResultsArgs)
        window = resolve_window(ctx, args.date_range, args.start_date, args.end_date)
        rows = self._results.results_of(
            tenant_id=ctx.tenant_id,
            user_id=ctx.user_id,
            start=window.start_instant(),
            end=window.end_instant(),
        )
        stamp = self._stamp(ctx, ToolCode.MY_WORK_RESULTS, self._results.source_system, project_ids)
        return self._results_fact(call, stamp, rows, f"results:{ctx.user_id}", window, team=False)

    def team_results(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """Work results of the supervised projects the gate authorized."""
        args = _expect(args, WorkResultsArgs)
        window = resolve_window(ctx, args.date_range, args.start_date, args.end_date)
        rows = self._results.team_results(
            tenant_id=ctx.tenant_id,
            project_ids=project_ids,
            start=window.start_instant(),
            end=window.end_instant(),
        )
        rows = [r for r in rows if r.project_id in project_ids]
        stamp = self._stamp(ctx, ToolCode.TEAM_WORK_RESULTS, self._results.source_system, project_ids)
        # 团队成果谁还没交: who on the team submitted nothing in the window (only with a roster).
        without = self._staff_without(ctx, project_ids, {r.user_id for r in rows}, "membersWithoutResults")
        return self._results_fact(
            call, stamp, rows, "team-results:" + ",".join(project_ids), window, team=True, extra=without
        )

    def _results_fact(
        self,
        call: ToolCall,
        stamp: FactStamp,
        rows: Sequence[WorkResultView],
        key: str,
        window: DateWindow,
        *,
        team: bool,
        extra: dict[str, JsonValue] | None = None,
    ) -> ToolResult:
        if not rows:
            return self._empty(call, stamp, "NO_WORK_RESULTS", key, window, extra)
        counts: dict[str, JsonValue] = {}
        for status in RESULT_STATUS_LABELS:
            counts[status] = sum(r.status == status for r in rows)
        items: list[JsonValue] = []
        for row in rows[:MAX_ITEMS]:
            item: dict[str, JsonValue] = {
                "title": row.title,
                "status": row.status,
                "statusLabel": RESULT_STATUS_LABELS.get(row.status, row.status),
                "submittedOn": row.submitted_at.astimezone(window.tz).date().isoformat(),
            }
            if team:
                item["userName"] = row.user_name
            items.append(item)
        value: dict[str, JsonValue] = {
            "count": len(rows),
            "byStatus": counts,
            "items": items,
            **(extra or {}),
            **_bounds(window),
        }
        fact = stamp.fact("TEAM_WORK_RESULTS" if team else "WORK_RESULTS", key, value)
        return self._result(call, [fact], "WORK_RESULTS", len(rows))

    # -- candidate ---------------------------------------------------------------------------

    def candidate_progress(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """The candidate's own stage, document statuses and next step."""
        record = self._candidates.progress_of(tenant_id=ctx.tenant_id, user_id=ctx.user_id)
        stamp = self._stamp(ctx, ToolCode.MY_CANDIDATE_PROGRESS, self._candidates.source_system, project_ids)
        key = f"candidate:{ctx.user_id}"
        if record is None:
            fact = stamp.fact("NO_CANDIDATE_PROGRESS", key, {"count": 0})
            return self._result(call, [fact], "NO_CANDIDATE_PROGRESS", 0)
        documents: list[JsonValue] = [{"name": d.name, "status": d.status} for d in record.documents]
        value: dict[str, JsonValue] = {
            "stage": record.stage,
            "stageStatus": record.stage_status,
            "documents": documents,
            "pendingDocumentCount": sum(d.status == "待补充" for d in record.documents),
            "nextStep": record.next_step,
            "updatedOn": record.updated_at.astimezone(ZoneInfo(ctx.timezone)).date().isoformat(),
        }
        return self._result(call, [stamp.fact("CANDIDATE_PROGRESS", key, value)], "CANDIDATE_PROGRESS", 1)

    @staticmethod
    def _empty(
        call: ToolCall,
        stamp: FactStamp,
        fact_type: str,
        key: str,
        window: DateWindow,
        extra: dict[str, JsonValue] | None = None,
    ) -> ToolResult:
        fact = stamp.fact(fact_type, f"{key}:none", {"count": 0, **(extra or {}), **_bounds(window)})
        return ToolResult(
            call=call, status=ToolStatus.OK, facts=[fact], observations=[Observation(code=fact_type, count=0)]
        )


def _expect(args: BaseModel, model: type[ArgsT]) -> ArgsT:
    """The validated arguments as the model this handler is registered with."""
    if not isinstance(args, model):
        raise Failure(code="ARGUMENT_MODEL_MISMATCH")
    return args


def _bounds(window: DateWindow) -> dict[str, JsonValue]:
    return {"startDate": _day(window.start), "endDate": _day(window.end)}


def _is_overdue(row: TaskView, today: date) -> bool:
    return row.status == "OPEN" and row.due_date is not None and row.due_date < today


def _due_order(row: TaskView) -> tuple[date, str]:
    """Earliest due first; work with no deadline after every dated item."""
    return (row.due_date or date.max, row.task_id)


def _task_matches(row: TaskView, status: TaskStatusFilter, today: date) -> bool:
    match status:
        case TaskStatusFilter.ALL:
            return True
        case TaskStatusFilter.OVERDUE:
            return _is_overdue(row, today)
        case _:
            return row.status == status.value


def _task_value(row: TaskView, today: date) -> dict[str, JsonValue]:
    state = "OVERDUE" if _is_overdue(row, today) else row.status
    return {
        "title": row.title,
        "kind": row.kind,
        "status": row.status,
        "statusLabel": TASK_STATUS_LABELS.get(state, state),
        "overdue": state == "OVERDUE",
        "dueDate": row.due_date.isoformat() if row.due_date else None,
        "projectId": row.project_id,
    }


def _practice_item(row: PracticeView, window: DateWindow) -> dict[str, JsonValue]:
    return {
        "courseTitle": row.course_title,
        "score": _score(row.score),
        "practicedOn": row.practiced_at.astimezone(window.tz).date().isoformat(),
        "reviewDone": row.review_done,
    }
