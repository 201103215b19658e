"""Body checks: amounts with caliber and comparator, numerals, steps and time limits."""

from __future__ import annotations

from decimal import Decimal

import pytest

from shifu.contracts.common import ClaimType
from shifu.contracts.entities import AmountCaliber, ComparatorOp
from shifu.evidence.body import amount_rules, body_supports, durations
from shifu.evidence.caliber import AmountTarget, rule_matches
from shifu.evidence.numerals import parse_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("五百", 500),
        ("两千", 2000),
        ("两千五", 2500),
        ("两千零五", 2005),
        ("一万二", 12000),
        ("十五", 15),
        ("一百零五", 105),
        ("1,000", 1000),
        ("0.5", Decimal("0.5")),
        ("二〇二四", 2024),
    ],
)
def test_parse_number(text: str, value: int | Decimal) -> None:
    assert parse_number(text) == Decimal(value)


@pytest.mark.parametrize(
    ("text", "value", "comparator", "caliber"),
    [
        ("单笔金额在500元（含）以下的采购", "500", ComparatorOp.LE, AmountCaliber.PER_TRANSACTION),
        ("零星采购每月累计金额不超过2000元", "2000", ComparatorOp.LE, AmountCaliber.MONTHLY_CUMULATIVE),
        ("年度累计超过5万元的", "50000", ComparatorOp.GT, AmountCaliber.ANNUAL_CUMULATIVE),
        ("每次报销不得低于一百元", "100", ComparatorOp.LT, AmountCaliber.PER_TRANSACTION),
        ("标准为300元/笔", "300", ComparatorOp.EQ, AmountCaliber.PER_TRANSACTION),
        ("押金五百块", "500", ComparatorOp.EQ, AmountCaliber.UNSPECIFIED),
        ("¥1,200以内", "1200", ComparatorOp.LE, AmountCaliber.UNSPECIFIED),
    ],
)
def test_amount_rules(text: str, value: str, comparator: ComparatorOp, caliber: AmountCaliber) -> None:
    (rule,) = amount_rules(text)
    assert (rule.value, rule.comparator, rule.caliber) == (Decimal(value), comparator, caliber)


def test_two_amounts_joined_as_a_range_are_one_rule_covering_the_range() -> None:
    (rule,) = amount_rules("单笔1000元（含）至5000元（含），由分管副总审批。")
    assert (rule.value, rule.comparator, rule.upper, rule.caliber) == (
        Decimal(1000),
        ComparatorOp.GE,
        Decimal(5000),
        AmountCaliber.PER_TRANSACTION,
    )

    def asked(value: int) -> AmountTarget:
        return AmountTarget(Decimal(value), "CNY", None, AmountCaliber.PER_TRANSACTION)

    assert rule_matches(asked(3000), rule) and rule_matches(asked(5000), rule)
    assert not rule_matches(asked(6000), rule) and not rule_matches(asked(800), rule)
    (open_ended,) = amount_rules("单笔1000元至5000元（不含）的")
    assert not rule_matches(asked(5000), open_ended)
    assert len(amount_rules("报销500元，另付200元")) == 2  # two amounts, no range


def test_two_calibers_in_one_sentence_are_told_apart() -> None:
    rules = amount_rules("零星采购每月累计不超过2000元，单笔不超过五百元的可直接报销。")
    assert [(r.value, r.caliber) for r in rules] == [
        (Decimal(2000), AmountCaliber.MONTHLY_CUMULATIVE),
        (Decimal(500), AmountCaliber.PER_TRANSACTION),
    ]


def test_zero_in_ordinary_words_is_not_a_number() -> None:
    assert amount_rules("零星采购应当据实报销。") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("费用发生后30日内提交", [("30", "日")]),
        ("十五个工作日内办结", [("15", "工作日")]),
        ("合同期满前一个月通知", [("1", "月")]),
    ],
)
def test_durations(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(str(d.value), d.unit) for d in durations(text)] == expected


