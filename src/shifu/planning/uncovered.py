"""Data and actions no connected system serves: asked for, they get the capability answer.

"我还有几天年假没休" or "我这个月报销了多少钱" is a question about the user's own data, so the
classifier leans towards a live read; but no tool reads leave balances, leave records, payslips,
attendance, reimbursement records or the team's tasks. Running the nearest live tool would answer a
different question (the training record for 我这个月请了几天假, the supervisor's own to-dos for
我们组的待办完成了多少). When such a question names nothing the chosen tool covers, the plan becomes
a CAPABILITY_QUERY, which says what can be read instead of guessing.

Requests to act in an unconnected system (帮我请明天的假, 给业主发个催费短信) are the same: no
tool files a leave request or sends a message, and drafting a work report titled 帮我提交请假申请
would pretend otherwise.
"""

from __future__ import annotations

import re

from shifu.contracts.common import ToolCode

TEAM_TASKS = "团队待办"
TEAM_TRAINING_TASKS = "团队训练任务"
PEOPLE_CONTACTS = "员工和业主的联系方式"

UNCOVERED_DATA: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("工资薪酬", re.compile(r"工资|薪资|薪水|工资条|奖金")),
    (
        "考勤",
        re.compile(
            r"考勤|打卡(?:记录|情况|了吗|了没)|没打卡|缺卡|漏打卡|迟到|早退|没(?:来)?上班|谁没来|缺勤|旷工"
        ),
    ),
    ("假期余额", re.compile(r"年假.{0,4}(?:剩|余|还有)|(?:剩|还有)几天年假|几天年假没休")),
    (
        "请假记录",
        re.compile(
            r"请了(?:几|多少)天假|请过(?:几次)?假|请了几次假|谁(?:在)?请假|请假(?:记录|情况)|休了几天"
        ),
    ),
    ("社保公积金", re.compile(r"社保.{0,2}(?:缴|交)|公积金")),
    ("报销数据", re.compile(r"报销(?:进度|记录|到账|款|额度|余额)|报销了多少|报了多少|还能报(?:销)?多少")),
    ("欠费数据", re.compile(r"欠费|欠缴|(?:缴费|交费|收费)(?:记录|情况|明细)")),
    (
        "组员名单",
        re.compile(r"组员(?:有谁|有哪些|名单)|(?:团队|组里|班组)(?:成员)?有(?:谁|哪些人)|成员名单|通讯录"),
    ),
    (
        PEOPLE_CONTACTS,
        re.compile(
            r"(?:告诉我|给我|发我|发给我|查一?下|查查|列出|我要|要一下)[^，,。？?]{0,6}"
            r"(?:员工|同事|组员|业主|住户|大家|所有人)[^，,。？?]{0,3}(?:电话|手机号|联系方式|住址|身份证)"
        ),
    ),
    (
        "文档有效期台账",
        re.compile(
            r"哪些(?:文档|文件|制度|资料|SOP)[^，,。？?]{0,4}(?:过期|到期|失效)|"
            r"(?:快|即将|马上)(?:要)?(?:过期|到期|失效)的(?:文档|文件|制度|资料|SOP)"
        ),
    ),
    (
        TEAM_TRAINING_TASKS,
        re.compile(
            r"(?:团队|组里|我们组|班组|组员|手下|下属|大家|谁)[^，,。？?]{0,6}(?:训练|培训)[^，,。？?]{0,4}"
            r"(?:逾期|超期|过期|到期|没完成|未完成|没做完|完成了(?:吗|没|几)|完成情况)"
        ),
    ),
    (
        TEAM_TASKS,
        re.compile(r"(?:团队|组里|我们组|班组|组员|手下|下属|大家)[^，,。？?]{0,6}(?:待办|任务|工单)"),
    ),
)
"""The user's own HR and finance data, the team's roster and tasks, and a register of which documents
expire (哪些文档快过期了: `shifu kb check` reports it to operators, no assistant tool reads it), that no
connected system serves, each with the name the capability answer gives it (「工资薪酬」目前没有接入)."""


def asks_for_peoples_contacts(question: str) -> bool:
    """True when the question asks to be given staff or owners' phone numbers or addresses (告诉我所有员工的
    电话): no connected system serves them, and no document should. 业主电话能给别人吗 asks a rule."""
    return uncovered_data(question) == PEOPLE_CONTACTS


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


_NOT_SERVING: dict[str, frozenset[ToolCode]] = {
    TEAM_TASKS: frozenset({ToolCode.MY_CURRENT_TASKS}),
    TEAM_TRAINING_TASKS: frozenset({ToolCode.MY_CURRENT_TASKS, ToolCode.TEAM_PRACTICE_SUMMARY}),
}
"""Reads whose topic words match the unconnected data but which never serve it: the user's own to-dos
are not the team's (我们组的待办完成了多少), and the team's practice scores say nothing of which assigned
trainings are overdue (组里谁的训练逾期了)."""

_LOOKUP = re.compile(r"帮我查|帮忙查|查一下|查查|查询|查看|看一下|看看")
"""帮我查一下3栋1201的欠费 asks to read data, not to record a note about it."""


