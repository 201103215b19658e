"""Fixed Chinese texts for turns that need no evidence: greetings, clarifications, refusals.

None of these texts states a rule, a number or a completed action.
"""

from __future__ import annotations

import re

from shifu.contracts.common import Intent
from shifu.contracts.messages import Clarification, ClarificationOption

SOCIAL_REPLY = (
    "你好，我是数字师傅。可以问我公司制度和流程、查你的待办和训练，"
    "也可以让我帮你记录事项或起草需要你确认的操作。"
)
THANKS_REPLY = "不客气，有需要随时问我。"
ACKNOWLEDGED_REPLY = "好的，有需要随时问我。"
FAREWELL_REPLY = "好的，再见，注意休息。"

_THANKS = re.compile(r"谢谢|多谢|感谢|谢了|辛苦了|辛苦啦|(?i:thanks|thank you|thx)")
_FAREWELL = re.compile(r"再见|拜拜|回头见|下班了|先这样|(?i:\bbye\b|goodbye)")
_ACKNOWLEDGED = re.compile(
    r"^(?:嗯+|哦+|噢|好的?|好滴|行|可以|明白了?|知道了|收到|了解了?|懂了|ok|OK|Ok)[。！!～~]*$"
)


def social_reply(question: str) -> str:
    """Small talk answered in kind: thanks with 不客气, goodbye with 再见, 好的/收到 with a short 好的 (not
    the introduction), anything else with a greeting."""
    if _THANKS.search(question):
        return THANKS_REPLY
    if _FAREWELL.search(question):
        return FAREWELL_REPLY
    if _ACKNOWLEDGED.match(question.strip()):
        return ACKNOWLEDGED_REPLY
    return SOCIAL_REPLY


INTENT_OPTIONS: dict[Intent, tuple[str, str]] = {
    Intent.KNOWLEDGE_QA: ("查制度或流程", "我想查一下相关的制度规定"),
    Intent.LIVE_MY_WORK: ("看我的待办", "我今天有什么待办？"),
    Intent.LIVE_TEAM_WORK: ("看团队情况", "团队里谁还没复盘？"),
    Intent.PRACTICE_COACHING: ("看我的训练", "我最近的训练成绩怎么样？"),
    Intent.CAPTURE_FACT: ("记录一件事", "帮我记一下"),
    Intent.DRAFT_ACTION: ("起草一个操作", "帮我起草一个操作"),
    Intent.RESOURCE_DELIVERY: ("要原文件", "把刚才的原文件发我"),
    Intent.MEDIA_UNDERSTANDING: ("分析图片", "帮我看看这张图片"),
    Intent.WEB_RESEARCH: ("查全网", "帮我在网上查一下"),
    Intent.CAPABILITY_QUERY: ("我能查什么", "我现在能用哪些功能？"),
    Intent.SOCIAL: ("随便聊聊", "你好"),
}
"""Label and follow-up message for each clarification option."""


def clarification_for(options: list[Intent]) -> Clarification:
    """A clarification card offering the most likely intents (never a blanket knowledge search)."""
    chosen = [o for o in options if o in INTENT_OPTIONS][:3]
    if not chosen:
        chosen = [Intent.KNOWLEDGE_QA, Intent.LIVE_MY_WORK, Intent.CAPTURE_FACT]
    return Clarification(
        question="想确认一下你要做什么：",
        options=[ClarificationOption(label=INTENT_OPTIONS[o][0], value=INTENT_OPTIONS[o][1]) for o in chosen],
    )


CLARIFY_ANSWER = "我还不太确定你想做什么，请选择或补充一下。"
CHINESE_ONLY = "目前只能用中文提问，请用中文描述你的问题，例如“年假要提前几天申请”。"
NOT_CHINESE = "NOT_CHINESE"
REFERENCE_UNRESOLVED = "我没找到你指的是哪一项，请先查询列表或说明具体内容。"
REFERENCE_AMBIGUOUS = "上面的回答里有不止一个列表都有这一项，请直接说出你想问的那一项的内容。"
SUBJECT_MISSING = "请说明你问的是哪项制度或事务，例如“报销超过30天还能报吗”。"
CORRECTION_VALUE_MISSING = "请告诉我要改成什么，例如“不对，是上个月”。"
MEDIA_NEEDS_ATTACHMENT = "请先上传需要分析的图片或视频（仅用于本次分析）。"
WEB_NEEDS_CONSENT = "这个问题需要查询公司外部的公开网络。需要你先同意外发查询，同意后我才会发送。"
CONFIRM_ON_THE_CARD = (
    "文字回复不会执行操作。请在上面的草稿卡片上核对内容后点击「确认」（记录草稿还需选择仅自己可见或公司记录）；"
    "如果不需要了，回复“取消”。目前尚未执行任何操作。"
)
DRAFT_STILL_MISSING = (
    "这份草稿还缺少信息，请直接回复缺少的内容（例如指派对象、截止日期或具体内容），补充后会再给你确认。"
    "目前尚未执行任何操作。"
)
NOTHING_TO_CONFIRM = "这份草稿已经处理过或已失效，没有执行任何操作。需要的话请重新说一下要做什么。"
CANCELLED = "好的，已取消，没有执行任何操作。"
NOTHING_TO_CANCEL = "好的。当前没有需要取消的草稿或问题。"
RESOURCE_NONE = "没有找到你有权获取的原文件。"
VIDEO_NONE = "没有找到你有权获取的相关视频。我没有用其他文件代替。"
RESOURCE_READY = "可下载的原文件（链接短时有效）："
OTHER_PERSON_ANSWER = "我只能查询你本人的数据，不能查看其他人的待办、训练、成果或进度。"
FORBIDDEN_ANSWER = "当前账号无权执行这个操作，我没有查询或修改任何数据。"
SUPERVISOR_ONLY_ANSWER = (
    "当前账号无权查看团队成员的训练、复盘和成果，也无权指派训练或安排复盘：这些只对主管开放。"
    "我只能查询你本人的数据，没有查询或修改任何数据。"
)
UNAVAILABLE_ANSWER = "相关系统暂时不可用，请稍后再试。我没有给出任何未经查询的结果。"
FAILED_ANSWER = "处理失败，请稍后再试。我没有给出任何未经查询的结果。"
BUDGET_ANSWER = "本次处理已达到上限，请把问题说得更具体一些。"
