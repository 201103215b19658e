"""Personal data no connected system holds: asked about, it gets the capability answer.

"我还有几天年假没休" or "我这个月报销了多少钱" is a question about the user's own data, so the
classifier leans towards a live read; but no tool reads leave balances, payslips, attendance or
reimbursement records. Running the nearest live tool would answer a different question (the
training record for a leave question). When such a question names nothing the chosen tool
covers, the plan becomes a CAPABILITY_QUERY, which says what can be read instead of guessing.
"""

from __future__ import annotations

import re

from shifu.contracts.common import ToolCode

UNCOVERED_DATA: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("工资薪酬", re.compile(r"工资|薪资|薪水|工资条|奖金")),
    ("考勤", re.compile(r"考勤|打卡记录|迟到|早退")),
    ("假期余额", re.compile(r"年假.{0,4}(?:剩|余|还有)|(?:剩|还有)几天年假|几天年假没休")),
    ("社保公积金", re.compile(r"社保.{0,2}(?:缴|交)|公积金")),
    ("报销数据", re.compile(r"报销(?:进度|记录|到账|款|额度|余额)|报销了多少|报了多少|还能报(?:销)?多少")),
    ("欠费数据", re.compile(r"欠费|欠缴|(?:缴费|交费|收费)(?:记录|情况|明细)")),
    (
        "组员名单",
        re.compile(r"组员(?:有谁|有哪些|名单)|(?:团队|组里|班组)(?:成员)?有(?:谁|哪些人)|成员名单|通讯录"),
    ),
)
"""The user's own HR and finance data, and the team's roster, that no connected system serves, each
with the name the capability answer gives it (「工资薪酬」目前没有接入)."""


def uncovered_data(question: str) -> str | None:
    """The name of the unconnected data `question` asks about, if any."""
    return next((name for name, pattern in UNCOVERED_DATA if pattern.search(question)), None)


_PRACTICE_TOPIC = re.compile(r"训练|练习|成绩|复盘|分数|测验|考试|课程|陪练")
_RESULTS_TOPIC = re.compile(r"成果|业绩|投稿|稿子|案例|好人好事")
TOOL_TOPICS: dict[ToolCode, re.Pattern[str]] = {
    ToolCode.MY_CURRENT_TASKS: re.compile(r"待办|任务|工单|单子|安排|巡检|回访|维修"),
    ToolCode.MY_PRACTICE_SUMMARY: _PRACTICE_TOPIC,
    ToolCode.TEAM_PRACTICE_SUMMARY: _PRACTICE_TOPIC,
    ToolCode.MY_WORK_RESULTS: _RESULTS_TOPIC,
    ToolCode.TEAM_WORK_RESULTS: _RESULTS_TOPIC,
    ToolCode.MY_CANDIDATE_PROGRESS: re.compile(r"面试|进度|资料|录用|offer|背调|岗前|简历"),
}
"""What each live read is about: a question naming one of these is that tool's question."""


_LOOKUP = re.compile(r"帮我查|帮忙查|查一下|查查|查询|查看|看一下|看看")
"""帮我查一下3栋1201的欠费 asks to read data, not to record a note about it."""


def asks_uncovered_data(question: str, tools: frozenset[ToolCode]) -> bool:
    """True when the live reads chosen for `question` cannot answer it (see the module docstring).

    A note drafted for a request to look unconnected data up (帮我查一下…的欠费) would answer a
    different question too: the request is for the data, which no system here serves.
    """
    if uncovered_data(question) is None:
        return False
    if ToolCode.CAPTURE_MEMORY_DRAFT in tools and _LOOKUP.search(question):
        return True
    reads = [tool for tool in tools if tool in TOOL_TOPICS]
    return bool(reads) and not any(TOOL_TOPICS[tool].search(question) for tool in reads)
