"""Frequency questions (多久一次) and stated frequencies (每日2次) are told apart from durations."""

from __future__ import annotations

import pytest

from shifu.nlp.frequency import asks_frequency, states_frequency


@pytest.mark.parametrize(
    "question",
    [
        *("消防巡检多久一次", "每天要巡查几次", "巡检的频次是怎么规定的", "隔多久一次"),
        *("台账多久盘点一次", "几天换一次"),
    ],
)
def test_how_often_questions(question: str) -> None:
    assert asks_frequency(question)


@pytest.mark.parametrize(
    "question",
    [
        *("报销要在多久内提交", "维保多久要到场", "年假要提前几天申请", "多久能办完一次性补偿"),
        *("业主欠费好几次都不交怎么办", "提醒了十几次还是没交"),
    ],
)
def test_how_long_questions_are_not_frequency_questions(question: str) -> None:
    assert not asks_frequency(question)


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("1. 日常巡查：每日2次，分别在上午进行。", ["每日2次"]),
        ("每日22:00至次日6:00期间，每2小时巡查1次。", ["每2小时巡查1次"]),
        ("月度全面检查：每月1次。", ["每月1次"]),
        ("巡检发现的一般隐患，由工程部在24小时内处理。", []),
        ("实行24小时值班，每班不少于2人。", []),
    ],
)
def test_stated_frequencies(text: str, stated: list[str]) -> None:
    assert states_frequency(text) == stated
