"""Deterministic, conservative checks that a fragment's body supports a claim type.

Classifier labels are candidates only (invariant 8); a slot is covered only when the
labels AND these body checks agree. Every check errs towards "not supported": a false
"no" becomes a visible gap, a false "yes" becomes an ungrounded answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from shifu.contracts.common import ClaimType
from shifu.contracts.entities import AmountCaliber, ComparatorOp, DurationUnit
from shifu.evidence.numerals import NUMBER_PATTERN, parse_number
from shifu.nlp.condition_words import CONDITION_WORDS
from shifu.nlp.definitions import defines
from shifu.nlp.frequency import states_frequency
from shifu.nlp.lists import MATERIALS_LEAD_IN
from shifu.nlp.quantities import PAY_STATED
from shifu.nlp.record_contents import RECORD_CONTENT_WORDS

_CJK = re.compile(r"[\u4e00-\u9fff]")
_ORDERED_LINE = re.compile(
    r"^\s*(?:\d{1,2}\s*[.、．)）]|[（(]\d{1,2}[)）]|[一二三四五六七八九十]{1,3}、|[（(][一二三四五六七八九十]{1,3}[)）]"
    r"|第[一二三四五六七八九十\d]{1,3}步)",
    re.MULTILINE,
)
_SEQUENCE_CUES = (
    "首先",
    "然后",
    "随后",
    "之后再",
    "最后",
    "第一步",
    "第二步",
    "第1步",
    "第2步",
    "流程如下",
    "步骤如下",
)
_PROCEDURE_VERBS = (
    "提交",
    "填写",
    "申请",
    "办理",
    "登记",
    "上传",
    "报送",
    "审核",
    "审批",
    "领取",
    "录入",
    "签字",
    "报销",
)
_MATERIAL_CUES = (
    "材料",
    "提交",
    "提供",
    "证明",
    "发票",
    "复印件",
    "原件",
    "携带",
    "单据",
    "凭证",
    "收据",
    "附件",
    "申请表",
    "清单",
    "身份证",
    *RECORD_CONTENT_WORDS,
)
_APPROVER_CUES = ("审批", "批准", "签字", "签批", "核准", "审核", "批复", "审定", "同意")
_CONDITION_CUES = (
    *CONDITION_WORDS,
    "认定为",
    "可申请",
    "凡",
    "如果",
    "若",
    "的，",
)
_PROHIBITION_CUES = ("不得", "禁止", "严禁", "不准", "不允许", "不能", "杜绝")
_CONTACT_CUES = ("电话", "联系", "邮箱", "热线", "联系人")
_OBLIGATION_CUES = ("应当", "必须", "须", "负责", "义务", "应")
_LIABILITY_CUES = ("责任", "赔偿", "处罚", "罚款", "承担", "追究", "处分", "违约金")
_RULE_CUES = (
    _PROHIBITION_CUES
    + _OBLIGATION_CUES
    + ("可以", "有权", "规定", "方可", "按照", "依照", "标准", "为")
    + ("包括以下", "包括下列", "分为以下", "分为下列", "按以下", "按下列")
)
"""A rule states what must, may or may not be done, what something consists of (包括以下内容：) or how
it is done (各项目按以下频次开展消防巡检：)."""

_CURRENCY = r"(?P<unit>万|千)?\s*(?:元|块|圆)(?:人民币)?"
_AMOUNT = re.compile(
    rf"(?:[¥￥]\s*(?P<yen>\d+(?:,\d{{3}})*(?:\.\d+)?))|(?P<num>{NUMBER_PATTERN})\s*{_CURRENCY}"
)
_PRE_COMPARATORS: tuple[tuple[str, ComparatorOp], ...] = (
    ("不超过", ComparatorOp.LE),
    ("不高于", ComparatorOp.LE),
    ("不大于", ComparatorOp.LE),
    ("最高", ComparatorOp.LE),
    ("上限为", ComparatorOp.LE),
    ("不低于", ComparatorOp.GE),
    ("不少于", ComparatorOp.GE),
    ("超过", ComparatorOp.GT),
    ("高于", ComparatorOp.GT),
    ("大于", ComparatorOp.GT),
    ("低于", ComparatorOp.LT),
    ("不足", ComparatorOp.LT),
    ("少于", ComparatorOp.LT),
    ("小于", ComparatorOp.LT),
    ("未满", ComparatorOp.LT),
    ("满", ComparatorOp.GE),
)
_POST_COMPARATORS: tuple[tuple[str, ComparatorOp], ...] = (
    ("（含）以下", ComparatorOp.LE),
    ("(含)以下", ComparatorOp.LE),
    ("及以下", ComparatorOp.LE),
    ("以下", ComparatorOp.LE),
    ("以内", ComparatorOp.LE),
    ("之内", ComparatorOp.LE),
    ("（含）以上", ComparatorOp.GE),
    ("(含)以上", ComparatorOp.GE),
    ("及以上", ComparatorOp.GE),
    ("以上", ComparatorOp.GT),
)
_CALIBER_BEFORE: tuple[tuple[str, AmountCaliber], ...] = (
    ("每月累计", AmountCaliber.MONTHLY_CUMULATIVE),
    ("月累计", AmountCaliber.MONTHLY_CUMULATIVE),
    ("当月累计", AmountCaliber.MONTHLY_CUMULATIVE),
    ("每月", AmountCaliber.MONTHLY_CUMULATIVE),
    ("月度", AmountCaliber.MONTHLY_CUMULATIVE),
    ("每个月", AmountCaliber.MONTHLY_CUMULATIVE),
    ("年度累计", AmountCaliber.ANNUAL_CUMULATIVE),
    ("年累计", AmountCaliber.ANNUAL_CUMULATIVE),
    ("每年", AmountCaliber.ANNUAL_CUMULATIVE),
    ("年度", AmountCaliber.ANNUAL_CUMULATIVE),
    ("全年", AmountCaliber.ANNUAL_CUMULATIVE),
    ("单笔", AmountCaliber.PER_TRANSACTION),
    ("每笔", AmountCaliber.PER_TRANSACTION),
    ("一笔", AmountCaliber.PER_TRANSACTION),
    ("单次", AmountCaliber.PER_TRANSACTION),
    ("每次", AmountCaliber.PER_TRANSACTION),
    ("一次", AmountCaliber.PER_TRANSACTION),
    ("单张", AmountCaliber.PER_TRANSACTION),
)
_CALIBER_AFTER: tuple[tuple[str, AmountCaliber], ...] = (
    ("/笔", AmountCaliber.PER_TRANSACTION),
    ("/次", AmountCaliber.PER_TRANSACTION),
    ("每笔", AmountCaliber.PER_TRANSACTION),
    ("/月", AmountCaliber.MONTHLY_CUMULATIVE),
    ("/年", AmountCaliber.ANNUAL_CUMULATIVE),
)
_CLAUSE_BREAK = re.compile(r"[。；;！!？?\n]")
_DURATION = re.compile(
    rf"(?P<num>{NUMBER_PATTERN})\s*(?:个)?\s*(?P<unit>工作日|日|天|小时|分钟|周|星期|月|年)"
    r"(?P<tail>内|以内|之内|前|届满|起|后|期限)?"
)
_DURATION_UNITS: dict[str, DurationUnit] = {
    "工作日": DurationUnit.DAY,
    "日": DurationUnit.DAY,
    "天": DurationUnit.DAY,
    "小时": DurationUnit.HOUR,
    "周": DurationUnit.WEEK,
    "星期": DurationUnit.WEEK,
    "月": DurationUnit.MONTH,
    "年": DurationUnit.YEAR,
}
_TIME_LIMIT_WORDS = ("期限", "时限", "截止", "之前", "以前", "前完成", "内完成", "及时")


@dataclass(frozen=True, slots=True)
class AmountRule:
    """One money amount stated in a body, with its comparator and caliber."""

    value: Decimal
    """Amount in yuan."""
    comparator: ComparatorOp
    """EQ when the body states no comparator."""
    caliber: AmountCaliber
    """Basis the amount is stated on (UNSPECIFIED when the body names none)."""
    text: str
    """Verbatim surface form in the body."""
    upper: Decimal | None = None
    """The upper end of a stated range (1000元（含）至5000元（含）): `value` is then its lower end, with
    GE (or GT when the lower end is excluded)."""
    upper_included: bool = True
    """False when the range excludes its upper end (至5000元（不含））."""


@dataclass(frozen=True, slots=True)
class DurationMention:
    """One time limit stated in a body (15个工作日内)."""

    value: Decimal
    """Number of units."""
    unit: str
    """Surface unit (工作日, 日, 月 …), kept so 15工作日 ≠ 15日."""
    text: str
    """Verbatim surface form."""


def _has_any(text: str, cues: tuple[str, ...]) -> bool:
    return any(cue in text for cue in cues)


def _clause_start(text: str, index: int) -> int:
    starts = [match.end() for match in _CLAUSE_BREAK.finditer(text, 0, index)]
    return starts[-1] if starts else 0


def _caliber_near(text: str, start: int, end: int) -> AmountCaliber:
    """The caliber word nearest before the amount in its sentence, else right after it."""
    window = text[_clause_start(text, start) : start]
    best: tuple[int, AmountCaliber] | None = None
    for word, caliber in _CALIBER_BEFORE:
        position = window.rfind(word)
        if position >= 0 and (best is None or position + len(word) > best[0]):
            best = (position + len(word), caliber)
    if best is not None:
        return best[1]
    after = text[end : end + 4]
    for word, caliber in _CALIBER_AFTER:
        if after.startswith(word):
            return caliber
    return AmountCaliber.UNSPECIFIED


def _comparator_near(text: str, start: int, end: int) -> ComparatorOp:
    after = text[end : end + 6]
    for word, op in _POST_COMPARATORS:
        if after.startswith(word) or after.lstrip("）)").startswith(word):
            return op
    before = text[max(0, start - 4) : start]
    for word, op in _PRE_COMPARATORS:
        if before.endswith(word) or before.rstrip("在为").endswith(word):
            return op
    return ComparatorOp.EQ


_RANGE_JOIN = re.compile(r"\s*(?P<lower_mark>[（(](?:含|不含)[)）])?\s*(?:至|到|~|～|-|—|－)\s*$")
"""What joins the two ends of a range (1000元（含）至 | 1000元到): read before the upper amount."""
_EXCLUDED_AFTER = re.compile(r"^\s*[（(]不含[)）]")


def _amount_value(match: re.Match[str]) -> Decimal | None:
    raw = match.group("yen") or match.group("num")
    value = parse_number(raw) if raw else None
    if value is None:
        return None
    unit = match.group("unit")
    if unit == "万":
        return value * 10000
    if unit == "千":
        return value * 1000
    return value


def amount_rules(text: str) -> list[AmountRule]:
    """Every money amount in a body, with comparator and caliber read from nearby words.

    Two amounts joined as a range (单笔1000元（含）至5000元（含）) are one rule covering the range:
    3000元 falls under it, 6000元 does not.
    """
    rules: list[AmountRule] = []
    matches = [
        (match, value) for match in _AMOUNT.finditer(text) if (value := _amount_value(match)) is not None
    ]
    index = 0
    while index < len(matches):
        match, value = matches[index]
        following = matches[index + 1] if index + 1 < len(matches) else None
        joined = following and _RANGE_JOIN.match(text[match.end() : following[0].start()])
        if following is not None and joined and following[1] > value:
            excluded = joined.group("lower_mark") and "不含" in joined.group("lower_mark")
            rules.append(
                AmountRule(
                    value=value,
                    comparator=ComparatorOp.GT if excluded else ComparatorOp.GE,
                    caliber=_caliber_near(text, match.start(), following[0].end()),
                    text=text[match.start() : following[0].end()],
                    upper=following[1],
                    upper_included=not _EXCLUDED_AFTER.match(text[following[0].end() :]),
                )
            )
            index += 2
            continue
        rules.append(
            AmountRule(
                value=value,
                comparator=_comparator_near(text, match.start(), match.end()),
                caliber=_caliber_near(text, match.start(), match.end()),
                text=match.group(0),
            )
        )
        index += 1
    return rules


def durations(text: str) -> list[DurationMention]:
    """Every time limit in a body (number + unit), in order."""
    found: list[DurationMention] = []
    for match in _DURATION.finditer(text):
        value = parse_number(match.group("num"))
        if value is None:
            continue
        found.append(DurationMention(value=value, unit=match.group("unit"), text=match.group(0)))
    return found


def has_ordered_steps(text: str) -> bool:
    """At least two numbered or enumerated lines (1. / （一） / 第一步 …)."""
    return len(_ORDERED_LINE.findall(text)) >= 2


_CHECK_ITEM = re.compile(r"是否|有无|有没有")
_CONDITIONS_LEAD_IN = re.compile(r"情况之一|情形之一|条件|分级|要求\s*[：:]\s*$")
_DIRECTORY_LEAD_IN = re.compile(r"联系方式|联系电话|电话号码|号码|通讯录")
_KINDS_LEAD_IN = re.compile(
    r"(?:类型|种类|类别)(?:有|包括|分为)?(?:以下|下列|如下)|(?:以下|下列)(?:几种|几类)"
)
_PROCEDURE_WORDS = ("步骤", "流程", "程序")


def _is_list_but_no_procedure(text: str) -> bool:
    """A numbered list whose lead-in does not call it a procedure (按以下步骤) and that is one of:

    - things not to do (严禁以下行为：1. …);
    - cases, tiers or requirements (…以下情况之一的，…列入待复盘名单：; 按单笔金额分级审批：;
      应符合以下…要求：), which state when something applies or what must hold;
    - things to check (1. 疏散通道是否畅通) or how often things happen (1. 日常巡查：每日2次);
    - whom to call (处置时使用以下联系方式：1. 公司应急值班电话：…), what to hand in (须提交以下材料：,
      需提交的证明材料如下：) or what to hand over (逐项交接以下内容：);
    - the kinds of something (请假类型有以下几种：1. 年休假…): 婚假怎么请 is not answered by the list
      of leave types.
    """
    first = _ORDERED_LINE.search(text)
    if first is None:
        return False
    lead_in = text[: first.start()]
    if _has_any(lead_in, _PROCEDURE_WORDS):
        return False
    if _has_any(lead_in, _PROHIBITION_CUES) or _CONDITIONS_LEAD_IN.search(lead_in.strip()):
        return True
    if any(lead.search(lead_in) for lead in (_DIRECTORY_LEAD_IN, MATERIALS_LEAD_IN, _KINDS_LEAD_IN)):
        return True
    items = [line for line in text[first.start() :].splitlines() if _ORDERED_LINE.match(line)]
    listed = [item for item in items if _CHECK_ITEM.search(item) or states_frequency(item)]
    return len(items) >= 2 and len(listed) * 2 > len(items)


def _supports_step(text: str) -> bool:
    if _is_list_but_no_procedure(text):
        return False
    if has_ordered_steps(text):
        return True
    return _has_any(text, _SEQUENCE_CUES) and _has_any(text, _PROCEDURE_VERBS)


def _supports_time_limit(text: str) -> bool:
    mentions = [m for m in _DURATION.finditer(text) if m.group("tail")]
    return bool(mentions) or (bool(durations(text)) and _has_any(text, _TIME_LIMIT_WORDS))


def _supports_rule(text: str) -> bool:
    return len(_CJK.findall(text)) >= 8 and _has_any(text, _RULE_CUES)


_CHECKS: dict[ClaimType, Callable[[str], bool]] = {
    ClaimType.AMOUNT: lambda text: bool(amount_rules(text)) or bool(PAY_STATED.search(text)),
    ClaimType.STEP: _supports_step,
    ClaimType.MATERIAL: lambda text: _has_any(text, _MATERIAL_CUES),
    ClaimType.APPROVER: lambda text: _has_any(text, _APPROVER_CUES),
    ClaimType.CONDITION: lambda text: _has_any(text, _CONDITION_CUES),
    ClaimType.TIME_LIMIT: _supports_time_limit,
    ClaimType.PROHIBITION: lambda text: _has_any(text, _PROHIBITION_CUES),
    ClaimType.DEFINITION: defines,
    ClaimType.CONTACT: lambda text: _has_any(text, _CONTACT_CUES) or bool(re.search(r"\d{7,}", text)),
    ClaimType.OBLIGATION: lambda text: _has_any(text, _OBLIGATION_CUES),
    ClaimType.LIABILITY: lambda text: _has_any(text, _LIABILITY_CUES),
    ClaimType.RULE: _supports_rule,
    ClaimType.STATE: lambda text: False,
}


def body_supports(claim_type: ClaimType, text: str) -> bool:
    """True when the body text on its own supports a claim of this type.

    STATE is never supported by a body: a document describing a system proves nothing
    about that system's live state (invariant 3).
    """
    return _CHECKS[claim_type](text)
