"""Homophone typos of topic words are read as the words meant; real words are never touched."""

from __future__ import annotations

import pytest

from shifu.nlp.homophones import correct_homophones


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("报消需要啥材料", "报销需要啥材料"),
        ("电悌困人怎么办", "电梯困人怎么办"),
        ("装俢押今多少", "装修押金多少"),
        ("消房巡捡一天几次", "消防巡检一天几次"),
        ("婚加有几天", "婚假有几天"),
    ],
)
def test_a_homophone_typo_of_a_topic_word_is_corrected(typed: str, meant: str) -> None:
    assert correct_homophones(typed) == meant


@pytest.mark.parametrize(
    "text",
    [
        "去年价格多少",  # 年价 sounds like 年假 but spans two words (去年 | 价格)
        "报效祖国",  # a word of its own, though it sounds like 报销
        "我要请假",
        "3栋1201的业主投诉漏水",
        "",
        "Wordle是什么游戏",
        "这张截图里是什么",  # 里是 is two words, not 离世
        "提醒大家今天下班前交复盘",  # 前交 is two words, not 欠缴
        "《炽道》的主演",  # a title is a name as written
    ],
)
def test_words_and_text_without_typos_are_unchanged(text: str) -> None:
    assert correct_homophones(text) == text
