"""Entities extracted deterministically from a question; the fidelity validator compares them."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from enum import StrEnum

from pydantic import Field

from shifu.contracts.common import Contract


class ComparatorOp(StrEnum):
    """A comparison the question states about a number (以下 → LE, 超过 → GT …)."""

    LT = "LT"
    LE = "LE"
    GT = "GT"
    GE = "GE"
    EQ = "EQ"


class AmountCaliber(StrEnum):
    """The basis an amount is stated on; a monthly cap never answers a per-transaction question."""

    PER_TRANSACTION = "PER_TRANSACTION"
    MONTHLY_CUMULATIVE = "MONTHLY_CUMULATIVE"
    ANNUAL_CUMULATIVE = "ANNUAL_CUMULATIVE"
    UNSPECIFIED = "UNSPECIFIED"


class DurationUnit(StrEnum):
    """Unit of a duration."""

    HOUR = "HOUR"
    DAY = "DAY"
    WEEK = "WEEK"
    MONTH = "MONTH"
    YEAR = "YEAR"


class MoneyAmount(Contract):
    """An amount of money mentioned in the question (五百块 == 500 CNY)."""

    value: Decimal
    """Numeric value in the currency's main unit."""
    currency: str = "CNY"
    """ISO 4217 currency code."""
    text: str
    """The surface form as written."""


class Comparator(Contract):
    """A comparator word and what it means."""

    op: ComparatorOp
    """Normalized operator."""
    text: str
    """The surface form as written (以下, 不超过 …)."""


class DateSpan(Contract):
    """A date or date range resolved against the server clock in the configured time zone."""

    start: date
    """First day, inclusive."""
    end: date
    """Last day, inclusive."""
    text: str
    """The surface form as written (今天, 上个月 …)."""


class Duration(Contract):
    """A length of time (三个月, 一年以上)."""

    value: Decimal
    """Number of units."""
    unit: DurationUnit
    """The unit."""
    text: str
    """The surface form as written."""


class Negation(Contract):
    """A negation cue; dropping one changes the meaning, so it must survive rewriting."""

    text: str
    """The cue as written (不, 没, 无需, 不得, 禁止, 不用)."""


class VersionRef(Contract):
    """A document version mentioned in the question (2024版, V2, 第二版)."""

    value: str
    """Normalized version label (e.g. "2024", "2")."""
    text: str
    """The surface form as written."""


class Location(Contract):
    """A building/room reference (3栋1201, 5号楼)."""

    building: str | None = None
    """Building number as written in digits."""
    room: str | None = None
    """Room number."""
    text: str
    """The surface form as written."""


class OrdinalRef(Contract):
    """An ordinal reference to an earlier listed item (第二项 → 2, 最后那个 → -1, 上一个 → -1)."""

    index: int
    """1-based index; -1 means the last one."""
    text: str
    """The surface form as written."""


class DocumentRef(Contract):
    """A reference to an earlier cited document (刚才那份, 原文, 原文件)."""

    text: str
    """The surface form as written."""


class PersonMention(Contract):
    """A person named in the question; never widens authorization scope."""

    name: str
    """The name as written."""


class ExtractedEntities(Contract):
    """All entities of one question; every list keeps the question's order."""

    amounts: list[MoneyAmount] = Field(default_factory=list)
    """Money amounts."""
    comparators: list[Comparator] = Field(default_factory=list)
    """Comparators."""
    dates: list[DateSpan] = Field(default_factory=list)
    """Dates and ranges."""
    durations: list[Duration] = Field(default_factory=list)
    """Durations."""
    negations: list[Negation] = Field(default_factory=list)
    """Negation cues."""
    versions: list[VersionRef] = Field(default_factory=list)
    """Document versions."""
    locations: list[Location] = Field(default_factory=list)
    """Buildings and rooms."""
    ordinals: list[OrdinalRef] = Field(default_factory=list)
    """Ordinal references to earlier items."""
    document_refs: list[DocumentRef] = Field(default_factory=list)
    """References to earlier cited documents."""
    persons: list[PersonMention] = Field(default_factory=list)
    """People named."""
    calibers: list[AmountCaliber] = Field(default_factory=list)
    """Amount calibers stated (一笔 → PER_TRANSACTION, 每月累计 → MONTHLY_CUMULATIVE)."""
