"""The evaluator's relevance gate, quantity rules and subject-aware conflicts (item by item)."""

from __future__ import annotations

from typing import Any

from shifu.contracts.common import Authority, ClaimType, DecisionStatus, EvidenceNeed, Role
from shifu.contracts.decision import DecisionResult
from shifu.evidence.evaluator import EvidenceEvaluator

from .builders import NOW, TODAY, doc, plan, search_result

RULE = (EvidenceNeed.GENERAL_RULE,)
OVERTIME = (
    "延长工作时间的，支付不低于工资的百分之一百五十的工资报酬；"
    "休息日安排工作又不能安排补休的，支付不低于工资的百分之二百的工资报酬。"
)
MATERNITY = "女职工生育享受98天产假，其中产前可以休假15天。"
WORK_HOURS = "国家实行劳动者每日工作时间不超过八小时、平均每周工作时间不超过四十四小时的工时制度。"


def _evaluate(p: Any, *docs: Any) -> DecisionResult:
    return EvidenceEvaluator().evaluate(p, [search_result(*docs)], on_date=TODAY, now=NOW, role=Role.EMPLOYEE)


def _law(citation_id: str, text: str, **overrides: Any) -> Any:
    fields: dict[str, Any] = {
        "title": "中华人民共和国劳动法",
        "locator": "第四十四条",
        "authority": Authority.STATUTE,
        "kind": "法律",
        "effective_from": None,
        "version": "2018-12-29",
        "document_key": f"law-{citation_id}",
    }
    fields.update(overrides)
    return doc(citation_id, text, needs=RULE, **fields)


def test_out_of_corpus_question_is_not_answered_by_an_unrelated_rule() -> None:
    unrelated = _law(
        "c1", "国家实行劳动者每日工作时间不超过八小时、平均每周工作时间不超过四十四小时的工时制度。"
    )
    decision = _evaluate(plan("公司食堂几点开饭", []), unrelated)
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.slots[0].reason_code == "NOT_RELEVANT"


def test_a_policy_that_excludes_purchases_does_not_answer_a_purchase_question() -> None:
    scope = doc(
        "c1",
        "本制度适用于日常费用报销。物资采购不适用本制度，按《零星采购管理办法》办理。",
        needs=(EvidenceNeed.AMOUNT_RULE, EvidenceNeed.GENERAL_RULE),
        locator="一、适用范围",
    )
    approval = doc(
        "c2", "费用报销按单笔金额分级审批：单笔1000元以下，由部门负责人审批。", locator="二、单笔审批权限"
    )
    decision = _evaluate(
        plan("500元的一笔采购如何报销", [EvidenceNeed.AMOUNT_RULE], amount="500"), scope, approval
    )
    assert decision.status is DecisionStatus.NO_EVIDENCE
    assert decision.qualified_citation_ids == ()
    assert decision.gaps[0].detail["amount"] == "500"


