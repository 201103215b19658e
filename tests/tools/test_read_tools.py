"""Read tools over the seeded demo: facts with full metadata, explicit NO_* facts, scope from ctx."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import pytest

from shifu.contracts.common import EvidenceType, Intent, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall
from shifu.tools import RunBudget, ToolExecutor
from shifu.tools.ports import KnowledgeAccess

Ctx = Callable[..., ExecutionContext]


def run(
    executor: ToolExecutor, ctx: ExecutionContext, intent: Intent, tool: ToolCode, **arguments: object
) -> ToolResult:
    return executor.execute(ctx, intent, ToolCall(tool=tool, arguments=arguments), budget=RunBudget())  # type: ignore[arg-type]


def test_today_tasks_are_verified_facts_with_metadata(executor: ToolExecutor, ctx_of: Ctx) -> None:
    ctx = ctx_of("employee")
    result = run(executor, ctx, Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, dateRange="TODAY")
    assert result.status is ToolStatus.OK
    summary, *tasks = result.facts
    assert summary.fact_type == "TASKS_SUMMARY" and summary.value["count"] == 2
    assert summary.value["overdueCount"] == 1 and summary.value["dueTodayCount"] == 1
    # Today's open work includes what is still open from earlier days, oldest first.
    assert [t.value["title"] for t in tasks] == ["2栋1201业主报修回访", "3栋1单元消防通道巡检"]
    for fact in result.facts:
        assert fact.evidence_type is EvidenceType.VERIFIED_FACT
        assert fact.source_system == "embedded-demo"
        assert fact.ttl_seconds == 60
        assert fact.scope.user_id == "u-zhangsan" and fact.scope.tenant_id == "demo"
        assert fact.authorization.policy == "SELF_ONLY"
        assert fact.queried_at.tzinfo is not None


@pytest.mark.parametrize(
    ("arguments", "titles"),
    [
        (
            {"dateRange": "THIS_MONTH"},
            {"3栋1单元消防通道巡检", "2栋1201业主报修回访", "地下车库照明维修工单"},
        ),
        ({"status": "OVERDUE"}, {"2栋1201业主报修回访"}),
        ({"status": "DONE"}, {"5栋电梯年检资料整理"}),
        (
            {"dateRange": "THIS_MONTH", "status": "ALL"},
            {"3栋1单元消防通道巡检", "2栋1201业主报修回访", "地下车库照明维修工单", "5栋电梯年检资料整理"},
        ),
        ({"startDate": "2025-06-16", "endDate": "2025-06-17"}, {"2栋1201业主报修回访"}),
        ({"dateRange": "NEXT_MONTH"}, set()),
        ({"dateRange": "THIS_MONTH", "kind": "回访"}, {"2栋1201业主报修回访"}),
        ({"dateRange": "THIS_MONTH", "kind": "维修"}, {"地下车库照明维修工单"}),
        ({"dateRange": "THIS_MONTH", "kind": "整改"}, set()),
    ],
)
def test_task_filters(
    executor: ToolExecutor, ctx_of: Ctx, arguments: dict[str, str], titles: set[str]
) -> None:
    result = run(executor, ctx_of("employee"), Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, **arguments)
    assert {f.value["title"] for f in result.facts if f.fact_type == "TASK"} == titles
    if not titles:
        assert [f.fact_type for f in result.facts] == ["NO_TASKS"]


def test_no_tasks_is_an_explicit_fact(executor: ToolExecutor, ctx_of: Ctx) -> None:
    result = run(
        executor,
        ctx_of("employee_other_project"),
        Intent.LIVE_MY_WORK,
        ToolCode.MY_CURRENT_TASKS,
        dateRange="TODAY",
    )
    assert result.status is ToolStatus.OK
    assert [(f.fact_type, f.value["count"]) for f in result.facts] == [("NO_TASKS", 0)]
    assert result.observations[0].code == "NO_TASKS"


def test_other_tenant_context_reads_nothing_of_demo(executor: ToolExecutor, ctx_of: Ctx) -> None:
    ctx = ctx_of("employee", tenant_id="other-tenant")
    result = run(executor, ctx, Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, status="ALL")
    assert [f.fact_type for f in result.facts] == ["NO_TASKS"]


def test_a_named_colleague_never_widens_scope(executor: ToolExecutor, ctx_of: Ctx) -> None:
    """ "赵六今天有哪些待办" asked by 张三: the planner has no way to name 赵六; tools read 张三 only."""
    ctx = ctx_of("employee")
    forged = run(
        executor, ctx, Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, dateRange="TODAY", employeeName="赵六"
    )
    assert forged.status is ToolStatus.INVALID_ARGUMENTS and not forged.facts
    plain = run(executor, ctx, Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, dateRange="TODAY")
    assert {f.scope.user_id for f in plain.facts} == {"u-zhangsan"}


def test_my_practice_summary(executor: ToolExecutor, ctx_of: Ctx) -> None:
    result = run(executor, ctx_of("employee"), Intent.PRACTICE_COACHING, ToolCode.MY_PRACTICE_SUMMARY)
    (fact,) = result.facts
    assert (
        fact.value["recordCount"] == 2
        and fact.value["pendingReviewCount"] == 1
        and fact.value["averageScore"] == 79
    )


def test_team_practice_lists_pending_reviews_of_supervised_project_only(
    executor: ToolExecutor, ctx_of: Ctx
) -> None:
    result = run(executor, ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, ToolCode.TEAM_PRACTICE_SUMMARY)
    (fact,) = result.facts
    pending = fact.value["pendingReview"]
    assert isinstance(pending, list)
    names = {item["userName"] for item in pending if isinstance(item, dict)}
    assert {"孙八", "周九"} <= names and "赵六" not in names
    assert fact.authorization.policy == "SUPERVISED_PROJECTS" and fact.scope.project_ids == ("proj-huafu",)


def test_team_practice_of_one_member_reads_only_inside_the_supervised_team(
    executor: ToolExecutor, ctx_of: Ctx
) -> None:
    supervisor = ctx_of("supervisor")
    result = run(
        executor, supervisor, Intent.LIVE_TEAM_WORK, ToolCode.TEAM_PRACTICE_SUMMARY, memberName="孙八"
    )
    (fact,) = result.facts
    assert fact.fact_type == "TEAM_PRACTICE_SUMMARY" and fact.value["memberName"] == "孙八"
    members = fact.value["members"]
    assert isinstance(members, list) and [m["userName"] for m in members if isinstance(m, dict)] == ["孙八"]
    # 赵六 is in another project: nothing is read, exactly as for a member who did not practise.
    outside = run(
        executor, supervisor, Intent.LIVE_TEAM_WORK, ToolCode.TEAM_PRACTICE_SUMMARY, memberName="赵六"
    )
    (empty,) = outside.facts
    assert empty.fact_type == "NO_PRACTICE_RECORDS" and empty.value["memberName"] == "赵六"


def test_work_results_own_and_team(executor: ToolExecutor, ctx_of: Ctx) -> None:
    own = run(executor, ctx_of("employee"), Intent.LIVE_MY_WORK, ToolCode.MY_WORK_RESULTS)
    assert own.facts[0].value["byStatus"] == {"SUBMITTED": 1, "APPROVED": 0, "REJECTED": 0}
    team = run(executor, ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, ToolCode.TEAM_WORK_RESULTS)
    items = team.facts[0].value["items"]
    assert isinstance(items, list) and {i["userName"] for i in items if isinstance(i, dict)} == {
        "张三",
        "孙八",
    }


def test_candidate_progress_and_its_absence(executor: ToolExecutor, ctx_of: Ctx) -> None:
    result = run(executor, ctx_of("candidate"), Intent.LIVE_MY_WORK, ToolCode.MY_CANDIDATE_PROGRESS)
    (fact,) = result.facts
    assert fact.value["stage"] == "复试" and fact.value["pendingDocumentCount"] == 1
    nobody = run(
        executor, ctx_of("candidate", user_id="u-nobody"), Intent.LIVE_MY_WORK, ToolCode.MY_CANDIDATE_PROGRESS
    )
    assert [f.fact_type for f in nobody.facts] == ["NO_CANDIDATE_PROGRESS"]


class Recording(Protocol):
    accesses: list[KnowledgeAccess]


def test_knowledge_search_passes_ctx_scope_and_drops_out_of_scope(
    executor: ToolExecutor, ctx_of: Ctx, knowledge: Recording
) -> None:
    result = run(executor, ctx_of("employee"), Intent.KNOWLEDGE_QA, ToolCode.KNOWLEDGE_SEARCH, query="报销")
    assert result.status is ToolStatus.OK
    assert [d.scope.space_id for d in result.documents] == ["space-all-staff"]
    assert {o.code: o.count for o in result.observations}["OUT_OF_SCOPE_DROPPED"] == 1
    (access,) = knowledge.accesses
    assert access.user_id == "u-zhangsan" and access.tenant_id == "demo"
    assert access.space_ids == ("space-all-staff", "space-huafu", "space-laws")
    assert access.on_date.isoformat() == "2025-06-18"
    assert not result.facts


def test_knowledge_search_with_no_readable_fragment_is_no_result(executor: ToolExecutor, ctx_of: Ctx) -> None:
    result = run(executor, ctx_of("candidate"), Intent.KNOWLEDGE_QA, ToolCode.KNOWLEDGE_SEARCH, query="报销")
    assert result.status is ToolStatus.NO_RESULT and result.reason_code == "NO_DOCUMENTS"


def test_resource_delivery(executor: ToolExecutor, ctx_of: Ctx) -> None:
    result = run(
        executor, ctx_of("employee"), Intent.RESOURCE_DELIVERY, ToolCode.KNOWLEDGE_RESOURCE, citationId="c-1"
    )
    assert [r.resource_id for r in result.resources] == ["res-1"]


@pytest.mark.parametrize(
    ("actor", "requested", "supported"),
    [
        ("employee", "CRM", False),
        ("employee", "待办", True),
        ("employee", "工单系统", True),
        ("supervisor", "团队待办", False),  # shares a word with 待办, but is the team's
        ("employee", "请假记录", False),
        ("candidate", "待办", False),
        ("candidate", "面试", True),
    ],
)
def test_capability_query_comes_from_registry_and_policy(
    executor: ToolExecutor, ctx_of: Ctx, actor: str, requested: str, supported: bool
) -> None:
    result = run(
        executor, ctx_of(actor), Intent.CAPABILITY_QUERY, ToolCode.CAPABILITY_QUERY, requestedSystem=requested
    )
    (fact,) = result.facts
    assert fact.fact_type == "CAPABILITY" and fact.source_system == "tool-registry"
    assert fact.value["requestedSupported"] is supported


def test_unconnected_data_names_match_no_registered_tool(executor: ToolExecutor, ctx_of: Ctx) -> None:
    from shifu.planning.uncovered import UNCOVERED_ACTIONS, UNCOVERED_DATA

    for name, _ in (*UNCOVERED_DATA, *UNCOVERED_ACTIONS):
        result = run(
            executor,
            ctx_of("supervisor"),
            Intent.CAPABILITY_QUERY,
            ToolCode.CAPABILITY_QUERY,
            requestedSystem=name,
        )
        (fact,) = result.facts
        assert fact.value["requestedRegistered"] is False, name


def test_capability_lists_exactly_the_role_tools(executor: ToolExecutor, ctx_of: Ctx) -> None:
    result = run(executor, ctx_of("candidate"), Intent.CAPABILITY_QUERY, ToolCode.CAPABILITY_QUERY)
    tools = result.facts[0].value["tools"]
    assert isinstance(tools, list)
    assert {t["code"] for t in tools if isinstance(t, dict)} == {
        "KNOWLEDGE_SEARCH",
        "KNOWLEDGE_RESOURCE",
        "MY_CANDIDATE_PROGRESS",
    }
    supervisor = run(executor, ctx_of("supervisor"), Intent.CAPABILITY_QUERY, ToolCode.CAPABILITY_QUERY)
    assert supervisor.facts[0].value["toolCount"] == 13
