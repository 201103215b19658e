"""Validate the planner's training utterances and the public golden set.

The training set teaches the deterministic planner; the golden set measures it. Both are
hand-labelled data, so these tests guard the things a labelling slip would break: schema and
enum values, stratification minimums, label consistency with the role → tool policy, and —
most important — that no golden text leaks into training.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from shifu.contracts.common import DecisionStatus, EvidenceNeed, Intent, ResponseStatus, ToolCode
from shifu.eval.cases import load_cases

ROOT = Path(__file__).resolve().parents[2]
UTTERANCES = ROOT / "src" / "shifu" / "planning" / "data" / "utterances.jsonl"
GOLDEN = ROOT / "golden" / "public.jsonl"

DOMAINS = {
    "REIMBURSEMENT", "PROCUREMENT", "DECORATION", "ELEVATOR", "FIRE_SAFETY", "COMPLAINT", "LEAVE",
    "COLLECTION", "ONBOARDING", "LABOR_CONTRACT", "SOCIAL_INSURANCE", "PROPERTY_SERVICE", "SAFETY",
    "PERSONAL_INFO", "WORK", "TRAINING", "GENERAL",
}  # fmt: skip
ROLES = {"EMPLOYEE", "SUPERVISOR", "CANDIDATE", "OPERATOR", "ANY"}
STYLES = {"plain", "colloquial", "dialect", "typo", "mixed", "formal"}
ACTORS = {"employee", "employee_other_project", "supervisor", "candidate", "operator"}
EXPECT_KEYS = {"intent", "tools", "forbid_tools", "status", "decision"}

_EMPLOYEE_TOOLS = {
    "KNOWLEDGE_SEARCH", "KNOWLEDGE_RESOURCE", "MY_CURRENT_TASKS", "MY_PRACTICE_SUMMARY", "MY_WORK_RESULTS",
    "CAPABILITY_QUERY", "CAPTURE_MEMORY_DRAFT", "WORK_REPORT_DRAFT", "MEDIA_ANALYZE", "WEB_RESEARCH",
}  # fmt: skip
ROLE_TOOLS: dict[str, set[str]] = {
    # Policy truth from the shared interfaces; a golden case may never expect a tool the actor lacks.
    "employee": _EMPLOYEE_TOOLS,
    "employee_other_project": _EMPLOYEE_TOOLS,
    "supervisor": _EMPLOYEE_TOOLS
    | {"TEAM_PRACTICE_SUMMARY", "TEAM_WORK_RESULTS", "PRACTICE_ASSIGNMENT_DRAFT", "REVIEW_DRAFT"},
    "candidate": {"KNOWLEDGE_SEARCH", "KNOWLEDGE_RESOURCE", "MY_CANDIDATE_PROGRESS", "CAPABILITY_QUERY"},
    "operator": {"KNOWLEDGE_SEARCH", "KNOWLEDGE_RESOURCE", "CAPABILITY_QUERY"},
}

# Which tools a training label may name for each intent (the planner mapping).
INTENT_TOOLS: dict[str, set[str]] = {
    "KNOWLEDGE_QA": {"KNOWLEDGE_SEARCH"},
    "RESOURCE_DELIVERY": {"KNOWLEDGE_RESOURCE"},
    "LIVE_MY_WORK": {"MY_CURRENT_TASKS", "MY_PRACTICE_SUMMARY", "MY_WORK_RESULTS", "MY_CANDIDATE_PROGRESS"}
    | {"KNOWLEDGE_SEARCH"},
    "LIVE_TEAM_WORK": {"TEAM_PRACTICE_SUMMARY", "TEAM_WORK_RESULTS"},
    "PRACTICE_COACHING": {"MY_PRACTICE_SUMMARY"},
    "CAPTURE_FACT": {"CAPTURE_MEMORY_DRAFT"},
    "DRAFT_ACTION": {"PRACTICE_ASSIGNMENT_DRAFT", "REVIEW_DRAFT", "WORK_REPORT_DRAFT"},
    "MEDIA_UNDERSTANDING": {"MEDIA_ANALYZE", "KNOWLEDGE_SEARCH"},
    "WEB_RESEARCH": {"WEB_RESEARCH"},
    "CAPABILITY_QUERY": {"CAPABILITY_QUERY"},
    "SOCIAL": set(),
    "CLARIFY": set(),
}
LIVE_INTENTS = {"LIVE_MY_WORK", "LIVE_TEAM_WORK", "PRACTICE_COACHING"}


def _load(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _norm(text: str) -> str:
    """Overlap key: text without whitespace, punctuation or case."""
    return re.sub(r"[\s\W_]+", "", text.lower())


@pytest.fixture(scope="module")
def utterances() -> list[dict[str, Any]]:
    return _load(UTTERANCES)


@pytest.fixture(scope="module")
def golden() -> list[dict[str, Any]]:
    return _load(GOLDEN)


# ---------------------------------------------------------------- training set


def test_utterance_schema(utterances: list[dict[str, Any]]) -> None:
    keys = {"text", "intent", "domain", "needs", "tools", "role", "style"}
    for row in utterances:
        assert set(row) == keys, row
        assert isinstance(row["text"], str) and row["text"].strip() == row["text"] and row["text"], row
        assert row["intent"] in Intent.__members__, row
        assert row["domain"] is None or row["domain"] in DOMAINS, row
        assert all(n in EvidenceNeed.__members__ for n in row["needs"]), row
        assert all(t in ToolCode.__members__ for t in row["tools"]), row
        assert len(set(row["tools"])) == len(row["tools"]), row
        assert row["role"] in ROLES and row["style"] in STYLES, row


def test_utterance_texts_are_unique(utterances: list[dict[str, Any]]) -> None:
    keys = Counter(_norm(r["text"]) for r in utterances)
    assert [k for k, n in keys.items() if n > 1] == []


@pytest.mark.parametrize(
    ("intent", "minimum"),
    [(i.value, 80) for i in Intent] + [("KNOWLEDGE_QA", 350), ("CLARIFY", 120), ("SOCIAL", 100)],
)
def test_utterance_intent_minimums(utterances: list[dict[str, Any]], intent: str, minimum: int) -> None:
    assert sum(r["intent"] == intent for r in utterances) >= minimum


def test_utterance_total_and_variety(utterances: list[dict[str, Any]]) -> None:
    assert len(utterances) >= 1600
    styles = Counter(r["style"] for r in utterances)
    assert all(styles[s] >= 10 for s in STYLES), styles
    roles = Counter(r["role"] for r in utterances)
    assert all(roles[r] >= 5 for r in ROLES), roles
    kqa_domains = {r["domain"] for r in utterances if r["intent"] == "KNOWLEDGE_QA"}
    assert len(kqa_domains) >= 14


def test_utterance_tools_follow_the_planner_mapping(utterances: list[dict[str, Any]]) -> None:
    for row in utterances:
        allowed = INTENT_TOOLS[row["intent"]]
        assert set(row["tools"]) <= allowed, row
        assert bool(row["tools"]) == bool(allowed), row


def test_utterance_needs_follow_the_intent(utterances: list[dict[str, Any]]) -> None:
    for row in utterances:
        needs = set(row["needs"])
        knowledge_needs = needs - {"LIVE_STATE"}
        searches = "KNOWLEDGE_SEARCH" in row["tools"]
        assert ("LIVE_STATE" in needs) == (row["intent"] in LIVE_INTENTS), row
        assert (1 <= len(knowledge_needs) <= 2) if searches else not knowledge_needs, row


def test_mixed_utterances_call_live_and_knowledge_tools(utterances: list[dict[str, Any]]) -> None:
    mixed = [r for r in utterances if r["intent"] == "LIVE_MY_WORK" and "KNOWLEDGE_SEARCH" in r["tools"]]
    assert len(mixed) >= 8
    assert all(r["tools"][0] == "MY_CURRENT_TASKS" for r in mixed)


# ---------------------------------------------------------------- golden set


def test_golden_schema(golden: list[dict[str, Any]]) -> None:
    for case in golden:
        assert set(case) == {"id", "actor", "turns", "expect", "tags"}, case
        assert re.fullmatch(r"g-\d{4}", case["id"]), case
        assert case["actor"] in ACTORS, case
        assert case["turns"] and all(isinstance(t, str) and t.strip() for t in case["turns"]), case
        expect = case["expect"]
        assert set(expect) <= EXPECT_KEYS and {"intent", "tools"} <= set(expect), case
        assert expect["intent"] and all(i in Intent.__members__ for i in expect["intent"]), case
        assert expect["tools"] and all(isinstance(s, list) for s in expect["tools"]), case
        assert all(t in ToolCode.__members__ for s in expect["tools"] for t in s), case
        assert all(t in ToolCode.__members__ for t in expect.get("forbid_tools", [])), case
        assert all(s in ResponseStatus.__members__ for s in expect.get("status", ["COMPLETED"])), case
        assert all(d in DecisionStatus.__members__ for d in expect.get("decision", ["ANSWERED"])), case
        assert all(isinstance(t, str) and t for t in case["tags"]), case


def test_golden_loads_with_the_eval_harness() -> None:
    cases = load_cases(GOLDEN)
    assert len(cases) >= 320 and len({c.id for c in cases}) == len(cases)


def test_golden_ids_are_unique_and_sequential(golden: list[dict[str, Any]]) -> None:
    ids = [c["id"] for c in golden]
    assert ids == [f"g-{n:04d}" for n in range(1, len(golden) + 1)]


def test_golden_size_and_strata(golden: list[dict[str, Any]]) -> None:
    assert len(golden) >= 320
    assert sum(len(c["turns"]) > 1 for c in golden) >= 40
    assert sum("adversarial" in c["tags"] for c in golden) >= 30
    assert all(("multi_turn" in c["tags"]) == (len(c["turns"]) > 1) for c in golden)
    primary = Counter(c["expect"]["intent"][0] for c in golden)
    assert all(primary[i.value] >= 15 for i in Intent), primary
    actors = Counter(c["actor"] for c in golden)
    assert all(actors[a] >= 25 for a in ACTORS), actors
    for intent in Intent:
        roles = {c["actor"] for c in golden if c["expect"]["intent"][0] == intent.value}
        assert len(roles) >= 4, (intent, roles)


def test_golden_expected_tools_respect_the_role_policy(golden: list[dict[str, Any]]) -> None:
    for case in golden:
        expect = case["expect"]
        for tool_set in expect["tools"]:
            assert set(tool_set) <= ROLE_TOOLS[case["actor"]], case
            assert not set(tool_set) & set(expect.get("forbid_tools", [])), case


def test_golden_status_and_tools_agree(golden: list[dict[str, Any]]) -> None:
    for case in golden:
        expect = case["expect"]
        status = set(expect.get("status", []))
        if status == {"FORBIDDEN"}:
            assert expect["tools"] == [[]], case
        if expect["intent"] in (["SOCIAL"], ["CLARIFY"]):
            assert expect["tools"] == [[]], case
            assert status == ({"COMPLETED"} if expect["intent"] == ["SOCIAL"] else {"NEEDS_INPUT"}), case
        if status == {"NEEDS_CONFIRMATION"}:
            drafts = {
                "CAPTURE_MEMORY_DRAFT",
                "PRACTICE_ASSIGNMENT_DRAFT",
                "REVIEW_DRAFT",
                "WORK_REPORT_DRAFT",
            }
            assert all(len(s) == 1 and s[0] in drafts for s in expect["tools"]), case


def test_golden_seed_cases_are_present(golden: list[dict[str, Any]]) -> None:
    by_text = {(c["actor"], c["turns"][-1]): c["expect"] for c in golden if len(c["turns"]) == 1}
    assert by_text[("employee", "我今天有什么待办")]["tools"] == [["MY_CURRENT_TASKS"]]
    assert by_text[("employee_other_project", "我今天有什么待办")]["status"] == ["COMPLETED"]
    assert by_text[("candidate", "我的面试到哪一步了")]["tools"] == [["MY_CANDIDATE_PROGRESS"]]
    for text in ("500元的一笔采购如何报销", "500元以下的零星采购怎么报销", "五百块的小额自采怎么走账"):
        assert by_text[("employee", text)] == {
            "intent": ["KNOWLEDGE_QA"],
            "tools": [["KNOWLEDGE_SEARCH"]],
            "status": ["NO_EVIDENCE"],
            "decision": ["NO_EVIDENCE"],
        }
    assert by_text[("employee", "年假要提前几天申请")]["decision"] == ["CONFLICT", "NEEDS_INPUT"]


def test_no_golden_text_is_in_training(
    golden: list[dict[str, Any]], utterances: list[dict[str, Any]]
) -> None:
    train = {_norm(r["text"]) for r in utterances}
    leaked = [t for c in golden for t in c["turns"] if _norm(t) in train]
    assert leaked == []


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("记一下 3 栋 1201 要回访", "记一下3栋1201要回访", True),
        ("在吗？", "在吗", True),
        ("报销", "报销呢", False),
    ],
)
def test_overlap_key_ignores_spacing_and_punctuation(a: str, b: str, same: bool) -> None:
    assert (_norm(a) == _norm(b)) is same
