"""From an intent, a chosen tool set and the extracted entities to schema-valid tool calls.

The intent → allowed tool sets table is the planner's half of seed 001 §6.1/§6.2: each
intent has its default tools, and the only multi-tool plans are the predefined
combinations (待办 + 流程, 图片 + SOP, 训练 + SOP). Which allowed set applies is decided
by the learned tool-set scores, not here. Arguments come from the deterministic
entities; every call is validated against `TOOL_ARGUMENT_MODELS` before it leaves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from shifu.contracts.common import Intent, ToolCode
from shifu.contracts.entities import DateSpan, ExtractedEntities
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import TOOL_ARGUMENT_MODELS, DateRangeName
from shifu.planning.draft_args import practice_topic
from shifu.planning.uncovered import uncovered_action, uncovered_data

ToolSet = frozenset[ToolCode]
T = ToolCode

PREDEFINED_COMBINATIONS: frozenset[ToolSet] = frozenset(
    {
        frozenset({T.MY_CURRENT_TASKS, T.KNOWLEDGE_SEARCH}),
        frozenset({T.MEDIA_ANALYZE, T.KNOWLEDGE_SEARCH}),
        frozenset({T.MY_PRACTICE_SUMMARY, T.KNOWLEDGE_SEARCH}),
    }
)
"""The only plans with more than one tool (seed 001 §6.2 rule 1)."""

INTENT_TOOL_SETS: dict[Intent, tuple[ToolSet, ...]] = {
    Intent.KNOWLEDGE_QA: (frozenset({T.KNOWLEDGE_SEARCH}),),
    Intent.RESOURCE_DELIVERY: (frozenset({T.KNOWLEDGE_RESOURCE}),),
    Intent.LIVE_MY_WORK: (
        frozenset({T.MY_CURRENT_TASKS}),
        frozenset({T.MY_PRACTICE_SUMMARY}),
        frozenset({T.MY_WORK_RESULTS}),
        frozenset({T.MY_CANDIDATE_PROGRESS}),
        frozenset({T.MY_CURRENT_TASKS, T.KNOWLEDGE_SEARCH}),
    ),
    Intent.LIVE_TEAM_WORK: (frozenset({T.TEAM_PRACTICE_SUMMARY}), frozenset({T.TEAM_WORK_RESULTS})),
    Intent.PRACTICE_COACHING: (
        frozenset({T.MY_PRACTICE_SUMMARY}),
        frozenset({T.MY_PRACTICE_SUMMARY, T.KNOWLEDGE_SEARCH}),
    ),
    Intent.CAPTURE_FACT: (frozenset({T.CAPTURE_MEMORY_DRAFT}),),
    Intent.DRAFT_ACTION: (
        frozenset({T.WORK_REPORT_DRAFT}),
        frozenset({T.PRACTICE_ASSIGNMENT_DRAFT}),
        frozenset({T.REVIEW_DRAFT}),
    ),
    Intent.MEDIA_UNDERSTANDING: (
        frozenset({T.MEDIA_ANALYZE}),
        frozenset({T.MEDIA_ANALYZE, T.KNOWLEDGE_SEARCH}),
    ),
    Intent.WEB_RESEARCH: (frozenset({T.WEB_RESEARCH}),),
    Intent.CAPABILITY_QUERY: (frozenset({T.CAPABILITY_QUERY}),),
    Intent.SOCIAL: (frozenset(),),
    Intent.CLARIFY: (frozenset(),),
}
"""Tool sets each intent may use; the first is the default."""

TOOL_ORDER: tuple[ToolCode, ...] = (
    *tuple(t for t in ToolCode if t is not T.KNOWLEDGE_SEARCH),
    T.KNOWLEDGE_SEARCH,
)
"""Call order: live data and media first, the document search last."""
DRAFT_TOOLS = frozenset(
    {T.CAPTURE_MEMORY_DRAFT, T.PRACTICE_ASSIGNMENT_DRAFT, T.REVIEW_DRAFT, T.WORK_REPORT_DRAFT}
)
EXTERNAL_TOOLS = frozenset({T.WEB_RESEARCH})
_WINDOW_TOOLS = frozenset(
    {
        T.MY_CURRENT_TASKS,
        T.MY_PRACTICE_SUMMARY,
        T.TEAM_PRACTICE_SUMMARY,
        T.MY_WORK_RESULTS,
        T.TEAM_WORK_RESULTS,
        T.REVIEW_DRAFT,
    }
)

_SYSTEM_NAME = re.compile(
    r"[A-Za-z]{2,10}|(?:财务|考勤|工单|门禁|停车|收费|报销|人事|合同|采购|客服|审批|招聘)系统|钉钉|企业微信|飞书"
)
_CAPTURE_PREFIX = re.compile(
    r"^(?:帮我|麻烦|请)?(?:记一下|记下来|记下|记住|备忘一下|备忘|记个事)[，,：:。\s]*"
)
_RECIPIENT = re.compile(r"项目经理|主管|经理|组长|领班")
_VIDEO = re.compile(r"视频|录像")
_TASK_KINDS = {"回访": "回访", "巡检": "巡检", "巡查": "巡检", "维修": "维修", "整改": "整改", "训练": "训练"}
"""Kinds of work a listing can be narrowed to (我的回访任务), each with the word task titles or kinds use
(an assigned training is listed as a task of kind 训练). 工单, 任务 and 待办 name work in general."""
_TASK_KIND = re.compile("|".join(_TASK_KINDS))
_OVERDUE = re.compile(r"逾期|超期|过期|延期|拖了")
_DONE = re.compile(
    r"(?<!没有)(?<!还没)(?<![没未不])(?:已完成|做完的|完成了的|已经完成|(?:完成|做完|干完)了(?=几|多少|哪|什么))"
)
"""Done work (完成了几个任务, 做完了哪些); never "没做完的" or "未完成" (those are the open tasks, the
default)."""


def choose_tool_set(intent: Intent, ranked: Sequence[tuple[ToolSet, float]]) -> ToolSet:
    """The best-scored tool set the intent allows (the intent's default when none scored)."""
    allowed = INTENT_TOOL_SETS[intent]
    for tools, _score in ranked:
        if tools in allowed:
            return tools
    return allowed[0]


def widen_with_search(intent: Intent, tools: ToolSet) -> ToolSet:
    """Add KNOWLEDGE_SEARCH when the question also needs a document and a predefined combination allows it."""
    widened = tools | {T.KNOWLEDGE_SEARCH}
    return widened if widened in INTENT_TOOL_SETS[intent] else tools


def named_range(span: DateSpan, today: date) -> DateRangeName | None:
    """The named range a resolved span equals, if any (so the tool resolves it server-side)."""
    monday = today - timedelta(days=today.weekday())
    first = today.replace(day=1)
    last_month_end = first - timedelta(days=1)
    next_month_start = (first + timedelta(days=32)).replace(day=1)
    next_month_end = (next_month_start + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    candidates = {
        DateRangeName.TODAY: (today, today),
        DateRangeName.TOMORROW: (today + timedelta(days=1),) * 2,
        DateRangeName.YESTERDAY: (today - timedelta(days=1),) * 2,
        DateRangeName.THIS_WEEK: (monday, monday + timedelta(days=6)),
        DateRangeName.LAST_WEEK: (monday - timedelta(days=7), monday - timedelta(days=1)),
        DateRangeName.NEXT_WEEK: (monday + timedelta(days=7), monday + timedelta(days=13)),
        DateRangeName.THIS_MONTH: (first, next_month_start - timedelta(days=1)),
        DateRangeName.LAST_MONTH: (last_month_end.replace(day=1), last_month_end),
        DateRangeName.NEXT_MONTH: (next_month_start, next_month_end),
    }
    for name, (start, end) in candidates.items():
        if (span.start, span.end) == (start, end):
            return name
    return None


def date_window(dates: Sequence[DateSpan], today: date) -> dict[str, Any]:
    """The window arguments for the last date mentioned (a correction names the right one last)."""
    if not dates:
        return {}
    span = dates[-1]
    name = named_range(span, today)
    if name is not None:
        return {"dateRange": name.value}
    return {"startDate": span.start.isoformat(), "endDate": span.end.isoformat()}


def _strip_persons(text: str, entities: ExtractedEntities) -> str:
    for person in entities.persons:
        text = text.replace(person.name, "")
    return text.strip() or "网络检索"


def arguments_for(
    tool: ToolCode,
    *,
    query: str,
    question: str,
    domain: str | None,
    entities: ExtractedEntities,
    dates: Sequence[DateSpan],
    today: date,
    citation_id: str | None,
) -> dict[str, Any]:
    """Business arguments for one tool; scope fields never appear here."""
    if tool is T.KNOWLEDGE_SEARCH:
        return {"query": query[:500], **({"domain": domain} if domain else {})}
    if tool is T.KNOWLEDGE_RESOURCE:
        kind = {"kind": "VIDEO"} if _VIDEO.search(question) else {}
        return {"citationId": citation_id, **kind} if citation_id else {"query": query[:500], **kind}
    if tool in _WINDOW_TOOLS:
        args = date_window(dates, today)
        if tool is T.MY_CURRENT_TASKS and _OVERDUE.search(question):
            args["status"] = "OVERDUE"
        elif tool is T.MY_CURRENT_TASKS and _DONE.search(question):
            args["status"] = "DONE"
        if tool is T.MY_CURRENT_TASKS and (task_kind := _TASK_KIND.search(question)):
            args["kind"] = _TASK_KINDS[task_kind.group(0)]
        if tool is T.REVIEW_DRAFT and (recipient := _RECIPIENT.search(question)):
            args["recipient"] = recipient.group(0)
        if tool is T.TEAM_PRACTICE_SUMMARY and len(entities.persons) == 1:
            args["memberName"] = entities.persons[0].name
        return args
    if tool is T.CAPABILITY_QUERY:
        system = _SYSTEM_NAME.search(question)
        requested = (
            system.group(0).upper() if system else uncovered_data(question) or uncovered_action(question)
        )
        return {"requestedSystem": requested} if requested else {}
    if tool is T.CAPTURE_MEMORY_DRAFT:
        return {"content": (_CAPTURE_PREFIX.sub("", question) or question)[:500]}
    if tool is T.PRACTICE_ASSIGNMENT_DRAFT:
        assignment: dict[str, Any] = {}
        if entities.persons:
            assignment["assigneeName"] = entities.persons[0].name
        if topic := practice_topic(question, entities):
            assignment["topic"] = topic
        single_days = [d for d in dates if d.start == d.end]
        if single_days:
            assignment["dueDate"] = single_days[-1].start.isoformat()
        return assignment
    if tool is T.WORK_REPORT_DRAFT:
        return {"content": question[:1000]}
    if tool is T.MEDIA_ANALYZE:
        return {"question": question[:500]}
    if tool is T.WEB_RESEARCH:
        return {"query": _strip_persons(query, entities)[:500]}
    return {}


def build_tool_calls(tools: ToolSet, **context: Any) -> list[ToolCall]:
    """Schema-valid calls for a tool set, in the catalogue's order (live data before documents)."""
    calls: list[ToolCall] = []
    for tool in sorted(tools, key=TOOL_ORDER.index):
        args = arguments_for(tool, **context)
        validated = TOOL_ARGUMENT_MODELS[tool].model_validate(args)
        calls.append(
            ToolCall(tool=tool, arguments=validated.model_dump(mode="json", by_alias=True, exclude_none=True))
        )
    return calls
