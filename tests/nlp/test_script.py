"""A question typed in traditional characters is read in simplified ones; simplified text is left alone."""

from __future__ import annotations

import pytest

from shifu.nlp.script import to_simplified, writes_no_chinese


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("電梯困人了怎麼辦", "电梯困人了怎么办"),
        ("報銷需要哪些材料", "报销需要哪些材料"),
        ("誰還沒復盤？", "谁还没复盘？"),
    ],
)
def test_traditional_characters_are_read_as_simplified(typed: str, read: str) -> None:
    assert to_simplified(typed) == read


@pytest.mark.parametrize("text", ["报销需要哪些材料", "华府项目3栋1201的装修押金3000元", "GPT-4发布时间", ""])
def test_simplified_text_is_unchanged(text: str) -> None:
    assert to_simplified(text) == text


@pytest.mark.parametrize(
    ("text", "foreign"),
    [
        ("How do I apply for annual leave?", True),
        ("hello there", False),
        ("CRM能查欠费吗", False),
        ("SOP", False),
        ("年假 how many days", False),
    ],
)
def test_a_question_in_another_language_is_recognised(text: str, foreign: bool) -> None:
    assert writes_no_chinese(text) is foreign
