"""Money amounts, comparators, durations and amount calibers.

These are the words that decide a policy answer (500元以下, 满一年, 每月累计); the
fidelity validator compares them before and after any rewrite, so they are extracted
with exact values and their surface forms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from shifu.contracts.entities import (
    AmountCaliber,
    Comparator,
    ComparatorOp,
    Duration,
    DurationUnit,
    MoneyAmount,
)
from shifu.nlp.numerals import ARABIC_NUMBER, CN_NUMBER, NUMBER, parse_number

Span = tuple[int, int]

_CURRENCY_SUFFIX = r"(?:元人民币|块钱|块|元|圆|人民币|rmb|RMB)"
_AMOUNT_PATTERNS = [
    re.compile(rf"(?:[¥￥]|RMB\s*|rmb\s*)\s*({ARABIC_NUMBER}\s*[万千]?)\s*(?:元)?"),
    re.compile(rf"({NUMBER})\s*{_CURRENCY_SUFFIX}"),
    re.compile(
        rf"({ARABIC_NUMBER}\s*万|{CN_NUMBER}万{CN_NUMBER}?)(?![平米人次个户字步里条张台辆份年月天日号元块])"
    ),
]
_BARE_CN_AMOUNT = re.compile(rf"({CN_NUMBER})(?![平米人次个户字步里条张台辆份年月天日号元块周])")
_NOT_MONEY_AFTER = r"(?![\d.,%％‰A-Za-z万千百亿平米人次个户字步里条张台辆份年月天日号周楼层栋室岁])"
_BARE_ARABIC_AMOUNTS = [
    re.compile(
        rf"(?:一笔|单笔|每笔|花了|花费|付了|支付了?|报销了?|金额为?|价值)\s*({ARABIC_NUMBER}){_NOT_MONEY_AFTER}"
    ),
    re.compile(rf"(?<![\d.,A-Za-z第])({ARABIC_NUMBER})(?=\s*的?\s*(?:采购|报销|发票|东西|物品|费用|单子))"),
]
"""A bare number tied to a transaction is money: 一笔500的采购, 报销300, 800的发票 (never 3张, 2024年)."""
_MONEY_CONTEXT = re.compile(
    r"报销|费用|金额|采购|多少钱|花了|花费|预算|价格|额度|发票|借款|付款|支付|工资|薪资|补贴"
)

_CN_RATE = "百分之[零〇一二两三四五六七八九十百]+"
PAY_RATE = re.compile(
    rf"(?:工资|报酬|收入)的?{_CN_RATE}|{_CN_RATE}的?(?:工资|报酬)|"
    rf"(?:工资|报酬|收入)的?\s*{ARABIC_NUMBER}\s*[%％]|{ARABIC_NUMBER}\s*[%％]的?(?:工资|报酬)|"
    rf"(?:{ARABIC_NUMBER}|[一两二三四五六七八九十])\s*倍(?:的)?(?:工资|报酬)"
)
"""Pay stated as a share or multiple of wages (工资的百分之二百, 150%的工资, 二倍的工资): how much is
paid without a money figure, as labour law states overtime pay and compensation."""
PAY_STATED = re.compile(PAY_RATE.pattern + r"|(?:不发|不计发|停发|照发|不扣|扣发)工资|工资照发|无薪|不带薪")
"""Pay stated as a share of wages, or as paid or unpaid (事假期间不发工资): how much a 扣工资吗 question
is paid, with no money figure to compare."""
ASKS_PAY = re.compile(r"工资|薪|报酬|扣钱|扣款|发钱|给钱")
"""A question about pay (扣工资吗, 带薪吗): only it is answered by pay stated as paid or unpaid."""

_COMPARATORS: list[tuple[str, ComparatorOp, bool]] = [
    # (surface, op, needs a quantity right before it)
    ("不超过", ComparatorOp.LE, False),
    ("不高于", ComparatorOp.LE, False),
    ("不多于", ComparatorOp.LE, False),
    ("不大于", ComparatorOp.LE, False),
    ("不少于", ComparatorOp.GE, False),
    ("不低于", ComparatorOp.GE, False),
    ("不小于", ComparatorOp.GE, False),
    ("不满", ComparatorOp.LT, False),
    ("未满", ComparatorOp.LT, False),
    ("不足", ComparatorOp.LT, False),
    ("不到", ComparatorOp.LT, False),
    ("至多", ComparatorOp.LE, False),
    ("最多", ComparatorOp.LE, False),
    ("至少", ComparatorOp.GE, False),
    ("最少", ComparatorOp.GE, False),
    ("超过", ComparatorOp.GT, False),
    ("超出", ComparatorOp.GT, False),
    ("高于", ComparatorOp.GT, False),
    ("大于", ComparatorOp.GT, False),
    ("多于", ComparatorOp.GT, False),
    ("低于", ComparatorOp.LT, False),
    ("小于", ComparatorOp.LT, False),
    ("少于", ComparatorOp.LT, False),
    ("以下", ComparatorOp.LE, True),
    ("以内", ComparatorOp.LE, True),
    ("之内", ComparatorOp.LE, True),
    ("及以上", ComparatorOp.GE, True),
    ("以上", ComparatorOp.GE, True),
    ("满", ComparatorOp.GE, False),
]
_NEEDS_NUMBER_AFTER = frozenset({"满", "不满", "未满", "不足", "不到"})
_QUANTITY_TAIL = re.compile(rf"(?:{NUMBER}|[元块万千百年月天日周个岁次%小时钱])\s*$")
_NUMBER_AHEAD = re.compile(rf"\s*(?:{NUMBER}|半)")

_DURATION = re.compile(
    rf"({NUMBER}|半|几)\s*(个多|个半|个)?\s*(小时|钟头|天|日|周|星期|礼拜|月|年)(?:多|半)?"
)
_DURATION_UNITS = {
    "小时": DurationUnit.HOUR,
    "钟头": DurationUnit.HOUR,
    "天": DurationUnit.DAY,
    "日": DurationUnit.DAY,
    "周": DurationUnit.WEEK,
    "星期": DurationUnit.WEEK,
    "礼拜": DurationUnit.WEEK,
    "月": DurationUnit.MONTH,
    "年": DurationUnit.YEAR,
}

_CALIBERS: list[tuple[re.Pattern[str], AmountCaliber]] = [
    (
        re.compile(r"每个?月累计|月度?累计|当月累计|一个月(?:总共|合计|一共|累计)|每月合计|每个月加起来"),
        AmountCaliber.MONTHLY_CUMULATIVE,
    ),
    (
        re.compile(r"年度累计|年累计|全年累计|一年(?:总共|合计|一共|累计)|每年"),
        AmountCaliber.ANNUAL_CUMULATIVE,
    ),
    (re.compile(r"单笔|每笔|一笔|单次|每次|一次性|(?<![第上下这那])一次"), AmountCaliber.PER_TRANSACTION),
]


def _free(start: int, end: int, taken: list[Span]) -> bool:
    return not any(start < t_end and t_start < end for t_start, t_end in taken)


def find_amounts(text: str, taken: list[Span]) -> Iterator[tuple[int, MoneyAmount]]:
    """Money amounts with an explicit currency, bare numbers tied to a transaction, or 万-scaled /
    money-context Chinese numerals."""
    for pattern in _AMOUNT_PATTERNS:
        for m in pattern.finditer(text):
            value = parse_number(m.group(1))
            if value is None or not _free(m.start(), m.end(), taken):
                continue
            taken.append((m.start(), m.end()))
            yield m.start(), MoneyAmount(value=value, currency="CNY", text=m.group(0).strip())
    for pattern in _BARE_ARABIC_AMOUNTS:
        for m in pattern.finditer(text):
            value = parse_number(m.group(1))
            start, end = m.span(1)
            if value is None or value < 10 or not _free(start, end, taken):
                continue
            taken.append((start, end))
            yield start, MoneyAmount(value=value, currency="CNY", text=m.group(1))
    if not _MONEY_CONTEXT.search(text):
        return
    for m in _BARE_CN_AMOUNT.finditer(text):
        value = parse_number(m.group(1))
        if (
            value is None
            or value < 10
            or not any(u in m.group(1) for u in "十百千万")
            or not _free(m.start(), m.end(), taken)
        ):
            continue
        taken.append((m.start(), m.end()))
        yield m.start(), MoneyAmount(value=value, currency="CNY", text=m.group(0))


def find_comparators(text: str, taken: list[Span]) -> Iterator[tuple[int, Comparator]]:
    """Comparator words; 以下/以上/以内 only right after a quantity (以下几点 is not a comparator)."""
    for surface, op, needs_quantity in _COMPARATORS:
        for m in re.finditer(re.escape(surface), text):
            if not _free(m.start(), m.end(), taken):
                continue
            if needs_quantity and not _QUANTITY_TAIL.search(text[: m.start()]):
                continue
            if surface in _NEEDS_NUMBER_AFTER and not _NUMBER_AHEAD.match(text, m.end()):
                continue
            taken.append((m.start(), m.end()))
            yield m.start(), Comparator(op=op, text=surface)


def find_durations(text: str, taken: list[Span]) -> Iterator[tuple[int, Duration]]:
    """Lengths of time; 3月 alone is a date, so months need 个 (三个月)."""
    for m in _DURATION.finditer(text):
        count, measure, unit = m.group(1), m.group(2), m.group(3)
        if unit == "月" and not measure:
            continue
        if unit == "年" and re.fullmatch(r"(?:19|20)\d{2}", count):
            continue
        if not _free(m.start(), m.end(), taken):
            continue
        if count == "几":
            continue
        value = Decimal("0.5") if count == "半" else parse_number(count)
        if value is None:
            continue
        if (measure == "个半") or m.group(0).endswith("半"):
            value += Decimal("0.5")
        taken.append((m.start(), m.end()))
        yield m.start(), Duration(value=value, unit=_DURATION_UNITS[unit], text=m.group(0))


def find_calibers(text: str, taken: list[Span]) -> Iterator[tuple[int, AmountCaliber]]:
    """Amount calibers; a monthly cap never answers a per-transaction question."""
    for pattern, caliber in _CALIBERS:
        for m in pattern.finditer(text):
            if not _free(m.start(), m.end(), taken):
                continue
            taken.append((m.start(), m.end()))
            yield m.start(), caliber


CONFIRMS_A_FIGURE = re.compile(
    r"(?:是|为)\s*[\d一二两三四五六七八九十百千万.,，]+\s*(?:元|块|万元|万)?\s*(?:对吧|对吗|对不对|是吧|没错吧|吗|吧)"
)
"""装修押金是5000元对吧 asks whether the rule's figure is 5000元: the figure is to be checked, neither a
condition the rule must meet nor a number an answer may state on the question's word."""
_CONFIRMED_LENGTH = re.compile(
    r"(?<=[有是为])\s*(?:\d+|[一二两三四五六七八九十百]+)\s*(?=个?\s*(?:工作日|天|日|周|月|年|小时|分钟)\s*"
    r"(?:是真的|是不是真的|对吧|对吗|对不对|是吧|没错吧|是不是|吗|吧))"
)
"""年假有20天是真的吗 asks whether the rule's length is 20天: the figure is checked, so the question asks the
length itself (年假有几天), not for a rule stating 20天 (事假累计20天以上的)."""


def confirms_a_figure(question: str) -> bool:
    """True when the question asks to check a figure it states (押金是5000元对吧, 年假有20天是真的吗): the
    figure is never support for an answer stating it."""
    return bool(CONFIRMS_A_FIGURE.search(question) or _CONFIRMED_LENGTH.search(question))


def asked_in_place_of_confirmed(question: str) -> str:
    """The question with a length it asks to confirm replaced by 几 (年假有20天是真的吗 → 年假有几天…)."""
    return _CONFIRMED_LENGTH.sub("几", question)
