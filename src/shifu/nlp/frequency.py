"""How often: questions that ask for a frequency (多久一次) and sentences that state one (每日2次).

A frequency question is not a duration question: 消防巡检多久一次 is answered by 每日2次 or
每2小时巡查1次, never by a 24小时 deadline that happens to sit in the same document.
"""

from __future__ import annotations

import re

_COUNT = r"\d+|[零〇一二两三四五六七八九十百]+"

FREQUENCY_ASK = re.compile(
    r"(?:多久|多长时间|隔多久|多少天|几天)\s*(?:[\u4e00-\u9fff]{1,3}?\s*)?(?:一次|1次|一回)(?!性)|(?<![好十])几次|多少次|频次|频率"
)
"""The asking phrase, with the activity it may enclose (多久盘点一次); callers remove it before looking
for duration asks (多久 alone). 好几次 and 十几次 tell of a count (欠费好几次都不交), they ask none."""

_STATED = re.compile(rf"每[^，。；,;\n]{{0,8}}?(?:{_COUNT})\s*次|(?:{_COUNT})\s*次\s*/\s*[日天周月班]")


def asks_frequency(question: str) -> bool:
    """True when the question asks how often something happens."""
    return bool(FREQUENCY_ASK.search(question))


def states_frequency(text: str) -> list[str]:
    """The frequencies `text` states, verbatim (每日2次, 每2小时巡查1次, 3次/周)."""
    return [match.group(0) for match in _STATED.finditer(text)]
