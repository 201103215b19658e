"""Honest wording before execution, real receipts after; the transition table is closed."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from shifu.actions import wording
from shifu.actions.builders import parse_location, resolve_window, said_visibility, strip_trigger
from shifu.actions.model import ConfirmRequest
from shifu.actions.payloads import Visibility
from shifu.actions.service import ActionService
from shifu.actions.states import TRANSITIONS, DraftStatus, IllegalTransition, ensure_transition
from shifu.contracts.common import ResponseStatus, ToolCode
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import DateRangeName, ReviewDraftArgs

from .support import NOW, make_ctx

CALLS = [
    (
        "employee",
        ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": "记一下，3栋1201要回访"}),
    ),
    ("employee", ToolCall(tool=ToolCode.WORK_REPORT_DRAFT, arguments={"content": "完成电梯年检陪同"})),
    ("supervisor", ToolCall(tool=ToolCode.REVIEW_DRAFT, arguments={"recipient": "主管"})),
    (
        "supervisor",
        ToolCall(
            tool=ToolCode.PRACTICE_ASSIGNMENT_DRAFT,
            arguments={"assigneeName": "张三", "topic": "消防安全培训"},
        ),
    ),
    ("supervisor", ToolCall(tool=ToolCode.PRACTICE_ASSIGNMENT_DRAFT, arguments={"assigneeName": "张三"})),
]


def _texts(card: Any) -> list[str]:
    return [card.title, card.scope, card.target, card.source]


@pytest.mark.parametrize("actor,call", CALLS, ids=lambda v: getattr(v, "tool", v))
def test_no_draft_text_claims_it_is_done_until_executed(
    service: ActionService, actor: str, call: ToolCall
) -> None:
    ctx = make_ctx(actor)
    outcome = service.build_draft(ctx, call, now=NOW)
    assert outcome.card is not None
    before = [outcome.answer, *_texts(outcome.card)]
    assert not [t for t in before for word in wording.DONE_WORDS if word in t], before
    assert any("待确认" in t or "草稿" in t for t in before)
    if outcome.status is not ResponseStatus.NEEDS_CONFIRMATION:
        return
    request = ConfirmRequest(
        expected_version=outcome.card.version,
        idempotency_key="key-wording-1",
        visibility=Visibility.PRIVATE if call.tool is ToolCode.CAPTURE_MEMORY_DRAFT else None,
    )
    result = service.confirm(ctx, outcome.card.draft_id, request, now=NOW)
    assert result.receipt is not None
    for text in (result.message, result.draft.title):
        assert result.receipt.record_id in text and result.receipt.status in text


@pytest.mark.parametrize("status", [s for s in DraftStatus if s is not DraftStatus.EXECUTED])
def test_status_titles_before_execution_never_claim_done(status: DraftStatus) -> None:
    for tool in (
        ToolCode.CAPTURE_MEMORY_DRAFT,
        ToolCode.REVIEW_DRAFT,
        ToolCode.PRACTICE_ASSIGNMENT_DRAFT,
        ToolCode.WORK_REPORT_DRAFT,
    ):
        title = wording.status_title(tool, status, {"content": "x", "items": [], "recipientName": "李四"})
        assert not any(word in title for word in wording.DONE_WORDS)
    assert not any(word in wording.failed_text("DOMAIN_REJECTED") for word in wording.DONE_WORDS)


def test_unknown_domain_status_gets_no_done_verb() -> None:
    text = wording.executed_text(
        "REVIEW_DISPATCH", "rvw-9", "QUEUED", datetime(2026, 7, 24, 6, tzinfo=UTC), UTC
    )
    assert "已发送" not in text and "rvw-9" in text and "QUEUED" in text


ALL_MOVES = [(a, b) for a in DraftStatus for b in DraftStatus]


@pytest.mark.parametrize("current,target", ALL_MOVES, ids=lambda s: s.value)
def test_transition_table_is_explicit(current: DraftStatus, target: DraftStatus) -> None:
    allowed = {
        (DraftStatus.DRAFT, DraftStatus.NEEDS_INPUT),
        (DraftStatus.NEEDS_INPUT, DraftStatus.DRAFT),
        (DraftStatus.DRAFT, DraftStatus.CONFIRMED),
        (DraftStatus.CONFIRMED, DraftStatus.EXECUTED),
        (DraftStatus.CONFIRMED, DraftStatus.FAILED),
        (DraftStatus.DRAFT, DraftStatus.DISMISSED),
        (DraftStatus.FAILED, DraftStatus.DRAFT),
        (DraftStatus.NEEDS_INPUT, DraftStatus.DISMISSED),
        (DraftStatus.FAILED, DraftStatus.DISMISSED),
    }
    assert (target in TRANSITIONS[current]) == ((current, target) in allowed)
    if (current, target) in allowed:
        ensure_transition(current, target)
    else:
        with pytest.raises(IllegalTransition) as caught:
            ensure_transition(current, target, version=7)
        assert caught.value.current == 7 and caught.value.message


@pytest.mark.parametrize(
    "text,note,location",
    [
        ("记一下，3栋1201要回访", "3栋1201要回访", "3栋1201"),
        ("帮我记一下 5号楼302室漏水", "5号楼302室漏水", "5号楼302室"),
        ("记住：十二栋2单元801业主投诉噪音", "十二栋2单元801业主投诉噪音", "十二栋2单元801"),
        ("周五交物业费报表", "周五交物业费报表", None),
    ],
)
def test_memory_content_and_location(text: str, note: str, location: str | None) -> None:
    assert strip_trigger(text) == note
    assert parse_location(note) == location


@pytest.mark.parametrize(
    "name,window",
    [
        (DateRangeName.TODAY, (date(2026, 7, 24), date(2026, 7, 24))),
        (DateRangeName.THIS_WEEK, (date(2026, 7, 20), date(2026, 7, 26))),
        (DateRangeName.LAST_MONTH, (date(2026, 6, 1), date(2026, 6, 30))),
        (DateRangeName.NEXT_MONTH, (date(2026, 8, 1), date(2026, 8, 31))),
    ],
)
def test_review_window(name: DateRangeName, window: tuple[date, date]) -> None:
    assert resolve_window(ReviewDraftArgs(date_range=name), today=date(2026, 7, 24)) == window


@pytest.mark.parametrize(
    "actor,call,status,reason",
    [
        ("employee", CALLS[3][1], ResponseStatus.FORBIDDEN, "DRAFT_TOOL_FORBIDDEN"),
        ("employee", CALLS[2][1], ResponseStatus.FORBIDDEN, "DRAFT_TOOL_FORBIDDEN"),
        ("candidate", CALLS[0][1], ResponseStatus.FORBIDDEN, "DRAFT_TOOL_FORBIDDEN"),
        ("operator", CALLS[0][1], ResponseStatus.FORBIDDEN, "DRAFT_TOOL_FORBIDDEN"),
        (
            "supervisor",
            ToolCall(
                tool=ToolCode.PRACTICE_ASSIGNMENT_DRAFT, arguments={"assigneeName": "赵六", "topic": "消防"}
            ),
            ResponseStatus.FORBIDDEN,
            "ASSIGNEE_OUT_OF_SCOPE",
        ),
        (
            "supervisor",
            ToolCall(
                tool=ToolCode.PRACTICE_ASSIGNMENT_DRAFT, arguments={"assigneeName": "钱十一", "topic": "消防"}
            ),
            ResponseStatus.NEEDS_INPUT,
            "ASSIGNEE_NOT_FOUND",
        ),
        (
            "employee",
            ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": "记一下"}),
            ResponseStatus.NEEDS_INPUT,
            None,
        ),
    ],
)
def test_draft_refusals_and_missing_input(
    service: ActionService,
    counts: Any,
    actor: str,
    call: ToolCall,
    status: ResponseStatus,
    reason: str | None,
) -> None:
    outcome = service.build_draft(make_ctx(actor), call, now=NOW)
    assert (outcome.status, outcome.reason_code) == (status, reason)
    assert len(outcome.missing_fields) <= 3
    if status is ResponseStatus.FORBIDDEN:
        assert outcome.card is None
    assert sum(counts().values()) == 0


@pytest.mark.parametrize(
    ("text", "note", "visibility"),
    [
        ("明天去1201看漏水，私人记录", "明天去1201看漏水", Visibility.PRIVATE),
        ("5栋门禁要换电池，记成公司记录。", "5栋门禁要换电池", Visibility.COMPANY),
        ("5栋门禁要换电池", "5栋门禁要换电池", None),
        ("私人记录怎么删除", "私人记录怎么删除", None),
    ],
)
def test_a_closing_visibility_is_the_notes_choice(
    text: str, note: str, visibility: Visibility | None
) -> None:
    assert said_visibility(text) == (note, visibility)
