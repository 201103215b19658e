"""Confirmation cards end to end at service level: seed 001 §14.1 items 2 and 6, §14.2 item 3."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions.model import ConfirmRequest, DismissRequest, ReviseRequest
from shifu.actions.payloads import Visibility
from shifu.actions.service import ActionService
from shifu.actions.states import DraftStatus
from shifu.contracts.common import ResponseStatus, Role, ToolCode
from shifu.contracts.plan import ToolCall
from shifu.errors import Expired, Forbidden, IdempotencyMismatch, NeedsInput, NotFound, VersionConflict
from shifu.store.tables.actions import MemoryRow, ReviewDispatchRow

from .support import NOW, FakePendingReviews, make_ctx

MEMO = ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": "记一下，3栋1201要回访"})
REVIEW = ToolCall(tool=ToolCode.REVIEW_DRAFT, arguments={"recipient": "主管"})
ASSIGN = ToolCall(
    tool=ToolCode.PRACTICE_ASSIGNMENT_DRAFT, arguments={"assigneeName": "张三", "topic": "消防安全培训"}
)


def _confirm(key: str = "key-00000001", version: int = 1, **extra: Any) -> ConfirmRequest:
    return ConfirmRequest(expected_version=version, idempotency_key=key, **extra)


@pytest.mark.parametrize(
    "visibility,status", [(Visibility.PRIVATE, "ACTIVE"), (Visibility.COMPANY, "PENDING")]
)
def test_capture_memory_writes_nothing_before_and_one_record_after(
    service: ActionService, org: sessionmaker[Session], counts: Any, visibility: Visibility, status: str
) -> None:
    ctx = make_ctx("employee")
    outcome = service.build_draft(ctx, MEMO, now=NOW)
    assert outcome.status is ResponseStatus.NEEDS_CONFIRMATION
    card = outcome.card
    assert card is not None and card.status == "DRAFT"
    assert card.fields["content"] == "3栋1201要回访"
    assert card.fields["location"] == "3栋1201"
    assert card.visibility_options == ["PRIVATE", "COMPANY"]
    assert counts() == {"memories": 0, "practice_assignments": 0, "review_dispatches": 0, "work_reports": 0}

    result = service.confirm(ctx, card.draft_id, _confirm(visibility=visibility), now=NOW)

    assert result.status is DraftStatus.EXECUTED
    with org() as s:
        rows = list(s.scalars(select(MemoryRow)))
    assert len(rows) == 1
    assert (rows[0].visibility, rows[0].status, rows[0].owner_id) == (visibility.value, status, "u-zhangsan")
    assert result.receipt is not None and result.receipt.record_id == rows[0].id
    assert rows[0].id in result.message and status in result.message
    assert result.draft.status == "EXECUTED" and rows[0].id in result.draft.title
    assert counts()["work_reports"] == 0


def test_memory_needs_a_visibility_choice(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    with pytest.raises(NeedsInput):
        service.confirm(ctx, card.draft_id, _confirm(), now=NOW)
    assert counts()["memories"] == 0


def test_review_list_is_only_a_draft_until_confirmed_then_echoes_the_domain(
    service: ActionService, org: sessionmaker[Session], counts: Any
) -> None:
    ctx = make_ctx("supervisor")
    outcome = service.build_draft(ctx, REVIEW, now=NOW)
    assert outcome.status is ResponseStatus.NEEDS_CONFIRMATION and outcome.card is not None
    card = outcome.card
    assert [item["name"] for item in card.fields["items"]] == ["张三", "孙八"]  # type: ignore[index,union-attr]
    assert card.fields["recipientName"] and card.target == card.fields["recipientName"]
    assert card.scope == "项目：华府" and card.undoable is False
    assert counts()["review_dispatches"] == 0

    result = service.confirm(ctx, card.draft_id, _confirm(), now=NOW)

    with org() as s:
        rows = list(s.scalars(select(ReviewDispatchRow)))
    assert len(rows) == 1 and rows[0].recipient_id == card.fields["recipientId"]
    assert result.receipt is not None
    assert (result.receipt.record_id, result.receipt.status) == (rows[0].id, rows[0].status)
    assert rows[0].id in result.message


def test_review_with_no_pending_members_drafts_nothing(
    service: ActionService, reviews: FakePendingReviews
) -> None:
    reviews.rows.clear()
    outcome = service.build_draft(make_ctx("supervisor"), REVIEW, now=NOW)
    assert (outcome.status, outcome.card, outcome.reason_code) == (
        ResponseStatus.COMPLETED,
        None,
        "NO_PENDING_REVIEWS",
    )


def test_repeated_confirmation_writes_once_and_replays_the_saved_response(
    service: ActionService, counts: Any
) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    request = _confirm(visibility=Visibility.PRIVATE)
    first = service.confirm(ctx, card.draft_id, request, now=NOW)
    second = service.confirm(ctx, card.draft_id, request, now=NOW + timedelta(minutes=1))
    assert second == first
    assert counts()["memories"] == 1


def test_same_key_with_a_different_body_is_refused(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    service.confirm(ctx, card.draft_id, _confirm(visibility=Visibility.PRIVATE), now=NOW)
    with pytest.raises(IdempotencyMismatch) as caught:
        service.confirm(ctx, card.draft_id, _confirm(visibility=Visibility.COMPANY), now=NOW)
    assert "幂等" in caught.value.message
    assert counts()["memories"] == 1


def test_a_new_key_on_an_executed_draft_is_a_conflict(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    result = service.confirm(ctx, card.draft_id, _confirm(visibility=Visibility.PRIVATE), now=NOW)
    with pytest.raises(VersionConflict):
        service.confirm(
            ctx,
            card.draft_id,
            _confirm("key-00000002", result.draft.version, visibility=Visibility.PRIVATE),
            now=NOW,
        )
    assert counts()["memories"] == 1


def test_stale_version_is_refused_with_the_current_version(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    revised = service.revise(
        ctx,
        card.draft_id,
        ReviseRequest(expected_version=1, edited_fields={"content": "3栋1202要回访"}),
        now=NOW,
    )
    assert revised.version == 2 and revised.payload_hash != card.payload_hash
    with pytest.raises(VersionConflict) as caught:
        service.confirm(ctx, card.draft_id, _confirm(visibility=Visibility.PRIVATE), now=NOW)
    assert caught.value.current == 2 and "刷新" in caught.value.message
    assert counts()["memories"] == 0


def test_expired_draft_is_refused(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    assert card.expires_at == NOW + timedelta(minutes=30)
    with pytest.raises(Expired) as caught:
        service.confirm(
            ctx, card.draft_id, _confirm(visibility=Visibility.PRIVATE), now=NOW + timedelta(minutes=30)
        )
    assert "30 分钟" in caught.value.message
    assert counts()["memories"] == 0


def test_employee_cannot_confirm_a_supervisors_draft(service: ActionService, counts: Any) -> None:
    card = service.build_draft(make_ctx("supervisor"), ASSIGN, now=NOW).card
    assert card is not None and card.status == "DRAFT"
    with pytest.raises(Forbidden):
        service.confirm(make_ctx("employee"), card.draft_id, _confirm(), now=NOW)
    with pytest.raises(Forbidden):
        service.dismiss(make_ctx("employee"), card.draft_id, DismissRequest(expected_version=1), now=NOW)
    assert counts()["practice_assignments"] == 0


def test_policy_is_checked_again_at_confirmation(service: ActionService, counts: Any) -> None:
    card = service.build_draft(make_ctx("supervisor"), ASSIGN, now=NOW).card
    assert card is not None
    demoted = make_ctx("supervisor", role=Role.EMPLOYEE, supervised_project_ids=())
    with pytest.raises(Forbidden):
        service.confirm(demoted, card.draft_id, _confirm(), now=NOW)
    moved = make_ctx("supervisor", supervised_project_ids=("proj-jiangwan",))
    with pytest.raises(Forbidden):
        service.confirm(moved, card.draft_id, _confirm(), now=NOW)
    assert counts()["practice_assignments"] == 0
    result = service.confirm(make_ctx("supervisor"), card.draft_id, _confirm(), now=NOW)
    assert result.status is DraftStatus.EXECUTED and counts()["practice_assignments"] == 1


def test_unknown_draft_id(service: ActionService) -> None:
    with pytest.raises(NotFound):
        service.confirm(make_ctx("employee"), "d_nope", _confirm(), now=NOW)


def test_edits_execute_exactly_the_edited_payload(service: ActionService, org: sessionmaker[Session]) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    result = service.confirm(
        ctx,
        card.draft_id,
        _confirm(edited_fields={"content": "3栋1201周五上午回访"}, visibility=Visibility.PRIVATE),
        now=NOW,
    )
    with org() as s:
        row = s.scalars(select(MemoryRow)).one()
    assert row.content == "3栋1201周五上午回访"
    assert result.draft.fields["content"] == row.content
    assert result.draft.payload_hash != card.payload_hash


def test_server_resolved_fields_are_not_editable(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("supervisor")
    card = service.build_draft(ctx, REVIEW, now=NOW).card
    assert card is not None
    with pytest.raises(Exception) as caught:
        service.confirm(ctx, card.draft_id, _confirm(edited_fields={"recipientId": "u-zhaoliu"}), now=NOW)
    assert getattr(caught.value, "code", None) == "FIELD_NOT_EDITABLE"
    assert counts()["review_dispatches"] == 0


def test_dismiss_then_confirm_is_refused(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    dismissed = service.dismiss(ctx, card.draft_id, DismissRequest(expected_version=1), now=NOW)
    assert dismissed.status == "DISMISSED" and dismissed.version == 2
    again = service.dismiss(ctx, card.draft_id, DismissRequest(expected_version=1), now=NOW)
    assert again == dismissed
    with pytest.raises(VersionConflict):
        service.confirm(ctx, card.draft_id, _confirm(version=2, visibility=Visibility.PRIVATE), now=NOW)
    assert counts()["memories"] == 0


def test_needs_input_draft_is_completed_by_revision(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("supervisor")
    call = ToolCall(tool=ToolCode.PRACTICE_ASSIGNMENT_DRAFT, arguments={"assigneeName": "孙八"})
    outcome = service.build_draft(ctx, call, now=NOW)
    assert outcome.status is ResponseStatus.NEEDS_INPUT and outcome.missing_fields == ("topic",)
    assert outcome.card is not None and outcome.card.status == "NEEDS_INPUT"
    with pytest.raises(NeedsInput):
        service.confirm(ctx, outcome.card.draft_id, _confirm(), now=NOW)
    card = service.revise(
        ctx,
        outcome.card.draft_id,
        ReviseRequest(expected_version=1, edited_fields={"topic": "电梯困人处置"}),
        now=NOW,
    )
    assert card.status == "DRAFT" and card.missing_fields == []
    result = service.confirm(ctx, card.draft_id, _confirm(version=card.version), now=NOW)
    assert result.status is DraftStatus.EXECUTED and counts()["practice_assignments"] == 1


def test_confirmed_memory_never_becomes_a_work_report_or_another_draft(
    service: ActionService, org: sessionmaker[Session], counts: Any
) -> None:
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    service.confirm(ctx, card.draft_id, _confirm(visibility=Visibility.COMPANY), now=NOW)
    from shifu.store.tables.actions import ActionDraftRow

    with org() as s:
        drafts = list(s.scalars(select(ActionDraftRow)))
    assert [d.tool for d in drafts] == ["CAPTURE_MEMORY_DRAFT"]
    assert counts() == {"memories": 1, "practice_assignments": 0, "review_dispatches": 0, "work_reports": 0}


def test_work_report_goes_to_work_reports_only(service: ActionService, counts: Any) -> None:
    ctx = make_ctx("employee")
    call = ToolCall(tool=ToolCode.WORK_REPORT_DRAFT, arguments={"content": "完成3栋电梯年检陪同"})
    card = service.build_draft(ctx, call, now=NOW).card
    assert card is not None
    result = service.confirm(ctx, card.draft_id, _confirm(), now=NOW)
    assert result.receipt is not None and result.receipt.status == "SUBMITTED"
    assert counts() == {"memories": 0, "practice_assignments": 0, "review_dispatches": 0, "work_reports": 1}


@pytest.mark.parametrize(
    ("content", "title", "text"),
    [
        ("帮我投稿一篇，题目是电梯困人处置心得", "电梯困人处置心得", "电梯困人处置心得"),
        ("我想投稿：标题是《雨夜抢修》，昨晚清理了地下室积水", "雨夜抢修", "昨晚清理了地下室积水"),
    ],
)
def test_a_title_the_user_names_is_the_reports_title_not_the_start_of_its_text(
    service: ActionService, content: str, title: str, text: str
) -> None:
    call = ToolCall(tool=ToolCode.WORK_REPORT_DRAFT, arguments={"content": content})
    card = service.build_draft(make_ctx("employee"), call, now=NOW).card
    assert card is not None
    assert (card.fields["title"], card.fields["content"]) == (title, text)
