"""Scoring of golden cases: alternatives, exact tool sets, forbidden tools across turns, slices."""

from __future__ import annotations

from typing import Any

import pytest

from shifu.eval.cases import GoldenCase
from shifu.eval.scoring import called_tools, demo_role, score


def case(case_id: str = "c1", actor: str = "employee", **expect: Any) -> GoldenCase:
    """A one-turn case with the given expectations."""
    return GoldenCase.model_validate({"id": case_id, "actor": actor, "turns": ["问题"], "expect": expect})


def response(
    intent: str = "KNOWLEDGE_QA",
    tools: list[tuple[str, str]] | None = None,
    status: str = "COMPLETED",
    decision: str | None = "ANSWERED",
) -> dict[str, Any]:
    """An AgentResponse as the runner writes it (by alias), reduced to what scoring reads."""
    calls = [{"tool": tool, "status": state} for tool, state in (tools or [])]
    return {"intent": intent, "status": status, "decision": decision, "trace": {"toolCalls": calls}}


@pytest.mark.parametrize(("got", "ok"), [("LIVE_MY_WORK", True), ("KNOWLEDGE_QA", True), ("CLARIFY", False)])
def test_intent_accepts_any_listed_alternative(got: str, ok: bool) -> None:
    report = score([case(intent=["LIVE_MY_WORK", "KNOWLEDGE_QA"])], {"c1": [response(intent=got)]})
    assert report["overall"]["intentAccuracy"] == (1.0 if ok else 0.0)
    assert (report["failures"] == []) is ok


@pytest.mark.parametrize(
    ("expected", "called", "ok"),
    [
        ([["KNOWLEDGE_SEARCH"]], [("KNOWLEDGE_SEARCH", "OK")], True),
        ([["KNOWLEDGE_SEARCH"]], [("KNOWLEDGE_SEARCH", "OK"), ("MY_CURRENT_TASKS", "OK")], False),
        ([["KNOWLEDGE_SEARCH", "MY_CURRENT_TASKS"]], [("KNOWLEDGE_SEARCH", "OK")], False),
        (
            [["MY_CURRENT_TASKS", "KNOWLEDGE_SEARCH"], ["KNOWLEDGE_SEARCH"]],
            [("KNOWLEDGE_SEARCH", "NO_RESULT")],
            True,
        ),
        ([[]], [], True),
        ([[]], [("TEAM_WORK_RESULTS", "FORBIDDEN")], True),
        ([[]], [("KNOWLEDGE_SEARCH", "TIMEOUT")], False),
        ([["KNOWLEDGE_SEARCH"]], [("KNOWLEDGE_SEARCH", "DEDUPLICATED")], False),
    ],
)
def test_tools_must_equal_one_acceptable_set_exactly(
    expected: list[list[str]], called: list[tuple[str, str]], ok: bool
) -> None:
    report = score([case(tools=expected)], {"c1": [response(tools=called)]})
    assert report["overall"]["toolsAccuracy"] == (1.0 if ok else 0.0)


def test_refused_and_deduplicated_calls_are_not_invocations() -> None:
    calls = [("KNOWLEDGE_SEARCH", "OK"), ("TEAM_WORK_RESULTS", "FORBIDDEN"), ("WEB_RESEARCH", "INVALID")]
    assert called_tools(response(tools=calls)) == {"KNOWLEDGE_SEARCH"}


def test_forbidden_tool_in_an_earlier_turn_is_a_violation() -> None:
    multi = GoldenCase.model_validate(
        {
            "id": "m1",
            "actor": "candidate",
            "turns": ["一", "二"],
            "expect": {"tools": [[]], "forbid_tools": ["TEAM_PRACTICE_SUMMARY"]},
        }
    )
    turns = [response(tools=[("TEAM_PRACTICE_SUMMARY", "OK")]), response(tools=[])]
    report = score([multi], {"m1": turns})
    assert report["overall"]["forbiddenToolViolations"] == 1
    assert report["overall"]["toolsAccuracy"] == 1.0
    assert report["failures"] == [{"id": "m1", "failures": ["FORBIDDEN_TOOL"]}]


def test_a_refused_forbidden_tool_is_not_a_violation() -> None:
    refused = response(tools=[("TEAM_PRACTICE_SUMMARY", "FORBIDDEN")], status="FORBIDDEN", decision=None)
    report = score([case(forbid_tools=["TEAM_PRACTICE_SUMMARY"])], {"c1": [refused]})
    assert report["overall"]["forbiddenToolViolations"] == 0
    assert report["failures"] == []


@pytest.mark.parametrize(
    ("status", "decision", "failed"),
    [
        ("COMPLETED", "PARTIAL", []),
        ("NO_EVIDENCE", "NO_EVIDENCE", ["STATUS", "DECISION"]),
        ("COMPLETED", None, ["DECISION"]),
    ],
)
def test_status_and_decision_alternatives(status: str, decision: str | None, failed: list[str]) -> None:
    expectation = case(status=["COMPLETED"], decision=["ANSWERED", "PARTIAL"])
    report = score([expectation], {"c1": [response(status=status, decision=decision)]})
    assert [f["failures"] for f in report["failures"]] == ([failed] if failed else [])


def test_only_the_last_turn_is_checked() -> None:
    multi = GoldenCase.model_validate(
        {"id": "m1", "actor": "employee", "turns": ["一", "二"], "expect": {"intent": ["SOCIAL"]}}
    )
    report = score([multi], {"m1": [response(intent="KNOWLEDGE_QA"), response(intent="SOCIAL")]})
    assert report["overall"]["intentAccuracy"] == 1.0


def test_missing_result_fails_every_expected_metric() -> None:
    report = score([case(intent=["SOCIAL"], status=["COMPLETED"])], {})
    overall = report["overall"]
    assert (overall["intentAccuracy"], overall["intentChecked"]) == (0.0, 1)
    assert (overall["statusAccuracy"], overall["statusChecked"]) == (0.0, 1)
    assert overall["toolsAccuracy"] is None
    assert report["failures"] == [{"id": "c1", "failures": ["MISSING_RESULT"]}]


def test_slices_by_role_actor_and_intent() -> None:
    cases = [
        case("a", "employee", intent=["LIVE_MY_WORK"]),
        case("b", "employee_other_project", intent=["LIVE_MY_WORK"]),
        case("c", "supervisor", intent=["LIVE_TEAM_WORK"]),
    ]
    results = {
        "a": [response(intent="LIVE_MY_WORK")],
        "b": [response(intent="CLARIFY")],
        "c": [response(intent="LIVE_TEAM_WORK")],
    }
    report = score(cases, results)
    assert report["byRole"]["EMPLOYEE"]["cases"] == 2
    assert report["byRole"]["EMPLOYEE"]["intentAccuracy"] == 0.5
    assert report["byRole"]["SUPERVISOR"]["intentAccuracy"] == 1.0
    assert set(report["byActor"]) == {"employee", "employee_other_project", "supervisor"}
    assert report["byActor"]["employee_other_project"]["intentAccuracy"] == 0.0
    assert report["byIntent"]["LIVE_MY_WORK"]["cases"] == 2
    assert report["overall"]["intentAccuracy"] == pytest.approx(0.6667)


def test_role_mapping_is_injectable_and_unknown_actors_keep_their_key() -> None:
    report = score([case(intent=["SOCIAL"])], {"c1": [response(intent="SOCIAL")]}, role_of=lambda _: "R")
    assert list(report["byRole"]) == ["R"]
    assert demo_role("operator") == "OPERATOR"
    assert demo_role("nobody") == "nobody"
