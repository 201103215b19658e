"""Numbered items of an answer: listed in display order, found again in their fragment by hash."""

from __future__ import annotations

from shifu.answer.items import ITEM, STEP, item_key, item_text, listed_items
from shifu.contracts.answer import GroundedAnswer, Statement, Step

FRAGMENT = "办理费用报销须提交以下材料：\n\n1. 《费用报销审批单》。\n2. 发票原件。\n3. 费用明细清单。"


def test_numbered_statements_and_steps_are_listed_with_the_number_shown() -> None:
    grounded = GroundedAnswer(
        summary="",
        statements=[
            Statement(text="办理费用报销须提交以下材料：", citation_ids=("c1",)),
            Statement(text="2. 发票原件。", citation_ids=("c1",)),
            Statement(text="3、费用明细清单。", citation_ids=("c1", "c2")),
            Statement(text="4. 没有出处的话。"),
        ],
        steps=[Step(order=1, text="提交申请", citation_ids=("c3",))],
    )
    assert [(i.citation_id, i.number, i.kind) for i in listed_items(grounded)] == [
        ("c1", 2, ITEM),
        ("c1", 3, ITEM),
        ("c3", 1, STEP),
    ]
    assert listed_items(grounded)[0].text_sha256 == item_key("发票原件。")


def test_an_item_is_found_again_by_its_hash_and_not_in_a_changed_fragment() -> None:
    key = item_key("2. 发票原件。")
    assert item_text(FRAGMENT, key) == "发票原件。"
    assert item_text(FRAGMENT.replace("发票原件", "发票复印件"), key) is None
    assert item_text(FRAGMENT, item_key("提交申请")) is None
