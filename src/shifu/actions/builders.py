"""Draft builders: turn a planned DRAFT tool call into a validated payload and a ticket.

Nothing here writes to a domain system. Names, projects and recipients are resolved on the
server from the ExecutionContext and the directory; the model only supplies business words
(content, a name as written, a topic, a date window).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from shifu.actions.payloads import (
    PAYLOAD_MODELS,
    MemoryPayload,
    PracticeAssignmentPayload,
    ReviewItem,
    ReviewPayload,
    Visibility,
    WorkReportPayload,
    payload_fields,
)
from shifu.actions.policy import ensure_may_draft
from shifu.actions.ports import PendingReviewSource, Person, TeamDirectory
from shifu.contracts.common import Contract, ToolCode
from shifu.contracts.context import ExecutionContext
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import TOOL_ARGUMENT_MODELS, DateRangeName, ReviewDraftArgs
from shifu.errors import BadRequest, Forbidden
from shifu.nlp.dates import anchor_relative_days

logger = logging.getLogger(__name__)

_TRIGGER = re.compile(
    r"^\s*(?:请|帮我|麻烦)?\s*(?:记一下|记下来|记下|记住|记录一下|备忘一下|备忘|提醒我)\s*[，,：:。\s]*"
)
_LOCATION = re.compile(
    r"(?:[A-Za-z]?\d+|[一二三四五六七八九十]+)\s*(?:栋|幢|号楼|座)\s*(?:\d+\s*单元\s*)?(?:\d{2,5}\s*(?:室|号)?)?"
)


_VISIBILITY_SAID = (
    (
        Visibility.PRIVATE,
        re.compile(
            r"[，,。；;\s]*(?:记成|存为|设为|作为)?(?:私人记录|私人的|仅自己可见|只有我能看|只给我看|私密)[。！!]?\s*$"
        ),
    ),
    (
        Visibility.COMPANY,
        re.compile(r"[，,。；;\s]*(?:记成|存为|设为|作为)?(?:公司记录|记到公司|公开记录)[。！!]?\s*$"),
    ),
)
"""记一下…，私人记录: the user chose who sees the note in the request; the phrase is not part of it."""


def said_visibility(text: str) -> tuple[str, Visibility | None]:
    """The note without a closing 私人记录 / 公司记录, and the visibility it names (None when none)."""
    for visibility, pattern in _VISIBILITY_SAID:
        if match := pattern.search(text):
            return text[: match.start()].strip(), visibility
    return text, None


def strip_trigger(text: str) -> str:
    """The note without its "记一下，" lead-in."""
    return _TRIGGER.sub("", text, count=1).strip()


def parse_location(text: str) -> str | None:
    """A building/room mention (3栋1201, 5号楼302室), whitespace removed."""
    match = _LOCATION.search(text)
    return re.sub(r"\s+", "", match.group(0)) if match else None


def resolve_window(args: ReviewDraftArgs, *, today: date) -> tuple[date | None, date | None]:
    """Named ranges → explicit dates (weeks start on Monday); explicit bounds pass through."""
    if args.date_range is None:
        return args.start_date, args.end_date
    name = args.date_range
    day = timedelta(days=1)
    if name in (DateRangeName.TODAY, DateRangeName.TOMORROW, DateRangeName.YESTERDAY):
        offset = {DateRangeName.TODAY: 0, DateRangeName.TOMORROW: 1, DateRangeName.YESTERDAY: -1}[name]
        single = today + offset * day
        return single, single
    if name in (DateRangeName.THIS_WEEK, DateRangeName.LAST_WEEK, DateRangeName.NEXT_WEEK):
        weeks = {DateRangeName.THIS_WEEK: 0, DateRangeName.LAST_WEEK: -1, DateRangeName.NEXT_WEEK: 1}[name]
        monday = today - today.weekday() * day + weeks * 7 * day
        return monday, monday + 6 * day
    months = {DateRangeName.THIS_MONTH: 0, DateRangeName.LAST_MONTH: -1, DateRangeName.NEXT_MONTH: 1}[name]
    index = today.year * 12 + today.month - 1 + months
    first = date(index // 12, index % 12 + 1, 1)
    following = date((index + 1) // 12, (index + 1) % 12 + 1, 1)
    return first, following - day


_REPORT_REQUEST_ONLY = re.compile(
    r"^(?:我|师傅)?(?:想|要|准备|打算)?(?:帮我)?(?:投稿|提交|上报|交|写)(?:一[个篇份条件]|个|下|一下)?(?:工作)?"
    r"(?:成果|好人好事|案例|稿子|稿件|先进事迹|事迹|工作成果)?(?:吧|啊)?[。！!？?]?$"
)
"""我想投稿一个好人好事 asks to start a submission and says nothing of what was done: the draft asks for
its content instead of submitting the request as the content."""
_REPORT_LEAD = re.compile(
    r"^(?:我|师傅)?(?:想|要)?(?:帮我)?(?:投稿|提交|上报)(?:一[个篇份条件]|个|一下)?(?:工作成果|好人好事|成果|案例)?"
    r"\s*[:：，,]\s*"
)
"""我想投稿：今天帮… : the request in front of the content is not part of what was done."""
_REPORT_TITLE = re.compile(
    r"^(?:题目|标题|名字|名称)(?:就)?(?:是|叫|为|叫做)?[:：]?\s*[「“《\"]?(?P<title>[^，,。；;！!？?」”》\"]+)[」”》\"]?"
    r"[，,。；;\s]*"
)
"""题目是电梯困人处置心得: the title the user gives, not a report whose text begins with 题目是."""


@dataclass(frozen=True)
class BuiltPayload:
    """A payload ready for a ticket, or the reason there is none."""

    payload: Contract | None
    missing: tuple[str, ...] = ()
    reason_code: str | None = None
    message: str | None = None
    forbidden: bool = False
    nothing_to_do: bool = False


def _current_project(ctx: ExecutionContext) -> str | None:
    if ctx.selected_project_id in ctx.project_ids:
        return ctx.selected_project_id
    return ctx.project_ids[0] if len(ctx.project_ids) == 1 else None


class PayloadBuilder:
    """Builds each draft tool's payload from validated arguments and server-side lookups."""

    def __init__(self, directory: TeamDirectory, reviews: PendingReviewSource, *, tz: ZoneInfo):
        self._directory = directory
        self._reviews = reviews
        self._tz = tz

    def build(self, ctx: ExecutionContext, call: ToolCall, *, now: datetime) -> BuiltPayload:
        """Validate the arguments against the registered schema, then build the tool's payload."""
        ensure_may_draft(ctx, call.tool)
        arguments = dict(call.arguments)
        content = str(arguments.get("content") or "").strip()
        if call.tool in (ToolCode.CAPTURE_MEMORY_DRAFT, ToolCode.WORK_REPORT_DRAFT) and (
            not content or (call.tool is ToolCode.WORK_REPORT_DRAFT and _REPORT_REQUEST_ONLY.match(content))
        ):
            arguments["content"] = "-"
            blank = True
        else:
            blank = False
        try:
            args: Any = TOOL_ARGUMENT_MODELS[call.tool].model_validate(arguments)
        except ValidationError as exc:
            raise BadRequest("草稿参数不符合要求。", code="INVALID_ARGUMENTS") from exc
        if call.tool is ToolCode.CAPTURE_MEMORY_DRAFT:
            return self._memory(ctx, "" if blank else args.content, today=now.astimezone(self._tz).date())
        if call.tool is ToolCode.WORK_REPORT_DRAFT:
            return self._work_report(ctx, args.title, "" if blank else args.content)
        if call.tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT:
            return self.practice(ctx, args.assignee_name, args.topic, args.due_date)
        return self._review(ctx, args, today=now.astimezone(self._tz).date())

    def _project_name(self, ctx: ExecutionContext, project_id: str | None) -> str | None:
        return self._directory.project_name(ctx.tenant_id, project_id) if project_id else None

    def _memory(self, ctx: ExecutionContext, raw: str, *, today: date) -> BuiltPayload:
        content, visibility = said_visibility(strip_trigger(raw))
        content = anchor_relative_days(content, today)
        project_id = _current_project(ctx)
        payload = MemoryPayload(
            content=content or None,
            location=parse_location(content) if content else None,
            project_id=project_id,
            project_name=self._project_name(ctx, project_id),
            visibility=visibility,
        )
        return BuiltPayload(payload, missing=() if content else ("content",))

    def _work_report(self, ctx: ExecutionContext, title: str | None, raw: str) -> BuiltPayload:
        content = _REPORT_LEAD.sub("", raw.strip()).strip()
        named = _REPORT_TITLE.match(content)
        if named is not None and not title:
            # Only a title given: it is also the text to confirm, so nothing is invented.
            title = named.group("title").strip()
            content = content[named.end() :].strip() or title
        project_id = _current_project(ctx)
        payload = WorkReportPayload(
            project_id=project_id,
            project_name=self._project_name(ctx, project_id),
            title=(title or content[:20]).strip() or None,
            content=content or None,
        )
        return BuiltPayload(payload, missing=() if content else ("content",))

    def practice(
        self, ctx: ExecutionContext, name: str | None, topic: str | None, due: date | None
    ) -> BuiltPayload:
        """Resolve the assignee among members of the supervised projects only."""
        if not ctx.supervised_project_ids:
            raise Forbidden("你当前没有负责的项目，不能指派训练。", code="NO_SUPERVISED_PROJECT")
        missing: list[str] = []
        assignee: Person | None = None
        project_id: str | None = None
        reason: str | None = None
        message: str | None = None
        if name and name.strip():
            people = list(self._directory.people_named(ctx.tenant_id, name))
            scoped = [p for p in people if set(p.project_ids) & set(ctx.supervised_project_ids)]
            if not scoped and people:
                return BuiltPayload(
                    None,
                    reason_code="ASSIGNEE_OUT_OF_SCOPE",
                    message=f"{name.strip()}不在你负责的项目内，不能指派。",
                    forbidden=True,
                )
            if len(scoped) == 1:
                assignee = scoped[0]
                projects = sorted(set(assignee.project_ids) & set(ctx.supervised_project_ids))
                project_id = ctx.selected_project_id if ctx.selected_project_id in projects else projects[0]
            else:
                missing.append("assigneeName")
                reason = "ASSIGNEE_AMBIGUOUS" if scoped else "ASSIGNEE_NOT_FOUND"
                message = (
                    f"你负责的项目里有多位“{name.strip()}”，请补充更具体的对象。"
                    if scoped
                    else f"你负责的项目里没有找到“{name.strip()}”，请确认指派对象。"
                )
        else:
            missing.append("assigneeName")
        if not (topic and topic.strip()):
            missing.append("topic")
        payload = PracticeAssignmentPayload(
            project_id=project_id,
            project_name=self._project_name(ctx, project_id),
            assignee_id=assignee.user_id if assignee else None,
            assignee_name=assignee.display_name if assignee else (name.strip() if name else None),
            topic=topic.strip() if topic else None,
            due_date=due,
        )
        return BuiltPayload(payload, missing=tuple(missing), reason_code=reason, message=message)

    def _review(self, ctx: ExecutionContext, args: ReviewDraftArgs, *, today: date) -> BuiltPayload:
        supervised = ctx.supervised_project_ids
        if not supervised:
            raise Forbidden("你当前没有负责的项目，不能发送待复盘名单。", code="NO_SUPERVISED_PROJECT")
        if ctx.selected_project_id in supervised:
            project_id: str = str(ctx.selected_project_id)
        elif len(supervised) == 1:
            project_id = supervised[0]
        else:
            return BuiltPayload(None, missing=("project",), reason_code="PROJECT_REQUIRED")
        recipient = self._directory.resolve_recipient(ctx.tenant_id, ctx.user_id, project_id, args.recipient)
        if recipient is None:
            return BuiltPayload(
                None,
                missing=("recipient",),
                reason_code="RECIPIENT_NOT_FOUND",
                message="没有找到可以接收名单的人，请说明发给谁（例如：主管）。",
            )
        start, end = resolve_window(args, today=today)
        pending: Sequence[Any] = self._reviews.pending_reviews(
            ctx.tenant_id, project_id, start=start, end=end
        )
        items = [
            ReviewItem(user_id=p.user_id, name=p.display_name, pending_count=p.pending_count)
            for p in pending
            if p.pending_count > 0
        ]
        if not items:
            return BuiltPayload(
                None,
                reason_code="NO_PENDING_REVIEWS",
                message="该项目当前没有待复盘的成员，无需生成发送草稿。",
                nothing_to_do=True,
            )
        payload = ReviewPayload(
            project_id=project_id,
            project_name=self._project_name(ctx, project_id),
            recipient_id=recipient.user_id,
            recipient_name=recipient.display_name,
            items=items,
            start_date=start,
            end_date=end,
        )
        return BuiltPayload(payload)


def rebuilt_fields(
    builder: PayloadBuilder, ctx: ExecutionContext, tool: ToolCode, fields: dict[str, Any]
) -> BuiltPayload:
    """Re-resolve server-side fields after an edit (an edited assignee name is looked up again)."""
    if tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT:
        due = fields.get("dueDate")
        return builder.practice(
            ctx, fields.get("assigneeName"), fields.get("topic"), date.fromisoformat(due) if due else None
        )
    payload = PAYLOAD_MODELS[tool].model_validate(fields)
    dumped = payload_fields(payload)
    content_missing = tool is not ToolCode.REVIEW_DRAFT and not str(dumped.get("content") or "").strip()
    return BuiltPayload(payload, missing=("content",) if content_missing else ())
