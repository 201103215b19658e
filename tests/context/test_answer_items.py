"""An answer's numbered items as references: kept as hashes, resolved by 第二项, asked back when ambiguous."""

from __future__ import annotations

from context.builders import NOW, document, principal, search_result, state_with, tasks_result
from shifu.answer.items import item_key
from shifu.context.resolve import REFERENCE_AMBIGUOUS, REFERENCE_UNRESOLVED, resolve
from shifu.context.state import AnswerItemRecord, ConversationState, dump_state
from shifu.context.transitions import state_after_turn
from shifu.contracts.common import ContextRelation
from shifu.contracts.entities import ExtractedEntities


def record(citation_id: str, number: int, text: str, kind: str = "ITEM") -> AnswerItemRecord:
    return AnswerItemRecord(citation_id=citation_id, number=number, text_sha256=item_key(text), kind=kind)  # type: ignore[arg-type]


MATERIALS = (
    record("c1", 1, "《费用报销审批单》"),
    record("c1", 2, "发票原件"),
    record("c1", 3, "费用明细清单"),
)


def answered(*items: AnswerItemRecord, results: list | None = None) -> ConversationState:  # type: ignore[type-arg]
    docs = [document(cid, f"doc-{cid}") for cid in dict.fromkeys(i.citation_id for i in items)] or [
        document("c1", "baoxiao")
    ]
    return state_after_turn(
        state_with(facts=2),
        frame=None,
        results=results if results is not None else [search_result(*docs)],
        ctx=principal(),
        now=NOW,
        answer_items=items,
    )


def test_numbered_items_are_kept_as_hashes_and_replace_the_last_listing() -> None:
    state = answered(*MATERIALS)
    assert [(i.citation_id, i.number) for i in state.answer_items] == [("c1", 1), ("c1", 2), ("c1", 3)]
    assert state.fact_refs == (), "the answer's list is now the last list the user saw"
    assert "发票原件" not in dump_state(state)


def test_items_of_an_uncited_fragment_are_dropped() -> None:
    state = answered(*MATERIALS, record("c9", 4, "别的"), results=[search_result(document("c1", "baoxiao"))])
    assert {i.citation_id for i in state.answer_items} == {"c1"}


def test_listed_facts_and_an_answer_without_a_list_clear_the_items() -> None:
    items = answered(*MATERIALS)
    after_tasks = state_after_turn(items, frame=None, results=[tasks_result(2)], ctx=principal(), now=NOW)
    assert after_tasks.answer_items == () and len(after_tasks.fact_refs) == 2
    plain = state_after_turn(
        items, frame=None, results=[search_result(document("c2", "caigou"))], ctx=principal(), now=NOW
    )
    assert plain.answer_items == ()
    quiet = state_after_turn(items, frame=None, results=[], ctx=principal(), now=NOW)
    assert quiet.answer_items == items.answer_items, "a turn that cites nothing keeps the last list"


def _resolve(question: str, state: ConversationState):  # type: ignore[no-untyped-def]
    return resolve(question, state, entities=ExtractedEntities())


def test_an_ordinal_points_at_the_numbered_item() -> None:
    resolution = _resolve("第二项具体要怎么弄", answered(*MATERIALS))
    assert resolution.context.relation is ContextRelation.REFERENCE
    assert resolution.context.gaps == []
    [ref] = resolution.context.references
    assert (ref.kind, ref.citation_id, ref.item, ref.text) == ("ANSWER_ITEM", "c1", 2, "第二项")
    last = _resolve("最后一项呢", answered(*MATERIALS)).context.references
    assert [(r.kind, r.item) for r in last] == [("ANSWER_ITEM", 3)]


def test_items_come_before_steps_and_steps_count_when_nothing_else_is_numbered() -> None:
    steps = (record("c1", 1, "提交申请", "STEP"), record("c1", 2, "部门审批", "STEP"))
    mixed = _resolve("第二项", answered(*MATERIALS, *steps)).context.references
    assert [(r.item, r.kind) for r in mixed] == [(2, "ANSWER_ITEM")]
    assert answered(*MATERIALS, *steps).answer_items[-1].kind == "STEP"
    only_steps = _resolve("第二项", answered(*steps)).context.references
    assert [(r.citation_id, r.item) for r in only_steps] == [("c1", 2)]


def test_two_lists_with_a_second_item_are_asked_back_and_a_missing_number_is_unresolved() -> None:
    two_lists = answered(*MATERIALS, record("c2", 1, "押金"), record("c2", 2, "许可证"))
    ambiguous = _resolve("第二项具体要怎么弄", two_lists).context
    assert ambiguous.gaps == [REFERENCE_AMBIGUOUS] and ambiguous.references == []
    assert _resolve("最后一项", two_lists).context.gaps == [REFERENCE_AMBIGUOUS]
    assert _resolve("第三项", two_lists).context.references[0].citation_id == "c1"
    missing = _resolve("第九项", answered(*MATERIALS)).context
    assert missing.gaps == [REFERENCE_UNRESOLVED]


STEPS = (record("c1", 1, "经办人填写申请单", "STEP"), record("c1", 2, "项目经理核对额度后签字同意", "STEP"))


def test_a_step_ordinal_points_at_the_steps_just_listed() -> None:
    [ref] = _resolve("第二步是谁签字", answered(*MATERIALS, *STEPS)).context.references
    assert (ref.kind, ref.citation_id, ref.item, ref.text) == ("ANSWER_ITEM", "c1", 2, "第二步")
    assert _resolve("第九步是什么", answered(*STEPS)).context.gaps == [REFERENCE_UNRESOLVED]


def test_a_step_ordinal_without_steps_listed_or_with_a_subject_of_its_own_points_at_nothing() -> None:
    no_steps = _resolve("第二步是谁签字", answered(*MATERIALS)).context
    assert no_steps.references == [] and no_steps.gaps == []
    own_subject = _resolve("发现火情第一步做什么", answered(*STEPS)).context
    assert own_subject.references == [] and own_subject.gaps == []
