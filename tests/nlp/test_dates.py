"""Relative dates resolve against the server clock in the configured time zone, across boundaries."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from shifu.nlp.dates import anchor_relative_days
from shifu.nlp.entities import extract_entities

TZ = ZoneInfo("Asia/Shanghai")


def _span(text: str, now: datetime) -> tuple[date, date]:
    dates = extract_entities(text, now=now, tz=TZ).dates
    assert len(dates) == 1, dates
    return dates[0].start, dates[0].end


@pytest.mark.parametrize(
    ("text", "now", "start", "end"),
    [
        ("上个月的待办", datetime(2026, 1, 15, 9), date(2025, 12, 1), date(2025, 12, 31)),
        ("上月", datetime(2026, 3, 31, 9), date(2026, 2, 1), date(2026, 2, 28)),
        ("上个月", datetime(2024, 3, 1, 0, 0), date(2024, 2, 1), date(2024, 2, 29)),
        ("本月待办", datetime(2026, 12, 31, 23, 59), date(2026, 12, 1), date(2026, 12, 31)),
        ("这个月", datetime(2026, 2, 10), date(2026, 2, 1), date(2026, 2, 28)),
        ("下个月", datetime(2026, 12, 5), date(2027, 1, 1), date(2027, 1, 31)),
        ("下月", datetime(2026, 1, 31), date(2026, 2, 1), date(2026, 2, 28)),
        ("今天", datetime(2026, 12, 31, 23, 59), date(2026, 12, 31), date(2026, 12, 31)),
        ("明天", datetime(2026, 12, 31, 12), date(2027, 1, 1), date(2027, 1, 1)),
        ("昨天", datetime(2026, 1, 1, 8), date(2025, 12, 31), date(2025, 12, 31)),
        ("本周", datetime(2026, 1, 1), date(2025, 12, 29), date(2026, 1, 4)),
        ("这周", datetime(2026, 11, 2), date(2026, 11, 2), date(2026, 11, 8)),
        ("下周", datetime(2026, 11, 8), date(2026, 11, 9), date(2026, 11, 15)),
        ("上周", datetime(2026, 11, 2), date(2026, 10, 26), date(2026, 11, 1)),
        ("下周五", datetime(2026, 11, 2, 10), date(2026, 11, 13), date(2026, 11, 13)),
        ("3月5日", datetime(2026, 11, 2), date(2026, 3, 5), date(2026, 3, 5)),
        ("三月五号", datetime(2026, 11, 2), date(2026, 3, 5), date(2026, 3, 5)),
        ("2025年2月28日", datetime(2026, 11, 2), date(2025, 2, 28), date(2025, 2, 28)),
        ("最近三天", datetime(2026, 3, 1), date(2026, 2, 27), date(2026, 3, 1)),
        ("近一周", datetime(2026, 1, 3), date(2025, 12, 28), date(2026, 1, 3)),
        ("近一个月", datetime(2026, 3, 31), date(2026, 3, 1), date(2026, 3, 31)),
        ("12月的", datetime(2026, 5, 1), date(2026, 12, 1), date(2026, 12, 31)),
        ("去年12月", datetime(2026, 1, 2), date(2025, 12, 1), date(2025, 12, 31)),
        ("今年", datetime(2026, 6, 1), date(2026, 1, 1), date(2026, 12, 31)),
    ],
)
def test_relative_dates_resolve_against_now(text: str, now: datetime, start: date, end: date) -> None:
    assert _span(text, now.replace(tzinfo=TZ)) == (start, end)


def test_now_is_seen_in_the_configured_time_zone() -> None:
    # 2026-01-31 17:00 UTC is already 2026-02-01 in Shanghai: 本月 is February there.
    utc_now = datetime(2026, 1, 31, 17, 0, tzinfo=UTC)
    assert _span("本月", utc_now) == (date(2026, 2, 1), date(2026, 2, 28))
    assert _span("今天", utc_now) == (date(2026, 2, 1), date(2026, 2, 1))


def test_invalid_calendar_dates_are_not_invented() -> None:
    assert extract_entities("2月30日", now=datetime(2026, 1, 1, tzinfo=TZ), tz=TZ).dates == []


def test_dates_keep_the_surface_form_and_question_order() -> None:
    dates = extract_entities("不是本月，是上个月的", now=datetime(2026, 5, 5, tzinfo=TZ), tz=TZ).dates
    assert [d.text for d in dates] == ["本月", "上个月"]


@pytest.mark.parametrize(
    ("text", "anchored"),
    [
        ("已经跟业主约好明早去", "已经跟业主约好明早（12月9日）去"),
        ("今晚巡检，后天回访", "今晚（12月8日）巡检，后天（12月10日）回访"),
        ("大后天交材料", "大后天（12月11日）交材料"),
        ("下周一开会", "下周一（12月14日）开会"),
        ("明天（12月9日）去", "明天（12月9日）去"),
        ("12月20日前交", "12月20日前交"),
        ("周末加班", "周末加班"),
        ("本月底前完成", "本月底前完成"),
    ],
)
def test_relative_days_in_a_note_are_followed_by_their_date(text: str, anchored: str) -> None:
    assert anchor_relative_days(text, date(2026, 12, 8)) == anchored
