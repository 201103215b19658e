"""The issue-2 vertical path over HTTP: live work, knowledge with citations, small talk."""

from __future__ import annotations

from typing import Any

from .support import called


def test_my_tasks_today_calls_only_my_current_tasks(actor: Any) -> None:
    response = actor("employee").ask("我今天有什么待办？")
    assert response["intent"] == "LIVE_MY_WORK"
    assert response["status"] == "COMPLETED"
    assert [c["tool"] for c in response["trace"]["toolCalls"]] == ["MY_CURRENT_TASKS"]
    assert response["sourceSummary"][0]["type"] == "LIVE_DATA"
    assert response["data"]["state"] == "TASKS"
    assert response["data"]["taskCount"] >= 1


def test_no_tasks_is_an_explicit_no_tasks_state(actor: Any) -> None:
    response = actor("employee_other_project").ask("我今天有什么待办？")
    assert response["status"] == "COMPLETED"
    assert response["data"]["state"] == "NO_TASKS"
    assert response["data"]["taskCount"] == 0
    assert called(response) == {"MY_CURRENT_TASKS"}


def test_law_question_is_answered_with_citations(actor: Any) -> None:
    response = actor("employee").ask("劳动合同期限一年的，试用期最长可以约定多久？")
    assert response["intent"] == "KNOWLEDGE_QA"
    assert response["status"] == "COMPLETED"
    assert called(response) == {"KNOWLEDGE_SEARCH"}
    keys = {(c["documentKey"], c["locator"]) for c in response["citations"]}
    assert ("laodong_hetong_fa", "第十九条") in keys
    citation = response["citations"][0]
    assert citation["quote"] and citation["version"] and citation["authority"] == "STATUTE"


def test_greeting_is_social_without_tools(actor: Any) -> None:
    response = actor("employee").ask("你好")
    assert response["intent"] == "SOCIAL"
    assert response["status"] == "COMPLETED"
    assert response["trace"]["toolCalls"] == []
