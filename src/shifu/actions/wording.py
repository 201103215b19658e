"""Every user-facing text about a draft, in one place, so honesty can be tested.

Before the domain system answers, texts say 待确认 / 草稿 and never 已发送 / 已保存 /
已指派 / 已提交. After EXECUTED they quote the domain's real id, status and time, and use a
"done" verb only for a status known to mean done; anything else reads 业务系统已受理.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from shifu.actions.payloads import Visibility
from shifu.actions.states import DraftStatus
from shifu.contracts.common import ToolCode

DONE_WORDS = ("已发送", "已保存", "已指派", "已提交")
"""Words that claim a write happened; allowed only in EXECUTED texts."""

_DONE_VERB: dict[tuple[str, str], str] = {
    ("MEMORY", "ACTIVE"): "已保存为私人记录",
    ("MEMORY", "PENDING"): "已提交为公司记录，等待审核（审核通过前不会共享）",
    ("PRACTICE_ASSIGNMENT", "ASSIGNED"): "已指派训练",
    ("REVIEW_DISPATCH", "SENT"): "已发送待复盘名单",
    ("WORK_REPORT", "SUBMITTED"): "已提交工作成果",
}

_SOURCE: dict[ToolCode, str] = {
    ToolCode.CAPTURE_MEMORY_DRAFT: "用户输入",
    ToolCode.PRACTICE_ASSIGNMENT_DRAFT: "用户输入；对象按你负责的项目成员解析",
    ToolCode.REVIEW_DRAFT: "我负责项目的待复盘情况（业务系统实时读取）",
    ToolCode.WORK_REPORT_DRAFT: "用户输入",
}

UNDOABLE: dict[ToolCode, bool] = {
    ToolCode.CAPTURE_MEMORY_DRAFT: True,
    ToolCode.PRACTICE_ASSIGNMENT_DRAFT: True,
    ToolCode.REVIEW_DRAFT: False,
    ToolCode.WORK_REPORT_DRAFT: False,
}
"""Whether the domain module lets the user undo the write afterwards."""

FIELD_LABELS: dict[str, str] = {
    "content": "内容",
    "assigneeName": "指派对象",
    "topic": "训练主题",
    "project": "项目",
    "recipient": "接收人",
    "visibility": "保存范围",
}


def _short(text: str | None, limit: int = 30) -> str:
    value = (text or "").strip()
    return value if len(value) <= limit else value[: limit - 1] + "…"


def source_label(tool: ToolCode) -> str:
    """Where the card's content came from."""
    return _SOURCE[tool]


def draft_title(tool: ToolCode, payload: dict[str, Any]) -> str:
    """What the draft will do, phrased as not yet done."""
    if tool is ToolCode.CAPTURE_MEMORY_DRAFT:
        return f"待确认：保存一条记录「{_short(payload.get('content'))}」（草稿）"
    if tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT:
        who = payload.get("assigneeName") or "（待补充对象）"
        topic = payload.get("topic") or "（待补充主题）"
        return f"待确认：给{who}指派训练「{_short(topic)}」（草稿）"
    if tool is ToolCode.REVIEW_DRAFT:
        count = len(payload.get("items") or [])
        who = payload.get("recipientName") or "（待补充接收人）"
        return f"待确认：把待复盘名单（{count}人）发给{who}（草稿）"
    return f"待确认：提交工作成果「{_short(payload.get('title') or payload.get('content'))}」（草稿）"


def scope_label(tool: ToolCode, payload: dict[str, Any]) -> str:
    """Where the draft applies."""
    project = payload.get("projectName") or payload.get("projectId")
    where = f"项目：{project}" if project else "未关联项目"
    if tool is ToolCode.CAPTURE_MEMORY_DRAFT:
        visibility = payload.get("visibility")
        if visibility == Visibility.PRIVATE:
            return f"{where}；仅自己可见"
        if visibility == Visibility.COMPANY:
            return f"{where}；公司记录（确认后进入审核，审核前不共享）"
        return f"{where}；保存范围待选择：私人 / 公司（公司记录需审核）"
    return where


def target_label(tool: ToolCode, payload: dict[str, Any], display_name: str) -> str:
    """Who or what the draft is for."""
    if tool is ToolCode.PRACTICE_ASSIGNMENT_DRAFT:
        return str(payload.get("assigneeName") or "待补充")
    if tool is ToolCode.REVIEW_DRAFT:
        return str(payload.get("recipientName") or "待补充")
    if tool is ToolCode.CAPTURE_MEMORY_DRAFT:
        return str(payload.get("location") or f"{display_name}的记录")
    return f"{display_name}的工作成果"


def needs_input_text(missing: list[str]) -> str:
    """Ask for what is missing, saying nothing was done."""
    labels = "、".join(FIELD_LABELS.get(name, name) for name in missing)
    return f"草稿还缺少：{labels}。补充后会再给你确认，目前尚未执行任何操作。"


_VISIBILITY_LABELS = {"PRIVATE": "仅自己可见", "COMPANY": "公司记录，需审核"}


def card_ready_text(tool: ToolCode, payload: dict[str, Any] | None = None) -> str:
    """The answer beside a fresh card (a note whose visibility the user already named says which)."""
    if tool is ToolCode.REVIEW_DRAFT:
        return "已生成发送草稿，待确认后才会发送（发送后无法撤回）。"
    if tool is ToolCode.CAPTURE_MEMORY_DRAFT:
        chosen = _VISIBILITY_LABELS.get(str((payload or {}).get("visibility")))
        if chosen:
            return f"已生成记录草稿（{chosen}），待确认后才会保存。"
        return "已生成记录草稿：请选择仅自己可见或公司记录，待确认后才会保存。"
    return "已生成草稿，待确认后才会执行。"


def status_title(tool: ToolCode, status: DraftStatus, payload: dict[str, Any]) -> str:
    """The card title for a non-executed status."""
    if status is DraftStatus.CONFIRMED:
        return "草稿已确认，正在等待业务系统处理结果（尚未完成）"
    if status is DraftStatus.FAILED:
        return "草稿未执行成功，可修改后重试"
    if status is DraftStatus.DISMISSED:
        return "草稿已取消，未执行任何操作"
    if status is DraftStatus.NEEDS_INPUT:
        return "草稿待补充：" + draft_title(tool, payload).removeprefix("待确认：")
    return draft_title(tool, payload)


def executed_text(kind: str, record_id: str, status: str, at: datetime, tz: ZoneInfo) -> str:
    """The only "done" text: quotes the domain's own record id, status and time."""
    verb = _DONE_VERB.get((kind, status), "业务系统已受理")
    when = at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    return f"{verb}（业务系统编号 {record_id}，状态 {status}，时间 {when}）"


def failed_text(code: str) -> str:
    """A definite domain refusal; nothing was written."""
    return f"业务系统没有执行这份草稿（{code}），未写入任何内容。可修改后重新确认。"


def dismissed_text() -> str:
    """The answer to a dismissal."""
    return "已取消这份草稿，未执行任何操作。"
