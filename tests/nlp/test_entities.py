"""Every entity kind the fidelity validator and the planners rely on, with its edge values."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from shifu.contracts.entities import AmountCaliber, ComparatorOp, DurationUnit, ExtractedEntities
from shifu.nlp.entities import extract_entities
from shifu.nlp.numerals import parse_number

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)


def _extract(text: str) -> ExtractedEntities:
    return extract_entities(text, now=NOW, tz=TZ)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("500", "500"),
        ("1,200", "1200"),
        ("3.5万", "35000"),
        ("五百", "500"),
        ("两千五", "2500"),
        ("一万二", "12000"),
        ("十五", "15"),
        ("一百二十三", "123"),
        ("一千零五", "1005"),
        ("三点五", "3.5"),
        ("三万五千", "35000"),
    ],
)
def test_numbers_parse_exactly(text: str, value: str) -> None:
    assert parse_number(text) == Decimal(value)


@pytest.mark.parametrize("text", ["", "元", "abc", "第"])
def test_non_numbers_are_none(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize(
    ("text", "value", "surface"),
    [
        ("500元的一笔采购如何报销", "500", "500元"),
        ("五百块的小额自采怎么走账", "500", "五百块"),
        ("两千五的报销要谁批", "2500", "两千五"),
        ("3.5万的采购要走招标吗", "35000", "3.5万"),
        ("¥1,200能报吗", "1200", "¥1,200"),
        ("1000块钱以内怎么报销", "1000", "1000块钱"),
        ("报销３００元", "300", "300元"),
        ("那一笔500的采购怎么报", "500", "500"),
        ("800的发票能报吗", "800", "800"),
        ("花了1,200怎么报", "1200", "1,200"),
    ],
)
def test_amounts_normalize_to_cny(text: str, value: str, surface: str) -> None:
    amounts = _extract(text).amounts
    assert [(a.value, a.currency, a.text) for a in amounts] == [(Decimal(value), "CNY", surface)]


def test_a_bare_chinese_number_without_money_context_is_not_an_amount() -> None:
    assert _extract("两千五个人参加").amounts == []


@pytest.mark.parametrize(
    "text", ["报销3张发票", "报销2024年的发票", "第500的采购", "B500的采购", "一笔5的采购"]
)
def test_a_bare_number_that_counts_dates_or_names_something_is_not_an_amount(text: str) -> None:
    assert _extract(text).amounts == []


@pytest.mark.parametrize(
    ("text", "op", "surface"),
    [
        ("500元以下的零星采购", ComparatorOp.LE, "以下"),
        ("三天以内", ComparatorOp.LE, "以内"),
        ("不超过1000元", ComparatorOp.LE, "不超过"),
        ("超过1000元", ComparatorOp.GT, "超过"),
        ("一年以上", ComparatorOp.GE, "以上"),
        ("满20年呢", ComparatorOp.GE, "满"),
        ("不满一年", ComparatorOp.LT, "不满"),
        ("至少三天", ComparatorOp.GE, "至少"),
        ("低于500元", ComparatorOp.LT, "低于"),
        ("高于500元", ComparatorOp.GT, "高于"),
    ],
)
def test_comparators(text: str, op: ComparatorOp, surface: str) -> None:
    assert [(c.op, c.text) for c in _extract(text).comparators] == [(op, surface)]


@pytest.mark.parametrize("text", ["以下哪些情况要报备", "我对结果不满意", "以上内容是否有效"])
def test_comparator_words_without_a_quantity_are_not_comparators(text: str) -> None:
    assert _extract(text).comparators == []


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("试用期三个月", "3", DurationUnit.MONTH),
        ("工作一年以上", "1", DurationUnit.YEAR),
        ("满20年呢", "20", DurationUnit.YEAR),
        ("请假两周", "2", DurationUnit.WEEK),
        ("半年", "0.5", DurationUnit.YEAR),
        ("48小时内", "48", DurationUnit.HOUR),
    ],
)
def test_durations(text: str, value: str, unit: DurationUnit) -> None:
    assert [(d.value, d.unit) for d in _extract(text).durations] == [(Decimal(value), unit)]


def test_a_month_name_and_a_year_are_dates_not_durations() -> None:
    entities = _extract("2025年3月的报销")
    assert entities.durations == []
    assert len(entities.dates) == 1


@pytest.mark.parametrize(
    ("text", "cues"),
    [
        ("没有发票怎么办", ["没有"]),
        ("禁止在楼道堆放", ["禁止"]),
        ("无需审批吗", ["无需"]),
        ("不得超过三天", ["不得"]),
        ("不用带材料", ["不用"]),
        ("员工不能报销吗", ["不能"]),
        ("不动产登记怎么办", []),
        ("能不能报销", []),
        ("是不是要审批", []),
        ("有没有待办", []),
        ("不超过500元", []),
    ],
)
def test_negations(text: str, cues: list[str]) -> None:
    assert [n.text for n in _extract(text).negations] == cues


@pytest.mark.parametrize(
    ("text", "value"),
    [("2024版报销制度", "2024"), ("V2 版本", "2"), ("第二版", "2"), ("2025年版", "2025")],
)
def test_versions(text: str, value: str) -> None:
    versions = _extract(text).versions
    assert [v.value for v in versions] == [value]
    assert _extract(text).dates == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("按最新的", "LATEST"),
        ("按最新的，请假3天要谁批", "LATEST"),
        ("旧的那个", "PREVIOUS"),
        ("用新的来", "LATEST"),
    ],
)
def test_a_reply_choosing_a_version_by_its_age(text: str, value: str) -> None:
    assert [v.value for v in _extract(text).versions] == [value]


@pytest.mark.parametrize("text", ["新的员工要学什么", "最新的规定是什么", "我要新的，别的不要"])
def test_new_or_old_things_are_no_version_choice(text: str) -> None:
    assert _extract(text).versions == []


@pytest.mark.parametrize(
    ("text", "building", "room"),
    [
        ("记一下，3栋1201要回访", "3", "1201"),
        ("记一下，3 栋 1201 要回访", "3", "1201"),
        ("5号楼电梯坏了", "5", None),
        ("3号楼2单元501漏水", "3", "2-501"),
    ],
)
def test_locations(text: str, building: str, room: str | None) -> None:
    assert [(loc.building, loc.room) for loc in _extract(text).locations] == [(building, room)]


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("第二项需要什么材料", 2),
        ("第2个呢", 2),
        ("第三条待办改到明天", 3),
        ("上一个", -1),
        ("最后那个", -1),
        ("最后一项", -1),
    ],
)
def test_ordinals(text: str, index: int) -> None:
    assert [o.index for o in _extract(text).ordinals] == [index]


@pytest.mark.parametrize(
    "text",
    [
        "第一次提醒业主交物业费该怎么沟通",
        "第二次催缴还不交怎么办",
        "第3次练习没过",
        "上一次培训讲了什么",
        "劳动合同法第十条怎么规定",
        "第一周的岗前学习",
    ],
)
def test_times_articles_and_weeks_are_not_list_references(text: str) -> None:
    """第N次 is "the N-th time", 第N条 of a law an article, 第一周 a period: none is a listed item."""
    entities = _extract(text)
    assert entities.ordinals == []
    assert entities.calibers == []


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("把刚才那份发我", "刚才那份"),
        ("把刚才的原文件给我", "刚才的原文件"),
        ("原文呢", "原文"),
        ("那个文件发一下", "那个文件"),
    ],
)
def test_document_refs(text: str, surface: str) -> None:
    assert [d.text for d in _extract(text).document_refs] == [surface]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("赵六今天有什么待办", ["赵六"]),
        ("张三的练习成绩", ["张三"]),
        ("给孙八指派消防训练", ["孙八"]),
        ("孙八和周九谁还没复盘", ["孙八", "周九"]),
        ("让孙八再练一遍灭火器使用", ["孙八"]),
        ("安排周九下周一前做完训练", ["周九"]),
        ("下周五之前交", []),
        ("金额是多少", []),
        ("给小王指派一个电梯困人的训练", ["小王"]),
        ("小李今天有什么待办", ["小李"]),
        ("老王说报销要一个月", ["老王"]),
        ("小区业主投诉怎么处理", []),
        ("老人被困电梯怎么办", []),
        ("小程序打不开", []),
        ("老师傅怎么说", []),
        ("孙八上周练了几次", ["孙八"]),  # a name may end where a date begins
        ("周九上次复盘是什么时候", ["周九"]),
        ("孙八复盘了没", ["孙八"]),
        ("何时复盘", []),  # 何 is a surname, 何时 no one
        ("王五上个月的成绩", ["王五"]),
        ("上周练了几次", []),
        ("孙八需要复盘吗", ["孙八"]),
        ("周九要不要再练一次", ["周九"]),
        ("周末需要加班吗", []),
        ("金额需要审批吗", []),
    ],
)
def test_persons(text: str, names: list[str]) -> None:
    assert [p.name for p in _extract(text).persons] == names


@pytest.mark.parametrize(
    ("text", "caliber"),
    [
        ("一笔500元怎么报", AmountCaliber.PER_TRANSACTION),
        ("单笔超过1000元", AmountCaliber.PER_TRANSACTION),
        ("每月累计不超过2000", AmountCaliber.MONTHLY_CUMULATIVE),
        ("一个月总共能报多少", AmountCaliber.MONTHLY_CUMULATIVE),
        ("年度累计上限", AmountCaliber.ANNUAL_CUMULATIVE),
        ("一次报销不超过500", AmountCaliber.PER_TRANSACTION),
        ("单次采购2000元", AmountCaliber.PER_TRANSACTION),
    ],
)
def test_calibers(text: str, caliber: AmountCaliber) -> None:
    assert _extract(text).calibers == [caliber]


def test_one_question_with_everything_keeps_each_kind_once() -> None:
    entities = _extract("上个月一笔五百块以下的采购，2024版制度里不需要审批吗")
    assert [a.value for a in entities.amounts] == [Decimal(500)]
    assert [c.op for c in entities.comparators] == [ComparatorOp.LE]
    assert [d.text for d in entities.dates] == ["上个月"]
    assert [n.text for n in entities.negations] == ["不需要"]
    assert [v.value for v in entities.versions] == ["2024"]
    assert entities.calibers == [AmountCaliber.PER_TRANSACTION]