def test_ratio_rule_answers_a_ratio_question_under_amount_rule() -> None:
    decision = _evaluate(
        plan("休息日加班又不能补休，工资按百分之多少支付", [EvidenceNeed.AMOUNT_RULE]), _law("c1", OVERTIME)
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("c1",)


def test_day_count_answers_a_days_question_under_deadline_or_amount() -> None:
    law = _law("c1", MATERNITY, title="女职工劳动保护特别规定", locator="第七条")
    for need in (EvidenceNeed.DEADLINE, EvidenceNeed.AMOUNT_RULE):
        decision = _evaluate(plan("女职工产假有多少天", [need]), law)
        assert decision.status is DecisionStatus.ANSWERED, need


def test_a_money_question_is_never_answered_by_a_ratio() -> None:
    decision = _evaluate(plan("加班费一个小时多少钱", [EvidenceNeed.AMOUNT_RULE]), _law("c1", OVERTIME))
    assert decision.status is DecisionStatus.NO_EVIDENCE


def test_a_quantity_about_another_subject_does_not_answer() -> None:
    law = _law("c1", "女职工应当遵守劳动纪律。用人单位应当保证劳动者每周至少休息一日。", locator="第三十八条")
    decision = _evaluate(plan("女职工产假有多少天", [EvidenceNeed.DEADLINE]), law)
    assert decision.status is DecisionStatus.NO_EVIDENCE


def test_amounts_of_different_things_are_not_a_conflict() -> None:
    steps = doc(
        "c1",
        "施工单位缴纳装修押金3000元，办理施工人员出入证，出入证工本费每张10元。",
        title="装修管理规定",
        document_key="zhuangxiu",
        locator="三、装修进场的办理步骤",
    )
    garbage = doc(
        "c2",
        "装修垃圾清运费按每户每月100元在办理装修许可证时预缴。",
        title="华府项目装修补充规定",
        document_key="huafu",
        locator="四、垃圾清运",
    )
    decision = _evaluate(plan("装修押金要交多少", [EvidenceNeed.AMOUNT_RULE]), steps, garbage)
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.conflicts == []
    assert decision.qualified_citation_ids == ("c1",)


def test_same_subject_different_amounts_in_two_documents_is_a_conflict() -> None:
    first = doc("c1", "装修押金为每户3000元。", title="装修管理规定", document_key="a")
    second = doc("c2", "装修押金为每户5000元。", title="华府项目装修补充规定", document_key="b")
    decision = _evaluate(plan("装修押金要交多少", [EvidenceNeed.AMOUNT_RULE]), first, second)
    assert decision.status is DecisionStatus.CONFLICT


def test_time_limits_of_different_subjects_are_not_a_conflict() -> None:
    arbitration = _law(
        "c1", "劳动争议申请仲裁的时效期间为一年。", title="劳动争议调解仲裁法", locator="第二十七条"
    )
    other = _law(
        "c2",
        "劳动争议仲裁委员会收到仲裁申请之日起五日内，认为符合受理条件的，应当受理。",
        title="劳动争议调解仲裁法",
        locator="第二十九条",
        document_key="law-c1",
    )
    decision = _evaluate(
        plan("劳动争议申请仲裁的时效期间是多久", [EvidenceNeed.DEADLINE]), arbitration, other
    )
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids[0] == "c1"


def _leave(citation_id: str, version: str, text: str) -> Any:
    return doc(
        citation_id,
        text,
        needs=(EvidenceNeed.DEADLINE, EvidenceNeed.REQUIRED_MATERIALS, EvidenceNeed.GENERAL_RULE),
        claims=(ClaimType.TIME_LIMIT, ClaimType.MATERIAL, ClaimType.RULE),
        title="请假管理制度",
        document_key=f"qingjia_{version[:4]}",
        version=version,
        locator=f"三、年休假的天数和申请时限（{version}）",
    )


def test_leave_versions_with_different_notice_periods_need_input_naming_both() -> None:
    old = _leave("c1", "2024版", "员工年休假5天。年休假须提前3个工作日在员工App提交申请。")
    new = _leave("c2", "2025版", "员工年休假5天。为便于排班，年休假须提前5个工作日在员工App提交申请。")
    decision = _evaluate(plan("年假要提前几天申请", [EvidenceNeed.DEADLINE]), old, new)
    assert decision.status is DecisionStatus.NEEDS_INPUT
    assert decision.conflicts[0].versions == ("2024版", "2025版")


def test_versions_that_agree_on_the_asked_rule_are_not_a_conflict() -> None:
    old = _leave("c1", "2024版", "员工结婚的，享受婚假3天。年休假须提前3个工作日申请。")
    new = _leave("c2", "2025版", "员工结婚的，享受婚假3天。年休假须提前5个工作日申请。")
    decision = _evaluate(plan("员工结婚能休几天婚假", [EvidenceNeed.DEADLINE]), old, new)
    assert decision.status is DecisionStatus.ANSWERED


def test_a_reworded_section_of_the_other_version_still_counts_as_a_version_conflict() -> None:
    old = _leave("c1", "2024版", "年休假和事假：无需额外证明材料，在申请中写明事由即可。")
    new = _leave("c2", "2025版", "年休假连续超过3天的：提交工作交接说明。")
    decision = _evaluate(plan("事假要交什么证明材料", [EvidenceNeed.REQUIRED_MATERIALS]), old, new)
    assert decision.status is DecisionStatus.NEEDS_INPUT


def test_covering_fragments_are_few_and_most_relevant_first() -> None:
    texts = [f"零星采购第{n}条：零星采购应当真实，不得拆分。" for n in range(1, 6)]
    docs = [doc(f"c{n}", text, needs=RULE, document_key=f"k{n}") for n, text in enumerate(texts, 1)]
    best = doc("c9", "零星采购报账时应当提交发票和验收单。", needs=RULE, document_key="k9")
    decision = _evaluate(plan("零星采购报账要注意什么", []), *docs, best)
    assert decision.qualified_citation_ids[0] == "c9"
    assert len(decision.qualified_citation_ids) <= 3


def test_a_heading_names_the_subject_of_its_amounts() -> None:
    deposit = doc("c1", "每户3000元，由施工单位缴纳。", title="装修管理规定", locator="四、装修押金的金额")
    decision = _evaluate(plan("装修押金要交多少", [EvidenceNeed.AMOUNT_RULE]), deposit)
    assert decision.status is DecisionStatus.ANSWERED


def test_the_hundred_of_a_percentage_is_not_money() -> None:
    question = plan("延长工作时间的工资按百分之多少支付", [EvidenceNeed.AMOUNT_RULE], amount="100")
    question = question.model_copy(
        update={
            "entities": question.entities.model_copy(
                update={"amounts": [question.entities.amounts[0].model_copy(update={"text": "百"})]}
            )
        }
    )
    decision = _evaluate(question, _law("c1", OVERTIME))
    assert decision.status is DecisionStatus.ANSWERED


def test_an_elliptical_follow_up_takes_its_subject_from_the_searched_goal() -> None:
    follow_up = plan("那女职工呢", [EvidenceNeed.DEADLINE])
    call = follow_up.tool_calls[0].model_copy(update={"arguments": {"query": "产假有多少天 那女职工呢"}})
    follow_up = follow_up.model_copy(update={"tool_calls": [call]})
    law = _law("c1", MATERNITY, title="女职工劳动保护特别规定", locator="第七条")
    assert _evaluate(follow_up, law).status is DecisionStatus.ANSWERED
    unrelated = _law("c2", WORK_HOURS, locator="第三十六条")
    assert _evaluate(follow_up, unrelated).status is DecisionStatus.NO_EVIDENCE


PURCHASE_SCOPE = (
    "零星采购是指急需使用、品种零散的低值物品采购，例如灯泡、水龙头和清洁用品。"
    "办公设备、消防器材不属于零星采购，须按集中采购流程办理。"
)
PURCHASE_STEPS = (
    "零星采购按以下流程办理：\n1. 经办人填写《零星采购申请单》。\n2. 项目经理签字同意。\n3. 仓管员验收入库。"
)


def _purchase_sections(*, key: str = "key-lingxing") -> tuple[Any, Any]:
    common: dict[str, Any] = {"title": "零星采购管理办法", "document_key": key, "version": "2024版"}
    scope = doc("s1", PURCHASE_SCOPE, needs=RULE, locator="一、零星采购的定义和适用范围", **common)
    steps = doc(
        "s2", PURCHASE_STEPS, needs=(EvidenceNeed.PROCESS_STEPS,), locator="三、零星采购的办理流程", **common
    )
    return scope, steps


def test_a_thing_the_scope_section_names_makes_every_section_of_that_document_about_it() -> None:
    scope, steps = _purchase_sections()
    decision = _evaluate(plan("买个灯泡要走什么流程", [EvidenceNeed.PROCESS_STEPS]), scope, steps)
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("s2",)


def test_scope_membership_never_crosses_to_another_document() -> None:
    scope, _ = _purchase_sections()
    other = doc(
        "o1",
        "费用报销按以下步骤办理：\n1. 填写报销单。\n2. 部门负责人签字。",
        needs=(EvidenceNeed.PROCESS_STEPS,),
        locator="五、费用报销的办理步骤",
        document_key="key-baoxiao",
    )
    decision = _evaluate(plan("买个灯泡要走什么流程", [EvidenceNeed.PROCESS_STEPS]), scope, other)
    assert decision.status is DecisionStatus.NO_EVIDENCE


def test_a_thing_the_scope_section_excludes_is_not_made_a_member() -> None:
    scope, steps = _purchase_sections()
    decision = _evaluate(plan("买办公设备要走什么流程", [EvidenceNeed.PROCESS_STEPS]), scope, steps)
    assert "s2" not in decision.qualified_citation_ids


def test_an_exclusion_answers_a_question_about_what_it_excludes_and_from_what() -> None:
    scope, steps = _purchase_sections()
    decision = _evaluate(plan("办公设备能走零星采购吗", [EvidenceNeed.GENERAL_RULE]), scope, steps)
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids[0] == "s1"


LEAVE_KINDS = (
    "公司设置的请假类型有以下几种：\n1. 年休假：带薪假期。\n"
    "2. 病假：因病治疗休息。\n3. 事假：因个人事务请假。"
)
LEAVE_APPROVAL = "请假按天数分级审批：\n1. 请假2日以内，由部门负责人审批。\n2. 请假2日以上，由分管副总审批。"
ANNUAL_LEAVE = "年休假须提前5个工作日在员工App提交申请，经审批同意后方可休假。"


def _leave_sections() -> tuple[Any, Any, Any]:
    common: dict[str, Any] = {"title": "请假管理制度", "document_key": "key-qingjia", "version": "2025版"}
    kinds = doc("k1", LEAVE_KINDS, needs=RULE, locator="二、请假类型有哪些", **common)
    approval = doc(
        "k2",
        LEAVE_APPROVAL,
        needs=(EvidenceNeed.APPROVAL, EvidenceNeed.GENERAL_RULE),
        locator="四、请假审批权限",
        **common,
    )
    annual = doc(
        "k3",
        ANNUAL_LEAVE,
        needs=(EvidenceNeed.DEADLINE, EvidenceNeed.APPROVAL),
        locator="三、年休假的天数和申请时限",
        **common,
    )
    return kinds, approval, annual


def test_a_listed_kind_is_answered_by_the_sections_written_for_every_kind() -> None:
    decision = _evaluate(plan("事假谁批", [EvidenceNeed.APPROVAL]), *_leave_sections())
    assert decision.status is DecisionStatus.ANSWERED
    assert "k2" in decision.qualified_citation_ids
    assert "k3" not in decision.qualified_citation_ids, "the annual-leave section is that kind's own"


def test_a_section_headed_for_another_kind_never_answers_for_this_one() -> None:
    decision = _evaluate(plan("事假要提前几天申请", [EvidenceNeed.DEADLINE]), *_leave_sections())
    assert "k3" not in decision.qualified_citation_ids


def test_the_scope_a_fragment_carries_counts_though_its_scope_section_was_not_retrieved() -> None:
    _, steps = _purchase_sections()
    carried = steps.model_copy(update={"document_scope": PURCHASE_SCOPE})
    question = plan("买个灯泡要走什么流程", [EvidenceNeed.PROCESS_STEPS])
    assert _evaluate(question, steps).status is DecisionStatus.NO_EVIDENCE
    assert _evaluate(question, carried).status is DecisionStatus.ANSWERED


def test_a_figure_the_user_asks_to_confirm_is_answered_by_the_rules_own_figure() -> None:
    deposit = doc(
        "d1",
        "装修押金为每户3000元，由施工单位缴纳。",
        title="装修管理规定",
        locator="四、装修押金的金额和退还",
    )
    checked = _evaluate(plan("装修押金是5000元对吧", [EvidenceNeed.AMOUNT_RULE], amount="5000"), deposit)
    assert checked.status is DecisionStatus.ANSWERED and checked.qualified_citation_ids == ("d1",)
    condition = _evaluate(
        plan("5000元以下的装修押金怎么交", [EvidenceNeed.AMOUNT_RULE], amount="5000"), deposit
    )
    assert condition.status is DecisionStatus.NO_EVIDENCE, "a figure that is a condition must be met"


PATROL_COMMON: dict[str, Any] = {
    "title": "消防巡检作业指导书",
    "document_key": "key-xunjian",
    "version": "2024版",
}


def test_a_thing_an_inspection_checks_reaches_the_inspections_procedure() -> None:
    common = PATROL_COMMON
    checks = doc(
        "x1",
        "日常巡查应检查以下内容：\n1. 疏散通道、楼梯间和安全出口是否畅通。\n2. 灭火器是否在位。",
        needs=RULE,
        locator="三、消防巡检的检查内容有哪些",
        **common,
    )
    steps = doc(
        "x2",
        "巡检人员按以下步骤作业：\n1. 领取巡检终端。\n2. 按巡检路线逐点巡查。\n3. 填写巡查记录表。",
        needs=(EvidenceNeed.PROCESS_STEPS,),
        locator="四、消防巡检的作业步骤",
        **common,
    )
    decision = _evaluate(plan("3栋1单元消防通道巡检怎么做", [EvidenceNeed.PROCESS_STEPS]), checks, steps)
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("x2",)


def test_a_procedure_headed_for_the_subject_is_not_spliced_with_one_that_only_mentions_it() -> None:
    review = doc(
        "r1",
        "主管复盘按以下步骤进行：\n1. 查看待复盘名单。\n2. 与员工确定改进目标。",
        needs=(EvidenceNeed.PROCESS_STEPS,),
        title="主管复盘管理办法",
        locator="四、主管复盘的操作步骤",
    )
    assignment = doc(
        "r2",
        "训练指派按以下步骤办理：\n1. 选择与复盘改进目标相关的练习。\n2. 设置截止日期。",
        needs=(EvidenceNeed.PROCESS_STEPS,),
        title="员工训练指派规范",
        locator="四、员工训练指派的操作步骤",
    )
    decision = _evaluate(plan("复盘怎么做", [EvidenceNeed.PROCESS_STEPS]), review, assignment)
    assert decision.qualified_citation_ids == ("r1",)


def test_a_lent_term_names_the_subject_of_every_sentence_for_an_answer_of_the_asked_kind() -> None:
    decision = _evaluate(plan("事假谁批", [EvidenceNeed.GENERAL_RULE]), *_leave_sections())
    assert decision.status is DecisionStatus.ANSWERED
    assert "k2" in decision.qualified_citation_ids


PATROL_CHECKS = doc(
    "p1",
    "日常巡查应检查以下内容：\n1. 常闭式防火门是否处于关闭状态。\n2. 灭火器是否在位。",
    needs=RULE,
    locator="三、消防巡检的检查内容有哪些",
    **PATROL_COMMON,
)
PATROL_STEPS = doc(
    "p2",
    "巡检人员按以下步骤作业：\n1. 能当场整改的问题（如关闭防火门）立即整改。\n"
    "2. 不能当场整改的，提交隐患工单。",
    needs=(EvidenceNeed.PROCESS_STEPS,),
    locator="四、消防巡检的作业步骤",
    **PATROL_COMMON,
)


def test_a_procedure_naming_each_term_about_something_else_does_not_answer_a_how_to() -> None:
    how_to = plan("工单完成了怎么关闭", [EvidenceNeed.PROCESS_STEPS])
    assert _evaluate(how_to, PATROL_CHECKS, PATROL_STEPS).status is DecisionStatus.NO_EVIDENCE


def test_a_procedure_whose_step_names_the_terms_together_answers_the_how_to() -> None:
    closing = doc(
        "w1",
        "工单按以下步骤处理：\n1. 到场处理报修事项。\n2. 处理完成后在员工App中关闭工单并上传照片。",
        needs=(EvidenceNeed.PROCESS_STEPS,),
        title="报修工单处理规范",
        locator="二、报修处理步骤",
    )
    decision = _evaluate(plan("工单完成了怎么关闭", [EvidenceNeed.PROCESS_STEPS]), closing)
    assert decision.status is DecisionStatus.ANSWERED


def _statute(citation_id: str, text: str) -> Any:
    return doc(
        citation_id,
        text,
        needs=(EvidenceNeed.LIABILITY, EvidenceNeed.GENERAL_RULE),
        authority=Authority.STATUTE,
        kind="法律",
        title="中华人民共和国安全生产法",
        version="2021-06-10",
        locator="第一百零五条",
        effective_from=None,
    )


def test_a_law_handling_a_situation_answers_only_a_question_about_that_situation() -> None:
    penalty = _statute(
        "s1",
        "第一百零五条 生产经营单位有下列行为之一的，由应急管理部门责令限期改正，处五万元以下的罚款：\n"
        "（一）危险物品仓库与员工宿舍在同一座建筑内的；\n"
        "（二）员工宿舍未设有符合紧急疏散需要的出口的。",
    )
    how_to_apply = plan("员工宿舍怎么申请", [EvidenceNeed.PROCESS_STEPS])
    assert _evaluate(how_to_apply, penalty).status is DecisionStatus.NO_EVIDENCE
    situation = plan("员工宿舍没有疏散出口怎么处理", [EvidenceNeed.PROCESS_STEPS])
    assert _evaluate(situation, penalty).status is DecisionStatus.ANSWERED


def test_the_section_written_for_the_slot_answers_alone_beside_one_mentioning_it_in_passing() -> None:
    common: dict[str, Any] = {"title": "费用报销管理制度", "document_key": "key-baoxiao", "version": "2025版"}
    approvals = doc(
        "b1",
        "报销按单笔金额分级审批：单笔1000元以下，由部门负责人审批。",
        needs=(EvidenceNeed.APPROVAL,),
        locator="二、费用报销的单笔审批权限",
        **common,
    )
    late = doc(
        "b2",
        "超过30日未满90日的报销，须写明逾期原因，并经分管副总批准后方可报销。",
        needs=(EvidenceNeed.APPROVAL, EvidenceNeed.DEADLINE),
        locator="六、费用报销的提交时限",
        **common,
    )
    decision = _evaluate(plan("报销单谁来批", [EvidenceNeed.APPROVAL]), late, approvals)
    assert decision.status is DecisionStatus.ANSWERED
    assert decision.qualified_citation_ids == ("b1",)


FIRE_TERMS = (
    "第七十三条 本法下列用语的含义：\n"
    "（四）人员密集场所，是指公众聚集场所，医院的门诊楼、病房楼，学校的教学楼、图书馆、食堂和集体宿舍。"
)


def test_a_statute_defining_a_term_is_not_about_the_examples_in_its_meaning() -> None:
    definitions = _law("d1", FIRE_TERMS, title="中华人民共和国消防法", locator="第七十三条")
    canteen = _evaluate(plan("公司有食堂吗", [EvidenceNeed.GENERAL_RULE]), definitions)
    assert canteen.status is DecisionStatus.NO_EVIDENCE
    assert canteen.slots[0].reason_code == "NOT_RELEVANT"
    asked = _evaluate(plan("食堂算人员密集场所吗", [EvidenceNeed.GENERAL_RULE]), definitions)
    assert asked.slots[0].reason_code != "NOT_RELEVANT"  # named with its defined term, 食堂 is on point
