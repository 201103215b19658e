"""Reference resolution and conversation repair: ids, never content; gaps, never guesses."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from context.builders import NOW, citation, frame, state_with
from shifu.context import cues
from shifu.context.resolve import (
    CORRECTION_VALUE_MISSING,
    REFERENCE_UNRESOLVED,
    Resolution,
    effective_question,
    resolve,
    resolve_context,
    turn_frame,
)
from shifu.context.state import ConversationState, PendingItem, PendingKind, dump_state
from shifu.contracts.common import ContextRelation, Intent
from shifu.contracts.entities import (
    DateSpan,
    DocumentRef,
    Duration,
    DurationUnit,
    ExtractedEntities,
    MoneyAmount,
    OrdinalRef,
    PersonMention,
)
from shifu.nlp.mentions import ORDINAL_MENTION

NONE = ExtractedEntities()
THIS_MONTH = DateSpan(start=date(2026, 7, 1), end=date(2026, 7, 31), text="这个月")
LAST_MONTH = DateSpan(start=date(2026, 6, 1), end=date(2026, 6, 30), text="上个月")
THIS_WEEK = DateSpan(start=date(2026, 7, 13), end=date(2026, 7, 19), text="本周")


def years(value: int, text: str) -> Duration:
    return Duration(value=Decimal(value), unit=DurationUnit.YEAR, text=text)


def money(value: int, text: str) -> MoneyAmount:
    return MoneyAmount(value=Decimal(value), text=text)


TASKS_FRAME = frame("我这个月的待办", ExtractedEntities(dates=[THIS_MONTH]), Intent.LIVE_MY_WORK)


@pytest.mark.parametrize(
    ("question", "ordinal", "expected_ref"),
    [
        ("第二项", OrdinalRef(index=2, text="第二项"), "fr-2"),
        ("第2个呢", OrdinalRef(index=2, text="第2个"), "fr-2"),
        ("第一条什么时候到期", OrdinalRef(index=1, text="第一条"), "fr-1"),
        ("最后那个", OrdinalRef(index=-1, text="最后那个"), "fr-3"),
    ],
)
def test_ordinal_points_at_the_nth_listed_fact(question: str, ordinal: OrdinalRef, expected_ref: str) -> None:
    state = state_with(facts=3, previous=TASKS_FRAME)
    for entities in (ExtractedEntities(ordinals=[ordinal]), NONE):  # extractor result, then cue fallback
        context = resolve_context(question, state, entities=entities)
        assert context.relation is ContextRelation.REFERENCE
        assert [(r.kind, r.fact_ref) for r in context.references] == [("FACT_ITEM", expected_ref)]
        assert context.gaps == []
        assert context.goal == "我这个月的待办"
        assert context.previous_intent is Intent.LIVE_MY_WORK


@pytest.mark.parametrize(("question", "index"), [("第五项", 5), ("第四个", 4)])
def test_ordinal_past_the_listing_is_unresolved(question: str, index: int) -> None:
    entities = ExtractedEntities(ordinals=[OrdinalRef(index=index, text=question)])
    context = resolve_context(question, state_with(facts=3), entities=entities)
    assert context.references == []
    assert context.gaps == [REFERENCE_UNRESOLVED]


@pytest.mark.parametrize("question", ["第二项", "刚才那份", "把原文件发我", "那个文件", "原文给我看看"])
def test_a_reference_with_nothing_to_point_at_is_a_gap(question: str) -> None:
    context = resolve_context(question, ConversationState(), entities=NONE)
    assert context.relation is ContextRelation.REFERENCE
    assert context.references == []
    assert context.gaps == [REFERENCE_UNRESOLVED]


@pytest.mark.parametrize(
    "question",
    [
        "劳动合同法第十条是怎么规定的",
        "消防法第五十三条说了什么",
        "发现火情第一步做什么",
        "电梯困人了第一步该做什么",
    ],
)
def test_an_article_of_a_named_law_or_a_process_step_is_not_a_list_reference(question: str) -> None:
    state = state_with(facts=3, previous=TASKS_FRAME)
    context = resolve_context(question, state, entities=_entities(question))
    assert context.relation is not ContextRelation.REFERENCE
    assert context.references == [] and context.gaps == []


@pytest.mark.parametrize(
    "question", ["刚才那份", "把原文件发我", "那个文件", "原文给我看看", "刚才那份制度的原件"]
)
def test_document_reference_points_at_the_last_cited_document(question: str) -> None:
    state = state_with(citations=(citation("c7", "baoxiao"), citation("c8", "caigou")))
    context = resolve_context(question, state, entities=NONE)
    assert context.relation is ContextRelation.REFERENCE
    assert [(r.kind, r.citation_id) for r in context.references] == [("DOCUMENT", "c7")]


def test_document_reference_from_the_extractor() -> None:
    state = state_with(citations=(citation("c7", "baoxiao"),))
    entities = ExtractedEntities(document_refs=[DocumentRef(text="刚才那份")])
    context = resolve_context("发我刚才那份", state, entities=entities)
    assert context.references[0].citation_id == "c7"
    assert context.references[0].text == "刚才那份"


def test_ordinal_over_citations_picks_the_nth_document() -> None:
    state = state_with(
        citations=(citation("c1", "baoxiao"), citation("c2", "baoxiao"), citation("c3", "caigou"))
    )
    context = resolve_context("第二份", state, entities=NONE)
    assert [(r.kind, r.citation_id) for r in context.references] == [("DOCUMENT", "c3")]


@pytest.mark.parametrize(
    ("previous", "previous_entities", "question", "entities", "expected"),
    [
        (
            "工作满10年年假有几天",
            ExtractedEntities(durations=[years(10, "10年")]),
            "满20年呢",
            ExtractedEntities(durations=[years(20, "20年")]),
            "工作满20年年假有几天",
        ),
        (
            "劳动合同签三年试用期多久",
            ExtractedEntities(durations=[years(3, "三年")]),
            "那如果只签一年呢",
            ExtractedEntities(durations=[years(1, "一年")]),
            "劳动合同签一年试用期多久",
        ),
        (
            "报销500元需要谁审批",
            ExtractedEntities(amounts=[money(500, "500元")]),
            "那3000呢",
            NONE,
            "报销3000元需要谁审批",
        ),
        (
            "报销五百块需要谁审批",
            ExtractedEntities(amounts=[money(500, "五百块")]),
            "那3000呢",
            NONE,
            "报销3000块需要谁审批",
        ),
        (
            "报销500元需要谁审批",
            ExtractedEntities(amounts=[money(500, "500元")]),
            "那两千元呢",
            ExtractedEntities(amounts=[money(2000, "两千元")]),
            "报销两千元需要谁审批",
        ),
        (
            "给孙八派一个消防巡检的训练，下周五前完成",
            ExtractedEntities(
                dates=[DateSpan(start=date(2025, 6, 27), end=date(2025, 6, 27), text="下周五")]
            ),
            "改成周四",
            ExtractedEntities(dates=[DateSpan(start=date(2025, 6, 19), end=date(2025, 6, 19), text="周四")]),
            "给孙八派一个消防巡检的训练，下周四前完成",
        ),
        (
            "我这个月的待办",
            ExtractedEntities(dates=[THIS_MONTH]),
            "那上个月呢",
            ExtractedEntities(dates=[LAST_MONTH]),
            "我上个月的待办",
        ),
        (
            "试用期最长多久",
            NONE,
            "那如果只签一年呢",
            ExtractedEntities(durations=[years(1, "一年")]),
            "只签一年，试用期最长多久",
        ),
        ("装修人员怎么进场", NONE, "那江湾呢", NONE, "江湾，装修人员怎么进场"),
        ("报销要交啥材料", NONE, "那时限呢", NONE, "报销时限"),  # the kind asked replaces the old one
        ("装修押金多少钱", NONE, "流程呢", NONE, "装修押金流程"),
    ],
)
def test_follow_up_replans_the_previous_frame_with_the_new_value(
    previous: str,
    previous_entities: ExtractedEntities,
    question: str,
    entities: ExtractedEntities,
    expected: str,
) -> None:
    state = state_with(previous=frame(previous, previous_entities, Intent.KNOWLEDGE_QA))
    resolution = resolve(question, state, entities=entities)
    assert resolution.context.relation is ContextRelation.FOLLOW_UP
    assert resolution.context.goal == previous
    assert [r.kind for r in resolution.context.references] == ["FRAME"]
    assert resolution.effective_question == expected
    assert effective_question(question, state, entities=entities) == expected
    assert resolution.state == state


def test_follow_up_without_a_previous_question_is_a_gap() -> None:
    resolution = resolve(
        "满20年呢", ConversationState(), entities=ExtractedEntities(durations=[years(20, "20年")])
    )
    assert resolution.context.relation is ContextRelation.FOLLOW_UP
    assert resolution.context.gaps == [REFERENCE_UNRESOLVED]
    assert resolution.effective_question == "满20年呢"


@pytest.mark.parametrize(
    ("question", "entities"),
    [
        ("报销需要什么材料呢", NONE),
        ("如果签3年合同，试用期多久", ExtractedEntities(durations=[years(3, "3年")])),
        ("如果员工在上班路上受伤了应该怎么申报工伤", NONE),
        ("怎么取消订单", NONE),
        ("电梯困人怎么处理", NONE),
        ("那是不是要先报备物业再找维修单位处理呢", NONE),
    ],
)
def test_self_contained_questions_are_new_topics(question: str, entities: ExtractedEntities) -> None:
    state = state_with(facts=2, previous=TASKS_FRAME)
    resolution = resolve(question, state, entities=entities)
    assert resolution.context.relation is ContextRelation.NEW_TOPIC
    assert resolution.context.goal is None
    assert resolution.effective_question == question
    assert resolution.state == state


@pytest.mark.parametrize(
    ("question", "entities", "expected"),
    [
        ("不对，是上个月", ExtractedEntities(dates=[LAST_MONTH]), "我上个月的待办"),
        ("我说的是本周", ExtractedEntities(dates=[THIS_WEEK]), "我本周的待办"),
        ("不是，我是说上个月", ExtractedEntities(dates=[LAST_MONTH]), "我上个月的待办"),
        ("错了，上个月", ExtractedEntities(dates=[LAST_MONTH]), "我上个月的待办"),
    ],
)
def test_correction_replans_and_invalidates_old_fact_refs(
    question: str, entities: ExtractedEntities, expected: str
) -> None:
    state = state_with(facts=3, citations=(citation("c1", "baoxiao"),), previous=TASKS_FRAME)
    resolution = resolve(question, state, entities=entities)
    assert resolution.context.relation is ContextRelation.CORRECTION
    assert resolution.context.gaps == []
    assert resolution.context.goal == "我这个月的待办"
    assert resolution.effective_question == expected
    assert resolution.state.fact_refs == ()
    assert resolution.state.frame == state.frame


def test_correction_without_a_value_asks() -> None:
    resolution = resolve("不对，", state_with(facts=2, previous=TASKS_FRAME), entities=NONE)
    assert resolution.context.relation is ContextRelation.CORRECTION
    assert resolution.context.gaps == [CORRECTION_VALUE_MISSING]
    assert resolution.effective_question == "不对，"
    assert resolution.state.fact_refs == ()


def test_correction_with_nothing_to_correct_is_a_gap() -> None:
    resolution = resolve(
        "不对，是上个月", ConversationState(), entities=ExtractedEntities(dates=[LAST_MONTH])
    )
    assert resolution.context.gaps == [REFERENCE_UNRESOLVED]
    assert resolution.context.references == []


@pytest.mark.parametrize(
    "question", ["算了", "不用了", "取消", "算了吧。", "那算了", "不要了，谢谢", "还是不用了"]
)
@pytest.mark.parametrize("kind", [PendingKind.DRAFT, PendingKind.CLARIFICATION])
def test_cancel_closes_the_pending_item(question: str, kind: PendingKind) -> None:
    pending = PendingItem(kind=kind, item_id="draft-9", created_at=NOW)
    state = state_with(facts=1).model_copy(update={"pending": pending})
    resolution = resolve(question, state, entities=NONE)
    assert resolution.context.relation is ContextRelation.CANCEL
    assert resolution.cancelled == pending
    assert resolution.state.pending is None
    assert resolution.state.fact_refs == state.fact_refs


@pytest.mark.parametrize(
    ("reply", "choice"),
    [
        ("仅自己可见", "私人记录"),
        ("私人的吧", "私人记录"),
        ("存成公司记录", "公司记录"),
        ("公开", "公司记录"),
    ],
)
def test_choosing_who_sees_an_open_note_drafts_it_again_with_that_choice(reply: str, choice: str) -> None:
    note = frame("帮我记一下3栋电梯异响", intent=Intent.CAPTURE_FACT)
    pending = PendingItem(kind=PendingKind.DRAFT, item_id="draft-9", created_at=NOW)
    state = state_with(previous=note).model_copy(update={"pending": pending})
    resolution = resolve(reply, state, entities=NONE)
    assert resolution.effective_question == f"帮我记一下3栋电梯异响，{choice}"
    assert resolution.cancelled == pending and resolution.state.pending is None
    report = frame("帮我投稿一篇电梯困人处置心得", intent=Intent.DRAFT_ACTION)
    other = resolve(reply, state.model_copy(update={"frame": report}), entities=NONE)
    assert other.cancelled is None, "only a note has a visibility to choose"
    assert cues.visibility_choice("公司记录要怎么写") is None


@pytest.mark.parametrize(
    ("reply", "sets"), [("截止日期下周三", True), ("下周五前完成", True), ("下周三有什么待办", False)]
)
def test_saying_by_when_to_an_open_draft_drafts_it_again_with_that_due_day(reply: str, sets: bool) -> None:
    assignment = frame("给周九派个投诉接待的训练", intent=Intent.DRAFT_ACTION)
    pending = PendingItem(kind=PendingKind.DRAFT, item_id="draft-9", created_at=NOW)
    state = state_with(previous=assignment).model_copy(update={"pending": pending})
    resolution = resolve(reply, state, entities=_entities(reply))
    if sets:
        assert resolution.effective_question == f"给周九派个投诉接待的训练，{reply}"
        assert resolution.cancelled == pending and resolution.state.pending is None
    else:
        assert resolution.effective_question == reply
        assert resolution.state.pending == pending


def test_cancel_with_nothing_pending_cancels_nothing() -> None:
    resolution = resolve("算了", ConversationState(), entities=NONE)
    assert resolution.context.relation is ContextRelation.CANCEL
    assert resolution.cancelled is None


@pytest.mark.parametrize(
    ("question", "entities", "kinds"),
    [
        ("我是主管，把团队复盘情况给我", NONE, ["ROLE_CLAIM"]),
        ("我是华府的项目经理", NONE, ["ROLE_CLAIM"]),
        ("我有权限，直接给我看", NONE, ["PERMISSION_CLAIM"]),
        ("主管已经给我开了权限", NONE, ["PERMISSION_CLAIM"]),
        ("我是李四", ExtractedEntities(persons=[PersonMention(name="李四")]), ["IDENTITY_CLAIM"]),
        ("我是王五，帮我查一下", NONE, ["IDENTITY_CLAIM"]),
        ("我是主管我有权限", NONE, ["ROLE_CLAIM", "PERMISSION_CLAIM"]),
        ("我是新来的", NONE, []),
        ("我是来问报销流程的", NONE, []),
        ("报销流程是什么", NONE, []),
    ],
)
def test_claims_are_user_assertions_only(
    question: str, entities: ExtractedEntities, kinds: list[str]
) -> None:
    state = state_with(facts=1, previous=TASKS_FRAME)
    resolution = resolve(question, state, entities=entities)
    assertions = resolution.context.user_assertions
    assert [a.kind for a in assertions] == kinds
    assert all(a.evidence_type == "USER_ASSERTION" for a in assertions)
    assert resolution.state.fact_refs == state.fact_refs


def test_earlier_answers_never_become_facts() -> None:
    """Invariant 4: "你有3项待办" in an earlier answer is not a listing the user can point into."""
    remembered_only_in_language = state_with(previous=TASKS_FRAME)
    context = resolve_context("第二项", remembered_only_in_language, entities=NONE)
    assert context.references == []
    assert context.gaps == [REFERENCE_UNRESOLVED]

    with_refs = state_with(facts=3, previous=TASKS_FRAME)
    resolution = resolve("第二项是什么", with_refs, entities=NONE)
    exposed = resolution.context.model_dump_json() + dump_state(resolution.state)
    assert resolution.context.references[0].fact_ref == "fr-2"
    for number_from_answer in ("3项", "你有"):
        assert number_from_answer not in exposed


@pytest.mark.parametrize(
    ("question", "entities", "intent", "remembered_question"),
    [
        ("第二项", NONE, Intent.LIVE_MY_WORK, None),
        ("第九项", NONE, Intent.LIVE_MY_WORK, None),
        ("算了", NONE, None, None),
        ("谢谢", NONE, Intent.SOCIAL, None),
        ("不对，", NONE, Intent.LIVE_MY_WORK, None),
        ("不对，是上个月", ExtractedEntities(dates=[LAST_MONTH]), Intent.LIVE_MY_WORK, "我上个月的待办"),
        ("那上个月呢", ExtractedEntities(dates=[LAST_MONTH]), Intent.LIVE_MY_WORK, "我上个月的待办"),
        ("报销流程是什么", NONE, Intent.KNOWLEDGE_QA, "报销流程是什么"),
    ],
)
def test_turn_frame_keeps_the_goal_across_references_repairs_and_small_talk(
    question: str, entities: ExtractedEntities, intent: Intent | None, remembered_question: str | None
) -> None:
    state = state_with(facts=3, previous=TASKS_FRAME)
    resolution = resolve(question, state, entities=entities)
    remembered = turn_frame(resolution, intent=intent, entities=entities)
    if remembered_question is None:
        assert remembered is None
    else:
        assert remembered is not None
        assert (remembered.question, remembered.intent) == (remembered_question, intent)


@pytest.mark.parametrize(
    ("question", "entities", "relation"),
    [
        ("那我本周的待办呢", ExtractedEntities(dates=[THIS_WEEK]), ContextRelation.NEW_TOPIC),
        ("那本周呢", ExtractedEntities(dates=[THIS_WEEK]), ContextRelation.FOLLOW_UP),
        ("那如果只签一年呢", ExtractedEntities(durations=[years(1, "一年")]), ContextRelation.FOLLOW_UP),
    ],
)
def test_a_follow_up_without_a_counterpart_may_only_add_a_value(
    question: str, entities: ExtractedEntities, relation: ContextRelation
) -> None:
    state = state_with(
        previous=frame("报销500元需要谁审批", ExtractedEntities(amounts=[money(500, "500元")]))
    )
    assert resolve_context(question, state, entities=entities).relation is relation


@pytest.mark.parametrize(
    "question",
    ["费用报销管理制度的原文件发我一份", "电梯困人应急处置规程原文给我", "把《岗前学习指引》原件发我"],
)
def test_a_named_document_needs_no_earlier_citation(question: str) -> None:
    res = resolve(question, ConversationState(), entities=ExtractedEntities())
    assert res.context.gaps == []
    assert res.context.references == []


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        ("婚假几天", "产假呢", "产假几天"),
        ("病假要什么证明", "那婚假呢", "婚假要什么证明"),
        ("报销流程", "那采购呢", "采购流程"),
        ("请假要谁批", "加班呢", "加班要谁批"),
    ],
)
def test_a_sibling_of_the_previous_subject_takes_its_place(
    previous: str, question: str, expected: str
) -> None:
    res = _after_knowledge_question(previous, question)
    assert res.context.relation is ContextRelation.FOLLOW_UP
    assert res.effective_question == expected
    assert res.context.goal is None  # the old subject is not searched with the new one


def _after_knowledge_question(previous: str, question: str) -> Resolution:
    state = state_with(previous=frame(previous, _entities(previous), Intent.KNOWLEDGE_QA))
    return resolve(question, state, entities=_entities(question))


def test_another_kind_of_term_narrows_the_previous_question() -> None:
    res = _after_knowledge_question("报销要交啥材料", "那发票呢")
    assert res.effective_question == "发票，报销要交啥材料"
    assert res.context.goal == "报销要交啥材料"


def test_a_named_document_after_another_question_is_its_own_request() -> None:
    state = state_with(previous=frame("发票原件要交给谁", _entities("发票原件要交给谁"), Intent.KNOWLEDGE_QA))
    res = resolve("把报销制度原件发我", state, entities=_entities("把报销制度原件发我"))
    assert res.context.relation is not ContextRelation.REFERENCE
    assert res.context.goal is None  # the previous question is not searched with it
    assert res.effective_question == "把报销制度原件发我"


@pytest.mark.parametrize("question", ["发票原件交到哪里", "身份证原件要带吗", "报销单的原件交给谁"])
def test_the_original_of_a_paper_is_no_document_reference(question: str) -> None:
    state = state_with(citations=(citation("c7", "baoxiao"),))
    context = resolve_context(question, state, entities=_entities(question))
    assert context.relation is not ContextRelation.REFERENCE
    assert context.references == [] and context.gaps == []


def _entities(text: str) -> ExtractedEntities:
    from zoneinfo import ZoneInfo

    from shifu.nlp.entities import extract_entities

    return extract_entities(text, now=NOW, tz=ZoneInfo("Asia/Shanghai"))


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        ("休息日加班怎么给钱", "那法定节假日呢", "法定节假日，休息日加班怎么给钱"),
        ("单位能不能随意解除劳动合同", "那员工在医疗期内呢", "员工在医疗期内，单位能不能随意解除劳动合同"),
    ],
)
def test_an_elliptical_follow_up_keeps_the_knowledge_goal(
    previous: str, question: str, expected: str
) -> None:
    res = _after_knowledge_question(previous, question)
    assert res.context.relation is ContextRelation.FOLLOW_UP
    assert res.effective_question == expected


def test_a_bare_demonstrative_is_not_a_follow_up() -> None:
    state = state_with(previous=frame("报销流程", _entities("报销流程"), Intent.KNOWLEDGE_QA))
    res = resolve("那个呢", state, entities=_entities("那个呢"))
    assert res.context.relation is ContextRelation.NEW_TOPIC


def test_a_correction_takes_the_value_it_states_not_the_one_it_rejects() -> None:
    state = state_with(previous=frame("我本周的待办", _entities("我本周的待办"), Intent.LIVE_MY_WORK))
    res = resolve("不是本周，我说的是下周", state, entities=_entities("不是本周，我说的是下周"))
    assert res.context.relation is ContextRelation.CORRECTION
    assert res.effective_question == "我下周的待办"


@pytest.mark.parametrize("question", ["第一次提醒业主交物业费该怎么沟通", "第二次巡检要看什么"])
def test_the_nth_time_is_not_a_list_reference(question: str) -> None:
    res = resolve(question, state_with(facts=3), entities=_entities(question))
    assert res.context.references == [] and res.context.gaps == []


@pytest.mark.parametrize("question", ["算了先不发", "算了，先不记了"])
def test_cancel_with_a_deferral_is_a_cancel(question: str) -> None:
    res = resolve(question, state_with(), entities=ExtractedEntities())
    assert res.context.relation is ContextRelation.CANCEL


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        ("报销需要提交哪些材料", "要谁批", "报销要谁批"),
        ("零星采购要什么材料", "谁签字", "零星采购谁签字"),  # 签字 is what is done, not to what
        ("报销要什么材料", "谁审批", "报销谁审批"),
        ("复盘要做什么", "要多久完成", "复盘要多久完成"),
        ("报销需要提交哪些材料", "超过30天还能报吗", "报销超过30天还能报吗"),
        ("年假要提前几天申请", "最多能休几天", "年假最多能休几天"),
        ("报销需要提交哪些材料", "多久能到账", "报销多久能到账"),  # 到账 says what happens, not to what
        ("发票怎么开", "丢了怎么办", "发票丢了怎么办"),
        ("年假有几天", "那要提前几天申请", "年假那要提前几天申请"),  # 申请 is what is done, not to what
        ("电梯困人了怎么办", "那要多久到场", "电梯困人那要多久到场"),  # 到场 is what happens, not to what
        ("装修押金多少", "那怎么退", "装修押金那怎么退"),  # 退(还) is what is done with it
        ("2025版年假有几天", "那要提前几天申请", "年假2025版那要提前几天申请"),  # the chosen version holds
        ("2025版年假有几天", "2024版要提前几天申请", "年假2024版要提前几天申请"),  # unless another is named
    ],
)
def test_a_question_without_a_subject_of_its_own_takes_the_previous_subject(
    previous: str, question: str, expected: str
) -> None:
    state = state_with(previous=frame(previous, _entities(previous), Intent.KNOWLEDGE_QA))
    res = resolve(question, state, entities=_entities(question))
    assert res.effective_question == expected
    assert res.context.relation is ContextRelation.NEW_TOPIC
    assert res.context.goal is None  # its own ask: the previous question is not searched again


@pytest.mark.parametrize(
    ("intent", "previous", "question", "expected"),
    [
        (Intent.LIVE_MY_WORK, "我这个月练了几次", "平均多少分", "我这个月练了几次，平均多少分"),
        (Intent.LIVE_TEAM_WORK, "这个月团队成果交了多少", "谁还没交", "这个月团队成果交了多少，谁还没交"),
        (Intent.LIVE_MY_WORK, "本月待办", "哪个最急？", "本月待办，哪个最急？"),
        (Intent.LIVE_MY_WORK, "我这周的练习成绩怎么样", "哪次最差", "我这周的练习成绩怎么样，哪次最差"),
        (Intent.LIVE_TEAM_WORK, "这周团队练得怎么样", "谁分最低", "这周团队练得怎么样，谁分最低"),
        (Intent.LIVE_TEAM_WORK, "这周团队练得怎么样", "怎么办", "怎么办"),  # asks nothing of the scores
        (Intent.LIVE_TEAM_WORK, "这个月团队成果交了多少", "谁还没练习", "谁还没练习"),  # another record
        (Intent.LIVE_MY_WORK, "本月待办", "上周的平均分多少", "上周的平均分多少"),  # its own window
        (Intent.LIVE_MY_WORK, "本月待办", "电梯困人怎么办", "电梯困人怎么办"),  # a subject of its own
        (Intent.LIVE_MY_WORK, "本月待办", "谢谢", "谢谢"),  # asks nothing
        (Intent.KNOWLEDGE_QA, "消防巡检多久一次", "哪个最急", "哪个最急"),  # no records were listed
    ],
)
def test_a_question_about_the_records_just_listed_continues_that_read(
    intent: Intent, previous: str, question: str, expected: str
) -> None:
    state = state_with(previous=frame(previous, _entities(previous), intent))
    res = resolve(question, state, entities=_entities(question))
    assert res.effective_question == expected


@pytest.mark.parametrize(
    ("previous_intent", "question"),
    [
        (Intent.KNOWLEDGE_QA, "好的"),  # asks nothing
        (Intent.KNOWLEDGE_QA, "电梯困人怎么处理"),  # a subject of its own
        (Intent.LIVE_MY_WORK, "要谁批"),  # the previous question was not about a document subject
        (None, "要谁批"),
    ],
)
def test_only_a_subjectless_question_after_a_knowledge_question_inherits(
    previous_intent: Intent | None, question: str
) -> None:
    previous = state_with(previous=frame("报销需要提交哪些材料", intent=previous_intent))
    state = previous if previous_intent is not None else ConversationState()
    res = resolve(question, state, entities=_entities(question))
    assert res.effective_question == question


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("报销", "报销超过30天还能报吗"),
        ("报销的。", "报销的超过30天还能报吗"),
        ("丢了", "丢了"),  # a situation is not the subject asked for
        ("好的", "好的"),
        ("年假怎么休", "年假怎么休"),
    ],
)
def test_a_subject_reply_completes_the_subjectless_question_it_was_asked_for(
    reply: str, expected: str
) -> None:
    previous = "超过30天还能报吗"
    state = state_with(previous=frame(previous, _entities(previous), Intent.KNOWLEDGE_QA))
    assert resolve(reply, state, entities=_entities(reply)).effective_question == expected


@pytest.mark.parametrize("reply", ["按2025版的来", "按最新的", "旧的那个"])
def test_a_bare_version_choice_re_plans_the_previous_knowledge_question(reply: str) -> None:
    previous = "年假要提前几天申请"
    state = state_with(previous=frame(previous, _entities(previous), Intent.KNOWLEDGE_QA))
    res = resolve(reply, state, entities=_entities(reply))
    assert res.context.relation is ContextRelation.FOLLOW_UP
    assert res.effective_question == f"{reply}，年假要提前几天申请"


def test_a_bare_topic_that_was_asked_back_lends_its_subject_to_the_next_question() -> None:
    clarified = resolve("报销", ConversationState(), entities=_entities("报销"))
    remembered = turn_frame(clarified, intent=Intent.CLARIFY, entities=_entities("报销"))
    assert remembered is not None
    res = resolve("要哪些材料", state_with(previous=remembered), entities=_entities("要哪些材料"))
    assert res.effective_question == "报销要哪些材料"
    small_talk = resolve("你好", ConversationState(), entities=_entities("你好"))
    assert turn_frame(small_talk, intent=Intent.CLARIFY, entities=_entities("你好")) is None


@pytest.mark.parametrize(
    ("previous", "question"),
    [
        ("吗" * 1999, "报销的"),  # a subject reply
        ("年假" + "啊" * 1995, "按2025版的来"),  # a bare value
        ("年假" + "啊" * 1995, "那法定节假日呢"),  # a cue-marked follow-up
    ],
)
def test_a_completed_question_never_outgrows_a_frame(previous: str, question: str) -> None:
    state = state_with(previous=frame(previous, _entities(previous), Intent.KNOWLEDGE_QA))
    res = resolve(question, state, entities=_entities(question))
    assert res.effective_question == question
    assert turn_frame(res, intent=Intent.KNOWLEDGE_QA, entities=_entities(question)) is not None


@pytest.mark.parametrize(
    "question", ["新员工第一个月要指派几个训练", "第三个工作日内要交吗", "第2个阶段是什么"]
)
def test_a_time_or_stage_after_an_ordinal_points_at_no_listed_item(question: str) -> None:
    assert cues.find_ordinals(question) == []
    assert ORDINAL_MENTION.search(question) is None


@pytest.mark.parametrize(
    ("previous", "intent", "question", "expected"),
    [
        ("我上个月的练习记录", Intent.LIVE_MY_WORK, "那成果呢", "我上个月的成果"),
        ("团队上个月的练习情况", Intent.LIVE_TEAM_WORK, "成果呢", "团队上个月的成果"),
    ],
)
def test_a_follow_up_naming_another_record_reads_it_over_the_same_window(
    previous: str, intent: Intent, question: str, expected: str
) -> None:
    state = state_with(previous=frame(previous, ExtractedEntities(dates=[LAST_MONTH]), intent))
    resolution = resolve(question, state, entities=NONE)
    assert resolution.context.relation is ContextRelation.FOLLOW_UP
    assert resolution.effective_question == expected


@pytest.mark.parametrize(
    ("intent", "expected"),
    [
        (Intent.LIVE_TEAM_WORK, "周九这周练了几次"),
        (Intent.DRAFT_ACTION, "周九，孙八这周练了几次"),  # a draft is not re-aimed at 周九 by ellipsis
    ],
)
def test_another_member_named_after_a_team_read_is_read_the_same_way(intent: Intent, expected: str) -> None:
    asked = ExtractedEntities(persons=[PersonMention(name="孙八")])
    state = state_with(previous=frame("孙八这周练了几次", asked, intent))
    named = ExtractedEntities(persons=[PersonMention(name="周九")])
    resolution = resolve("周九呢", state, entities=named)
    assert resolution.context.relation is ContextRelation.FOLLOW_UP
    assert resolution.effective_question == expected


@pytest.mark.parametrize(
    ("previous", "question", "expected"),
    [
        ("孙八这个月练得怎么样", "他需要复盘吗", "孙八需要复盘吗"),
        ("周九上次复盘是什么时候", "她最近练了几次", "周九最近练了几次"),
    ],
)
def test_he_or_she_stands_for_the_one_person_the_previous_question_named(
    previous: str, question: str, expected: str
) -> None:
    state = state_with(previous=frame(previous, _entities(previous), Intent.LIVE_TEAM_WORK))
    assert resolve(question, state, entities=_entities(question)).effective_question == expected


@pytest.mark.parametrize(
    ("previous", "question"),
    [
        ("孙八和周九谁还没复盘", "他需要复盘吗"),  # two people: no guess
        ("组里谁还没练习", "他需要复盘吗"),  # nobody named
        ("孙八这个月练得怎么样", "他们需要复盘吗"),  # 他们 is not one person
        ("孙八这个月练得怎么样", "能看其他同事的成绩吗"),
    ],
)
def test_he_or_she_is_left_alone_without_exactly_one_person_before(previous: str, question: str) -> None:
    state = state_with(previous=frame(previous, _entities(previous), Intent.LIVE_TEAM_WORK))
    assert "孙八" not in resolve(question, state, entities=_entities(question)).effective_question
