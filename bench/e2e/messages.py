"""The fixed message list of the end-to-end latency benchmark: realistic, across intents and actors.

Written for this benchmark (not taken from the golden set); each entry is (actor key, message).
"""

from __future__ import annotations

MESSAGES: tuple[tuple[str, str], ...] = (
    # knowledge: company policy
    ("employee", "差旅住宿费报销标准是多少"),
    ("employee", "报销需要提交哪些材料"),
    ("employee", "零星采购的审批流程是什么"),
    ("employee", "500元的一笔零星采购怎么报销"),
    ("employee", "年假要提前几天申请"),
    ("employee", "病假需要什么证明"),
    ("employee", "业主投诉多长时间内必须回复"),
    ("employee", "电梯困人了第一步该做什么"),
    ("employee", "消防巡检每月要查哪些项目"),
    ("employee", "装修施工时间有什么规定"),
    ("employee", "催缴物业费时哪些话不能说"),
    ("employee", "华府小区交接班要注意什么"),
    ("employee_other_project", "装修押金怎么退"),
    ("supervisor", "主管复盘要在几天内完成"),
    ("supervisor", "给组员指派训练有什么规范"),
    # knowledge: laws
    ("employee", "试用期最长可以约定多久"),
    ("employee", "加班费按什么标准支付"),
    ("employee", "工伤认定申请的时限是多久"),
    ("employee", "物业公司可以停水停电催缴物业费吗"),
    ("employee", "劳动合同到期不续签有经济补偿吗"),
    # knowledge: expected NO_EVIDENCE
    ("employee", "公司年会抽奖一等奖是什么"),
    ("employee", "食堂周三中午吃什么菜"),
    # resources
    ("employee", "把费用报销管理制度原文发我"),
    ("employee", "给我电梯困人应急处置的原文件"),
    # live work
    ("employee", "我今天有什么待办"),
    ("employee", "我这周还有哪些任务没完成"),
    ("employee", "我最近的训练成绩怎么样"),
    ("employee", "我上个月提交了哪些工作成果"),
    ("employee_other_project", "我今天有什么待办"),
    ("supervisor", "谁还没复盘"),
    ("supervisor", "组里这周的训练情况怎么样"),
    ("supervisor", "华府团队本月的工作成果有哪些"),
    ("candidate", "我的岗前学习进度怎么样"),
    ("candidate", "候选人要提交哪些资料"),
    # capability
    ("employee", "你能查CRM里的欠费吗"),
    ("employee", "你都能帮我做什么"),
    ("operator", "你能做什么"),
    ("operator", "装修管理规定里施工时间怎么写的"),
    # drafts and capture
    ("employee", "记一下，3栋1201要回访"),
    ("employee", "帮我写一份今天的工作汇报草稿"),
    ("supervisor", "给孙八安排一次消防巡检训练"),
    ("supervisor", "帮我给周九的复盘写个点评草稿"),
    # web, media
    ("employee", "上网查一下最新的物业费调价政策"),
    ("employee", "帮我看看这张照片里的消防栓有没有问题"),
    # social, clarify, scope
    ("employee", "你好"),
    ("employee", "谢谢师傅"),
    ("employee", "那个怎么弄"),
    ("employee", "嗯"),
    ("employee", "赵六今天有哪些待办"),
    ("candidate", "组里谁还没复盘"),
)