def asks_uncovered_data(question: str, tools: frozenset[ToolCode]) -> bool:
    """True when the live reads chosen for `question` cannot answer it (see the module docstring).

    A note drafted for a request to look unconnected data up (帮我查一下…的欠费) would answer a
    different question too: the request is for the data, which no system here serves.
    """
    name = uncovered_data(question)
    if name is None:
        return False
    if ToolCode.CAPTURE_MEMORY_DRAFT in tools and _LOOKUP.search(question):
        return True
    reads = [tool for tool in tools if tool in TOOL_TOPICS]
    serving = [tool for tool in reads if tool not in _NOT_SERVING.get(name, ())]
    return bool(reads) and not any(TOOL_TOPICS[tool].search(question) for tool in serving)


UNCOVERED_ACTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "请假申请",
        re.compile(
            r"(?:帮|替|给)我.{0,8}请.{0,6}假|(?:提交|发起|填|走)(?:一?个|一下)?请假(?:申请|流程|单)|"
            r"(?:想|要|打算|准备)请[^，,。？?要]{0,6}假(?![要需得的怎如])(?![^。]*(?:什么|哪些|怎么|如何|几|多少|吗|呢))"
        ),
    ),
    ("报销申请", re.compile(r"(?:帮|替|给)我.{0,6}报(?:销|一下|个销)|(?:提交|发起)(?:一?个|一下|一笔)?报销")),
    (
        "文件上传",
        re.compile(r"(?:上传|导入|录入|发布)(?:一?份|一个|个|下)?(?:新的?)?(?:制度|文件|文档|资料|SOP|规定)"),
    ),
    (
        "工单状态修改",
        re.compile(
            r"把.{0,12}(?:工单|任务|待办).{0,6}(?:标记|标成|标为|改成|改为|设为|设成|关闭|关掉|结掉|完结|结单)"
            r"|(?:关闭|关掉|结掉|完结|转派|改派)(?:一下|一?个)?.{0,8}(?:工单|任务|待办)"
        ),
    ),
    (
        "待办转发",
        re.compile(
            r"(?:把|将)[^，,。？?]{0,6}(?:待办|任务|工单)[^，,。？?]{0,4}(?:发给|转给|转发给|分享给|抄送给?)"
        ),
    ),
    (
        "复盘记录填写",
        re.compile(
            r"(?:帮我|帮忙|替我|给|请)[^，,。？?]{0,6}(?:写|填|生成|起草|做)(?:一?个|一份|份|下)?复盘记录"
        ),
    ),
    ("复盘预约", re.compile(r"(?:安排|预约|约)[^，,。？?]{0,6}复盘(?!名单|记录|情况|结果)")),
    (
        "手动调整复盘名单",
        re.compile(
            r"(?:加到|加入|加进|放到|放进|列入|列进|添加到|补进)[^，,。？?]{0,4}复盘名单|"
            r"(?:从|把)[^，,。？?]{0,8}复盘名单[^，,。？?]{0,4}(?:删|去掉|移除|移出|拿掉|踢)|"
            r"(?:移出|移除|踢出)[^，,。？?]{0,4}复盘名单"
        ),
    ),
    (
        "练习成绩修改",
        re.compile(
            r"(?:成绩|分数|得分)[^，,。？?]{0,3}(?:改成|改为|改到|调成|调为|调到|调高|调低|改一下|改高|改低)|"
            r"(?:修改|更改|改一下|调整|删掉|删除)[^，,。？?]{0,6}(?:成绩|分数|得分|练习记录|训练记录)"
        ),
    ),
    (
        "短信和电话通知",
        re.compile(
            r"发(?:个|条|一条|一个|一下)?(?:[^，,。？?]{0,4})(?:短信|通知|消息|微信)|打(?:个|一个|一下|一通)?电话|群发"
        ),
    ),
)
"""Acts no connected system performs for the user, with the name the capability answer gives them.
我想请明天的假 asks to take leave, which no tool files; 我想请假，要交什么材料 asks a question about it.
给孙八安排复盘 schedules a review meeting: no tool books one (a training assignment titled 复盘 would
pretend to), while sending the pending-review list (把待复盘名单发给经理) is a draft tool's job. The list
itself is drawn up by rule from practice results (低于60分…自动列入): 把孙八加到复盘名单 changes it by
hand, which no tool does (a training assignment titled 把加到复盘名单 was drafted instead). Nor does any
tool file a review record (帮我给孙八写个复盘记录 drafted a training assignment for 孙八), nor change a
practice score (把张三的练习成绩改成90分 drafted a work report of that title)."""

_NOTE_WORDS = re.compile(r"记一下|记下|记住|备忘|提醒我|记个|写个记录|做个记录")
"""记一下明天给业主打电话 asks for a note about the act, which is a draft tool's job."""


def uncovered_action(question: str) -> str | None:
    """The name of the unconnected system `question` asks the assistant to act in, if any."""
    if _NOTE_WORDS.search(question):
        return None
    return next((name for name, pattern in UNCOVERED_ACTIONS if pattern.search(question)), None)
