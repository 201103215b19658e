"""The training-assignment draft gets its topic from the request, so it does not ask for what was said."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from shifu.contracts.common import ToolCode
from shifu.contracts.context import ResolvedContext
from shifu.nlp.entities import extract_entities
from shifu.planning.deterministic import DeterministicPlanner
from shifu.planning.draft_args import practice_topic

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("给周九指派一个高空作业训练，下周三截止", "高空作业"),
        ("让孙八这个月练两次投诉回访话术", "投诉回访话术"),
        ("给周九布置个垃圾分类练习", "垃圾分类"),
        ("让孙八把电梯困人处置再练一遍", "电梯困人处置"),
        ("给全组派个演练，主题是夜间消防巡查", "夜间消防巡查"),
        ("安排周九下周五前做完装修验收的训练", "装修验收"),
        ("新来的两个保安，给他们安排岗前培训", "岗前培训"),
        ("给大家布置一下下周的安全培训", "安全培训"),
        ("给孙八布置一个消防训练", "消防训练"),
        ("指派全员做个人信息保护的小测验", "个人信息保护"),
    ],
)
def test_the_topic_is_what_remains_after_assignee_dates_and_verbs(question: str, topic: str) -> None:
    assert practice_topic(question, extract_entities(question, now=NOW, tz=TZ)) == topic


@pytest.mark.parametrize(
    "question", ["给孙八派个练习", "师傅，给周九安排个训练", "帮我建个练习任务给保洁班组"]
)
def test_no_topic_is_invented(question: str) -> None:
    assert practice_topic(question, extract_entities(question, now=NOW, tz=TZ)) is None


def test_the_assignment_draft_carries_assignee_topic_and_due_date(
    deterministic: DeterministicPlanner,
) -> None:
    question = "给孙八指派一个消防器材训练，下周五截止"
    plan = deterministic.build_plan(question, ResolvedContext(), now=NOW, tz=TZ)
    assert [c.tool for c in plan.tool_calls] == [ToolCode.PRACTICE_ASSIGNMENT_DRAFT]
    assert plan.tool_calls[0].arguments == {
        "assigneeName": "孙八",
        "topic": "消防器材",
        "dueDate": "2026-11-13",
    }
