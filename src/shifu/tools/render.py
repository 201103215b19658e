"""Chinese answer text for live facts, rendered only from the facts' own fields.

Every count, date and score in the text is read from a VERIFIED_FACT's value, so the
answer can never state a number the domain system did not return (tested by extracting
the digits of the text and finding each in the facts). Lists use bullets, not numbering,
for the same reason. Failed calls get a fixed Chinese status message, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from shifu.contracts.common import ToolStatus
from shifu.contracts.evidence import ToolResult, VerifiedFact

STATUS_MESSAGES: dict[ToolStatus, str] = {
    ToolStatus.FORBIDDEN: "当前账号无权查询这项内容。",
    ToolStatus.UNAVAILABLE: "业务系统暂时不可用，暂时无法读取实时数据，请稍后再试。",
    ToolStatus.TIMEOUT: "业务系统响应超时，暂时无法读取实时数据，请稍后再试。",
    ToolStatus.FAILED: "查询没有成功完成，请稍后再试。",
    ToolStatus.INVALID_ARGUMENTS: "查询条件不完整或不正确，请换个说法再试。",
    ToolStatus.NO_RESULT: "没有查到相关内容。",
    ToolStatus.DEDUPLICATED: "同样的查询本次已经执行过。",
}
"""User-facing message per non-OK status; NO_EVIDENCE, UNAVAILABLE and FORBIDDEN stay distinct."""

_BULLET = "・"


def status_message(result: ToolResult) -> str:
    """The Chinese message for a call that did not return data."""
    return STATUS_MESSAGES.get(result.status, STATUS_MESSAGES[ToolStatus.FAILED])


def _s(value: JsonValue) -> str:
    return "" if value is None else str(value)


def month_day(day: JsonValue) -> str:
    """`2025-06-10` → `6月10日` (digits taken from the fact's date string)."""
    text = _s(day)
    parts = text.split("-")
    if len(parts) != 3:
        return text
    return f"{parts[1].lstrip('0')}月{parts[2].lstrip('0')}日"


def _window(value: dict[str, JsonValue]) -> str:
    start, end = value.get("startDate"), value.get("endDate")
    if start and end:
        return f"{month_day(start)}" if start == end else f"{month_day(start)}至{month_day(end)}"
    if start:
        return f"{month_day(start)}起"
    if end:
        return f"截至{month_day(end)}"
    return "目前"


def _items(value: JsonValue) -> list[dict[str, JsonValue]]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


_TASK_COUNTS = {
    "DONE": ("你没有已完成的{kind}任务。", "你已完成 {count} 项{kind}任务"),
    "OVERDUE": ("你没有逾期的{kind}待办。", "你有 {count} 项已逾期的{kind}待办"),
    "ALL": ("你没有{kind}任务。", "你共有 {count} 项{kind}任务"),
}
"""How a task listing filtered by status (and kind: 回访待办) reads (empty, counted); open work reads
as 待办."""
_OPEN_TASKS = ("你没有需要处理的{kind}待办。", "你共有 {count} 项{kind}待办")


def _tasks(facts: Sequence[VerifiedFact]) -> list[str]:
    lines: list[str] = []
    for fact in facts:
        v = fact.value
        empty, counted = _TASK_COUNTS.get(_s(v.get("statusFilter")), _OPEN_TASKS)
        kind = _s(v.get("kindFilter"))
        if fact.fact_type == "NO_TASKS":
            lines.append(f"{_window(v)}{empty.format(kind=kind)}")
        elif fact.fact_type == "TASKS_SUMMARY":
            text = f"{_window(v)}{counted.format(count=_s(v['count']), kind=kind)}"
            if v.get("overdueCount") and v.get("statusFilter") != "OVERDUE":
                text += f"，其中 {_s(v['overdueCount'])} 项已逾期"
            lines.append(text + "：")
        elif fact.fact_type == "TASK":
            due = f"截止{month_day(v['dueDate'])}" if v.get("dueDate") else "无截止日期"
            lines.append(f"{_BULLET}{_s(v['title'])}（{_s(v['kind'])}，{due}，{_s(v['statusLabel'])}）")
    return lines


def _practice(fact: VerifiedFact) -> list[str]:
    v = fact.value
    who = _s(v.get("memberName"))
    if fact.fact_type == "NO_PRACTICE_RECORDS":
        return [f"{_window(v)}{who}没有训练记录。", *_without_practice(v)]
    if fact.fact_type == "PRACTICE_SUMMARY":
        lines = [
            f"{_window(v)}你共练习 {_s(v['recordCount'])} 次，平均 {_s(v['averageScore'])} 分，"
            f"待复盘 {_s(v['pendingReviewCount'])} 次："
        ]
        for item in _items(v.get("records")):
            review = "已复盘" if item.get("reviewDone") else "待复盘"
            day = month_day(item["practicedOn"])
            lines.append(f"{_BULLET}{_s(item['courseTitle'])}：{_s(item['score'])} 分（{day}，{review}）")
        return lines
    if who:
        return _member_practice(v, who)
    lines = [
        f"{_window(v)}团队中有 {_s(v['memberCount'])} 人练习过，共 {_s(v['recordCount'])} 次，"
        f"平均 {_s(v['averageScore'])} 分，待复盘 {_s(v['pendingReviewCount'])} 次："
    ]
    lines += [_pending_review(item, named=True) for item in _items(v.get("pendingReview"))]
    return lines + _without_practice(v)


def _without_practice(v: dict[str, JsonValue]) -> list[str]:
    """Who on the team has not practised in the window (only when the roster was read)."""
    return _staff_without(
        v, "membersWithoutPractice", "recordCount", "团队成员在此期间都练习过。", "此期间还没有练习："
    )


def _staff_without(
    v: dict[str, JsonValue], field: str, counted: str, everyone: str, missing: str
) -> list[str]:
    """The roster line of a team read: who is missing from it, or that no one is (only when something
    was counted: an empty window says nothing of everyone)."""
    names = v.get(field)
    if not isinstance(names, list):
        return []
    if not names:
        return [everyone] if v.get(counted) else []
    return [missing + "、".join(_s(name) for name in names)]


def _pending_review(item: dict[str, JsonValue], *, named: bool) -> str:
    """One practice record awaiting review; the member's name leads when the list spans the team."""
    who = f"{_s(item['userName'])}：" if named else ""
    day, score = month_day(item["practicedOn"]), _s(item["score"])
    return f"{_BULLET}{who}{_s(item['courseTitle'])}（{day}，{score} 分）待复盘"


def _member_practice(v: dict[str, JsonValue], who: str) -> list[str]:
    """One team member's practice (the team read filtered to that member)."""
    summary = "".join(
        f"共练习 {_s(m['recordCount'])} 次，平均 {_s(m['averageScore'])} 分，"
        f"待复盘 {_s(m['pendingReviewCount'])} 次"
        for m in _items(v.get("members"))
    )
    pending = [_pending_review(item, named=False) for item in _items(v.get("pendingReview"))]
    return [f"{_window(v)}{who}{summary}：", *pending]


def _results(fact: VerifiedFact) -> list[str]:
    v = fact.value
    if fact.fact_type == "NO_WORK_RESULTS":
        return [f"{_window(v)}没有工作成果记录。", *_without_results(v)]
    lines = [f"{_window(v)}共有 {_s(v['count'])} 项工作成果："]
    for item in _items(v.get("items")):
        who = f"{_s(item['userName'])}：" if "userName" in item else ""
        lines.append(
            f"{_BULLET}{who}{_s(item['title'])}（{_s(item['statusLabel'])}，{month_day(item['submittedOn'])}提交）"
        )
    return lines + _without_results(v)


def _without_results(v: dict[str, JsonValue]) -> list[str]:
    """Who on the team submitted no work result in the window (only when the roster was read)."""
    return _staff_without(
        v, "membersWithoutResults", "count", "团队成员在此期间都提交过成果。", "此期间还没有提交成果："
    )


def _candidate(fact: VerifiedFact) -> list[str]:
    v = fact.value
    if fact.fact_type == "NO_CANDIDATE_PROGRESS":
        return ["暂时没有查到你的面试进度记录。"]
    lines = [f"你目前处于「{_s(v['stage'])}」阶段，状态：{_s(v['stageStatus'])}。"]
    documents = _items(v.get("documents"))
    if documents:
        lines.append("资料情况：" + "；".join(f"{_s(d['name'])}{_s(d['status'])}" for d in documents) + "。")
    if v.get("nextStep"):
        lines.append(f"下一步：{_s(v['nextStep'])}。")
    return lines


def _capability(fact: VerifiedFact) -> list[str]:
    v = fact.value
    labels = [_s(t.get("label")) for t in _items(v.get("tools"))]
    lines = ["当前账号可以使用：" + "、".join(labels) + "。" if labels else "当前账号没有可用的查询能力。"]
    if "requestedSystem" in v:
        system = _s(v["requestedSystem"])
        if v.get("requestedSupported"):
            lines.append(f"「{system}」相关的查询已接入，可以直接问我。")
        else:
            lines.append(f"「{system}」目前没有接入，我无法查询或操作该系统的数据。")
    return lines


_RENDERERS = {
    "PRACTICE_SUMMARY": _practice,
    "TEAM_PRACTICE_SUMMARY": _practice,
    "NO_PRACTICE_RECORDS": _practice,
    "WORK_RESULTS": _results,
    "TEAM_WORK_RESULTS": _results,
    "NO_WORK_RESULTS": _results,
    "CANDIDATE_PROGRESS": _candidate,
    "NO_CANDIDATE_PROGRESS": _candidate,
    "CAPABILITY": _capability,
}


def render_facts(facts: Sequence[VerifiedFact]) -> str:
    """Chinese answer text for the live facts of one or more calls, in order."""
    task_facts = [f for f in facts if f.fact_type in {"NO_TASKS", "TASKS_SUMMARY", "TASK"}]
    lines = _tasks(task_facts)
    for fact in facts:
        renderer = _RENDERERS.get(fact.fact_type)
        if renderer is not None:
            lines.extend(renderer(fact))
    return "\n".join(lines)


def render_result(result: ToolResult) -> str:
    """The answer text of one call: its facts when OK, else its status message."""
    if result.status is ToolStatus.OK and result.facts:
        return render_facts(result.facts)
    return status_message(result)
