"""Live answers are rendered from fact fields: every number in the text is in some fact."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence

import pytest
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions.directory import SqlTeamDirectory
from shifu.contracts.common import Intent, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import ToolResult, VerifiedFact
from shifu.contracts.plan import ToolCall
from shifu.demo.org_seed import HUAFU
from shifu.domain.embedded import EmbeddedDomain
from shifu.tools import RunBudget, ToolExecutor, build_tool_executor
from shifu.tools.ports import KnowledgeSearchPort
from shifu.tools.render import STATUS_MESSAGES, render_facts, render_result

Ctx = Callable[..., ExecutionContext]


def _numbers_come_from_facts(text: str, facts: list[VerifiedFact]) -> None:
    corpus = json.dumps([f.value for f in facts], ensure_ascii=False)
    for number in re.findall(r"\d+", text):
        assert number in corpus, f"{number} in the answer is not in any fact"


@pytest.mark.parametrize(
    ("actor", "intent", "tool", "arguments"),
    [
        ("employee", Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, {"dateRange": "THIS_MONTH"}),
        ("employee", Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, {"status": "ALL"}),
        ("employee_other_project", Intent.LIVE_MY_WORK, ToolCode.MY_CURRENT_TASKS, {"dateRange": "TODAY"}),
        ("employee", Intent.PRACTICE_COACHING, ToolCode.MY_PRACTICE_SUMMARY, {}),
        ("supervisor", Intent.LIVE_TEAM_WORK, ToolCode.TEAM_PRACTICE_SUMMARY, {}),
        ("supervisor", Intent.LIVE_TEAM_WORK, ToolCode.TEAM_PRACTICE_SUMMARY, {"memberName": "孙八"}),
        ("supervisor", Intent.LIVE_TEAM_WORK, ToolCode.TEAM_PRACTICE_SUMMARY, {"memberName": "赵六"}),
        ("employee", Intent.LIVE_MY_WORK, ToolCode.MY_WORK_RESULTS, {"dateRange": "THIS_MONTH"}),
        ("supervisor", Intent.LIVE_TEAM_WORK, ToolCode.TEAM_WORK_RESULTS, {}),
        ("candidate", Intent.LIVE_MY_WORK, ToolCode.MY_CANDIDATE_PROGRESS, {}),
        ("employee", Intent.CAPABILITY_QUERY, ToolCode.CAPABILITY_QUERY, {"requestedSystem": "CRM"}),
    ],
)
def test_every_number_in_the_answer_is_in_a_fact(
    executor: ToolExecutor, ctx_of: Ctx, actor: str, intent: Intent, tool: ToolCode, arguments: dict[str, str]
) -> None:
    result = executor.execute(
        ctx_of(actor), intent, ToolCall(tool=tool, arguments=arguments), budget=RunBudget()
    )
    assert result.status is ToolStatus.OK
    text = render_result(result)
    assert text.strip()
    _numbers_come_from_facts(text, result.facts)


def test_one_members_practice_names_only_that_member(executor: ToolExecutor, ctx_of: Ctx) -> None:
    call = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={"memberName": "孙八"})
    text = render_result(
        executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    )
    assert text.startswith("目前孙八共练习") and "周九" not in text and "团队" not in text
    call = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={"memberName": "赵六"})
    text = render_result(
        executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    )
    assert text == "目前赵六没有训练记录。"


def test_tasks_answer_names_titles_dates_and_overdue(executor: ToolExecutor, ctx_of: Ctx) -> None:
    call = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "THIS_MONTH"})
    text = render_result(executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, call, budget=RunBudget()))
    assert "共有 3 项待办" in text and "其中 1 项已逾期" in text
    assert "3栋1单元消防通道巡检" in text and "截止6月18日" in text and "已逾期" in text


def test_no_tasks_answer_is_explicit(executor: ToolExecutor, ctx_of: Ctx) -> None:
    call = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "TODAY"})
    result = executor.execute(ctx_of("employee_other_project"), Intent.LIVE_MY_WORK, call, budget=RunBudget())
    assert render_result(result) == "6月18日你没有需要处理的待办。"


@pytest.mark.parametrize(
    ("actor", "status", "expected"),
    [
        ("employee", "DONE", "6月1日至6月30日你已完成 1 项任务："),
        ("employee", "OVERDUE", "6月1日至6月30日你有 1 项已逾期的待办："),
        ("employee_other_project", "DONE", "6月1日至6月30日你没有已完成的任务。"),
    ],
)
def test_a_task_listing_filtered_by_status_says_what_it_counts(
    executor: ToolExecutor, ctx_of: Ctx, actor: str, status: str, expected: str
) -> None:
    call = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "THIS_MONTH", "status": status})
    text = render_result(executor.execute(ctx_of(actor), Intent.LIVE_MY_WORK, call, budget=RunBudget()))
    assert text.splitlines()[0] == expected
    assert "待办" not in text or status != "DONE"


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("回访", "6月1日至6月30日你共有 1 项回访待办，其中 1 项已逾期："),
        ("整改", "6月1日至6月30日你没有需要处理的整改待办。"),
    ],
)
def test_a_task_listing_of_one_kind_says_which_kind_it_counts(
    executor: ToolExecutor, ctx_of: Ctx, kind: str, expected: str
) -> None:
    call = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "THIS_MONTH", "kind": kind})
    text = render_result(executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, call, budget=RunBudget()))
    assert text.splitlines()[0] == expected


def test_crm_is_answered_as_not_connected(executor: ToolExecutor, ctx_of: Ctx) -> None:
    call = ToolCall(tool=ToolCode.CAPABILITY_QUERY, arguments={"requestedSystem": "CRM"})
    text = render_result(
        executor.execute(ctx_of("employee"), Intent.CAPABILITY_QUERY, call, budget=RunBudget())
    )
    assert "「CRM」目前没有接入" in text and "我的当前待办" in text


@pytest.mark.parametrize("status", [s for s in ToolStatus if s is not ToolStatus.OK])
def test_failed_calls_get_a_fixed_chinese_message(status: ToolStatus) -> None:
    result = ToolResult(call=ToolCall(tool=ToolCode.MY_CURRENT_TASKS), status=status, reason_code="X")
    assert render_result(result) == STATUS_MESSAGES[status]
    assert render_facts([]) == ""
    assert (
        len(
            {
                STATUS_MESSAGES[ToolStatus.FORBIDDEN],
                STATUS_MESSAGES[ToolStatus.UNAVAILABLE],
                STATUS_MESSAGES[ToolStatus.NO_RESULT],
            }
        )
        == 3
    )


def test_the_team_summary_counts_who_practised_not_the_team_size(executor: ToolExecutor, ctx_of: Ctx) -> None:
    call = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={})
    result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    members = result.facts[0].value["memberCount"]
    assert f"团队中有 {members} 人练习过" in render_result(result)


def test_the_team_summary_states_the_average_of_every_record_read(
    executor: ToolExecutor, ctx_of: Ctx
) -> None:
    call = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={})
    result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    value = result.facts[0].value
    scores = [member["averageScore"] * member["recordCount"] for member in value["members"]]
    assert value["averageScore"] == pytest.approx(sum(scores) / value["recordCount"], abs=0.1)
    assert f"共 {value['recordCount']} 次，平均 {value['averageScore']} 分，" in render_result(result)


def test_the_roster_names_who_has_not_practised(
    seeded: sessionmaker[Session], knowledge: KnowledgeSearchPort, ctx_of: Ctx
) -> None:
    class Roster:
        def staff(self, tenant_id: str, project_ids: Sequence[str]) -> Mapping[str, str]:
            # A namesake of a member who practised is matched by id, not by name.
            namesakes = {"u-new": "新人甲", "u-zhangsan-2": "张三"}
            return {**namesakes, **SqlTeamDirectory(seeded).staff(tenant_id, project_ids)}

    executor = build_tool_executor(domain=EmbeddedDomain(seeded), knowledge=knowledge, roster=Roster())
    try:
        team = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={})
        result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, team, budget=RunBudget())
        assert result.facts[0].value["membersWithoutPractice"] == ["张三", "新人甲"]
        assert render_result(result).endswith("此期间还没有练习：张三、新人甲")
        one = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={"memberName": "孙八"})
        result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, one, budget=RunBudget())
        assert "membersWithoutPractice" not in result.facts[0].value
    finally:
        executor.close()


def test_a_team_where_everyone_practised_says_so(executor: ToolExecutor, ctx_of: Ctx) -> None:
    call = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments={})
    result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    assert result.facts[0].value["membersWithoutPractice"] == []
    assert render_result(result).endswith("团队成员在此期间都练习过。")


def test_the_roster_lists_the_staff_of_the_projects_not_their_supervisors(
    seeded: sessionmaker[Session],
) -> None:
    staff = SqlTeamDirectory(seeded).staff("demo", [HUAFU])
    assert staff == {"u-zhangsan": "张三", "u-sunba": "孙八", "u-zhoujiu": "周九"}
    assert SqlTeamDirectory(seeded).staff("other-tenant", [HUAFU]) == {}


def test_a_window_with_no_practice_names_the_whole_roster(executor: ToolExecutor, ctx_of: Ctx) -> None:
    window = {"startDate": "2020-01-01", "endDate": "2020-01-31"}
    call = ToolCall(tool=ToolCode.TEAM_PRACTICE_SUMMARY, arguments=window)
    result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    assert result.facts[0].fact_type == "NO_PRACTICE_RECORDS"
    text = render_result(result)
    assert "没有训练记录" in text and text.endswith("此期间还没有练习：周九、孙八、张三")
    mine = ToolCall(tool=ToolCode.MY_PRACTICE_SUMMARY, arguments=window)
    own = render_result(
        executor.execute(ctx_of("employee"), Intent.PRACTICE_COACHING, mine, budget=RunBudget())
    )
    assert "还没有练习" not in own and "都练习过" not in own


def test_the_team_results_name_who_has_submitted_nothing(executor: ToolExecutor, ctx_of: Ctx) -> None:
    call = ToolCall(tool=ToolCode.TEAM_WORK_RESULTS, arguments={})
    result = executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, call, budget=RunBudget())
    items = result.facts[0].value["items"]
    assert isinstance(items, list)
    submitted = {str(item["userName"]) for item in items if isinstance(item, dict)}
    missing = result.facts[0].value["membersWithoutResults"]
    assert isinstance(missing, list) and missing and not submitted & {str(name) for name in missing}
    assert render_result(result).endswith("此期间还没有提交成果：" + "、".join(str(name) for name in missing))


def test_a_window_with_no_results_names_the_whole_roster_and_own_results_never_do(
    executor: ToolExecutor, ctx_of: Ctx
) -> None:
    window = {"startDate": "2020-01-01", "endDate": "2020-01-31"}
    team = ToolCall(tool=ToolCode.TEAM_WORK_RESULTS, arguments=window)
    text = render_result(
        executor.execute(ctx_of("supervisor"), Intent.LIVE_TEAM_WORK, team, budget=RunBudget())
    )
    assert "没有工作成果记录" in text and text.endswith("此期间还没有提交成果：周九、孙八、张三")
    mine = ToolCall(tool=ToolCode.MY_WORK_RESULTS, arguments=window)
    own = render_result(executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, mine, budget=RunBudget()))
    assert "还没有提交成果" not in own
