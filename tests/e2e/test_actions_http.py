"""Issue 8 acceptance over HTTP: confirmation cards that never pretend to be done.

Seed 001 §14.1 item 2 (memory: nothing before confirmation, one row with the chosen
visibility after), item 6 (待复盘名单: a draft only; confirmation echoes the domain's real
result) and §14.2 item 3 (idempotent confirmation, stale version, expired draft), plus
ownership: another user's valid draft id is refused with nothing written.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.runtime.wiring import Services
from shifu.store.tables.actions import MemoryRow, PracticeAssignmentRow, ReviewDispatchRow, WorkReportRow

from .support import FakeClock, auth_headers, row_counts

pytest_plugins = ["e2e.fixtures_e2e"]

DONE_WORDS = ("已发送", "已保存", "已指派", "已提交")
WRITE_TABLES = ("memories", "practice_assignments", "review_dispatches", "work_reports")


def _confirm(client: TestClient, headers: dict[str, str], draft: dict[str, Any], **body: Any) -> Any:
    payload = {"expectedVersion": draft["version"], "idempotencyKey": f"key-{uuid.uuid4().hex}", **body}
    return client.post(f"/api/aihr/agent/actions/{draft['draftId']}/confirm", json=payload, headers=headers)


def _writes(sessions: sessionmaker[Session]) -> dict[str, int]:
    counts = row_counts(sessions)
    return {table: counts[table] for table in WRITE_TABLES}


def _drafted(actor: Any, question: str, tool: str) -> dict[str, Any]:
    response: dict[str, Any] = actor.ask(question)
    assert response["status"] == "NEEDS_CONFIRMATION", response
    draft = response["actionDraft"]
    assert draft is not None and draft["tool"] == tool and draft["status"] == "DRAFT"
    for word in DONE_WORDS:
        assert word not in response["answer"]
        assert word not in draft["title"]
    return response


@pytest.mark.parametrize("visibility", ["PRIVATE", "COMPANY"])
def test_memory_is_saved_only_after_confirmation_with_the_chosen_visibility(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock, visibility: str
) -> None:
    employee = actor("employee")
    before = _writes(warm_services.sessions)
    response = _drafted(employee, "记一下 3 栋 1201 要回访", "CAPTURE_MEMORY_DRAFT")
    assert "PRIVATE" in response["actionDraft"]["visibilityOptions"]
    assert _writes(warm_services.sessions) == before, "nothing is written before confirmation"
    confirmed = _confirm(client, employee.headers, response["actionDraft"], visibility=visibility)
    assert confirmed.status_code == 200, confirmed.text
    result = confirmed.json()
    assert result["status"] == "EXECUTED"
    receipt = result["receipt"]
    assert receipt["kind"] == "MEMORY"
    assert receipt["recordId"] in result["message"]
    after = _writes(warm_services.sessions)
    assert after == {**before, "memories": before["memories"] + 1}
    with warm_services.sessions() as session:
        row = session.get(MemoryRow, receipt["recordId"])
        assert row is not None
        assert (row.owner_id, row.visibility) == ("u-zhangsan", visibility)
        assert row.status == receipt["status"]
        assert row.status == ("PENDING" if visibility == "COMPANY" else "ACTIVE")
        assert "1201" in row.content
    if visibility == "COMPANY":
        assert "审核" in result["message"]
        assert "已共享" not in result["message"]


def test_memory_confirmation_without_a_visibility_asks_for_it(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    draft = _drafted(employee, "记一下，5栋门禁需要换电池", "CAPTURE_MEMORY_DRAFT")["actionDraft"]
    before = _writes(warm_services.sessions)
    response = _confirm(client, employee.headers, draft)
    assert response.status_code == 422, response.text
    assert _writes(warm_services.sessions) == before


def test_a_visibility_named_in_the_request_is_the_notes_and_is_not_part_of_it(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    response = _drafted(employee, "记一下：5栋门禁要换电池，私人记录", "CAPTURE_MEMORY_DRAFT")
    draft = response["actionDraft"]
    assert draft["fields"]["visibility"] == "PRIVATE" and draft["fields"]["content"] == "5栋门禁要换电池"
    assert "仅自己可见" in response["answer"]
    confirmed = _confirm(client, employee.headers, draft)
    assert confirmed.status_code == 200, confirmed.text
    with warm_services.sessions() as session:
        row = session.get(MemoryRow, confirmed.json()["receipt"]["recordId"])
        assert row is not None and (row.visibility, row.content) == ("PRIVATE", "5栋门禁要换电池")


def test_a_visibility_typed_as_the_reply_to_a_note_drafts_it_again_with_that_visibility(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    first = _drafted(employee, "记一下：5栋门禁要换电池", "CAPTURE_MEMORY_DRAFT")["actionDraft"]
    chosen = employee.ask("仅自己可见")
    assert chosen["status"] == "NEEDS_CONFIRMATION", chosen["answer"]
    draft = chosen["actionDraft"]
    assert draft["draftId"] != first["draftId"]
    assert draft["fields"]["visibility"] == "PRIVATE" and draft["fields"]["content"] == "5栋门禁要换电池"
    assert _confirm(client, employee.headers, first, visibility="PRIVATE").status_code != 200, "closed"
    confirmed = _confirm(client, employee.headers, draft)
    assert confirmed.status_code == 200, confirmed.text


def test_saying_by_when_drafts_the_assignment_again_with_that_due_day(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    supervisor = actor("supervisor")
    first = _drafted(supervisor, "给周九派个投诉接待的训练", "PRACTICE_ASSIGNMENT_DRAFT")["actionDraft"]
    assert first["fields"]["dueDate"] is None
    dated = supervisor.ask("截止日期下周三")
    assert dated["status"] == "NEEDS_CONFIRMATION", dated["answer"]
    draft = dated["actionDraft"]
    assert draft["draftId"] != first["draftId"] and draft["fields"]["assigneeName"] == "周九"
    assert draft["fields"]["dueDate"] is not None
    assert _confirm(client, supervisor.headers, first).status_code != 200, "the first draft is closed"


def test_review_list_is_only_drafted_and_confirmation_echoes_the_domain_result(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    supervisor = actor("supervisor")
    before = _writes(warm_services.sessions)
    response = _drafted(supervisor, "给主管发待复盘名单", "REVIEW_DRAFT")
    draft = response["actionDraft"]
    assert draft["fields"]["projectId"] == "proj-huafu"
    assert draft["fields"]["recipientId"] and draft["target"]
    assert draft["undoable"] is False
    assert _writes(warm_services.sessions) == before
    confirmed = _confirm(client, supervisor.headers, draft)
    assert confirmed.status_code == 200, confirmed.text
    result = confirmed.json()
    assert result["status"] == "EXECUTED"
    receipt = result["receipt"]
    assert receipt["recordId"] in result["message"] and receipt["status"] in result["message"]
    assert _writes(warm_services.sessions) == {**before, "review_dispatches": before["review_dispatches"] + 1}
    with warm_services.sessions() as session:
        row = session.get(ReviewDispatchRow, receipt["recordId"])
        assert row is not None
        assert (row.sender_id, row.recipient_id, row.project_id) == (
            "u-lisi",
            draft["fields"]["recipientId"],
            "proj-huafu",
        )
        assert row.status == receipt["status"]


def test_a_repeated_confirmation_writes_once_and_replays_the_response(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    draft = _drafted(employee, "记一下，7栋电梯按钮失灵", "CAPTURE_MEMORY_DRAFT")["actionDraft"]
    before = _writes(warm_services.sessions)
    key = f"repeat-{uuid.uuid4().hex}"
    first = _confirm(client, employee.headers, draft, idempotencyKey=key, visibility="PRIVATE")
    second = _confirm(client, employee.headers, draft, idempotencyKey=key, visibility="PRIVATE")
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert _writes(warm_services.sessions)["memories"] == before["memories"] + 1
    reused = _confirm(client, employee.headers, draft, idempotencyKey=key, visibility="COMPANY")
    assert reused.status_code == 422
    assert reused.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    fresh_key = _confirm(client, employee.headers, draft, visibility="PRIVATE")
    assert fresh_key.status_code == 409, "an executed draft cannot run again under a new key"
    assert _writes(warm_services.sessions)["memories"] == before["memories"] + 1


def test_a_stale_expected_version_is_409_and_writes_nothing(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    draft = _drafted(employee, "记一下，8栋地库灯不亮", "CAPTURE_MEMORY_DRAFT")["actionDraft"]
    before = _writes(warm_services.sessions)
    stale = _confirm(
        client, employee.headers, {**draft, "version": draft["version"] + 1}, visibility="PRIVATE"
    )
    assert stale.status_code == 409, stale.text
    assert stale.json()["currentVersion"] == draft["version"]
    assert stale.json()["message"]
    assert _writes(warm_services.sessions) == before
    assert _confirm(client, employee.headers, draft, visibility="PRIVATE").status_code == 200


def test_an_expired_draft_is_410_and_writes_nothing(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    draft = _drafted(employee, "记一下，9栋水箱要清洗", "CAPTURE_MEMORY_DRAFT")["actionDraft"]
    before = _writes(warm_services.sessions)
    clock.advance(minutes=31)
    expired = _confirm(client, employee.headers, draft, visibility="PRIVATE")
    assert expired.status_code == 410, expired.text
    assert expired.json()["code"] == "DRAFT_EXPIRED"
    assert _writes(warm_services.sessions) == before


@pytest.mark.parametrize("intruder", ["employee", "employee_other_project", "candidate"])
def test_another_user_cannot_confirm_a_supervisor_draft(
    actor: Any,
    client: TestClient,
    demo_settings: Settings,
    warm_services: Services,
    clock: FakeClock,
    intruder: str,
) -> None:
    supervisor = actor("supervisor")
    draft = _drafted(supervisor, "给主管发待复盘名单", "REVIEW_DRAFT")["actionDraft"]
    before = row_counts(warm_services.sessions)
    refused = _confirm(client, auth_headers(demo_settings, intruder), draft)
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "DRAFT_NOT_OWNED"
    dismiss = client.post(
        f"/api/aihr/agent/actions/{draft['draftId']}/dismiss",
        json={"expectedVersion": draft["version"]},
        headers=auth_headers(demo_settings, intruder),
    )
    assert dismiss.status_code == 403
    assert row_counts(warm_services.sessions) == before, "nothing written by the refused attempts"
    assert _confirm(client, supervisor.headers, draft).status_code == 200, "the owner's draft is intact"


def test_dismiss_executes_nothing(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    draft = _drafted(employee, "记一下，10栋消防栓漏水", "CAPTURE_MEMORY_DRAFT")["actionDraft"]
    before = _writes(warm_services.sessions)
    dismissed = client.post(
        f"/api/aihr/agent/actions/{draft['draftId']}/dismiss",
        json={"expectedVersion": draft["version"]},
        headers=employee.headers,
    )
    assert dismissed.status_code == 200, dismissed.text
    assert dismissed.json()["card"]["status"] == "DISMISSED"
    late = _confirm(client, employee.headers, dismissed.json()["card"], visibility="PRIVATE")
    assert late.status_code == 409
    assert _writes(warm_services.sessions) == before


DRAFT_QUESTIONS = [
    ("employee", "记一下，3栋1201要回访"),
    ("employee", "提交一下本月的工作亮点：帮孕妇业主搬东西"),
    ("supervisor", "给张三指派一个消防安全培训"),
    ("supervisor", "给主管发一份待复盘名单"),
]


@pytest.mark.parametrize(("key", "question"), DRAFT_QUESTIONS, ids=[q for _, q in DRAFT_QUESTIONS])
def test_no_answer_before_confirmation_claims_it_is_done(
    actor: Any, warm_services: Services, clock: FakeClock, key: str, question: str
) -> None:
    before = _writes(warm_services.sessions)
    response = actor(key).ask(question)
    assert response["status"] in {"NEEDS_CONFIRMATION", "NEEDS_INPUT"}, response
    texts = [response["answer"]]
    if response["actionDraft"]:
        texts += [response["actionDraft"]["title"], response["actionDraft"]["scope"]]
    for text in texts:
        for word in DONE_WORDS:
            assert word not in text
    assert _writes(warm_services.sessions) == before


def test_a_confirmed_memory_never_becomes_a_work_report(
    actor: Any, client: TestClient, warm_services: Services, clock: FakeClock
) -> None:
    employee = actor("employee")
    with warm_services.sessions() as session:
        reports = session.scalar(select(func.count()).select_from(WorkReportRow))
        assignments = session.scalar(select(func.count()).select_from(PracticeAssignmentRow))
    draft = _drafted(employee, "记一下，今天帮孕妇业主搬东西", "CAPTURE_MEMORY_DRAFT")["actionDraft"]
    assert _confirm(client, employee.headers, draft, visibility="COMPANY").status_code == 200
    with warm_services.sessions() as session:
        assert session.scalar(select(func.count()).select_from(WorkReportRow)) == reports
        assert session.scalar(select(func.count()).select_from(PracticeAssignmentRow)) == assignments


def _task_lines(answer: str) -> list[str]:
    return [line for line in answer.splitlines() if line.startswith("・")]


@pytest.mark.parametrize(
    ("question", "topic", "due"),
    [
        ("给张三指派一个垃圾分类培训，12月10日前完成", "垃圾分类", "截止12月10日"),
        ("给张三安排一个高空作业安全培训", "高空作业安全", "无截止日期"),
    ],
)
def test_a_confirmed_training_assignment_is_on_the_assignees_to_do_list(
    actor: Any,
    client: TestClient,
    warm_services: Services,
    clock: FakeClock,
    question: str,
    topic: str,
    due: str,
) -> None:
    supervisor, employee, other = actor("supervisor"), actor("employee"), actor("employee_other_project")
    draft = _drafted(supervisor, question, "PRACTICE_ASSIGNMENT_DRAFT")["actionDraft"]
    assert not any(topic in line for line in _task_lines(employee.ask("我还有哪些待办没完成")["answer"]))
    confirmed = _confirm(client, supervisor.headers, draft)
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "EXECUTED", confirmed.text
    employee.new_conversation()
    listed = employee.ask("我还有哪些待办没完成")
    assert listed["intent"] == "LIVE_MY_WORK" and listed["status"] == "COMPLETED"
    lines = [line for line in _task_lines(listed["answer"]) if topic in line]
    assert len(lines) == 1 and "训练" in lines[0] and due in lines[0], listed["answer"]
    assert not any(topic in line for line in _task_lines(other.ask("我还有哪些待办没完成")["answer"]))


def test_a_draft_missing_its_assignee_is_completed_by_the_next_reply(
    actor: Any, warm_services: Services, clock: FakeClock
) -> None:
    supervisor = actor("supervisor")
    before = _writes(warm_services.sessions)
    asked = supervisor.ask("给他派一个消防巡检的训练")
    assert asked["status"] == "NEEDS_INPUT" and "指派对象" in asked["answer"]
    completed = supervisor.ask("孙八")
    assert completed["status"] == "NEEDS_CONFIRMATION", completed["answer"]
    assert [c["tool"] for c in completed["trace"]["toolCalls"]] == ["PRACTICE_ASSIGNMENT_DRAFT"]
    assert completed["trace"]["toolCalls"][0]["arguments"]["assigneeName"] == "孙八"
    assert _writes(warm_services.sessions) == before  # a draft, nothing assigned yet


def test_a_report_asked_for_without_its_content_takes_the_content_from_the_next_reply(
    actor: Any, clock: FakeClock
) -> None:
    employee = actor("employee")
    asked = employee.ask("我想投稿一个好人好事")
    assert asked["status"] == "NEEDS_INPUT" and "内容" in asked["answer"]
    assert employee.ask("确认")["status"] == "NEEDS_INPUT"  # nothing to confirm yet
    completed = employee.ask("今天帮3栋王阿姨把摔倒的老人送到医院")
    assert completed["status"] == "NEEDS_CONFIRMATION", completed["answer"]
    content = completed["actionDraft"]["fields"]["content"]
    assert content.startswith("今天帮3栋王阿姨") and "投稿" not in content


def test_a_question_after_an_incomplete_draft_is_answered_as_a_question(actor: Any, clock: FakeClock) -> None:
    supervisor = actor("supervisor")
    supervisor.ask("给他派一个消防巡检的训练")
    answered = supervisor.ask("电梯困人怎么办")
    assert answered["intent"] == "KNOWLEDGE_QA" and answered["status"] == "COMPLETED"
