"""Resolve a tool's date window (dateRange name or explicit bounds) in the user's time zone.

Named ranges are relative to `ExecutionContext.now` in `ExecutionContext.timezone`, so
"今天" means the user's today, never the server's UTC day.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from shifu.contracts.context import ExecutionContext
from shifu.contracts.tool_args import DateRangeName


@dataclass(frozen=True, slots=True)
class DateWindow:
    """Inclusive first and last day (None = open-ended) plus the tz they are days in."""

    start: date | None
    end: date | None
    tz: ZoneInfo

    def start_instant(self) -> datetime | None:
        """The first instant of `start` in UTC."""
        return None if self.start is None else datetime.combine(self.start, time(), self.tz).astimezone(UTC)

    def end_instant(self) -> datetime | None:
        """The first instant after `end` in UTC (half-open upper bound)."""
        if self.end is None:
            return None
        return datetime.combine(self.end + timedelta(days=1), time(), self.tz).astimezone(UTC)


def _month(day: date, offset: int) -> tuple[date, date]:
    index = day.year * 12 + day.month - 1 + offset
    year, month = divmod(index, 12)
    first = date(year, month + 1, 1)
    return first, date(year, month + 1, calendar.monthrange(year, month + 1)[1])


def named_range(name: DateRangeName, today: date) -> tuple[date, date]:
    """The inclusive days of a named range around `today` (weeks start on Monday)."""
    monday = today - timedelta(days=today.weekday())
    match name:
        case DateRangeName.TODAY:
            return today, today
        case DateRangeName.TOMORROW:
            return today + timedelta(days=1), today + timedelta(days=1)
        case DateRangeName.YESTERDAY:
            return today - timedelta(days=1), today - timedelta(days=1)
        case DateRangeName.THIS_WEEK:
            return monday, monday + timedelta(days=6)
        case DateRangeName.LAST_WEEK:
            return monday - timedelta(days=7), monday - timedelta(days=1)
        case DateRangeName.NEXT_WEEK:
            return monday + timedelta(days=7), monday + timedelta(days=13)
        case DateRangeName.THIS_MONTH:
            return _month(today, 0)
        case DateRangeName.LAST_MONTH:
            return _month(today, -1)
        case DateRangeName.NEXT_MONTH:
            return _month(today, 1)


def user_today(ctx: ExecutionContext) -> date:
    """The user's calendar day at request time."""
    return ctx.now.astimezone(ZoneInfo(ctx.timezone)).date()


def resolve_window(
    ctx: ExecutionContext, date_range: DateRangeName | None, start: date | None, end: date | None
) -> DateWindow:
    """The window a call asked for; explicit bounds win only when no name is given."""
    tz = ZoneInfo(ctx.timezone)
    if date_range is not None:
        first, last = named_range(date_range, user_today(ctx))
        return DateWindow(first, last, tz)
    return DateWindow(start, end, tz)
