"""Seed 001 §14.1 items 4 (SOP part) and 7, end to end over HTTP against the real app."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from shifu.config import Settings
from shifu.demo.setup import demo_token, principal_for

INVOKED = {"OK", "NO_RESULT", "TIMEOUT", "UNAVAILABLE", "FAILED"}


def _ask(http: TestClient, settings: Settings, actor_key: str, text: str) -> dict[str, Any]:
    _, client_id = principal_for(actor_key)
    headers = {"Authorization": f"Bearer {demo_token(settings, actor_key)}", "X-Client-Id": client_id}
    response = http.post("/api/aihr/agent/messages", json={"text": text}, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _invoked(body: dict[str, Any]) -> set[str]:
    return {c["tool"] for c in body["trace"]["toolCalls"] if c["status"] in INVOKED}


# -- §14.1 item 4 (SOP part) -----------------------------------------------------------------------


def test_elevator_door_question_is_answered_from_the_authorized_sop_with_citations(
    http: TestClient, contract_settings: Settings
) -> None:
    body = _ask(http, contract_settings, "employee", "电梯门打不开怎么办")
    assert body["intent"] == "KNOWLEDGE_QA"
    assert body["status"] == "COMPLETED"
    assert "KNOWLEDGE_SEARCH" in _invoked(body)
    sop = [c for c in body["citations"] if c["documentKey"] == "dianti_kunren_yingji"]
    assert any(c["locator"] == "二、电梯困人应急处置的步骤" for c in sop)
    assert all(c["authority"] == "SOP" and c["version"] == "2024版" and c["quote"] for c in sop)
    assert all(c["documentKey"] != "dianti_kunren_yingji_2021" for c in body["citations"])
    steps = body["groundedAnswer"]["steps"]
    cited_ids = {c["citationId"] for c in body["citations"]}
    assert steps and all(set(step["citationIds"]) <= cited_ids and step["citationIds"] for step in steps)
    assert any(item["type"] != "LIVE_DATA" for item in body["sourceSummary"])


@pytest.mark.parametrize("question", ["中央空调冷却塔怎么清洗", "小区游泳池水质检测怎么做"])
def test_without_an_sop_hit_no_procedure_is_invented(
    http: TestClient, contract_settings: Settings, question: str
) -> None:
    body = _ask(http, contract_settings, "employee", question)
    assert "KNOWLEDGE_SEARCH" in _invoked(body)
    assert body["status"] == "NO_EVIDENCE"
    assert body["decision"] == "NO_EVIDENCE"
    assert body["citations"] == []
    answer = body["groundedAnswer"]
    assert answer["steps"] == [] and answer["statements"] == []
    assert answer["composer"] == "NONE"
    assert "ANSWER_GENERATION_SKIPPED" in body["trace"]["reasonCodes"]


# -- §14.1 item 7 --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["你好", "谢谢", "早上好", "辛苦了"])
def test_small_talk_triggers_no_knowledge_search_and_no_gap(
    http: TestClient, contract_settings: Settings, text: str
) -> None:
    body = _ask(http, contract_settings, "employee", text)
    assert body["intent"] == "SOCIAL"
    assert body["status"] == "COMPLETED"
    assert body["trace"]["toolCalls"] == []
    assert body["decision"] is None and body["groundedAnswer"] is None
    assert body["citations"] == [] and body["sourceSummary"] == []
    assert ("不客气" in body["answer"]) == (text in ("谢谢", "辛苦了"))


@pytest.mark.parametrize("text", ["那个", "还有呢", "那个怎么"])
def test_incomplete_expressions_trigger_no_knowledge_search_and_no_gap(
    http: TestClient, contract_settings: Settings, text: str
) -> None:
    body = _ask(http, contract_settings, "employee", text)
    assert body["trace"]["toolCalls"] == [], "an incomplete expression never searches"
    assert body["status"] == "NEEDS_INPUT"
    assert body["decision"] is None, "no NO_EVIDENCE decision, so no knowledge gap is recorded"
    assert body["groundedAnswer"] is None
    assert "ANSWER_GENERATION_SKIPPED" not in body["trace"]["reasonCodes"]
