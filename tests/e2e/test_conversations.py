"""Issue 7 acceptance over HTTP: references re-read through tools, corrections, expiry,
revoked access, optimistic concurrency and conversation repair.

The server clock is injected (`clock` fixture) and org/domain edits are undone after
each test, so the shared session deployment stays as seeded.
"""

from __future__ import annotations

import json
import threading
import uuid
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select

from shifu.actions.builders import parse_location
from shifu.config import Settings
from shifu.runtime.wiring import Services
from shifu.store.engine import transaction
from shifu.store.tables.actions import ActionDraftRow, MemoryRow
from shifu.store.tables.conversation import ConversationRow
from shifu.store.tables.domain import TaskRow

from .support import FakeClock, auth_headers, called, membership_removed

pytest_plugins = ["e2e.fixtures_e2e"]

MESSAGES = "/api/aihr/agent/messages"
MONTH_TASKS = "本月我有哪些待办"


def _task_calls(response: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in response["trace"]["toolCalls"] if c["tool"] == "MY_CURRENT_TASKS"]


def _listed(actor: Any) -> dict[str, Any]:
    listing: dict[str, Any] = actor.ask(MONTH_TASKS)
    assert listing["data"]["state"] == "TASKS", listing
    assert len(listing["data"]["items"]) >= 2, "the demo seeds at least two tasks this month"
    return listing


def test_second_item_is_re_read_through_the_tool_and_searched_about(actor: Any, clock: FakeClock) -> None:
    employee = actor("employee")
    listing = _listed(employee)
    second = listing["data"]["items"][1]["title"]
    response = employee.ask("第二项需要什么材料")
    reread = _task_calls(response)
    assert reread and reread[0]["arguments"] == {"dateRange": "THIS_MONTH"}
    assert reread[0]["status"] == "OK"
    searches = [c for c in response["trace"]["toolCalls"] if c["tool"] == "KNOWLEDGE_SEARCH"]
    assert searches and second in searches[0]["arguments"]["query"]
    assert listing["data"]["items"][0]["title"] not in searches[0]["arguments"]["query"]


def test_the_second_item_of_a_knowledge_answer_is_asked_about_in_its_own_words(
    actor: Any, clock: FakeClock
) -> None:
    employee = actor("employee")
    listing = employee.ask("报销需要提交哪些材料")
    assert listing["status"] == "COMPLETED", listing["answer"]
    assert "2. 合法有效的发票原件" in listing["answer"]
    response = employee.ask("第二项具体要怎么弄")
    assert response["conversationId"] == listing["conversationId"]
    assert response["intent"] == "KNOWLEDGE_QA" and response["status"] == "COMPLETED", response["answer"]
    assert called(response) == {"KNOWLEDGE_SEARCH"}, "not the task listing"
    searches = [c for c in response["trace"]["toolCalls"] if c["tool"] == "KNOWLEDGE_SEARCH"]
    assert "发票原件" in searches[0]["arguments"]["query"]
    assert "发票原件" in response["answer"]
    assert "《费用报销审批单》" not in searches[0]["arguments"]["query"], (
        "the first item is not the one asked"
    )


def test_the_second_step_of_a_procedure_is_asked_about_in_its_own_words(actor: Any, clock: FakeClock) -> None:
    employee = actor("employee")
    steps = employee.ask("零星采购怎么办理")
    assert "2. 项目经理确认该物品属于零星采购范围" in steps["answer"], steps["answer"]
    response = employee.ask("第二步是谁签字")
    assert response["status"] == "COMPLETED", response["answer"]
    assert "项目经理确认该物品属于零星采购范围" in response["answer"]
    assert {c["documentKey"] for c in response["citations"]} == {"lingxing_caigou_banfa"}


def _corrected(actor: Any) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    employee = actor("employee")
    this_month = _listed(employee)
    corrected = employee.ask("不对，是上个月")
    assert corrected["intent"] == "LIVE_MY_WORK"
    assert [c["arguments"] for c in _task_calls(corrected)] == [{"dateRange": "LAST_MONTH"}]
    assert corrected["data"]["state"] in {"TASKS", "NO_TASKS"}
    return employee, this_month, corrected


def test_month_correction_re_plans_last_month_and_invalidates_old_references(
    actor: Any, clock: FakeClock
) -> None:
    employee, _, corrected = _corrected(actor)
    last_titles = [i["title"] for i in corrected["data"].get("items", [])]
    follow = employee.ask("第一项截止到哪天")
    reread = _task_calls(follow)
    if last_titles:
        assert reread and reread[0]["arguments"] == {"dateRange": "LAST_MONTH"}, "the ref is last month's"
        assert last_titles[0] in follow["answer"]
    else:
        assert follow["status"] == "NEEDS_INPUT"
        assert reread == []


