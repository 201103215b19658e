"""Relative and absolute Chinese date expressions resolved against the server clock.

The server's clock and configured time zone are the only truth for 今天 or 上个月; the
model never resolves dates. Each finder yields the span it matched, so the entity
extractor can keep other finders (durations, numbers) off the same characters.
jionlp was evaluated and rejected here: it refuses 上个月/本月/下个月 and costs ~0.3 s to
import, while these patterns cover what staff actually type in well under a millisecond.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from shifu.contracts.entities import DateSpan
from shifu.nlp.numerals import CN_NUMBER, parse_number

_WEEKDAYS = {
    "一": 0,
    "1": 0,
    "二": 1,
    "2": 1,
    "三": 2,
    "3": 2,
    "四": 3,
    "4": 3,
    "五": 4,
    "5": 4,
    "六": 5,
    "6": 5,
}
_WEEKDAYS.update({"日": 6, "天": 6, "7": 6})
_DAY_WORDS = {
    "今天": 0,
    "今日": 0,
    "当天": 0,
    "今早": 0,
    "今晚": 0,
    "明天": 1,
    "明日": 1,
    "明早": 1,
    "明晚": 1,
    "大后天": 3,
    "后天": 2,
    "昨天": -1,
    "昨日": -1,
    "昨晚": -1,
    "前天": -2,
}
_NUM = rf"(?:\d{{1,4}}|{CN_NUMBER})"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("ymd", re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?")),
    ("md", re.compile(rf"({_NUM})\s*月\s*({_NUM})\s*[日号]")),
    ("recent", re.compile(rf"(?:最近|近|过去|前)\s*({_NUM}|半)\s*(个)?\s*(天|日|周|星期|个月|月|年)")),
    (
        "week_day",
        re.compile(r"(上上|上|下下|下|本|这|这个)?(?:个)?(?:周|星期|礼拜)([一二三四五六日天1-7末])"),
    ),
    ("week", re.compile(r"(上上|上|下下|下|本|这|这个)(?:个)?(?:周|星期|礼拜)")),
    ("month", re.compile(r"(上上|上|下|本|这|这个|当)(?:个)?月(?!\d|份?\d)")),
    (
        "month_of_year",
        re.compile(rf"(?:(\d{{4}}|今|去|明)年)?\s*({_NUM})\s*月份?(?![日号\d零〇一二两三四五六七八九十])"),
    ),
    ("year", re.compile(r"(今|去|明|本)年(?:度)?")),
    ("year_number", re.compile(r"((?:19|20)\d{2})\s*年(?!版|\d)")),
    ("day_word", re.compile("|".join(_DAY_WORDS))),
]


@dataclass(frozen=True)
class DateMatch:
    """A resolved date span and where it sits in the text."""

    start: int
    end: int
    span: DateSpan


def _month_bounds(year: int, month: int) -> tuple[date, date]:
    while month < 1:
        month += 12
        year -= 1
    while month > 12:
        month -= 12
        year += 1
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _shift_months(day: date, months: int) -> date:
    first, _ = _month_bounds(day.year, day.month + months)
    last_day = calendar.monthrange(first.year, first.month)[1]
    return first.replace(day=min(day.day, last_day))


def _offset(prefix: str | None) -> int:
    return {None: 0, "": 0, "本": 0, "这": 0, "这个": 0, "当": 0, "上": -1, "上上": -2, "下": 1, "下下": 2}[
        prefix
    ]


def _as_int(text: str | None) -> int | None:
    if text is None:
        return None
    value = parse_number(text)
    return int(value) if value is not None and value == int(value) else None


def _resolve(kind: str, m: re.Match[str], today: date) -> tuple[date, date] | None:
    monday = today - timedelta(days=today.weekday())
    if kind == "ymd":
        try:
            day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
        return day, day
    if kind == "md":
        month, dom = _as_int(m.group(1)), _as_int(m.group(2))
        if month is None or dom is None:
            return None
        try:
            day = date(today.year, month, dom)
        except ValueError:
            return None
        return day, day
    if kind == "recent":
        return _resolve_recent(m, today)
    if kind == "week_day":
        week_start = monday + timedelta(weeks=_offset(m.group(1)))
        if m.group(2) == "末":
            return week_start + timedelta(days=5), week_start + timedelta(days=6)
        day = week_start + timedelta(days=_WEEKDAYS[m.group(2)])
        return day, day
    if kind == "week":
        week_start = monday + timedelta(weeks=_offset(m.group(1)))
        return week_start, week_start + timedelta(days=6)
    if kind == "month":
        return _month_bounds(today.year, today.month + _offset(m.group(1)))
    if kind == "month_of_year":
        month = _as_int(m.group(2))
        if month is None or not 1 <= month <= 12:
            return None
        year = {"今": today.year, "去": today.year - 1, "明": today.year + 1, None: today.year}.get(
            m.group(1)
        )
        return _month_bounds(int(m.group(1)) if year is None else year, month)
    if kind == "year":
        year = today.year + {"今": 0, "本": 0, "去": -1, "明": 1}[m.group(1)]
        return date(year, 1, 1), date(year, 12, 31)
    if kind == "year_number":
        year = int(m.group(1))
        return date(year, 1, 1), date(year, 12, 31)
    offset = _DAY_WORDS[m.group(0)]
    day = today + timedelta(days=offset)
    return day, day


def _resolve_recent(m: re.Match[str], today: date) -> tuple[date, date] | None:
    count_text, unit = m.group(1), m.group(3)
    if count_text == "半":
        count: float = 0.5
    else:
        parsed = parse_number(count_text)
        if parsed is None or parsed <= 0 or parsed > 3660:
            return None
        count = float(parsed)
    if unit in {"天", "日"}:
        return today - timedelta(days=int(count) - 1), today
    if unit in {"周", "星期"}:
        return today - timedelta(days=int(count * 7) - 1), today
    if unit in {"个月", "月"}:
        if count == 0.5:
            return today - timedelta(days=14), today
        return _shift_months(today, -int(count)) + timedelta(days=1), today
    if count == 0.5:
        return _shift_months(today, -6) + timedelta(days=1), today
    return _shift_months(today, -12 * int(count)) + timedelta(days=1), today


def find_dates(text: str, today: date, taken: list[tuple[int, int]]) -> Iterator[DateMatch]:
    """Yield every date expression not overlapping `taken`, marking the ones it claims as taken."""
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            resolved = _resolve(kind, m, today)
            if resolved is None:
                continue
            taken.append((m.start(), m.end()))
            start, end = resolved
            yield DateMatch(m.start(), m.end(), DateSpan(start=start, end=end, text=m.group(0)))


_ANCHORED_KINDS = frozenset({"day_word", "week_day"})
"""Relative single days: 明早, 后天, 下周一 (an explicit 12月9日 needs no anchor)."""
_ALREADY_ANCHORED = re.compile(r"\s*[（(]")


def anchor_relative_days(text: str, today: date) -> str:
    """The text with each relative day followed by its date: 明早去 → 明早（12月9日）去.

    A saved note is read on later days, when 明早 no longer means what it meant when it was
    written; the server clock, never a model, fixes the day. A 周末 (two days) is left as written.
    """
    anchors: list[tuple[int, str]] = []
    for kind, pattern in _PATTERNS:
        if kind not in _ANCHORED_KINDS:
            continue
        for m in pattern.finditer(text):
            resolved = _resolve(kind, m, today)
            if resolved is None or resolved[0] != resolved[1] or _ALREADY_ANCHORED.match(text, m.end()):
                continue
            anchors.append((m.end(), f"（{resolved[0].month}月{resolved[0].day}日）"))
    for end, anchor in sorted(anchors, reverse=True):
        text = text[:end] + anchor + text[end:]
    return text
