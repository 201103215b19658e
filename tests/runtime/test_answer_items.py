"""A question pointing at an answer's item is asked about the item's own words, read again now."""

from __future__ import annotations

from context.builders import citation, principal
from shifu.answer.items import item_key
from shifu.context.state import AnswerItemRecord, ConversationState
from shifu.contracts.context import ExecutionContext, ResolvedReference
from shifu.runtime.answer_items import question_about_items

FRAGMENT = "办理费用报销须提交以下材料：\n1. 《费用报销审批单》。\n2. 发票原件。"
STATE = ConversationState(
    citations=(citation("c1", "baoxiao"),),
    answer_items=(AnswerItemRecord(citation_id="c1", number=2, text_sha256=item_key("2. 发票原件。")),),
)
REF = ResolvedReference(kind="ANSWER_ITEM", citation_id="c1", item=2, text="第二项")


class Reader:
    """Fragments this principal may read now, by fragment id."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self.asked: list[tuple[str, str]] = []

    def fragment_text(self, ctx: ExecutionContext, fragment_id: str) -> str | None:
        self.asked.append((ctx.user_id, fragment_id))
        return self.texts.get(fragment_id)


def test_the_item_is_read_again_and_named_in_the_question() -> None:
    reader = Reader({"frag-c1": FRAGMENT})
    ctx = principal()
    assert question_about_items("第二项具体要怎么弄", [REF], STATE, ctx, reader) == "“发票原件。”具体要怎么弄"
    assert reader.asked == [(ctx.user_id, "frag-c1")]


def test_an_item_that_cannot_be_read_again_is_not_guessed() -> None:
    ctx = principal()
    assert question_about_items("第二项", [REF], STATE, ctx, Reader({})) is None, (
        "retired or no longer allowed"
    )
    changed = Reader({"frag-c1": FRAGMENT.replace("发票原件", "发票复印件")})
    assert question_about_items("第二项", [REF], STATE, ctx, changed) is None
    assert question_about_items("第二项", [REF], STATE, ctx, None) is None
    other = REF.model_copy(update={"item": 1})
    assert question_about_items("第一项", [other], STATE, ctx, Reader({"frag-c1": FRAGMENT})) is None