def test_a_referenced_item_is_answered_without_relisting_other_items(actor: Any, clock: FakeClock) -> None:
    employee, this_month, corrected = _corrected(actor)
    follow = employee.ask("第一项截止到哪天")
    last_titles = {i["title"] for i in corrected["data"].get("items", [])}
    this_month_only = {i["title"] for i in this_month["data"]["items"]} - last_titles
    assert not any(title in follow["answer"] for title in this_month_only)
    # The demo's tasks are dated relative to today, so last month may hold none (from the 3rd of a
    # month on, in Shanghai time): then 第一项 names nothing and must not be guessed.
    if last_titles:
        assert [c["arguments"] for c in _task_calls(follow)] == [{"dateRange": "LAST_MONTH"}]
    else:
        assert follow["status"] == "NEEDS_INPUT"
        assert _task_calls(follow) == []


def test_an_expired_fact_ref_is_queried_again(actor: Any, clock: FakeClock, warm_services: Services) -> None:
    employee = actor("employee")
    listing = _listed(employee)
    second = listing["data"]["items"][1]
    renamed = f"{second['title']}（已改期{uuid.uuid4().hex[:4]}）"
    with warm_services.sessions() as session:
        row = session.scalars(
            select(TaskRow).where(TaskRow.assignee_id == "u-zhangsan", TaskRow.title == second["title"])
        ).first()
        assert row is not None
        task_id, original = row.id, row.title
    clock.advance(minutes=11)  # past the facts' TTL, inside the 30-minute conversation
    try:
        with transaction(warm_services.sessions) as session:
            session.get(TaskRow, task_id).title = renamed  # type: ignore[union-attr]
        response = employee.ask("第二项截止到哪天")
        assert response["conversationId"] == employee.conversation_id
        reread = _task_calls(response)
        assert reread and reread[0]["status"] == "OK"
        assert reread[0]["arguments"] == {"dateRange": "THIS_MONTH"}
        assert renamed in response["answer"], "the answer comes from the re-read, not the old turn"
    finally:
        with transaction(warm_services.sessions) as session:
            session.get(TaskRow, task_id).title = original  # type: ignore[union-attr]


def test_a_reference_after_project_access_is_revoked_is_forbidden(
    actor: Any, clock: FakeClock, warm_services: Services
) -> None:
    employee = actor("employee")
    listing = _listed(employee)
    conversation = employee.conversation_id
    titles = {i["title"] for i in listing["data"]["items"]}
    with membership_removed(warm_services.sessions, "u-zhangsan", "proj-huafu"):
        response = employee.ask("第二项需要什么材料")
        assert not any(title in response["answer"] for title in titles)
        assert response["data"].get("items") in (None, [])
        assert response["conversationId"] == conversation, "the reference was resolved, then refused"
        assert response["status"] == "FORBIDDEN", response
        assert any(c["status"] == "FORBIDDEN" and c["reasonCode"] for c in response["trace"]["toolCalls"])


def test_live_tasks_of_a_revoked_project_are_not_served(
    actor: Any, clock: FakeClock, warm_services: Services
) -> None:
    with membership_removed(warm_services.sessions, "u-zhangsan", "proj-huafu"):
        response = actor("employee").ask(MONTH_TASKS)
    assert not [i for i in response["data"].get("items", []) if i["projectId"] == "proj-huafu"], response