@pytest.mark.parametrize(
    ("claim", "text", "supported"),
    [
        (ClaimType.STEP, "1. 填写报销单\n2. 上传发票", True),
        (ClaimType.STEP, "首先在系统中提交申请，然后等待审批。", True),
        (ClaimType.STEP, "单笔500元以下的采购可凭发票直接报销。", False),
        (ClaimType.STEP, "处置中严禁以下行为：\n1. 扒门、撬门。\n2. 擅自盘车。", False),
        (ClaimType.PROHIBITION, "处置中严禁以下行为：\n1. 扒门、撬门。\n2. 擅自盘车。", True),
        (ClaimType.STEP, "按以下步骤处置，不得擅自离岗：\n1. 通话安抚。\n2. 通知维保。", True),
        (ClaimType.STEP, "按以下步骤处置：\n1. 通话安抚，不得催促。\n2. 通知维保。", True),
        (ClaimType.STEP, "办理中禁止以下做法：\n1. 代签。\n2. 补签。", False),
        (ClaimType.AMOUNT, "3. 事假：员工因个人事务需要处理的假期，事假期间不发工资。", True),
        (ClaimType.AMOUNT, "3. 事假：员工因个人事务需要处理的假期，须提前申请。", False),
        (ClaimType.STEP, "巡查应检查以下内容：\n1. 疏散通道是否畅通。\n2. 灭火器有无过期。", False),
        (ClaimType.STEP, "巡检频次如下：\n1. 日常巡查：每日2次。\n2. 夜间巡查：每2小时巡查1次。", False),
        (ClaimType.STEP, "按以下步骤巡检：\n1. 查看疏散通道是否畅通。\n2. 每2小时巡查1次。", True),
        (ClaimType.STEP, "出现以下情况之一的，列入名单：\n1. 得分低于60分。\n2. 回访不满意。", False),
        (ClaimType.STEP, "训练指派应符合以下频次和数量要求：\n1. 每周至少指派1项。\n2. 每月至少1项。", False),
        (ClaimType.STEP, "满足以下条件的，按以下步骤办理：\n1. 提交申请。\n2. 等待审批。", True),
        (ClaimType.STEP, "不同假别需提交的证明材料如下：\n1. 病假：病假证明。\n2. 婚假：结婚证。", False),
        (ClaimType.STEP, "公司设置的请假类型有以下几种：\n1. 年休假：带薪假期。\n2. 病假：因病休息。", False),
        (ClaimType.STEP, "请假类型如下，按以下步骤申请：\n1. 选择假别。\n2. 提交审批。", True),
        (
            ClaimType.STEP,
            "处置时使用以下联系方式：\n1. 应急值班电话：400-000-0002。\n2. 维保电话：400-000-0001。",
            False,
        ),
        (
            ClaimType.CONTACT,
            "处置时使用以下联系方式：\n1. 应急值班电话：400-000-0002。\n2. 维保电话：400-000-0001。",
            True,
        ),
        (ClaimType.STATE, "系统已接入CRM，可实时查询。", False),
        (ClaimType.TIME_LIMIT, "费用发生后30日内提交。", True),
        (ClaimType.TIME_LIMIT, "报销须真实。", False),
        (ClaimType.TIME_LIMIT, "维保人员应在30分钟内到达现场实施救援。", True),
        (ClaimType.RULE, "好的", False),
        (ClaimType.DEFINITION, "投诉分为两级：重大投诉，指5户以上业主联名投诉。", True),
        (ClaimType.DEFINITION, "项目经理应指定专人负责投诉登记。", False),
        (
            ClaimType.RULE,
            "各项目按以下频次开展消防巡检：\n1. 日常巡查：每日2次。\n2. 夜间巡查：每日1次。",
            True,
        ),
        (ClaimType.CONTACT, "财务热线：4008001234", True),
        (ClaimType.CONDITION, "职工有下列情形之一的，应当认定为工伤：\n（一）在工作时间受到伤害的。", True),
        (ClaimType.CONDITION, "职工应当遵守安全操作规程。", False),
    ],
)
def test_body_supports(claim: ClaimType, text: str, supported: bool) -> None:
    assert body_supports(claim, text) is supported
