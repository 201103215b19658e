"""Quantities that are not money: ratios, multiples, day/hour/month counts, ages, frequencies.

加班费按百分之多少, 几倍工资, 年休假多少天, 每天不得超过几小时 ask for a quantity that a statute
states (百分之一百五十, 二倍, 五天, 三小时) without any currency. Such a rule answers the
question's AMOUNT_RULE or DEADLINE slot when the body states a quantity of the kind asked,
in a sentence about the question's subject. Money questions never take this path: their
amount and caliber logic (seed 000's 500元 cases) stays exactly as strict.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from shifu.contracts.common import EvidenceNeed
from shifu.nlp.frequency import FREQUENCY_ASK, asks_frequency, states_frequency
from shifu.nlp.numerals import BODY_NUMBER


class QuantityKind(StrEnum):
    """What kind of quantity a question asks for or a body states."""

    RATIO = "RATIO"
    MULTIPLE = "MULTIPLE"
    DAY = "DAY"
    HOUR = "HOUR"
    MINUTE = "MINUTE"
    WEEK = "WEEK"
    MONTH = "MONTH"
    YEAR = "YEAR"
    AGE = "AGE"
    FREQUENCY = "FREQUENCY"


QUANTITY_NEEDS: frozenset[EvidenceNeed] = frozenset({EvidenceNeed.AMOUNT_RULE, EvidenceNeed.DEADLINE})
"""Slots a non-money quantity answers (年假有几天, 要提前几天申请)."""

DURATIONS: frozenset[QuantityKind] = frozenset(
    {
        QuantityKind.DAY,
        QuantityKind.HOUR,
        QuantityKind.MINUTE,
        QuantityKind.WEEK,
        QuantityKind.MONTH,
        QuantityKind.YEAR,
    }
)

_MONEY_WORDS = re.compile(
    r"多少钱|几块|多少块|多少元|几元|钱数|金额|费用是多少|[\d一二两三四五六七八九十百千万]+\s*(?:元|块)"
)
_SEVERAL = re.compile(r"好几|十几|几十|几百|几千")
"""几 inside a count that is told, not asked (欠费好几次, 等了十几分钟, 几十个人)."""
_ASKS: tuple[tuple[re.Pattern[str], frozenset[QuantityKind]], ...] = (
    (re.compile(r"百分之多少|百分之几|多少比例|什么比例|比例|百分比|几成"), frozenset({QuantityKind.RATIO})),
    (re.compile(r"几倍|多少倍|双倍|翻倍"), frozenset({QuantityKind.MULTIPLE})),
    (re.compile(r"多少周岁|几周岁|几岁|多少岁|多大年龄|年龄"), frozenset({QuantityKind.AGE})),
    (re.compile(r"(?:多少|几)(?:个)?(?:工作日|天|日)|天数"), frozenset({QuantityKind.DAY})),
    (re.compile(r"周期"), DURATIONS | {QuantityKind.FREQUENCY}),
    (re.compile(r"(?:多少|几)(?:个)?(?:小时|钟头|学时|课时)"), frozenset({QuantityKind.HOUR})),
    (re.compile(r"(?:多少|几)分钟"), frozenset({QuantityKind.MINUTE})),
    (re.compile(r"(?:多少|几)(?:个)?(?:周|星期)"), frozenset({QuantityKind.WEEK})),
    (re.compile(r"(?:多少|几)个月"), frozenset({QuantityKind.MONTH})),
    (re.compile(r"(?:多少|几)年"), frozenset({QuantityKind.YEAR})),
    (
        re.compile(r"多久|多长时间|多长期限|多长|期限是|时限是|时效|多少.{0,4}时间|时间.{0,3}多少|时长"),
        DURATIONS,
    ),
    # 试用期上限是多少: a period (试用期, 医疗期, 装修期) is asked for as a length of time.
    (re.compile(r"[\u4e00-\u9fff]期(?:的)?(?:上限|下限|最长|最短)?(?:是|为|有)?多少"), DURATIONS),
    (
        re.compile(
            r"标准是多少|怎么算|如何计算|怎么计算|按多少|多少工资|工资.{0,4}多少|多少补偿|是多少|"
            r"(?:不得低于|不低于|不少于|不得少于|最低|最少)多少"
        ),
        frozenset({QuantityKind.RATIO, QuantityKind.MULTIPLE}),
    ),
)

_N = BODY_NUMBER
_STATED: tuple[tuple[QuantityKind, re.Pattern[str]], ...] = (
    (QuantityKind.RATIO, re.compile(r"百分之[零一二三四五六七八九十百点]+|\d+(?:\.\d+)?\s*[%％]")),
    (QuantityKind.MULTIPLE, re.compile(rf"(?:{_N})\s*倍")),
    (QuantityKind.AGE, re.compile(rf"(?:{_N})\s*周岁")),
    (QuantityKind.DAY, re.compile(rf"(?:{_N})\s*(?:个)?\s*(?:工作日|天|日)(?!起|历)")),
    (QuantityKind.HOUR, re.compile(rf"(?:{_N})\s*(?:个)?\s*(?:小时|学时|课时)")),
    (QuantityKind.MINUTE, re.compile(rf"(?:{_N})\s*分钟")),
    (QuantityKind.WEEK, re.compile(rf"(?:{_N})\s*(?:个)?\s*(?:周|星期)(?!岁|年)")),
    (QuantityKind.MONTH, re.compile(rf"(?:{_N})\s*个\s*月")),
    (QuantityKind.YEAR, re.compile(rf"(?:{_N})\s*(?:个)?\s*年(?!度|级|龄|休|终|内)")),
)
_SENTENCE = re.compile(r"[^。；;！!？?\n]+")


@dataclass(frozen=True, slots=True)
class QuantityAsk:
    """The quantity kinds a question asks for."""

    kinds: frozenset[QuantityKind]


def asks_for_money(question: str) -> bool:
    """True when the question is about money (多少钱, 500元): the strict caliber path applies."""
    return bool(_MONEY_WORDS.search(question))


def quantity_ask(question: str) -> QuantityAsk | None:
    """The non-money quantity kinds `question` asks for, or None (money or no quantity)."""
    if asks_for_money(question):
        return None
    kinds: set[QuantityKind] = set()
    question = _SEVERAL.sub("多", question)
    if asks_frequency(question):
        # 多久一次 asks how often, not how long: the 多久 inside it is no duration ask.
        kinds.add(QuantityKind.FREQUENCY)
        question = FREQUENCY_ASK.sub("，", question)
    for pattern, asked in _ASKS:
        if pattern.search(question):
            kinds |= asked
    return QuantityAsk(kinds=frozenset(kinds)) if kinds else None


_QUANTITY_HEADINGS: tuple[tuple[frozenset[QuantityKind], re.Pattern[str]], ...] = (
    (DURATIONS, re.compile(r"时长|时限|期限|天数|多久|多长时间")),
    (frozenset({QuantityKind.FREQUENCY}), re.compile(r"频次|频率")),
)


def heading_names_quantity(heading: str, ask: QuantityAsk) -> bool:
    """True when a section heading is written for the kind of quantity asked (岗前学习要多久 ~
    三、岗前学习的时长和完成要求; 消防巡检多久一次 ~ 二、消防巡检的频次要求)."""
    return any(kinds & ask.kinds and pattern.search(heading) for kinds, pattern in _QUANTITY_HEADINGS)


def stated_quantities(text: str) -> list[tuple[QuantityKind, str]]:
    """Every non-money quantity stated in `text`, with its verbatim surface form."""
    found: list[tuple[QuantityKind, str]] = []
    for kind, pattern in _STATED:
        found += [(kind, match.group(0)) for match in pattern.finditer(text)]
    found += [(QuantityKind.FREQUENCY, surface) for surface in states_frequency(text)]
    return found


QUALIFIERS = ("提前", "超过", "超出", "以上", "以内", "以下", "不足", "不满", "满", "连续", "至少", "最多")
"""Words that make a stated quantity a condition or a lead time, not the value asked: 一次连续休年休假
超过3天的 and 入职满1个月后 are conditions, 须提前5个工作日申请 a lead time; 年休假5天 is the count itself."""
_CLAUSE = re.compile(r"[，,、：:（）()]")
_AFTER = 3
"""Characters after a quantity read for a trailing qualifier (3天以上)."""


_NOT_OVER = re.compile(r"不(?:得)?(?:超过|超出)")
"""不超过3个月 states a limit, the same as 3个月以内; only 超过3天的 is a condition."""
_WITHIN_ASKED = re.compile(r"(?:多久|多长时间|几个?(?:工作日|天|日|周|月|年|小时)|多少天)(?:之|以)?内")
"""体检报告多久内有效 asks for a limit, which a rule states as 不超过3个月 or 3个月以内."""


def qualifiers_in(text: str) -> frozenset[str]:
    """The qualifier words `text` uses (a question asking 要提前几天 asks for the lead time)."""
    plain = _NOT_OVER.sub("以内", text)
    return frozenset(word for word in QUALIFIERS if word in plain)


_LEAD_ACT = re.compile(
    r"提前[^，,。？?]{0,3}?(?:多久|多长时间|几个?(?:工作日|天|日|周|月|小时)|多少天)的?"
    r"(申请|提交|报备|告知|通知|预约|登记)"
)


_ACT_WORDINGS = (frozenset({"通知", "告知"}), frozenset({"申请", "提交", "报备", "登记"}))
"""Acts a rule may word another way (提前1个工作日告知员工 answers 要提前多久通知)."""


def lead_time_act(question: str) -> frozenset[str] | None:
    """The words for what a lead time is asked of (申请 of 要提前多久申请): a figure given ahead of
    something else (提前3日在单元大堂公告) is no answer. None when no lead time is asked."""
    match = _LEAD_ACT.search(question)
    if match is None:
        return None
    act = match.group(1)
    return next((group for group in _ACT_WORDINGS if act in group), frozenset({act}))


_MEASURE_NAMED = re.compile(r"时长|学时|天数|次数|频次|频率")
"""Words naming the measure asked (复盘时长多长): a rule states it by the same word (时长不超过30分钟)."""


_KEPT_FOR = re.compile(
    r"(保存|保留|留存|存档)(?=(?:期限|时间|年限)?(?:是|要|需要|得|为)?(?:多久|多长时间|几年|几个月|多少年|多少天))"
)
"""投诉记录保存多久: how long something is kept is stated with the keeping (投诉档案保存不少于3年)."""


def asked_measure(question: str) -> str | None:
    """The measure a quantity question names (时长 of 复盘时长多长, 保存 of 投诉记录保存多久), or None.

    复盘时长多长 asks how long the review itself lasts, which the steps state (时长不超过30分钟), not
    how soon it must be done (3个工作日内完成复盘), though both are lengths of time; and 投诉记录保存多久
    asks how long records are kept, not how soon a complaint is answered (三、业主投诉的响应时限).
    """
    match = _MEASURE_NAMED.search(question) or _KEPT_FOR.search(question)
    return match.group(0) if match else None


def asked_qualifiers(question: str) -> frozenset[str]:
    """The qualifiers a question asks its quantity with: its own words, and 以内 for 多久内 / 几天内 and
    for a named measure (复盘时长多长 is answered by 时长不超过30分钟: rules state a measure by its limit)."""
    within = _WITHIN_ASKED.search(question) or _MEASURE_NAMED.search(question)
    return qualifiers_in(question) | ({"以内"} if within else frozenset())


def states_asked_quantity(ask: QuantityAsk, sentence: str, asked: frozenset[str]) -> bool:
    """True when `sentence` states a quantity of an asked kind as the value asked.

    A quantity qualified by a word the question does not use (`asked`: 提前, 超过 …) answers another
    question: 年假有几天 is answered by 年休假5天, not by 须提前5个工作日申请; and a question using
    one (要提前几天) is answered by a quantity so qualified, not by 年休假5天. A day after a month
    (3月31日) is a date, not a count. A length of time answers in any unit (几天内 ~ 24小时内). A
    frequency ask is not filtered.
    """
    if ask.kinds <= {QuantityKind.FREQUENCY}:
        return True
    kinds = ask.kinds | DURATIONS if ask.kinds & DURATIONS else ask.kinds
    for clause in _CLAUSE.split(sentence):
        for kind, pattern in _STATED:
            if kind not in kinds:
                continue
            for match in pattern.finditer(clause):
                before, after = clause[: match.start()], clause[match.end() : match.end() + _AFTER]
                if before.endswith("月"):
                    continue
                used = qualifiers_in(before) | qualifiers_in(after)
                # 以内 asked (多久内) also takes a bare figure: 3个工作日内 states its 内 after the unit.
                if used <= asked and (used or not asked - {"以内"}):
                    return True
    return False


DEFERS = re.compile(
    r"按(?:照)?(?:国家|当地|地方|有关|相关)[^，,。；;]{0,8}(?:规定|标准|政策)(?:执行|办理|享受|确定|(?=[，,。；;]|$))|"
    r"依照(?:国家|有关)[^，,。；;]{0,6}规定(?:执行|办理)"
)
"""A rule that leaves the figure to other rules (产假、陪产假：按国家和当地规定执行): it answers how many
days by saying where the number is set, and never states one. 按照有关规定追究责任 sets no figure."""


def defers_the_quantity(body: str, about_subject: Callable[[str], bool]) -> bool:
    """True when a sentence of `body` about the question's subject leaves the quantity to other rules."""
    return any(about_subject(sentence) and DEFERS.search(sentence) for sentence in _SENTENCE.findall(body))


def supports_quantity(ask: QuantityAsk, body: str, about_subject: Callable[[str], bool]) -> bool:
    """True when a sentence of `body` about the question's subject states a quantity of an asked kind."""
    for sentence in _SENTENCE.findall(body):
        if not about_subject(sentence):
            continue
        if any(kind in ask.kinds for kind, _ in stated_quantities(sentence)):
            return True
    return False