def test_concurrent_requests_with_one_version_one_wins_one_gets_409(
    client: TestClient, demo_settings: Settings, warm_services: Services, clock: FakeClock
) -> None:
    headers = auth_headers(demo_settings, "employee")
    first = client.post(MESSAGES, json={"text": MONTH_TASKS}, headers=headers).json()
    conversation, version = first["conversationId"], first["contextVersion"]
    results: list[Any] = []
    barrier = threading.Barrier(2)

    def send(text: str) -> None:
        barrier.wait()
        body = {"text": text, "conversationId": conversation, "contextVersion": version}
        results.append((text, client.post(MESSAGES, json=body, headers=headers)))

    threads = [threading.Thread(target=send, args=(t,)) for t in ("第一项是什么", "电梯困人怎么处理")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    statuses = sorted(r.status_code for _, r in results)
    assert statuses == [200, 409], [(t, r.status_code, r.text[:200]) for t, r in results]
    (won_text, won), (lost_text, lost) = sorted(results, key=lambda r: r[1].status_code)
    assert lost.json()["code"] == "VERSION_CONFLICT"
    assert lost.json()["currentVersion"] == won.json()["contextVersion"] == version + 1
    retry = client.post(
        MESSAGES,
        json={
            "text": lost_text,
            "conversationId": conversation,
            "contextVersion": lost.json()["currentVersion"],
        },
        headers=headers,
    )
    assert retry.status_code == 200 and retry.json()["contextVersion"] == version + 2
    with warm_services.sessions() as session:
        row = session.get(ConversationRow, conversation)
        assert row is not None
        questions = [t["question"] for t in json.loads(row.turns_json)]
    assert questions[-3:] == [MONTH_TASKS, won_text, lost_text], "nothing lost, nothing doubled"


def test_a_stale_version_is_409_and_writes_nothing(
    client: TestClient, demo_settings: Settings, warm_services: Services, clock: FakeClock
) -> None:
    headers = auth_headers(demo_settings, "employee")
    first = client.post(MESSAGES, json={"text": MONTH_TASKS}, headers=headers).json()
    body = {
        "text": "第一项",
        "conversationId": first["conversationId"],
        "contextVersion": first["contextVersion"] - 1,
    }
    with warm_services.sessions() as session:
        runs = session.scalar(select(func.count()).select_from(ConversationRow))
        before = session.get(ConversationRow, first["conversationId"])
        assert before is not None
        turns_before = before.turns_json
    response = client.post(MESSAGES, json=body, headers=headers)
    assert response.status_code == 409
    assert response.json()["currentVersion"] == first["contextVersion"]
    with warm_services.sessions() as session:
        assert session.scalar(select(func.count()).select_from(ConversationRow)) == runs
        after = session.get(ConversationRow, first["conversationId"])
        assert after is not None and after.turns_json == turns_before


def test_thirty_one_minutes_later_the_conversation_is_new_and_old_references_are_gone(
    actor: Any, clock: FakeClock
) -> None:
    employee = actor("employee")
    _listed(employee)
    old_conversation = employee.conversation_id
    clock.advance(minutes=31)
    response = employee.ask("第二项需要什么材料")
    assert response["conversationId"] != old_conversation
    assert response["contextVersion"] == 1
    assert response["status"] == "NEEDS_INPUT"
    assert _task_calls(response) == []
    assert response["data"] == {}


def test_an_earlier_answers_number_is_never_reused_as_a_fact(
    actor: Any, clock: FakeClock, warm_services: Services
) -> None:
    employee = actor("employee")
    first = _listed(employee)
    count = first["data"]["taskCount"]
    assert f"{count} 项" in first["answer"]
    extra_id = f"t-extra-{uuid.uuid4().hex[:8]}"
    today = datetime.fromisoformat(first["data"]["items"][0]["dueDate"]).date()
    with transaction(warm_services.sessions) as session:
        session.add(
            TaskRow(
                id=extra_id,
                tenant_id="demo",
                project_id="proj-huafu",
                assignee_id="u-zhangsan",
                title="临时加派：4栋电梯年检陪同",
                kind="巡检",
                status="OPEN",
                due_date=today,
            )
        )
    try:
        again = employee.ask("本月我一共有几项待办？")
        assert called(again) == {"MY_CURRENT_TASKS"}
        assert again["data"]["taskCount"] == count + 1
        assert f"{count + 1} 项" in again["answer"]
        assert f"共有 {count} 项" not in again["answer"]
    finally:
        with transaction(warm_services.sessions) as session:
            session.execute(delete(TaskRow).where(TaskRow.id == extra_id))


def test_cancel_dismisses_the_pending_draft(
    actor: Any, client: TestClient, clock: FakeClock, warm_services: Services
) -> None:
    employee = actor("employee")
    with warm_services.sessions() as session:
        memories = session.scalar(select(func.count()).select_from(MemoryRow))
    drafted = employee.ask("记一下，3栋1201要回访")
    draft = drafted["actionDraft"]
    assert drafted["status"] == "NEEDS_CONFIRMATION" and draft is not None
    cancelled = employee.ask("算了")
    assert cancelled["status"] == "COMPLETED"
    assert "已取消" in cancelled["answer"]
    with warm_services.sessions() as session:
        row = session.get(ActionDraftRow, draft["draftId"])
        assert row is not None and row.status == "DISMISSED"
    confirm = client.post(
        f"/api/aihr/agent/actions/{draft['draftId']}/confirm",
        json={
            "expectedVersion": draft["version"],
            "idempotencyKey": f"k-{uuid.uuid4().hex}",
            "visibility": "PRIVATE",
        },
        headers=employee.headers,
    )
    assert confirm.status_code in {409, 410}, confirm.text
    with warm_services.sessions() as session:
        assert session.scalar(select(func.count()).select_from(MemoryRow)) == memories


def test_a_typed_confirmation_shows_the_open_draft_again_and_writes_nothing(
    actor: Any, clock: FakeClock, warm_services: Services
) -> None:
    employee = actor("employee")
    with warm_services.sessions() as session:
        memories = session.scalar(select(func.count()).select_from(MemoryRow))
    draft = employee.ask("记一下，5栋电梯按钮失灵要报修")["actionDraft"]
    typed = employee.ask("确认")
    assert typed["status"] == "NEEDS_CONFIRMATION"
    assert typed["actionDraft"]["draftId"] == draft["draftId"]
    assert "尚未执行任何操作" in typed["answer"]
    with warm_services.sessions() as session:
        assert session.scalar(select(func.count()).select_from(MemoryRow)) == memories
        row = session.get(ActionDraftRow, draft["draftId"])
        assert row is not None and row.status == draft["status"]
    assert "已取消" in employee.ask("算了")["answer"]  # the draft is still the open one


def test_agreeing_with_no_draft_open_is_no_confirmation(actor: Any, clock: FakeClock) -> None:
    response = actor("employee").ask("好的")
    assert response["status"] == "COMPLETED"
    assert response["actionDraft"] is None


def test_cancel_with_nothing_pending_says_so(actor: Any, clock: FakeClock) -> None:
    response = actor("employee").ask("算了")
    assert response["status"] == "COMPLETED"
    assert response["trace"]["toolCalls"] == []


def test_a_subjectless_question_continues_the_knowledge_subject(actor: Any, clock: FakeClock) -> None:
    employee = actor("employee")
    first = employee.ask("报销需要提交哪些材料")
    assert first["status"] == "COMPLETED"
    follow = employee.ask("要谁批")
    assert follow["intent"] == "KNOWLEDGE_QA" and follow["status"] == "COMPLETED", follow["answer"]
    searches = [c for c in follow["trace"]["toolCalls"] if c["tool"] == "KNOWLEDGE_SEARCH"]
    assert searches and searches[0]["arguments"]["query"].startswith("报销")
    assert "材料" not in searches[0]["arguments"]["query"], "its own ask, not the previous question again"
    cited = {(c["documentKey"], c["locator"]) for c in follow["citations"]}
    assert ("baoxiao_zhidu_2025", "二、费用报销的单笔审批权限") in cited


def test_a_question_naming_no_subject_is_asked_back_then_completed_by_the_reply(
    actor: Any, clock: FakeClock
) -> None:
    employee = actor("employee")
    asked = employee.ask("超过30天还能报吗")
    assert asked["status"] == "NEEDS_INPUT" and "SUBJECT_MISSING" in asked["trace"]["reasonCodes"]
    assert asked["citations"] == [] and asked["trace"]["toolCalls"] == [], "nothing is searched or quoted"
    completed = employee.ask("报销")
    assert completed["status"] == "COMPLETED", completed["answer"]
    cited = {(c["documentKey"], c["locator"]) for c in completed["citations"]}
    assert ("baoxiao_zhidu_2025", "六、费用报销的提交时限") in cited


def test_when_a_payout_arrives_is_asked_of_the_subject_in_play(actor: Any, clock: FakeClock) -> None:
    employee = actor("employee")
    alone = employee.ask("多久能到账")
    assert alone["status"] == "NEEDS_INPUT" and "SUBJECT_MISSING" in alone["trace"]["reasonCodes"]
    assert alone["citations"] == [], "到账 of what? nothing is quoted"
    completed = employee.ask("报销")
    assert completed["status"] == "COMPLETED", completed["answer"]
    assert "转入报销人的工资卡" in completed["answer"], "the payout step, not the submission deadline"
    cited = {(c["documentKey"], c["locator"]) for c in completed["citations"]}
    assert ("baoxiao_zhidu_2025", "五、费用报销的办理步骤") in cited


def test_saying_there_is_no_picture_turns_a_photo_question_into_the_procedure(
    actor: Any, clock: FakeClock
) -> None:
    employee = actor("employee")
    photo = employee.ask("图里这个电梯门打不开怎么办")
    assert photo["intent"] == "MEDIA_UNDERSTANDING" and photo["status"] == "NEEDS_INPUT"
    plain = employee.ask("没图，就是电梯困人了该怎么处理")
    assert plain["intent"] == "KNOWLEDGE_QA" and plain["status"] == "COMPLETED", plain["answer"]
    assert called(plain) == {"KNOWLEDGE_SEARCH"}
    assert {c["documentKey"] for c in plain["citations"]} & {"dianti_kunren_yingji"}


def test_how_to_do_the_last_listed_item_re_reads_it_and_searches_its_procedure(
    actor: Any, clock: FakeClock
) -> None:
    employee = actor("employee")
    listing = _listed(employee)
    last = listing["data"]["items"][-1]["title"]
    response = employee.ask("最后那个怎么做")
    assert response["status"] == "COMPLETED", response["answer"]
    reread = _task_calls(response)
    assert reread and reread[0]["status"] == "OK"
    searches = [c for c in response["trace"]["toolCalls"] if c["tool"] == "KNOWLEDGE_SEARCH"]
    assert searches, "a how-to about a listed item searches its procedure"
    query = searches[0]["arguments"]["query"]
    assert last in query and MONTH_TASKS not in query, "the item is the subject, not the listing request"
    if response["decision"] == "PARTIAL":
        assert any("步骤" in line for line in response["groundedAnswer"]["missingInformation"])


def test_a_rule_question_about_another_project_says_it_covers_the_company_rule_only(
    actor: Any, clock: FakeClock
) -> None:
    response = actor("employee_other_project").ask("华府装修周末能施工吗")
    assert response["status"] == "COMPLETED", response["answer"]
    assert {c["documentKey"] for c in response["citations"]} == {"zhuangxiu_guanli_guiding"}
    assert "华府项目如有本项目的补充规定" in response["answer"] and "无权查看" in response["answer"]


def test_a_note_about_a_listed_item_names_the_item_and_dates_its_relative_day(
    actor: Any, clock: FakeClock, warm_services: Services
) -> None:
    employee = actor("employee")
    first = _listed(employee)["data"]["items"][0]["title"]
    response = employee.ask("帮我记一下第一项已经跟业主约好明早去")
    assert response["status"] == "NEEDS_CONFIRMATION", response["answer"]
    reread = _task_calls(response)
    assert reread and reread[0]["status"] == "OK", "the item is read again before the note names it"
    fields = response["actionDraft"]["fields"]
    tomorrow = (clock().astimezone(warm_services.settings.tz) + timedelta(days=1)).date()
    assert fields["content"] == f"“{first}”已经跟业主约好明早（{tomorrow.month}月{tomorrow.day}日）去"
    assert fields["location"] == parse_location(first)
    assert "已取消" in employee.ask("算了")["answer"]
    following = employee.ask("第二项呢")
    assert following["actionDraft"] is None, "a note about one item is no request to note the next"


def test_another_listed_item_is_asked_what_the_last_one_was(actor: Any, clock: FakeClock) -> None:
    employee = actor("employee")
    items = _listed(employee)["data"]["items"]
    employee.ask("第二项怎么做")
    response = employee.ask("第一项呢")
    reread = _task_calls(response)
    assert reread and reread[0]["status"] == "OK", "the listing is still the one pointed into"
    searches = [c for c in response["trace"]["toolCalls"] if c["tool"] == "KNOWLEDGE_SEARCH"]
    assert searches, "第一项呢 asks how to do the first item, as 第二项怎么做 asked of the second"
    query = searches[0]["arguments"]["query"]
    assert items[0]["title"] in query and "怎么做" in query and items[1]["title"] not in query


def test_another_member_named_after_a_team_read_is_read_the_same_way(actor: Any, clock: FakeClock) -> None:
    supervisor = actor("supervisor")
    supervisor.ask("孙八这周练了几次")
    response = supervisor.ask("周九呢")
    calls = [c for c in response["trace"]["toolCalls"] if c["tool"] == "TEAM_PRACTICE_SUMMARY"]
    assert calls and calls[0]["arguments"] == {"dateRange": "THIS_WEEK", "memberName": "周九"}
    assert "孙八" not in response["answer"]


def test_a_question_in_another_language_is_asked_back_in_chinese(actor: Any, clock: FakeClock) -> None:
    response = actor("employee").ask("How do I apply for annual leave?")
    assert response["status"] == "NEEDS_INPUT"
    assert response["answer"].startswith("目前只能用中文提问")
    assert response["trace"]["toolCalls"] == [] and response["citations"] == []
