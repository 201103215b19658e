"""Extractive composer, compose_for and rendering over real evaluator decisions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from evidence.builders import NOW, TODAY, doc, fact, facts_result, plan, search_result
from shifu.answer.compose import compose_for, should_compose, skipped_answer
from shifu.answer.extractive import ExtractiveComposer, describe_fact
from shifu.answer.render import citation_order, render_answer_text
from shifu.contracts.answer import GroundedAnswer
from shifu.contracts.common import Authority, DecisionStatus, EvidenceNeed, Role, ToolCode
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import DocumentEvidence, VerifiedFact
from shifu.contracts.plan import SemanticQueryPlan
from shifu.evidence.evaluator import EvidenceEvaluator

MONTHLY_CAP = "零星采购每月累计金额不超过2000元，超出部分须经部门负责人审批。"
PER_TRANSACTION = "单笔金额在500元（含）以下的零星采购，可凭发票直接报销。报销应当真实。"
STEPS = "报销流程：\n1. 在系统中填写报销单；\n2. 上传发票照片；\n3. 部门负责人审批。"


class RecordingComposer:
    """A composer that only records whether it was called."""

    def __init__(self) -> None:
        self.calls = 0

    def compose(
        self,
        plan: SemanticQueryPlan,
        decision: DecisionResult,
        documents: Sequence[DocumentEvidence],
        facts: Sequence[VerifiedFact],
    ) -> GroundedAnswer:
        self.calls += 1
        return GroundedAnswer(summary="x")


def _decide(p: SemanticQueryPlan, *results: Any) -> DecisionResult:
    return EvidenceEvaluator().evaluate(p, list(results), on_date=TODAY, now=NOW, role=Role.EMPLOYEE)


def test_answered_amount_copies_the_amount_sentence_verbatim() -> None:
    p = plan("500元的一笔采购如何报销", [EvidenceNeed.AMOUNT_RULE], amount="500")
    docs = [doc("c1", PER_TRANSACTION)]
    decision = _decide(p, search_result(*docs))
    answer = ExtractiveComposer().compose(p, decision, docs, [])

    assert [s.text for s in answer.statements] == ["单笔金额在500元（含）以下的零星采购，可凭发票直接报销。"]
    assert answer.statements[0].citation_ids == ("c1",)
    assert answer.statements[0].need is EvidenceNeed.AMOUNT_RULE
    assert answer.missing_information == []
    text = render_answer_text(answer, decision, docs)
    assert "500元（含）以下" in text and "[1]" in text
    assert "《费用报销管理制度》（2025版）" in text


def test_a_sentence_quoted_for_two_slots_is_shown_once_with_its_citation() -> None:
    tiers = "单笔1000元（含）至5000元（含）的报销，由分管副总审批。"
    p = plan("单笔3000元的报销谁审批", [EvidenceNeed.APPROVAL, EvidenceNeed.AMOUNT_RULE], amount="3000")
    approving = doc("c1", tiers, needs=(EvidenceNeed.APPROVAL, EvidenceNeed.AMOUNT_RULE))
    decision = _decide(p, search_result(approving))
    answer = ExtractiveComposer().compose(p, decision, [approving], [])

    assert decision.status is DecisionStatus.ANSWERED
    assert [s.text for s in answer.statements] == [tiers]
    assert answer.statements[0].citation_ids == ("c1",)


def test_a_clause_of_a_quoted_item_is_not_quoted_again_beside_it() -> None:
    items = (
        "不同假别需提交的证明材料如下：\n"
        "1. 病假：二级以上医院出具的病假证明和病历；请病假1日的可先提交就诊记录。\n"
        "2. 婚假：结婚证复印件。"
    )
    p = plan("病假要什么证明", [EvidenceNeed.REQUIRED_MATERIALS])
    materials = doc("c1", items, needs=(EvidenceNeed.REQUIRED_MATERIALS,), locator="五、请假需提交的证明材料")
    decision = _decide(p, search_result(materials))
    texts = [s.text for s in ExtractiveComposer().compose(p, decision, [materials], []).statements]

    assert "1. 病假：二级以上医院出具的病假证明和病历；请病假1日的可先提交就诊记录。" in texts
    assert not any(text != whole and text.rstrip("；。") in whole for text in texts for whole in texts), texts


def test_a_lead_in_whose_item_is_shown_under_another_source_is_not_left_dangling() -> None:
    p = plan("我需要交几张照片", [EvidenceNeed.REQUIRED_MATERIALS])
    materials = (EvidenceNeed.REQUIRED_MATERIALS,)
    guide = doc(
        "c1",
        "候选人收到录用通知后，需提交以下入职资料：\n1. 本人身份证复印件。\n2. 近期免冠一寸彩色照片2张。",
        needs=materials,
        locator="五、候选人需提交的入职资料清单",
        score=0.9,
    )
    rules = doc(
        "c2",
        "候选人需提交以下资料：\n1. 本人身份证复印件（正反面）。\n2. 近期免冠一寸彩色照片2张。",
        needs=materials,
        locator="二、候选人需提交的资料有哪些",
        score=0.8,
    )
    decision = _decide(p, search_result(guide, rules))
    statements = ExtractiveComposer().compose(p, decision, [guide, rules], []).statements

    assert [s.text for s in statements] == [
        "候选人收到录用通知后，需提交以下入职资料：",
        "2. 近期免冠一寸彩色照片2张。",
    ]
    assert statements[1].citation_ids == ("c1", "c2")


def test_steps_are_not_quoted_again_as_rules_beside_the_steps() -> None:
    procedure = "费用报销按以下步骤办理：\n1. 报销人填写《费用报销审批单》。\n2. 部门负责人核对后签字。"
    p = plan("报销怎么办理", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE])
    steps = doc(
        "c1",
        procedure,
        needs=(EvidenceNeed.PROCESS_STEPS, EvidenceNeed.GENERAL_RULE),
        locator="五、报销的办理步骤",
    )
    decision = _decide(p, search_result(steps))
    answer = ExtractiveComposer().compose(p, decision, [steps], [])

    assert [step.text for step in answer.steps][-1].endswith("部门负责人核对后签字。")
    assert answer.statements == [], [s.text for s in answer.statements]


def test_partial_shows_only_covered_slot_and_lists_the_missing_one() -> None:
    p = plan("500元的一笔采购如何报销", [EvidenceNeed.AMOUNT_RULE, EvidenceNeed.PROCESS_STEPS], amount="500")
    mislabelled = doc("c1", PER_TRANSACTION, needs=(EvidenceNeed.AMOUNT_RULE, EvidenceNeed.PROCESS_STEPS))
    decision = _decide(p, search_result(mislabelled))
    answer = ExtractiveComposer().compose(p, decision, [mislabelled], [])

    assert decision.status is DecisionStatus.PARTIAL
    assert answer.steps == []
    assert {s.need for s in answer.statements} == {EvidenceNeed.AMOUNT_RULE}
    assert answer.missing_information == ["未找到关于报销办理步骤的正式依据"]
    assert "缺失信息" in render_answer_text(answer, decision)


def test_steps_are_extracted_from_numbered_lines_and_bound_to_citation() -> None:
    p = plan("报销流程", [EvidenceNeed.PROCESS_STEPS])
    docs = [doc("s1", STEPS, needs=(EvidenceNeed.PROCESS_STEPS,))]
    decision = _decide(p, search_result(*docs))
    answer = ExtractiveComposer().compose(p, decision, docs, [])

    assert [(s.order, s.text, s.citation_ids) for s in answer.steps] == [
        (1, "在系统中填写报销单；", ("s1",)),
        (2, "上传发票照片；", ("s1",)),
        (3, "部门负责人审批。", ("s1",)),
    ]
    assert "1. 在系统中填写报销单； [1]" in render_answer_text(answer, decision)


INJURY_LEAVE = (
    "第三十三条 职工因工作遭受事故伤害需要暂停工作接受工伤医疗的，在停工留薪期内，原工资福利待遇不变。"
    "停工留薪期一般不超过12个月。工伤职工在停工留薪期满后仍需治疗的，继续享受工伤医疗待遇。"
)


def test_a_law_prescribing_the_handling_of_a_situation_answers_how_it_is_handled_without_steps() -> None:
    p = plan("工伤职工停工留薪期满后还需要治疗的，怎么处理", [EvidenceNeed.PROCESS_STEPS])
    law = doc("l1", INJURY_LEAVE, needs=(EvidenceNeed.OBLIGATION,), authority=Authority.REGULATION)
    decision = _decide(p, search_result(law))
    assert decision.status is DecisionStatus.ANSWERED
    answer = ExtractiveComposer().compose(p, decision, [law], [])
    assert answer.steps == [], "a law's sentences are not steps"
    assert any("继续享受工伤医疗待遇" in s.text and s.citation_ids == ("l1",) for s in answer.statements)


UNPAID_WAGES = (
    "第九十一条 用人单位有下列侵害劳动者合法权益情形之一的，由劳动行政部门责令支付劳动者的工资报酬、"
    "经济补偿，并可以责令支付赔偿金：\n（一）克扣或者无故拖欠劳动者工资的；\n（二）拒不支付劳动者延长工作时间工资报酬的。"
)


def test_a_law_whose_items_list_the_situations_answers_with_its_handling_not_as_steps() -> None:
    p = plan("公司拖欠工资怎么办", [EvidenceNeed.PROCESS_STEPS])
    law = doc("l1", UNPAID_WAGES, needs=(EvidenceNeed.LIABILITY,), authority=Authority.STATUTE)
    decision = _decide(p, search_result(law))
    assert decision.status is DecisionStatus.ANSWERED
    answer = ExtractiveComposer().compose(p, decision, [law], [])
    assert answer.steps == [], "the items are situations, not steps"
    texts = [s.text for s in answer.statements]
    assert any("责令支付" in text for text in texts) and any("无故拖欠" in text for text in texts)


ANNUAL_LEAVE_EXCLUSIONS = (
    "第四条 职工有下列情形之一的，不享受当年的年休假：\n"
    "（一）职工依法享受寒暑假的；\n（二）职工请事假累计20天以上的。"
)
INJURY_CLAIM = "第十七条 职工发生事故伤害的，所在单位应当自事故伤害发生之日起30日内，提出工伤认定申请。"


@pytest.mark.parametrize(
    ("question", "body", "status"),
    [
        ("年假怎么请", ANNUAL_LEAVE_EXCLUSIONS, DecisionStatus.NO_EVIDENCE),
        ("工伤怎么申请", INJURY_CLAIM, DecisionStatus.ANSWERED),
        ("年休假如何申请", ANNUAL_LEAVE_EXCLUSIONS, DecisionStatus.NO_EVIDENCE),
    ],
)
def test_a_how_to_question_is_answered_by_a_law_only_where_it_says_how_that_is_done(
    question: str, body: str, status: DecisionStatus
) -> None:
    p = plan(question, [EvidenceNeed.PROCESS_STEPS])
    law = doc("l1", body, needs=(EvidenceNeed.OBLIGATION,), authority=Authority.REGULATION)
    assert _decide(p, search_result(law)).status is status


def test_a_company_document_without_steps_never_answers_a_steps_question() -> None:
    p = plan("工伤职工停工留薪期满后还需要治疗的，怎么处理", [EvidenceNeed.PROCESS_STEPS])
    policy = doc("p1", INJURY_LEAVE, needs=(EvidenceNeed.OBLIGATION,))
    assert _decide(p, search_result(policy)).status is DecisionStatus.NO_EVIDENCE


def test_documents_not_gated_this_round_are_never_used() -> None:
    p = plan("报销流程", [EvidenceNeed.PROCESS_STEPS])
    gated = doc("s1", STEPS, needs=(EvidenceNeed.PROCESS_STEPS,))
    decision = _decide(p, search_result(gated))
    stray = doc("s2", "1. 直接找老板签字\n2. 现金领取", needs=(EvidenceNeed.PROCESS_STEPS,))
    answer = ExtractiveComposer().compose(p, decision, [gated, stray], [])
    assert citation_order(answer) == ["s1"]


def test_live_facts_and_steps_together() -> None:
    p = plan("本月待办和报销流程", [EvidenceNeed.PROCESS_STEPS], tools=(ToolCode.MY_CURRENT_TASKS,))
    docs = [doc("s1", STEPS, needs=(EvidenceNeed.PROCESS_STEPS,))]
    facts = [fact()]
    decision = _decide(p, facts_result(*facts), search_result(*docs))
    answer = ExtractiveComposer().compose(p, decision, docs, facts)
    assert answer.statements[0].fact_refs == ("fact-1",)
    assert answer.statements[0].text == "我的当前待办：电梯月度巡检（截止 2026-08-05）"
    assert len(answer.steps) == 3


def test_describe_fact_without_title() -> None:
    bare = fact().model_copy(update={"value": {"count": 0}})
    assert describe_fact(bare) == "我的当前待办（数量 0）"


def test_a_summary_fact_is_described_with_its_counts_not_as_a_bare_label() -> None:
    summary = fact().model_copy(
        update={
            "label": "我的训练记录",
            "value": {"recordCount": 2, "averageScore": 79, "pendingReviewCount": 1},
        }
    )
    assert describe_fact(summary) == "我的训练记录（练习次数 2，平均分 79，待复盘 1）"


def test_a_fact_is_described_with_the_readers_status_label_not_the_system_code() -> None:
    task = fact().model_copy(
        update={"value": {"title": "消防通道巡检", "status": "OPEN", "statusLabel": "未完成"}}
    )
    assert describe_fact(task) == "我的当前待办：消防通道巡检（状态 未完成）"


@pytest.mark.parametrize(
    ("question", "amount", "expected"),
    [
        ("500元的一笔采购如何报销", "500", "未找到适用于单笔500元的正式报销金额规定"),
        ("五百块的小额自采怎么走账", "500", "未找到适用于500元的正式报销金额规定"),
    ],
)
def test_no_evidence_never_calls_the_composer(question: str, amount: str, expected: str) -> None:
    p = plan(question, [EvidenceNeed.AMOUNT_RULE], amount=amount)
    interview = doc("c2", "五百块以下直接报。", authority=Authority.INTERVIEW, kind="访谈")
    decision = _decide(p, search_result(doc("c1", MONTHLY_CAP), interview))
    composer = RecordingComposer()

    answer = compose_for(composer, p, decision, [], [])

    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert not should_compose(decision)
    assert composer.calls == 0
    assert answer.composer_reason_code == "ANSWER_GENERATION_SKIPPED"
    assert answer.statements == [] and answer.steps == []
    assert answer.missing_information == [expected]
    assert "2000" not in render_answer_text(answer, decision)


def test_version_conflict_asks_which_version() -> None:
    p = plan("报销期限", [EvidenceNeed.DEADLINE])
    docs = [
        doc(
            "c1",
            "费用发生后30日内提交报销单。",
            needs=(EvidenceNeed.DEADLINE,),
            version="2024版",
            document_key="k",
        ),
        doc(
            "c2",
            "费用发生后60日内提交报销单。",
            needs=(EvidenceNeed.DEADLINE,),
            version="2025版",
            document_key="k",
        ),
    ]
    decision = _decide(p, search_result(*docs))
    composer = RecordingComposer()
    answer = compose_for(composer, p, decision, docs, [])
    assert composer.calls == 0
    assert answer.clarifying_questions == ["找到同一制度的多个版本（2024版、2025版），请问按哪个版本回答？"]
    assert "30日" not in render_answer_text(answer, decision)


def test_composable_decision_calls_the_composer_once() -> None:
    p = plan("报销流程", [EvidenceNeed.PROCESS_STEPS])
    docs = [doc("s1", STEPS, needs=(EvidenceNeed.PROCESS_STEPS,))]
    decision = _decide(p, search_result(*docs))
    composer = RecordingComposer()
    compose_for(composer, p, decision, docs, [])
    assert composer.calls == 1


def test_skipped_answer_for_conflict() -> None:
    decision = DecisionResult(status=DecisionStatus.CONFLICT)
    answer = skipped_answer(plan("q", []), decision)
    assert answer.summary.startswith("找到的正式资料之间")
