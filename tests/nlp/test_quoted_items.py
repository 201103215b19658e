"""第三步是什么 is asked of the quoted item itself; 第三步怎么做 only names it."""

from __future__ import annotations

import pytest

from shifu.nlp.quoted_items import asked_item, quotes_item

STEP = "立即通知电梯维保单位，要求维保人员在30分钟内到场。"


@pytest.mark.parametrize(
    "question",
    [f"电梯困人了怎么办 “{STEP}”是什么", f"“{STEP}”是啥？", f"“{STEP}”什么意思"],
)
def test_a_question_asking_what_a_quoted_item_says_names_the_item(question: str) -> None:
    item = asked_item(question)
    assert item is not None and quotes_item(item, f"按以下步骤处置：\n3. {STEP}")


@pytest.mark.parametrize("question", [f"“{STEP}”怎么做", "“双减”是什么", "电梯困人是什么情况"])
def test_other_questions_ask_no_item(question: str) -> None:
    assert asked_item(question) is None


def test_the_search_querys_normalized_punctuation_still_finds_the_item() -> None:
    item = asked_item("“立即通知电梯维保单位,要求维保人员在30分钟内到场。”是什么")
    assert item is not None and quotes_item(item, STEP)
