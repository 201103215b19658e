"""What a count question counts, and whether a number counts it.

几个阶段 counts 阶段, 多少人 counts people, 多少钱 money: 6个阶段 answers the first, 1.4万名 the second,
687亿美元 the third, and 3个工作日 none of them. A lead-in to a list of the counted things
(分为以下阶段：) answers a count question by listing them. Used by `nlp.answer_kind`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from shifu.nlp.terms import words
from shifu.nlp.units import MEASURE_UNITS

_COUNTED = re.compile(r"几\s*(?:个\s*)?([\u4e00-\u9fff]{1,2})")
"""几个阶段 → 阶段, 几天 → 天: what a count question counts."""
_HOW_MANY = "多少"
_UNIT_WORD = re.compile(r"^([人名位家辆架艘座所项件次天日周年岁倍条份元钱块米吨台套户])[\u4e00-\u9fff]?$")
"""The unit word after 多少 (人, 天, 日内, 人次): 多少年休假 asks about 年休假, not a number of years."""


@lru_cache(maxsize=512)
def counted_unit(question: str) -> str | None:
    """What a count question counts: 几个阶段 → 阶段, 多少人 → 人, 多少钱 → 钱 (None when unsaid).

    Cached: it is asked once per candidate sentence of the same question, and segmenting is not free.
    """
    match = _COUNTED.search(question)
    if match:
        return match.group(1)
    if _HOW_MANY not in question:
        return None
    pieces = words(question)
    for index, piece in enumerate(pieces):
        if piece.startswith(_HOW_MANY):
            unit = piece[len(_HOW_MANY) :] or (pieces[index + 1] if index + 1 < len(pieces) else "")
            found = _UNIT_WORD.match(unit)
            if found:
                return found.group(1)
    return None


_SAME_UNIT = {
    "天": "天日",
    "日": "天日",
    "周": "周星期",
    "次": "次遍回",
    "人": "人名位",
    "名": "名人位",
    "钱": "元块钱",
    "元": "元块钱",
}
"""Units that count the same thing: 5个工作日 answers 几天."""


_CURRENCY = re.compile(
    r"\s*(?:美|欧|日|港|澳|英|人民币|新台币)?\s*(?:元|块|镑|兹罗提|卢布|卢比|法郎|比索|韩元)"
)
"""687亿美元, 6.2万亿兹罗提: money in any currency answers 多少钱."""
_BARE_MAGNITUDE = re.compile(r"[\d.,]+\s*(?:万亿|亿|万)")
_MEASURE_NEXT = re.compile(rf"\s*(?:{MEASURE_UNITS}|点|[A-Za-z])")


_PERCENTAGE = re.compile(r"%|％|百分之")


def counts(span: str, sentence: str, counted: str) -> bool:
    """The number counts what was asked: 6个阶段 answers 几个阶段, 3个工作日 does not.

    Money may be in any currency (多少钱 ← 687亿美元), and a head count may go without its
    unit when it is in 万 or 亿 (网民规模为10.51亿 answers 多少人; 3点 does not). A multiple may be a
    percentage (几倍工资 ← 工资的百分之二百).
    """
    units = _SAME_UNIT.get(counted[0], counted[0])
    if any(unit in span for unit in units):
        return True
    if counted[0] == "倍" and _PERCENTAGE.search(span):
        return True
    after = sentence[sentence.find(span) + len(span) :] if span in sentence else ""
    if counted[0] in "钱元" and _CURRENCY.match(after):
        return True
    if counted[0] in "人名" and _BARE_MAGNITUDE.fullmatch(span.strip()) and not _MEASURE_NEXT.match(after):
        return True
    follows = re.escape(span) + r"\s*个?\s*(?:工作|自然)?[" + re.escape(units) + "]"
    return re.search(follows, sentence) is not None


_LISTING = re.compile(r"(?:以下|如下|下列)[^：:。]{0,8}[：:]\s*$")
_LISTED_ALIKE = {
    "环节": ("环节", "阶段", "步骤"),
    "阶段": ("阶段", "环节", "步骤"),
    "步骤": ("步骤", "环节"),
    "步": ("步骤", "步"),
}
"""Counted nouns a list's lead-in may name instead: 面试有几个环节 is answered by 分为以下阶段："""


def lists_what_is_counted(sentence: str, question: str) -> bool:
    """A lead-in to a list of the counted things answers a count question by listing them.

    "面试流程分为以下阶段：" then six numbered stages answers 面试有几个阶段: the list is
    quoted, no count is made up. The list must be of the counted things (以下阶段), not merely sit in a
    sentence that mentions them: 电梯困人处置中严禁以下行为： lists no people for 几个人.
    """
    counted = counted_unit(question)
    listing = _LISTING.search(sentence) if counted is not None else None
    if counted is None or listing is None:
        return False
    return any(word in listing.group(0) for word in _LISTED_ALIKE.get(counted, (counted[0],)))
