"""EvidenceEvaluator: per-slot qualification, caliber gaps, conflicts and live facts (seed 000)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from shifu.answer.wording import gap_text
from shifu.contracts.common import (
    Authority,
    ClaimType,
    DecisionStatus,
    EvidenceNeed,
    Lifecycle,
    ResponseStatus,
    Role,
    ToolCode,
    ToolStatus,
    Verification,
)
from shifu.contracts.decision import DecisionResult
from shifu.contracts.entities import AmountCaliber, ComparatorOp
from shifu.contracts.evidence import DocumentEvidence, DocumentScope
from shifu.evidence.conflicts import Covering
from shifu.evidence.evaluator import EvidenceEvaluator, effective_needs
from shifu.evidence.status import response_status
from shifu.evidence.versions import current_versions
from shifu.nlp.mentions import LATEST_VERSION, PREVIOUS_VERSION

from .builders import NOW, TODAY, doc, fact, facts_result, plan, search_result

MONTHLY_CAP = "零星采购每月累计金额不超过2000元，超出部分须经部门负责人审批。"
PER_TRANSACTION = "单笔金额在500元（含）以下的零星采购，可凭发票直接报销。"
INTERVIEW = "老员工说五百块以下的东西直接找财务报就行，不用审批。"
STEPS = "报销流程：\n1. 在系统中填写报销单；\n2. 上传发票照片；\n3. 部门负责人审批；\n4. 财务复核后付款。"

AMOUNT_QUESTIONS: list[tuple[str, str, ComparatorOp | None, list[AmountCaliber], str]] = [
    ("500元的一笔采购如何报销", "500", None, [AmountCaliber.PER_TRANSACTION], "PER_TRANSACTION"),
    ("500元的一笔采购如何报销", "500", None, [], "PER_TRANSACTION"),
    ("500元以下的零星采购怎么报销", "500", ComparatorOp.LE, [], "UNSPECIFIED"),
    ("五百块的小额自采怎么走账", "500", None, [], "UNSPECIFIED"),
]


def _evaluate(p: Any, *results: Any, role: Role | None = Role.EMPLOYEE) -> DecisionResult:
    return EvidenceEvaluator().evaluate(p, list(results), on_date=TODAY, now=NOW, role=role)


def _slot(decision: DecisionResult, need: EvidenceNeed) -> Any:
    return next(slot for slot in decision.slots if slot.need is need)


@pytest.mark.parametrize(("question", "amount", "comparator", "calibers", "caliber"), AMOUNT_QUESTIONS)
def test_monthly_cap_and_interview_never_answer_an_amount_question(
    question: str, amount: str, comparator: ComparatorOp | None, calibers: list[AmountCaliber], caliber: str
) -> None:
    p = plan(question, [EvidenceNeed.AMOUNT_RULE], amount=amount, comparator=comparator, calibers=calibers)
    interview = doc("c2", INTERVIEW, authority=Authority.INTERVIEW, kind="访谈")
    decision = _evaluate(p, search_result(doc("c1", MONTHLY_CAP), interview))

    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert "ANSWER_GENERATION_SKIPPED" in decision.reason_codes
    assert decision.qualified_citation_ids == ()
    assert response_status(decision.status) is ResponseStatus.NO_EVIDENCE
    (gap,) = decision.gaps
    assert gap.need is EvidenceNeed.AMOUNT_RULE
    assert gap.reason_code == "CALIBER_MISMATCH"
    assert gap.detail["amount"] == amount
    assert gap.detail["currency"] == "CNY"
    assert gap.detail["caliber"] == caliber
    assert gap.detail["comparator"] == (comparator.value if comparator else None)


@pytest.mark.parametrize(("question", "amount", "comparator", "calibers", "caliber"), AMOUNT_QUESTIONS)
def test_matching_per_transaction_rule_answers(
    question: str, amount: str, comparator: ComparatorOp | None, calibers: list[AmountCaliber], caliber: str
) -> None:
    p = plan(question, [EvidenceNeed.AMOUNT_RULE], amount=amount, comparator=comparator, calibers=calibers)
    interview = doc("c2", INTERVIEW, authority=Authority.INTERVIEW, kind="访谈")
    decision = _evaluate(p, search_result(doc("c1", MONTHLY_CAP), interview, doc("c3", PER_TRANSACTION)))

    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c3",)
    assert _slot(decision, EvidenceNeed.AMOUNT_RULE).citation_ids == ("c3",)
    assert response_status(decision.status) is ResponseStatus.COMPLETED


@pytest.mark.parametrize(
    ("amount", "comparator", "covered", "reason"),
    [
        ("300", None, True, None),
        ("500", ComparatorOp.LE, True, None),
        ("800", None, False, "AMOUNT_NOT_MATCHED"),
        ("1000", ComparatorOp.LE, False, "AMOUNT_NOT_MATCHED"),
        ("500", ComparatorOp.GT, False, "AMOUNT_NOT_MATCHED"),
    ],
)
def test_amount_must_relate_to_the_rule(
    amount: str, comparator: ComparatorOp | None, covered: bool, reason: str | None
) -> None:
    p = plan("一笔采购怎么报销", [EvidenceNeed.AMOUNT_RULE], amount=amount, comparator=comparator)
    decision = _evaluate(p, search_result(doc("c1", PER_TRANSACTION)))
    assert _slot(decision, EvidenceNeed.AMOUNT_RULE).covered is covered
    if reason:
        assert decision.gaps[0].reason_code == reason


def test_monthly_question_is_answered_by_monthly_cap_only() -> None:
    p = plan(
        "每月累计采购上限是多少", [EvidenceNeed.AMOUNT_RULE], calibers=[AmountCaliber.MONTHLY_CUMULATIVE]
    )
    decision = _evaluate(p, search_result(doc("c1", MONTHLY_CAP), doc("c3", PER_TRANSACTION)))
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c1",)


OVERTIME_PAY = (
    "第四十四条 有下列情形之一的，用人单位应当按照下列标准支付高于劳动者正常工作时间工资的工资报酬：\n"
    "（二）休息日安排劳动者工作又不能安排补休的，支付不低于工资的百分之二百的工资报酬；\n"
    "（三）法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬。"
)


def test_pay_as_a_share_of_wages_answers_how_much_is_paid() -> None:
    law = doc("c1", OVERTIME_PAY, title="中华人民共和国劳动法", locator="第四十四条")
    decision = _evaluate(
        plan("法定休假日安排工作怎么支付工资报酬", [EvidenceNeed.AMOUNT_RULE]), search_result(law)
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c1",)


def test_a_share_of_wages_never_answers_a_question_about_a_money_amount() -> None:
    law = doc("c1", OVERTIME_PAY, title="中华人民共和国劳动法", locator="第四十四条")
    p = plan("法定休假日安排工作支付500元报酬够不够", [EvidenceNeed.AMOUNT_RULE], amount="500")
    decision = _evaluate(p, search_result(law))
    assert decision.status is DecisionStatus.NO_EVIDENCE


def test_steps_never_answer_a_question_whose_amount_no_rule_covers() -> None:
    p = plan(
        "一笔500的采购怎么报",
        [EvidenceNeed.AMOUNT_RULE, EvidenceNeed.PROCESS_STEPS],
        amount="500",
        calibers=[AmountCaliber.PER_TRANSACTION],
    )
    purchase_steps = "零星采购按以下流程办理：\n1. 填写申请单；\n2. 项目经理签字同意；\n3. 采购并索取发票。"
    steps = doc("c2", purchase_steps, needs=(EvidenceNeed.PROCESS_STEPS,), locator="三、零星采购的办理流程")
    decision = _evaluate(p, search_result(doc("c1", MONTHLY_CAP), steps))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.qualified_citation_ids == ()
    assert _slot(decision, EvidenceNeed.PROCESS_STEPS).reason_code == "AMOUNT_PREMISE_UNSUPPORTED"
    assert [gap.need for gap in decision.gaps] == [EvidenceNeed.AMOUNT_RULE]
    assert decision.gaps[0].reason_code == "CALIBER_MISMATCH"


def test_amount_fragment_mislabelled_as_steps_covers_only_the_amount() -> None:
    mislabelled = doc(
        "c1",
        PER_TRANSACTION,
        needs=(EvidenceNeed.AMOUNT_RULE, EvidenceNeed.PROCESS_STEPS, EvidenceNeed.APPROVAL),
        claims=(ClaimType.AMOUNT, ClaimType.STEP, ClaimType.APPROVER),
    )
    p = plan("500元的一笔采购如何报销", [EvidenceNeed.AMOUNT_RULE, EvidenceNeed.PROCESS_STEPS], amount="500")
    decision = _evaluate(p, search_result(mislabelled))

    assert decision.status is DecisionStatus.PARTIAL
    assert _slot(decision, EvidenceNeed.AMOUNT_RULE).covered
    steps = _slot(decision, EvidenceNeed.PROCESS_STEPS)
    assert not steps.covered and steps.citation_ids == ()
    assert steps.reason_code == "BODY_UNSUPPORTED"
    assert [gap.need for gap in decision.gaps] == [EvidenceNeed.PROCESS_STEPS]


def test_steps_never_prove_an_amount() -> None:
    labelled = doc("c1", STEPS, needs=(EvidenceNeed.PROCESS_STEPS, EvidenceNeed.AMOUNT_RULE))
    p = plan("报销额度和流程", [EvidenceNeed.AMOUNT_RULE, EvidenceNeed.PROCESS_STEPS])
    decision = _evaluate(p, search_result(labelled))
    assert decision.status is DecisionStatus.PARTIAL
    assert not _slot(decision, EvidenceNeed.AMOUNT_RULE).covered
    assert _slot(decision, EvidenceNeed.PROCESS_STEPS).citation_ids == ("c1",)


@pytest.mark.parametrize(
    ("need", "text"),
    [
        (EvidenceNeed.REQUIRED_MATERIALS, "报销应当遵循真实、合理的原则。"),
        (EvidenceNeed.APPROVAL, "单笔500元以下的零星采购可直接报销。"),
        (EvidenceNeed.DEADLINE, "报销单据应当真实完整。"),
        (EvidenceNeed.PROHIBITION, "员工可以通过系统提交报销申请。"),
        (EvidenceNeed.PROCESS_STEPS, "报销应当真实。"),
        (EvidenceNeed.AMOUNT_RULE, "报销标准由财务部另行制定。"),
        (EvidenceNeed.DEFINITION, "员工应当按时报销。"),
    ],
)
def test_labels_without_body_support_do_not_cover(need: EvidenceNeed, text: str) -> None:
    decision = _evaluate(plan("问题", [need]), search_result(doc("c1", text, needs=(need,))))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert _slot(decision, need).reason_code == "BODY_UNSUPPORTED"


@pytest.mark.parametrize(
    ("need", "text"),
    [
        (EvidenceNeed.REQUIRED_MATERIALS, "报销时须提供发票原件及验收单。"),
        (EvidenceNeed.APPROVAL, "超过1000元的采购须经部门负责人审批。"),
        (EvidenceNeed.DEADLINE, "费用发生后30日内提交报销单。"),
        (EvidenceNeed.PROHIBITION, "严禁虚开发票或拆分报销。"),
        (EvidenceNeed.PROCESS_STEPS, STEPS),
        (EvidenceNeed.DEFINITION, "本制度所称零星采购，是指单笔金额较小的日常物品采购。"),
        (EvidenceNeed.GENERAL_RULE, "员工因公发生的费用应当按照本制度规定报销。"),
    ],
)
def test_labels_and_body_together_cover(need: EvidenceNeed, text: str) -> None:
    decision = _evaluate(plan("问题", [need]), search_result(doc("c1", text, needs=(need,))))
    assert decision.status is DecisionStatus.ANSWERED
    assert _slot(decision, need).citation_ids == ("c1",)


@pytest.mark.parametrize(
    "claims",
    [(), (ClaimType.STEP,)],
)
def test_need_label_without_mapped_claim_type_does_not_cover(claims: tuple[ClaimType, ...]) -> None:
    labelled = doc("c1", "报销时须提供发票原件。", needs=(EvidenceNeed.REQUIRED_MATERIALS,), claims=claims)
    decision = _evaluate(plan("问题", [EvidenceNeed.REQUIRED_MATERIALS]), search_result(labelled))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.slots[0].reason_code == "LABEL_MISSING"


@pytest.mark.parametrize(
    "override",
    [
        {"authority": Authority.CASE},
        {"authority": Authority.INTERVIEW},
        {"kind": "案例"},
        {"kind": "访谈"},
        {"lifecycle": Lifecycle.DRAFT},
        {"lifecycle": Lifecycle.RETIRED},
        {"verification": Verification.UNVERIFIED},
        {"environment": "staging"},
        {"version": " "},
        {"effective_from": date(2026, 9, 1)},
        {"effective_to": date(2026, 8, 3)},
        {"effective_from": None},
        {"scope": DocumentScope(tenant_id="demo", space_id="s", roles=(Role.SUPERVISOR,))},
    ],
)
def test_each_governance_failure_rejects(override: dict[str, Any]) -> None:
    p = plan("500元的一笔采购如何报销", [EvidenceNeed.AMOUNT_RULE], amount="500")
    decision = _evaluate(p, search_result(doc("c1", PER_TRANSACTION, **override)))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.slots[0].reason_code == "GOVERNANCE"


@pytest.mark.parametrize(
    ("role", "status"),
    [
        (Role.SUPERVISOR, DecisionStatus.ANSWERED),
        (Role.OPERATOR, DecisionStatus.ANSWERED),
        (Role.EMPLOYEE, DecisionStatus.NO_EVIDENCE),
        (Role.CANDIDATE, DecisionStatus.NO_EVIDENCE),
    ],
)
def test_a_document_for_one_role_answers_that_role_and_the_operator_preview(
    role: Role, status: DecisionStatus
) -> None:
    scoped = doc(
        "c1", PER_TRANSACTION, scope=DocumentScope(tenant_id="demo", space_id="s", roles=(Role.SUPERVISOR,))
    )
    p = plan("500元的一笔采购如何报销", [EvidenceNeed.AMOUNT_RULE], amount="500")
    assert _evaluate(p, search_result(scoped), role=role).status is status


@pytest.mark.parametrize("effective_to", [None, TODAY])
def test_statute_without_effective_from_and_last_day_still_qualify(effective_to: date | None) -> None:
    law = doc(
        "c1",
        "用人单位应当按照劳动合同约定和国家规定，向劳动者及时足额支付劳动报酬。",
        needs=(EvidenceNeed.OBLIGATION,),
        authority=Authority.STATUTE,
        kind="法律",
        version="2012-12-28",
        effective_from=None,
        effective_to=effective_to,
    )
    decision = _evaluate(plan("工资什么时候发", [EvidenceNeed.OBLIGATION]), search_result(law))
    assert decision.status is DecisionStatus.ANSWERED


def test_partial_lists_missing_slot_and_never_fills_it() -> None:
    p = plan("报销流程和材料", [EvidenceNeed.PROCESS_STEPS, EvidenceNeed.REQUIRED_MATERIALS])
    decision = _evaluate(p, search_result(doc("c1", STEPS, needs=(EvidenceNeed.PROCESS_STEPS,))))
    assert decision.status is DecisionStatus.PARTIAL
    materials = _slot(decision, EvidenceNeed.REQUIRED_MATERIALS)
    assert not materials.covered and materials.citation_ids == ()
    assert [(g.need, g.reason_code) for g in decision.gaps] == [
        (EvidenceNeed.REQUIRED_MATERIALS, "NO_QUALIFIED_SOURCE")
    ]
    assert decision.qualified_citation_ids == ("c1",)


def _deadline_doc(citation_id: str, days: int, version: str, key: str = "baoxiao") -> Any:
    return doc(
        citation_id,
        f"员工应在费用发生后{days}日内提交报销单。",
        needs=(EvidenceNeed.DEADLINE,),
        version=version,
        document_key=key,
    )


def test_two_versions_with_different_day_counts_need_input_naming_versions() -> None:
    p = plan("报销期限是多久", [EvidenceNeed.DEADLINE])
    decision = _evaluate(
        p, search_result(_deadline_doc("c1", 30, "2024版"), _deadline_doc("c2", 60, "2025版"))
    )
    assert decision.status is DecisionStatus.NEEDS_INPUT
    (conflict,) = decision.conflicts
    assert conflict.kind == "VERSION"
    assert conflict.versions == ("2024版", "2025版")
    assert set(conflict.citation_ids) == {"c1", "c2"}
    assert decision.qualified_citation_ids == ()
    assert decision.slots[0].reason_code == "VERSION_CONFLICT"


def test_question_naming_a_version_resolves_the_version_conflict() -> None:
    p = plan("2025版报销期限是多久", [EvidenceNeed.DEADLINE], versions=["2025"])
    decision = _evaluate(
        p, search_result(_deadline_doc("c1", 30, "2024版"), _deadline_doc("c2", 60, "2025版"))
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c2",)


def test_a_version_no_retrieved_document_has_is_a_gap_never_answered_from_another_version() -> None:
    p = plan("2021版报销期限是多久", [EvidenceNeed.DEADLINE], versions=["2021"])
    decision = _evaluate(
        p, search_result(_deadline_doc("c1", 30, "2024版"), _deadline_doc("c2", 60, "2025版"))
    )
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.qualified_citation_ids == ()
    (gap,) = decision.gaps
    assert gap.reason_code == "VERSION_NOT_FOUND" and gap.detail["versions"] == ["2021"]
    assert "2021版" in (gap_text(gap, None) or "")


def test_same_text_in_two_versions_is_not_a_conflict() -> None:
    p = plan("报销期限是多久", [EvidenceNeed.DEADLINE])
    decision = _evaluate(
        p, search_result(_deadline_doc("c1", 30, "2024版"), _deadline_doc("c2", 30, "2025版"))
    )
    assert decision.status is DecisionStatus.ANSWERED


def test_different_documents_with_different_time_limits_conflict() -> None:
    p = plan("报销期限是多久", [EvidenceNeed.DEADLINE])
    docs = search_result(
        _deadline_doc("c1", 30, "2025版", key="a"), _deadline_doc("c2", 60, "2025版", key="b")
    )
    decision = _evaluate(p, docs)
    assert decision.status is DecisionStatus.CONFLICT
    assert decision.conflicts[0].kind == "TIME_LIMIT"
    assert response_status(decision.status) is ResponseStatus.NEEDS_INPUT


def test_different_documents_with_different_amounts_conflict() -> None:
    p = plan("200元的一笔采购怎么报销", [EvidenceNeed.AMOUNT_RULE], amount="200")
    other = doc("c2", "单笔金额在300元以下的采购可直接报销。", document_key="other")
    decision = _evaluate(p, search_result(doc("c1", PER_TRANSACTION), other))
    assert decision.status is DecisionStatus.CONFLICT
    assert decision.conflicts[0].kind == "AMOUNT"


def test_tasks_and_process_cover_live_state_and_steps() -> None:
    p = plan(
        "本月待办和报销流程",
        [EvidenceNeed.PROCESS_STEPS],
        tools=(ToolCode.MY_CURRENT_TASKS, ToolCode.KNOWLEDGE_SEARCH),
    )
    decision = _evaluate(
        p, facts_result(fact()), search_result(doc("c1", STEPS, needs=(EvidenceNeed.PROCESS_STEPS,)))
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert _slot(decision, EvidenceNeed.LIVE_STATE).fact_refs == ("fact-1",)
    assert decision.qualified_fact_refs == ("fact-1",)
    assert decision.domain_result == "TASKS_FOUND"


@pytest.mark.parametrize(
    ("kwargs", "role", "reason"),
    [
        ({"queried_at": NOW - timedelta(seconds=301)}, Role.EMPLOYEE, "FACT_EXPIRED"),
        ({"ttl_seconds": 0, "queried_at": NOW - timedelta(seconds=1)}, Role.EMPLOYEE, "FACT_EXPIRED"),
        ({"role": Role.SUPERVISOR}, Role.EMPLOYEE, "FACT_ROLE_MISMATCH"),
        ({}, None, "FACT_ROLE_MISSING"),
    ],
)
def test_stale_or_unauthorized_fact_does_not_cover_live_state(
    kwargs: dict[str, Any], role: Role | None, reason: str
) -> None:
    p = plan("我的待办", [EvidenceNeed.LIVE_STATE], tools=(ToolCode.MY_CURRENT_TASKS,))
    decision = _evaluate(p, facts_result(fact(**kwargs)), role=role)
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.slots[0].reason_code == reason
    assert decision.qualified_fact_refs == ()


def test_fact_at_exact_ttl_boundary_still_covers() -> None:
    p = plan("我的待办", [EvidenceNeed.LIVE_STATE], tools=(ToolCode.MY_CURRENT_TASKS,))
    decision = _evaluate(p, facts_result(fact(queried_at=NOW - timedelta(seconds=300))))
    assert decision.status is DecisionStatus.ANSWERED


def test_fact_without_clock_fails_closed() -> None:
    p = plan("我的待办", [EvidenceNeed.LIVE_STATE], tools=(ToolCode.MY_CURRENT_TASKS,))
    decision = EvidenceEvaluator().evaluate(p, [facts_result(fact())], on_date=TODAY, role=Role.EMPLOYEE)
    assert decision.status is DecisionStatus.NO_EVIDENCE


def test_document_mentioning_crm_proves_nothing_about_crm() -> None:
    crm = doc(
        "c1",
        "公司已接入CRM系统，员工可以在CRM中查询客户信息和欠费状态。",
        needs=(EvidenceNeed.LIVE_STATE, EvidenceNeed.GENERAL_RULE),
        claims=(ClaimType.STATE, ClaimType.RULE),
    )
    p = plan("你能查CRM吗", [EvidenceNeed.LIVE_STATE], tools=(ToolCode.CAPABILITY_QUERY,))
    decision = _evaluate(p, search_result(crm))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.qualified_citation_ids == ()


def test_capability_fact_covers_capability_question() -> None:
    p = plan("你能查CRM吗", [EvidenceNeed.LIVE_STATE], tools=(ToolCode.CAPABILITY_QUERY,))
    decision = _evaluate(p, facts_result(fact("cap-1", fact_type="CAPABILITY")))
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.domain_result is None


def test_tool_timeout_is_a_reason_code_and_no_evidence() -> None:
    p = plan("我的待办", [EvidenceNeed.LIVE_STATE], tools=(ToolCode.MY_CURRENT_TASKS,))
    decision = _evaluate(p, facts_result(fact(), status=ToolStatus.TIMEOUT))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert "TOOL_TIMEOUT" in decision.reason_codes


def test_zero_search_results_is_no_evidence() -> None:
    decision = _evaluate(plan("装修押金多少", [EvidenceNeed.AMOUNT_RULE]), search_result())
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.slots[0].reason_code == "NO_CANDIDATES"


@pytest.mark.parametrize(
    ("needs", "tools", "expected"),
    [
        ([], (ToolCode.KNOWLEDGE_SEARCH,), [EvidenceNeed.GENERAL_RULE]),
        ([], (ToolCode.MY_CURRENT_TASKS,), [EvidenceNeed.LIVE_STATE]),
        ([EvidenceNeed.DEADLINE], (ToolCode.KNOWLEDGE_SEARCH,), [EvidenceNeed.DEADLINE]),
        ([], (ToolCode.WORK_REPORT_DRAFT,), []),
        (
            [EvidenceNeed.LIVE_STATE],
            (ToolCode.MY_CURRENT_TASKS, ToolCode.KNOWLEDGE_SEARCH),
            [EvidenceNeed.LIVE_STATE, EvidenceNeed.GENERAL_RULE],
        ),
        (
            [EvidenceNeed.LIVE_STATE, EvidenceNeed.PROCESS_STEPS],
            (ToolCode.MY_CURRENT_TASKS, ToolCode.KNOWLEDGE_SEARCH),
            [EvidenceNeed.LIVE_STATE, EvidenceNeed.PROCESS_STEPS],
        ),
    ],
)
def test_effective_needs(
    needs: list[EvidenceNeed], tools: tuple[ToolCode, ...], expected: list[EvidenceNeed]
) -> None:
    assert effective_needs(plan("q", needs, tools=tools)) == expected


def test_plan_without_needs_is_judged_as_general_rule() -> None:
    general = doc("c1", "员工因公发生的费用应当按照本制度规定报销。", needs=(EvidenceNeed.GENERAL_RULE,))
    decision = _evaluate(plan("报销制度", []), search_result(general))
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.slots[0].need is EvidenceNeed.GENERAL_RULE


def test_versions_ingested_as_separate_documents_with_one_title_are_a_version_conflict() -> None:
    p = plan("报销期限是多久", [EvidenceNeed.DEADLINE])
    decision = _evaluate(
        p,
        search_result(
            _deadline_doc("c1", 30, "2024版", key="baoxiao_2024"),
            _deadline_doc("c2", 60, "2025版", key="baoxiao_2025"),
        ),
    )
    assert decision.status is DecisionStatus.NEEDS_INPUT
    (conflict,) = decision.conflicts
    assert conflict.kind == "VERSION"
    assert conflict.versions == ("2024版", "2025版")
    assert decision.slots[0].reason_code == "VERSION_CONFLICT"


def test_question_naming_a_version_picks_it_among_separately_keyed_versions() -> None:
    p = plan("2025版报销期限是多久", [EvidenceNeed.DEADLINE], versions=["2025"])
    decision = _evaluate(
        p,
        search_result(
            _deadline_doc("c1", 30, "2024版", key="baoxiao_2024"),
            _deadline_doc("c2", 60, "2025版", key="baoxiao_2025"),
        ),
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c2",)


def test_the_newest_version_in_force_answers_a_question_about_the_new_version() -> None:
    p = plan("新版报销期限是多久", [EvidenceNeed.DEADLINE], versions=[LATEST_VERSION])
    old = _deadline_doc("c1", 30, "2024版", key="baoxiao_2024")
    new = _deadline_doc("c2", 60, "2025版", key="baoxiao_2025")
    draft = _deadline_doc("c3", 90, "2026版", key="baoxiao_2026").model_copy(
        update={"lifecycle": Lifecycle.DRAFT, "effective_from": date(2026, 1, 1)}
    )
    decision = _evaluate(
        p, search_result(old.model_copy(update={"effective_from": date(2024, 1, 1)}), new, draft)
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c2",)


def test_an_earlier_version_answers_a_question_about_the_old_version() -> None:
    p = plan("旧版报销期限是多久", [EvidenceNeed.DEADLINE], versions=[PREVIOUS_VERSION])
    decision = _evaluate(
        p, search_result(_deadline_doc("c1", 30, "2024版"), _deadline_doc("c2", 60, "2025版"))
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c1",)


def test_an_old_version_of_a_document_with_one_version_is_a_gap_named_as_the_user_named_it() -> None:
    p = plan("旧版报销期限是多久", [EvidenceNeed.DEADLINE], versions=[PREVIOUS_VERSION])
    decision = _evaluate(p, search_result(_deadline_doc("c1", 30, "2025版")))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    (gap,) = decision.gaps
    assert gap.reason_code == "VERSION_NOT_FOUND"
    text = gap_text(gap, None) or ""
    assert "旧版" in text and PREVIOUS_VERSION not in text


def test_documents_with_different_titles_and_keys_are_not_versions_of_each_other() -> None:
    p = plan("报销期限是多久", [EvidenceNeed.DEADLINE])
    first = _deadline_doc("c1", 30, "2024版", key="a")
    second = _deadline_doc("c2", 30, "2025版", key="b").model_copy(update={"title": "差旅管理办法"})
    decision = _evaluate(p, search_result(first, second))
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.conflicts == []


def test_a_section_titled_for_the_need_is_cited_before_an_equally_relevant_list() -> None:
    title = "电梯困人应急处置规程"
    contacts = doc(
        "c1",
        "1. 公司应急值班电话：400-000-0002。\n2. 维保公司救援电话：400-000-0001。",
        needs=(EvidenceNeed.PROCESS_STEPS,),
        title=title,
        locator="五、电梯困人应急联系方式",
        score=0.9,
    )
    steps = doc(
        "c2",
        "1. 值班人员通过五方对讲安抚被困人员。\n2. 立即通知电梯维保单位到场。",
        needs=(EvidenceNeed.PROCESS_STEPS,),
        title=title,
        locator="二、电梯困人应急处置的步骤",
        score=0.5,
    )
    decision = _evaluate(
        plan("电梯困人时第一步要做什么", [EvidenceNeed.PROCESS_STEPS]), search_result(contacts, steps)
    )
    assert _slot(decision, EvidenceNeed.PROCESS_STEPS).citation_ids[0] == "c2"


def test_the_article_the_question_names_is_cited_before_one_that_only_mentions_it() -> None:
    needs = (EvidenceNeed.GENERAL_RULE,)
    mentions = doc(
        "c1",
        "违反本法第十六条规定的，责令限期改正。",
        needs=needs,
        title="中华人民共和国消防法",
        locator="第六十七条",
        score=0.9,
    )
    named = doc(
        "c2",
        "机关、团体、企业、事业等单位应当履行下列消防安全职责。",
        needs=needs,
        title="中华人民共和国消防法",
        locator="第十六条",
        score=0.4,
    )
    decision = _evaluate(plan("消防法第十六条规定了什么", list(needs)), search_result(mentions, named))
    assert _slot(decision, EvidenceNeed.GENERAL_RULE).citation_ids[0] == "c2"


def test_a_permission_question_cites_what_is_forbidden_before_the_steps() -> None:
    needs = (EvidenceNeed.GENERAL_RULE,)
    title = "电梯困人应急处置规程"
    steps = doc(
        "c1",
        "按以下步骤处置：\n1. 安抚被困人员，不得扒门。\n2. 应当通知维保单位救援。",
        needs=needs,
        title=title,
        locator="二、电梯困人应急处置的步骤",
        score=0.9,
    )
    forbidden = doc(
        "c2",
        "严禁以下行为：\n1. 非专业人员扒门救援。\n2. 救援结束前恢复电梯运行。",
        needs=needs,
        title=title,
        locator="六、电梯困人处置中禁止哪些行为",
        score=0.3,
    )
    decision = _evaluate(plan("电梯困人可以扒门救援吗", list(needs)), search_result(steps, forbidden))
    assert _slot(decision, EvidenceNeed.GENERAL_RULE).citation_ids[0] == "c2"
    decision = _evaluate(plan("电梯困人扒门救援怎么处理", list(needs)), search_result(steps, forbidden))
    assert _slot(decision, EvidenceNeed.GENERAL_RULE).citation_ids[0] == "c1"
    # 能…什么 asks what may be done, not whether: 么 of 什么 asks no permission.
    decision = _evaluate(plan("电梯困人能做什么", list(needs)), search_result(steps, forbidden))
    assert _slot(decision, EvidenceNeed.GENERAL_RULE).citation_ids[0] == "c1"


def test_a_question_about_what_to_do_cites_the_list_it_asks_for_before_what_is_forbidden() -> None:
    needs = (EvidenceNeed.GENERAL_RULE,)
    title = "门岗交接班SOP"
    forbidden = doc(
        "c1",
        "门岗交接班中严禁以下行为：\n1. 交班人员提前离岗。\n2. 将门岗钥匙交给非当班人员。",
        needs=needs,
        title=title,
        locator="五、门岗交接班禁止哪些行为",
        score=0.9,
    )
    handed_over = doc(
        "c2",
        "交接班时应逐项交接以下内容：\n1. 对讲机、手电筒和门岗钥匙。\n2. 《门岗值班记录本》。",
        needs=needs,
        title=title,
        locator="二、门岗交接班需交接的内容有哪些",
        score=0.5,
    )
    decision = _evaluate(plan("门岗交接班要交接哪些东西", list(needs)), search_result(forbidden, handed_over))
    assert _slot(decision, EvidenceNeed.GENERAL_RULE).citation_ids[0] == "c2"


@pytest.mark.parametrize(
    ("text", "locator", "covered"),
    [
        ("候选人可以通过App查看学习资料、提交入职资料和查询本人的面试进度。", "一、适用对象", False),
        ("面试流程分为初试和复试，复试由项目经理进行。", "四、面试流程", False),
        ("参加面试时，请携带身份证原件和简历。", "二、面试须知", True),
        ("请按下列清单准备：身份证复印件、学历证明。", "三、面试需提交的材料", True),
    ],
)
def test_materials_are_stated_of_the_questions_subject(text: str, locator: str, covered: bool) -> None:
    need = EvidenceNeed.REQUIRED_MATERIALS
    fragment = doc("c1", text, needs=(need,), title="招聘指引", locator=locator)
    decision = _evaluate(plan("面试需要准备什么", [need]), search_result(fragment))
    assert (decision.status is DecisionStatus.ANSWERED) is covered
    if not covered:
        assert _slot(decision, need).reason_code == "BODY_UNSUPPORTED"


@pytest.mark.parametrize(
    ("question", "covered"),
    [("我需要交几张照片", True), ("需要交几份体检报告", False)],
)
def test_a_materials_list_covers_a_question_about_one_of_its_items(question: str, covered: bool) -> None:
    need = EvidenceNeed.REQUIRED_MATERIALS
    listing = doc(
        "c1",
        "候选人收到录用通知后，需提交以下入职资料：\n1. 本人身份证复印件。\n2. 近期免冠一寸彩色照片2张。",
        needs=(need,),
        title="岗前学习指引",
        locator="五、候选人需提交的入职资料清单",
    )
    decision = _evaluate(plan(question, [need]), search_result(listing))
    assert (decision.status is DecisionStatus.ANSWERED) is covered


@pytest.mark.parametrize(
    ("text", "covered"),
    [
        ("用人单位应当在用工之日起一个月内支付劳动报酬。", False),
        ("公司工资于每月15日发放，遇节假日提前。", True),
    ],
)
def test_a_time_limit_does_not_answer_which_day(text: str, covered: bool) -> None:
    need = EvidenceNeed.DEADLINE
    fragment = doc("c1", text, needs=(need,), title="工资发放办法", locator="二、工资发放时间")
    decision = _evaluate(plan("工资每个月几号发", [need]), search_result(fragment))
    assert (decision.status is DecisionStatus.ANSWERED) is covered


def test_a_frequency_of_another_activity_under_the_same_subject_is_no_answer() -> None:
    p = plan("消防演练多久一次", [EvidenceNeed.DEADLINE])
    duties = doc(
        "c1",
        "（三）对建筑消防设施每年至少进行一次全面检测，确保完好有效；\n（六）组织进行有针对性的消防演练；",
        needs=(EvidenceNeed.DEADLINE,),
    )
    assert _evaluate(p, search_result(duties)).status is DecisionStatus.NO_EVIDENCE
    drills = doc("c2", "各项目每半年至少组织1次消防演练。", needs=(EvidenceNeed.DEADLINE,))
    decision = _evaluate(p, search_result(duties, drills))
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c2",)


def _leave_doc(
    citation_id: str,
    text: str,
    version: str,
    locator: str,
    needs: tuple[EvidenceNeed, ...] = (EvidenceNeed.REQUIRED_MATERIALS,),
) -> DocumentEvidence:
    return doc(
        citation_id,
        text,
        needs=needs,
        version=version,
        document_key=f"qingjia_{version}",
        title="请假管理制度",
        locator=locator,
    )


def test_versions_that_agree_but_for_punctuation_are_answered_from_the_newest_alone() -> None:
    p = plan("病假要什么证明", [EvidenceNeed.REQUIRED_MATERIALS])
    materials = "五、请假需提交的证明材料"
    decision = _evaluate(
        p,
        search_result(
            _leave_doc(
                "c1",
                "病假须提交二级以上医院出具的病假证明和病历，请病假1日的可先提交就诊记录。",
                "2024版",
                materials,
            ),
            _leave_doc(
                "c2",
                "病假须提交二级以上医院出具的病假证明和病历；请病假1日的可先提交就诊记录。",
                "2025版",
                materials,
            ),
        ),
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.conflicts == []
    assert decision.qualified_citation_ids == ("c2",)


def test_versions_are_compared_in_the_sections_written_for_the_asked_claim() -> None:
    p = plan("病假要什么证明", [EvidenceNeed.REQUIRED_MATERIALS])
    materials, discipline = "五、请假需提交的证明材料", "八、违反请假制度的处理"
    same = "病假须提交二级以上医院出具的病假证明和病历。"
    decision = _evaluate(
        p,
        search_result(
            _leave_doc("c1", same, "2024版", materials),
            _leave_doc("c2", same, "2025版", materials),
            _leave_doc("c3", "提供虚假病假证明等材料的，按严重违纪处理。", "2024版", discipline),
            _leave_doc("c4", "提供虚假证明材料的，按严重违纪处理。", "2025版", discipline),
        ),
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c2",)


def test_a_quoted_item_asked_what_it_is_is_answered_by_the_fragment_holding_it() -> None:
    step = "立即通知电梯维保单位，要求维保人员在30分钟内到场。"
    p = plan(f"电梯困人了怎么办 “{step}”是什么", [EvidenceNeed.GENERAL_RULE])
    title, rule = "电梯困人应急处置规程", (EvidenceNeed.GENERAL_RULE,)
    steps = f"接到电梯困人报警后，按以下步骤处置：\n1. 值班人员应与被困人员通话。\n2. {step}"
    holder = doc("s1", steps, needs=rule, locator="二、电梯困人应急处置的步骤", title=title)
    late = (
        "电梯维保单位接到通知后，维保人员应在30分钟内到达现场实施救援。"
        "维保人员超过30分钟未到场的，值班人员应再次催促维保单位并报告项目经理。"
    )
    nearby = doc("s2", late, needs=rule, locator="四、电梯维保单位到场时限和超时处理", title=title)
    decision = _evaluate(p, search_result(nearby, holder))
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("s1",), "the section sharing the step's words is another rule"


def test_a_question_about_kinds_is_answered_by_the_list_of_kinds_not_by_the_rules_beside_it() -> None:
    p = plan("请假有哪几种", [EvidenceNeed.GENERAL_RULE])
    kinds, annual = "二、请假类型有哪些", "三、年休假的申请时限"
    listed = "公司设置的请假类型有以下几种：\n1. 年休假：带薪假期。\n2. 产假：按国家规定执行。"
    rule = (EvidenceNeed.GENERAL_RULE,)
    documents = [
        _leave_doc("c1", listed, "2024版", kinds, needs=rule),
        _leave_doc("c2", listed, "2025版", kinds, needs=rule),
        _leave_doc("c3", "请假须提前3个工作日在员工App提交申请。", "2024版", annual, needs=rule),
        _leave_doc("c4", "请假须提前5个工作日在员工App提交申请。", "2025版", annual, needs=rule),
    ]
    decision = _evaluate(p, search_result(*documents))
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c2",)
    other = _evaluate(plan("请假有什么规定", [EvidenceNeed.GENERAL_RULE]), search_result(*documents))
    assert other.status is not DecisionStatus.ANSWERED, "any other question still sees the versions disagree"


def test_versions_that_differ_in_the_section_written_for_the_claim_still_need_input() -> None:
    p = plan("病假要什么证明", [EvidenceNeed.REQUIRED_MATERIALS])
    materials = "五、请假需提交的证明材料"
    decision = _evaluate(
        p,
        search_result(
            _leave_doc("c1", "病假须提交二级以上医院出具的病假证明。", "2024版", materials),
            _leave_doc("c2", "病假须提交三级医院出具的病假证明和病历。", "2025版", materials),
        ),
    )
    assert decision.status is DecisionStatus.NEEDS_INPUT
    assert decision.slots[0].reason_code == "VERSION_CONFLICT"


_LEAVE_DAYS = "三、年休假的天数和申请时限"
_DAYS_2024 = (
    "员工累计工作已满1年不满10年的，年休假5天；已满10年的，年休假10天。年休假须提前3个工作日提交申请。"
)
_DAYS_2025 = (
    "员工累计工作已满1年不满10年的，年休假5天；已满10年的，年休假10天。年休假须提前5个工作日提交申请。"
    "一次连续休年休假超过3天的，还须提交工作交接说明。"
)


def _both_leave_versions(question: str, need: EvidenceNeed) -> DecisionResult:
    return _evaluate(
        plan(question, [need]),
        search_result(
            _leave_doc("c1", _DAYS_2024, "2024版", _LEAVE_DAYS, (need,)),
            _leave_doc("c2", _DAYS_2025, "2025版", _LEAVE_DAYS, (need,)),
        ),
    )


def test_versions_that_state_the_asked_count_alike_are_answered_from_the_newest() -> None:
    decision = _both_leave_versions("年假有几天", EvidenceNeed.AMOUNT_RULE)
    assert decision.status is DecisionStatus.ANSWERED  # the notice period differs, the count does not
    assert decision.conflicts == []
    assert decision.qualified_citation_ids == ("c2",)


@pytest.mark.parametrize(
    ("question", "status"),
    [("陪产假有几天", DecisionStatus.ANSWERED), ("年假有几天", DecisionStatus.NO_EVIDENCE)],
)
def test_a_rule_leaving_the_count_to_national_rules_answers_only_what_it_names(
    question: str, status: DecisionStatus
) -> None:
    deferral = "5. 产假、陪产假：按国家和当地规定执行。"
    leave = _leave_doc("c1", deferral, "2025版", "二、请假类型有哪些", (EvidenceNeed.AMOUNT_RULE,))
    decision = _evaluate(plan(question, [EvidenceNeed.AMOUNT_RULE]), search_result(leave))
    assert decision.status is status


def test_versions_that_differ_on_the_asked_lead_time_still_need_input() -> None:
    decision = _both_leave_versions("年假要提前几天申请", EvidenceNeed.DEADLINE)
    assert decision.status is DecisionStatus.NEEDS_INPUT
    assert decision.slots[0].reason_code == "VERSION_CONFLICT"


def test_an_old_section_whose_newer_version_was_not_retrieved_is_not_answered_alone() -> None:
    p = plan("请假3天要谁批", [EvidenceNeed.APPROVAL])
    approval = (EvidenceNeed.APPROVAL,)

    decision = _evaluate(
        p,
        search_result(
            _leave_doc(
                "c1", "请假3日以内（含3日），由部门负责人审批。", "2024版", "四、请假审批权限", approval
            ),
            _leave_doc("c2", "假期内需要延长的，应重新提交申请并获批准。", "2024版", "七、销假", approval),
            _leave_doc(
                "c3", "需要延长假期的，应在原假期结束前重新提交申请并获批准。", "2025版", "七、销假", approval
            ),
        ),
    )
    assert decision.status is DecisionStatus.NEEDS_INPUT  # the 2025 approval section may say otherwise
    assert decision.slots[0].reason_code == "VERSION_CONFLICT"


def test_the_newest_versions_keep_the_ranking_of_the_covering_fragments() -> None:
    ranked = [
        _leave_doc("a1", "病假须提交病假证明。", "2025版", "五、证明材料"),
        doc("b1", "装修押金为每户3000元。", needs=(EvidenceNeed.REQUIRED_MATERIALS,), title="装修管理规定"),
        _leave_doc("a2", "年休假须提前5个工作日申请。", "2025版", "三、年休假"),
        _leave_doc("a0", "病假须提交病假证明。", "2024版", "五、证明材料"),
    ]
    kept = current_versions([Covering(doc=d) for d in ranked])
    assert [item.doc.citation_id for item in kept] == ["a1", "b1", "a2"]  # rank order, 2024 copy dropped


@pytest.mark.parametrize(
    ("question", "text", "covered"),
    [
        (
            "病假最多能请几天",
            "1. 病假：二级以上医院出具的病假证明和病历；请病假1日的可先提交就诊记录。",
            False,
        ),
        ("装修期最长多少天", "装修期最长为90日，确需延期的须在到期前7日内申请。", True),
        ("年假有几天", "员工累计工作满1年不满10年的，年休假5天。", True),
    ],
)
def test_a_question_asking_the_most_is_answered_only_by_a_stated_limit(
    question: str, text: str, covered: bool
) -> None:
    need = EvidenceNeed.AMOUNT_RULE
    fragment = doc("c1", text, needs=(need,), title="管理制度", locator="三、天数和时限")
    decision = _evaluate(plan(question, [need]), search_result(fragment))
    assert (decision.status is DecisionStatus.ANSWERED) is covered


def test_a_count_of_days_asked_per_occasion_is_no_money_caliber_nor_answered_by_pay() -> None:
    need = EvidenceNeed.AMOUNT_RULE
    kinds = doc(
        "c1",
        "公司设置的请假类型有以下几种：\n3. 事假：员工因个人事务需要处理的假期，事假期间不发工资。",
        needs=(need,),
        title="请假管理制度",
        locator="二、请假类型有哪些",
    )
    decision = _evaluate(plan("一次最多能请几天事假", [need]), search_result(kinds))
    assert decision.status is DecisionStatus.NO_EVIDENCE
    (gap,) = decision.gaps
    assert gap.reason_code != "CALIBER_MISMATCH"
    assert gap.detail.get("caliber") in (None, "UNSPECIFIED")


def test_the_upper_limit_of_a_period_is_answered_by_the_limit_not_by_the_pay_during_it() -> None:
    needs = [EvidenceNeed.DEADLINE, EvidenceNeed.AMOUNT_RULE]
    law = {"needs": tuple(needs), "authority": Authority.STATUTE, "title": "中华人民共和国劳动合同法"}
    limits = doc(
        "c1", "第十九条 劳动合同期限一年以上不满三年的，试用期不得超过二个月；", locator="第十九条", **law
    )
    pay = doc(
        "c2",
        "第二十条 劳动者在试用期的工资不得低于本单位相同岗位最低档工资或者劳动合同约定工资的百分之八十。",
        locator="第二十条",
        **law,
    )
    decision = _evaluate(plan("签两年合同，试用期上限是多少", needs), search_result(limits, pay))
    assert decision.status in (DecisionStatus.ANSWERED, DecisionStatus.PARTIAL)
    assert "c1" in decision.qualified_citation_ids
    assert "c2" not in decision.qualified_citation_ids


def test_a_length_asked_is_answered_by_the_section_written_for_that_length() -> None:
    guide = {"title": "岗前学习指引", "document_key": "gangqian", "needs": (EvidenceNeed.GENERAL_RULE,)}
    length = doc(
        "c1", "岗前学习总时长不少于8学时，每学时45分钟。", locator="三、岗前学习的时长和完成要求", **guide
    )
    papers = doc(
        "c2", "候选人应提交近3个月内的入职体检报告。", locator="五、候选人需提交的入职资料清单", **guide
    )
    answers = doc(
        "c3", "候选人提交问题反馈的，人力资源部在1个工作日内答复。", locator="六、咨询方式", **guide
    )
    decision = _evaluate(
        plan("岗前学习要多久", [EvidenceNeed.GENERAL_RULE]), search_result(papers, answers, length)
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert _slot(decision, EvidenceNeed.GENERAL_RULE).citation_ids == ("c1",)


def test_a_length_the_question_states_keeps_the_rule_stating_it_and_drops_the_others() -> None:
    policy = {"title": "费用报销管理制度", "document_key": "baoxiao", "needs": (EvidenceNeed.GENERAL_RULE,)}
    limit = doc(
        "c1",
        "报销人应在费用发生后30日内提交报销申请。超过90日的费用不予报销。",
        locator="六、费用报销的提交时限",
        score=0.5,
        **policy,
    )
    forbidden = doc(
        "c2", "报销中严禁重复报销同一笔费用。", locator="七、费用报销中禁止哪些行为", score=0.9, **policy
    )
    monthly = doc(
        "c3",
        "员工个人每月累计报销金额不超过3000元。",
        locator="三、个人每月累计报销额度",
        score=0.8,
        **policy,
    )
    decision = _evaluate(
        plan("报销超过90天还能报吗", [EvidenceNeed.GENERAL_RULE]), search_result(forbidden, monthly, limit)
    )
    assert _slot(decision, EvidenceNeed.GENERAL_RULE).citation_ids == ("c1",)
