"""A self-scoped read planned for a question about someone else is refused."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from evidence.builders import doc, search_result
from shifu.contracts.common import EvidenceNeed, Intent, Role, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.entities import ExtractedEntities, PersonMention
from shifu.contracts.evidence import DocumentEvidence, DocumentScope
from shifu.contracts.plan import SemanticQueryPlan, ToolCall
from shifu.runtime.scope import (
    about_named_projects,
    asks_about_someone_else,
    named_projects,
    own_read_instead,
    scoped_to_named_project,
    team_read_instead,
    unseen_project_caveat,
    without_project_names,
)

CTX = ExecutionContext(
    run_id="r",
    tenant_id="demo",
    app_id="staff-app",
    user_id="u-zhangsan",
    external_id="ext-1001",
    display_name="张三",
    role=Role.EMPLOYEE,
    project_ids=("proj-huafu",),
    now=datetime(2026, 12, 2, tzinfo=UTC),
)


def _plan(question: str, tool: ToolCode, persons: tuple[str, ...] = ()) -> SemanticQueryPlan:
    return SemanticQueryPlan(
        question=question,
        normalized_question=question,
        intent=Intent.LIVE_MY_WORK,
        confidence=0.9,
        entities=ExtractedEntities(persons=[PersonMention(name=n) for n in persons]),
        tool_calls=[ToolCall(tool=tool)],
    )


@pytest.mark.parametrize(
    ("question", "tool", "persons"),
    [
        ("赵六今天有哪些待办", ToolCode.MY_CURRENT_TASKS, ("赵六",)),
        ("其他候选人的面试进度怎么样", ToolCode.MY_CANDIDATE_PROGRESS, ()),
        ("别人的训练成绩是多少", ToolCode.MY_PRACTICE_SUMMARY, ()),
    ],
)
def test_questions_about_others_are_refused(question: str, tool: ToolCode, persons: tuple[str, ...]) -> None:
    assert asks_about_someone_else(_plan(question, tool, persons), CTX)


@pytest.mark.parametrize(
    ("question", "tool", "persons"),
    [
        ("我今天有什么待办", ToolCode.MY_CURRENT_TASKS, ()),
        ("张三的待办", ToolCode.MY_CURRENT_TASKS, ("张三",)),
        ("孙八的训练情况", ToolCode.TEAM_PRACTICE_SUMMARY, ("孙八",)),
    ],
)
def test_own_questions_and_team_tools_pass(question: str, tool: ToolCode, persons: tuple[str, ...]) -> None:
    assert not asks_about_someone_else(_plan(question, tool, persons), CTX)


SUPERVISOR = CTX.model_copy(
    update={"role": Role.SUPERVISOR, "display_name": "钱七", "supervised_project_ids": ("proj-huafu",)}
)


def test_a_supervisor_asking_about_one_member_gets_the_team_read_of_that_member() -> None:
    plan = _plan("张三这周练了几次", ToolCode.MY_PRACTICE_SUMMARY, ("张三",))
    team = team_read_instead(plan, SUPERVISOR)
    assert team is not None and team.intent is Intent.LIVE_TEAM_WORK
    assert [(c.tool, c.arguments) for c in team.tool_calls] == [
        (ToolCode.TEAM_PRACTICE_SUMMARY, {"memberName": "张三"})
    ]


@pytest.mark.parametrize(
    ("ctx", "question", "tool", "persons"),
    [
        (CTX, "赵六最近练得怎么样", ToolCode.MY_PRACTICE_SUMMARY, ("赵六",)),  # supervises nothing
        (SUPERVISOR, "我这周练了几次", ToolCode.MY_PRACTICE_SUMMARY, ()),  # about oneself
        (SUPERVISOR, "张三和孙八谁练得多", ToolCode.MY_PRACTICE_SUMMARY, ("张三", "孙八")),  # two people
        (SUPERVISOR, "张三今天有什么待办", ToolCode.MY_CURRENT_TASKS, ("张三",)),  # no team task read
        (SUPERVISOR, "其他人练得怎么样", ToolCode.MY_PRACTICE_SUMMARY, ()),
    ],
)
def test_no_team_read_is_made_up_otherwise(
    ctx: ExecutionContext, question: str, tool: ToolCode, persons: tuple[str, ...]
) -> None:
    assert team_read_instead(_plan(question, tool, persons), ctx) is None


TODAY = date(2026, 12, 2)
CANDIDATE = CTX.model_copy(update={"role": Role.CANDIDATE, "project_ids": ()})
OPERATOR = CTX.model_copy(update={"role": Role.OPERATOR})


@pytest.mark.parametrize(
    ("ctx", "question", "tool"),
    [
        (CTX, "我的复盘什么时候", ToolCode.MY_PRACTICE_SUMMARY),
        (CTX, "我的训练进度怎么样", ToolCode.MY_PRACTICE_SUMMARY),
        (CTX, "我的任务进度", ToolCode.MY_CURRENT_TASKS),
        (SUPERVISOR, "我的考核进度", ToolCode.MY_WORK_RESULTS),
    ],
)
def test_staff_asking_about_their_own_records_get_the_staff_read_not_candidate_progress(
    ctx: ExecutionContext, question: str, tool: ToolCode
) -> None:
    own = own_read_instead(_plan(question, ToolCode.MY_CANDIDATE_PROGRESS), ctx, TODAY)
    assert own is not None and own.intent is Intent.LIVE_MY_WORK
    assert [c.tool for c in own.tool_calls] == [tool]


def test_the_staff_read_keeps_the_questions_date_window() -> None:
    from shifu.contracts.entities import DateSpan

    plan = _plan("我本周的复盘", ToolCode.MY_CANDIDATE_PROGRESS).model_copy(
        update={
            "entities": ExtractedEntities(
                dates=[DateSpan(text="本周", start=date(2026, 11, 30), end=date(2026, 12, 6))]
            )
        }
    )
    own = own_read_instead(plan, CTX, TODAY)
    assert own is not None
    assert own.tool_calls[0].arguments == {"dateRange": "THIS_WEEK"}


@pytest.mark.parametrize(
    ("ctx", "question", "tool"),
    [
        (CTX, "我的面试进度", ToolCode.MY_CANDIDATE_PROGRESS),  # names no staff record: refused by the gate
        (CANDIDATE, "我的复盘什么时候", ToolCode.MY_CANDIDATE_PROGRESS),  # a candidate has this read
        (OPERATOR, "我的复盘什么时候", ToolCode.MY_CANDIDATE_PROGRESS),  # an operator has no own records
        (CTX, "我的复盘什么时候", ToolCode.MY_PRACTICE_SUMMARY),  # already a staff read
    ],
)
def test_no_other_own_read_is_made_up(ctx: ExecutionContext, question: str, tool: ToolCode) -> None:
    assert own_read_instead(_plan(question, tool), ctx, TODAY) is None


NAMED = CTX.model_copy(
    update={
        "selected_project_id": "proj-huafu",
        "project_names": {"proj-huafu": "华府", "proj-jiangwan": "江湾"},
    }
)


def test_the_projects_a_question_names_are_the_tenants_projects_by_name() -> None:
    assert named_projects("江湾项目谁还没复盘", NAMED) == ["proj-jiangwan"]
    assert named_projects("谁还没复盘", NAMED) == []
    assert named_projects("华府和江湾谁还没复盘", NAMED) == ["proj-huafu", "proj-jiangwan"]


def test_a_rule_question_about_a_project_outside_the_users_says_it_covers_the_company_rule_only() -> None:
    caveat = unseen_project_caveat("江湾项目的装修押金多少", NAMED)
    assert caveat is not None and "江湾" in caveat and "无权查看" in caveat
    assert unseen_project_caveat("华府项目的装修押金多少", NAMED) is None  # the user's own project
    assert unseen_project_caveat("装修押金多少", NAMED) is None


@pytest.mark.parametrize(
    ("question", "tool", "selected"),
    [
        ("江湾项目有哪些待办", ToolCode.MY_CURRENT_TASKS, "proj-jiangwan"),  # the gate refuses it
        ("江湾项目谁还没复盘", ToolCode.TEAM_PRACTICE_SUMMARY, "proj-jiangwan"),
        ("华府项目有哪些待办", ToolCode.MY_CURRENT_TASKS, "proj-huafu"),
        ("江湾项目的装修规定", ToolCode.KNOWLEDGE_SEARCH, "proj-huafu"),  # spaces decide knowledge
        ("华府和江湾谁还没复盘", ToolCode.TEAM_PRACTICE_SUMMARY, "proj-jiangwan"),  # refused, not halved
        ("把江湾项目没复盘的名单发给项目经理", ToolCode.REVIEW_DRAFT, "proj-jiangwan"),
    ],
)
def test_a_live_read_about_a_named_project_is_scoped_to_it(
    question: str, tool: ToolCode, selected: str
) -> None:
    assert scoped_to_named_project(_plan(question, tool), NAMED).selected_project_id == selected


def _fragment(citation_id: str, projects: tuple[str, ...]) -> DocumentEvidence:
    scope = DocumentScope(tenant_id="demo", space_id="space-all-staff", project_ids=projects)
    return doc(citation_id, "白班为8:00至20:00。", needs=(EvidenceNeed.GENERAL_RULE,), scope=scope)


def test_a_rule_of_another_project_never_answers_a_question_naming_a_project() -> None:
    huafu, company = _fragment("c1", ("proj-huafu",)), _fragment("c2", ())
    about_jiangwan = about_named_projects(search_result(huafu, company), "江湾项目的门岗几点交接班", NAMED)
    assert [doc.citation_id for doc in about_jiangwan.documents] == ["c2"]
    assert any(o.code == "OTHER_PROJECT_DROPPED" for o in about_jiangwan.observations)
    only_huafu = about_named_projects(search_result(huafu), "江湾项目的门岗几点交接班", NAMED)
    assert only_huafu.status is ToolStatus.NO_RESULT and only_huafu.documents == []
    about_huafu = about_named_projects(search_result(huafu, company), "华府项目的门岗几点交接班", NAMED)
    assert len(about_huafu.documents) == 2
    unnamed = about_named_projects(search_result(huafu, company), "门岗几点交接班", NAMED)
    assert len(unnamed.documents) == 2


def test_the_evidence_gate_reads_a_named_project_as_scope_not_subject() -> None:
    plan = _plan("江湾项目报销要谁批", ToolCode.KNOWLEDGE_SEARCH)
    read = without_project_names(plan, NAMED)
    assert read.question == "报销要谁批"
    unnamed = _plan("报销要谁批", ToolCode.KNOWLEDGE_SEARCH)
    assert without_project_names(unnamed, NAMED) is unnamed
