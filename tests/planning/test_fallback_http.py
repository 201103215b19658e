"""Model planner → deterministic fallback over real HTTP (fake OpenAI-compatible server).

Each bad model answer ends in the deterministic plan with the reason code that names it;
a valid plan is accepted with MODEL_OK.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from shifu.config import Settings
from shifu.contracts.common import Intent, PlannerKind, ToolCode
from shifu.contracts.context import ResolvedContext
from shifu.llm.client import OpenAICompatibleClient
from shifu.llm.fake_server import FakeOpenAIServer, Reply, running_fake_server
from shifu.planning.deterministic import DeterministicPlanner
from shifu.planning.fallback import FallbackPlanner, build_planner
from shifu.planning.model import ModelPlanner
from shifu.planning.outcome import PlanningOutcome

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)
AMOUNT_Q = "500元以下的零星采购怎么报销"
TASKS_Q = "本月我有哪些待办"


def _plan(question: str = AMOUNT_Q, **overrides: Any) -> dict[str, Any]:
    plan: dict[str, Any] = {
        "intent": "KNOWLEDGE_QA",
        "normalizedQuestion": "500元以下的零星采购如何报销",
        "domain": "REIMBURSEMENT",
        "evidenceNeeds": ["AMOUNT_RULE", "PROCESS_STEPS"],
        "toolCalls": [
            {
                "tool": "KNOWLEDGE_SEARCH",
                "arguments": {"query": "500元以下零星采购报销", "domain": "REIMBURSEMENT"},
            }
        ],
        "missingFields": [],
        "responseStyle": "STEPS",
    }
    plan.update(overrides)
    return plan


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with running_fake_server() as fake:
        yield fake


def _run(
    server: FakeOpenAIServer, deterministic: DeterministicPlanner, reply: Reply, question: str
) -> PlanningOutcome:
    server.script([reply])
    client = OpenAICompatibleClient(server.base_url, "planner-model", "k")
    planner = FallbackPlanner(ModelPlanner(client, timeout_s=0.3, confidence=deterministic), deterministic)
    try:
        return planner.plan(question, ResolvedContext(), now=NOW, tz=TZ)
    finally:
        client.close()


def test_a_valid_model_plan_is_accepted(
    server: FakeOpenAIServer, deterministic: DeterministicPlanner
) -> None:
    outcome = _run(server, deterministic, Reply.json(_plan()), AMOUNT_Q)
    assert (outcome.planner, outcome.reason_code, outcome.model_calls) == (PlannerKind.MODEL, "MODEL_OK", 1)
    assert outcome.plan.normalized_question == "500元以下的零星采购如何报销"
    assert [c.tool for c in outcome.plan.tool_calls] == [ToolCode.KNOWLEDGE_SEARCH]
    assert outcome.plan.entities.amounts[0].value == 500
    assert 0.0 < outcome.plan.confidence <= 1.0


def test_the_model_never_sees_execution_context(
    server: FakeOpenAIServer, deterministic: DeterministicPlanner
) -> None:
    _run(server, deterministic, Reply.json(_plan()), AMOUNT_Q)
    sent = str(server.requests[0]["messages"])
    for secret in ("demo", "u-zhangsan", "proj-huafu", "EMPLOYEE", "space-", "staff-app"):
        assert secret not in sent
    assert AMOUNT_Q in sent


_TASKS_ARGS = {"dateRange": "THIS_MONTH"}

BAD_REPLIES: list[tuple[str, Reply, str, str]] = [
    ("tenant top level", Reply.json(_plan(tenantId="demo")), AMOUNT_Q, "AUTHORIZATION_FIELD"),
    (
        "tenant nested in arguments",
        Reply.json(
            _plan(toolCalls=[{"tool": "KNOWLEDGE_SEARCH", "arguments": {"query": "报销", "tenantId": "x"}}])
        ),
        AMOUNT_Q,
        "AUTHORIZATION_FIELD",
    ),
    ("snake case", Reply.json(_plan(tenant_id="demo")), AMOUNT_Q, "AUTHORIZATION_FIELD"),
    ("full width", Reply.json(_plan(**{"ｔｅｎａｎｔＩｄ": "demo"})), AMOUNT_Q, "AUTHORIZATION_FIELD"),
    (
        "project in a list",
        Reply.json(_plan(missingFields=[], extra=[{"project-id": "p"}])),
        AMOUNT_Q,
        "AUTHORIZATION_FIELD",
    ),
    ("role with cyrillic o", Reply.json(_plan(**{"rоle": "SUPERVISOR"})), AMOUNT_Q, "AUTHORIZATION_FIELD"),
    (
        "dropped 以下",
        Reply.json(_plan(normalizedQuestion="500元的零星采购如何报销")),
        AMOUNT_Q,
        "FIDELITY_VIOLATION",
    ),
    (
        "五百 → 5000",
        Reply.json(_plan(normalizedQuestion="5000元的小额自采怎么走账")),
        "五百块的小额自采怎么走账",
        "FIDELITY_VIOLATION",
    ),
    (
        "本月 → 上月",
        Reply.json(
            _plan(
                intent="LIVE_MY_WORK",
                normalizedQuestion="上月我有哪些待办",
                toolCalls=[{"tool": "MY_CURRENT_TASKS", "arguments": _TASKS_ARGS}],
            )
        ),
        TASKS_Q,
        "FIDELITY_VIOLATION",
    ),
    (
        "dropped 不",
        Reply.json(_plan(normalizedQuestion="试用期员工能报销吗")),
        "试用期员工不能报销吗",
        "FIDELITY_VIOLATION",
    ),
    (
        "unregistered tool",
        Reply.json(_plan(toolCalls=[{"tool": "SQL_QUERY", "arguments": {"sql": "select 1"}}])),
        AMOUNT_Q,
        "UNKNOWN_TOOL",
    ),
    (
        "date range on KNOWLEDGE_SEARCH",
        Reply.json(
            _plan(
                toolCalls=[
                    {"tool": "KNOWLEDGE_SEARCH", "arguments": {"query": "报销", "dateRange": "THIS_MONTH"}}
                ]
            )
        ),
        AMOUNT_Q,
        "SCHEMA_VIOLATION",
    ),
    ("unknown plan field", Reply.json(_plan(reasoning="因为……")), AMOUNT_Q, "SCHEMA_VIOLATION"),
    ("prose instead of JSON", Reply(content="这个问题应该查知识库。"), AMOUNT_Q, "MODEL_INVALID_JSON"),
    ("slow reply past the timeout", Reply.json(_plan(), delay_s=0.8), AMOUNT_Q, "MODEL_TIMEOUT"),
    ("HTTP 500", Reply(status=500, content="internal"), AMOUNT_Q, "MODEL_HTTP_ERROR"),
]


@pytest.mark.parametrize(
    ("case", "reply", "question", "reason"), BAD_REPLIES, ids=[c[0] for c in BAD_REPLIES]
)
def test_bad_model_answers_fall_back_to_the_deterministic_plan(
    server: FakeOpenAIServer,
    deterministic: DeterministicPlanner,
    case: str,
    reply: Reply,
    question: str,
    reason: str,
) -> None:
    outcome = _run(server, deterministic, reply, question)
    expected = deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ)
    assert (outcome.planner, outcome.reason_code, outcome.model_calls) == (
        PlannerKind.DETERMINISTIC,
        reason,
        1,
    )
    assert outcome.plan == expected
    assert "tenantId" not in outcome.plan.model_dump_json(by_alias=True)


def test_the_deterministic_fallback_plans_the_tasks_question(deterministic: DeterministicPlanner) -> None:
    plan = deterministic.build_plan(TASKS_Q, ResolvedContext(), now=NOW, tz=TZ)
    assert plan.intent is Intent.LIVE_MY_WORK
    assert [(c.tool, c.arguments) for c in plan.tool_calls] == [(ToolCode.MY_CURRENT_TASKS, _TASKS_ARGS)]


def test_no_model_configured_plans_deterministically(settings: Settings) -> None:
    outcome = build_planner(settings).plan("我今天有什么待办", ResolvedContext(), now=NOW, tz=TZ)
    assert (outcome.planner, outcome.reason_code, outcome.model_calls) == (
        PlannerKind.DETERMINISTIC,
        "MODEL_NOT_CONFIGURED",
        0,
    )


def test_build_planner_uses_a_configured_endpoint(settings: Settings, server: FakeOpenAIServer) -> None:
    server.script([Reply.json(_plan())])
    planner = build_planner(
        settings.with_changes(llm_base_url=server.base_url, llm_model="m", llm_timeout_s=2.0)
    )
    outcome = planner.plan(AMOUNT_Q, ResolvedContext(), now=NOW, tz=TZ)
    assert (outcome.planner, outcome.reason_code) == (PlannerKind.MODEL, "MODEL_OK")
