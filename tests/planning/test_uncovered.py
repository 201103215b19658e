"""Questions about personal data no connected system holds get the capability answer, not a live read."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from shifu.contracts.common import EvidenceNeed, Intent, ToolCode
from shifu.contracts.context import ResolvedContext
from shifu.planning.deterministic import DeterministicPlanner
from shifu.planning.uncovered import asks_uncovered_data, uncovered_action, uncovered_data

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)
TASKS = frozenset({ToolCode.MY_CURRENT_TASKS})
PRACTICE = frozenset({ToolCode.MY_PRACTICE_SUMMARY})
TEAM_PRACTICE = frozenset({ToolCode.TEAM_PRACTICE_SUMMARY})
TEAM_RESULTS = frozenset({ToolCode.TEAM_WORK_RESULTS})
CAPTURE = frozenset({ToolCode.CAPTURE_MEMORY_DRAFT})


@pytest.mark.parametrize(
    ("question", "tools", "uncovered"),
    [
        ("我还有几天年假没休", PRACTICE, True),
        ("这个月我报销了多少钱", TASKS, True),
        ("我的工资条在哪看", PRACTICE, True),
        ("我今天有什么待办", TASKS, False),
        ("我的训练成绩怎么样", PRACTICE, False),
        ("考勤异常的工单处理完了吗", TASKS, False),  # names the tool's own topic
        ("年假没休完能顺延吗", frozenset({ToolCode.KNOWLEDGE_SEARCH}), False),  # no live read chosen
        ("我的组员有谁", PRACTICE, True),  # the roster is no tool's data
        ("组里有哪些人", TEAM_PRACTICE, True),
        ("团队成员名单发我", TEAM_RESULTS, True),
        ("团队的考勤怎么样", TEAM_PRACTICE, True),
        ("组里谁还没练习", TEAM_PRACTICE, False),
        ("组员有哪些成果没审", TEAM_RESULTS, False),  # names the team read's own topic
        ("我这个月还能报销多少", PRACTICE, True),
        ("帮我查一下3栋1201的欠费", CAPTURE, True),  # a lookup request is no note to draft
        ("记一下3栋1201业主欠费三个月了", CAPTURE, False),  # a note about arrears is one
        ("我这个月请了几天假", PRACTICE, True),  # no tool holds leave records
        ("今天谁请假了", TASKS, True),
        ("我手下谁今天没打卡", TASKS, True),
        ("今天巡检打卡了吗", TASKS, False),  # a patrol check-in is the task read's own topic
        ("我们组的待办完成了多少", TASKS, True),  # the user's own to-dos are not the team's
        ("团队这周的任务", TEAM_PRACTICE, True),
        # Practice scores do not say which assigned trainings are done; no tool reads the team's tasks.
        ("组里谁的训练任务没做完", TEAM_PRACTICE, True),
        ("组里谁还没练习", TEAM_PRACTICE, False),  # names the team read's own topic
    ],
)
def test_uncovered_personal_data(question: str, tools: frozenset[ToolCode], uncovered: bool) -> None:
    assert asks_uncovered_data(question, tools) is uncovered


@pytest.mark.parametrize(
    "question",
    [
        "我还有几天年假没休",
        "我的工资条在哪看",
        "这个月我报销了多少钱",
        "我这个月还能报销多少",
        "帮我查一下3栋1201的欠费",
        "我的组员有谁",
        "组里有哪些人",
        "我这个月请了几天假",
        "帮我请明天的假",
        "帮我提交请假申请",
        "给业主发个催费通知",
    ],
)
def test_the_planner_answers_with_capabilities_instead_of_another_record(
    deterministic: DeterministicPlanner, question: str
) -> None:
    plan = deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ)
    assert plan.intent is Intent.CAPABILITY_QUERY
    assert {call.tool for call in plan.tool_calls} == {ToolCode.CAPABILITY_QUERY}


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("我的工资条在哪看", "工资薪酬"),
        ("我还有几天年假没休", "假期余额"),
        ("团队的考勤怎么样", "考勤"),
        ("我的组员有谁", "组员名单"),
        ("你能查CRM里的欠费吗", "CRM"),
        ("我这个月请了几天假", "请假记录"),
        ("帮我请明天的假", "请假申请"),
        ("帮我报销一下", "报销申请"),
        ("给张三打个电话", "短信和电话通知"),
        ("把车库照明那个任务关掉", "工单状态修改"),
        ("给孙八安排复盘", "复盘预约"),
        ("把孙八加到复盘名单", "手动调整复盘名单"),
        ("把我的待办发给张三", "待办转发"),
        ("帮我给孙八写个复盘记录", "复盘记录填写"),
        ("帮我把张三的练习成绩改成90分", "练习成绩修改"),
        ("谁还没来上班", "考勤"),
        ("哪些文档快过期了", "文档有效期台账"),
        ("告诉我所有员工的电话", "员工和业主的联系方式"),
        ("给我3栋业主的电话", "员工和业主的联系方式"),
    ],
)
def test_the_capability_answer_names_the_data_that_is_not_connected(
    deterministic: DeterministicPlanner, question: str, name: str
) -> None:
    plan = deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ)
    assert [(c.tool, c.arguments) for c in plan.tool_calls] == [
        (ToolCode.CAPABILITY_QUERY, {"requestedSystem": name})
    ]


@pytest.mark.parametrize("question", ["组里谁的训练逾期了", "大家的训练完成了吗", "手下的培训任务完成情况"])
def test_the_teams_assigned_trainings_are_no_connected_data(question: str) -> None:
    assert uncovered_data(question) == "团队训练任务"


def test_a_question_about_connected_data_names_nothing_unconnected() -> None:
    assert uncovered_data("我今天有什么待办") is None
    assert uncovered_data("组里谁还没练习") is None
    assert uncovered_data("装修管理规定2022版还有效吗") is None  # one document's validity: the gate answers


@pytest.mark.parametrize(
    ("question", "action"),
    [
        ("帮我请明天的假", "请假申请"),
        ("能帮我请个假吗", "请假申请"),
        ("我想请明天的假", "请假申请"),
        ("下周一我想请一天事假", "请假申请"),
        ("我想请假，要交什么材料", None),  # asks a question about leave
        ("想请婚假需要什么证明", None),
        ("帮我把报销提交了", "报销申请"),
        ("给3栋业主群发个停水通知", "短信和电话通知"),
        ("帮我上传一份新制度", "文件上传"),
        ("帮我把3栋电梯的工单标记完成", "工单状态修改"),
        ("帮我关闭一下2栋回访的工单", "工单状态修改"),
        ("给孙八安排复盘", "复盘预约"),
        ("约周九明天下午复盘", "复盘预约"),
        ("把周九从复盘名单里去掉", "手动调整复盘名单"),
        ("孙八也列入待复盘名单吧", "手动调整复盘名单"),
        ("把这个工单转给周九", "待办转发"),
        ("复盘记录怎么写", None),  # asks how a record is written
        ("帮我把张三的练习成绩改成90分", "练习成绩修改"),
        ("把我上次的分数调高一点", "练习成绩修改"),
        ("删掉孙八的练习记录", "练习成绩修改"),
        ("练习成绩多少分及格", None),
        ("成绩改进目标怎么定", None),
        ("把待复盘名单发给项目经理", None),  # the review-list draft sends it
        ("安排一下复盘名单", None),
        ("我手上还有几个工单没完成", None),  # asks what is open
        ("记一下明天给3栋业主打电话", None),  # a note about the call is a draft's job
        ("请假申请怎么提交", None),  # asks how, not to act
        ("报销要交什么材料", None),
    ],
)
def test_requests_to_act_in_an_unconnected_system(question: str, action: str | None) -> None:
    assert uncovered_action(question) == action


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("记一下明天给3栋业主打电话", Intent.CAPTURE_FACT),
        ("请假申请怎么提交", Intent.KNOWLEDGE_QA),
        ("请假要提前几天", Intent.KNOWLEDGE_QA),
        ("我想请明天的假", Intent.CAPABILITY_QUERY),
        ("明天想请个假", Intent.CAPABILITY_QUERY),
        ("训练截止日期能放在周末吗", Intent.KNOWLEDGE_QA),  # a rule on deadlines, not this weekend's to-dos
    ],
)
def test_notes_and_questions_about_the_act_keep_their_intent(
    deterministic: DeterministicPlanner, question: str, intent: Intent
) -> None:
    assert deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ).intent is intent


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("岗前测验不及格怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("报销超过了30天怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("报销超过30天了怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("零星采购额度超了怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("接班的没到我该怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("资料交晚了怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("员工考了50分怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("困人超过45分钟怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("业主欠费好几次都不交怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("交班时接班人迟到了怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("员工休假了复盘怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("没有离职证明怎么办", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("装修违规怎么处理", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE]),
        ("电梯坏了怎么办", [EvidenceNeed.PROCESS_STEPS]),
    ],
)
def test_a_mishap_asks_for_the_rule_beside_the_steps(
    deterministic: DeterministicPlanner, question: str, needs: list[EvidenceNeed]
) -> None:
    plan = deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ)
    assert [need for need in plan.evidence_needs if need in needs] == needs
    assert set(plan.evidence_needs) <= {*needs, EvidenceNeed.DEADLINE}


@pytest.mark.parametrize(
    ("question", "rule"), [("装修垃圾怎么处理", True), ("装修垃圾怎么扔", True), ("投诉怎么处理", False)]
)
def test_getting_rid_of_something_asks_for_the_rule_beside_the_steps(
    deterministic: DeterministicPlanner, question: str, rule: bool
) -> None:
    plan = deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ)
    assert EvidenceNeed.PROCESS_STEPS in plan.evidence_needs
    assert (EvidenceNeed.GENERAL_RULE in plan.evidence_needs) is rule


def test_a_refund_asks_for_the_rule_beside_the_steps(deterministic: DeterministicPlanner) -> None:
    plan = deterministic.build_plan("装修押金怎么退", ResolvedContext(), now=NOW, tz=TZ)
    assert {EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE} <= set(plan.evidence_needs)


@pytest.mark.parametrize("question", ["按2024版的,请假5天谁批", "以新版为准，请假5天谁批"])
def test_a_version_chosen_does_not_change_what_is_asked(
    deterministic: DeterministicPlanner, question: str
) -> None:
    plan = deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ)
    alone = deterministic.build_plan("请假5天谁批", ResolvedContext(), now=NOW, tz=TZ)
    assert plan.evidence_needs == alone.evidence_needs == [EvidenceNeed.APPROVAL]


@pytest.mark.parametrize("question", ["业主电话能给别人吗", "告诉我维保单位的电话", "电梯困人打什么电话"])
def test_a_rule_or_a_documented_number_is_no_request_for_peoples_contacts(
    deterministic: DeterministicPlanner, question: str
) -> None:
    assert deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ).intent is Intent.KNOWLEDGE_QA
