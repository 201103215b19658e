"""Which year, ordinal or model number a question asks about, and whether a text is about another.

第27届 does not answer 第28届, a sentence naming 神舟十七号 is not about 神舟十六号, and 2020年的销量
does not answer a question about 2021. The evidence gate reads these per sentence and per fragment.
"""

from __future__ import annotations

import re

from shifu.nlp.units import CN_NUMERALS, MEASURE_UNITS

_IDENTIFIER = re.compile(
    rf"第[\d{CN_NUMERALS}]+[届任次期号艘代批轮季]|[{CN_NUMERALS}]{{2,}}号|[A-Za-z]+\d+[A-Za-z]*|\d+[A-Za-z]+|\d+号|"
    r"(?<![\d.])\d+(?:米|公里)|(?<![A-Za-z0-9])[A-Za-z]{2,}(?![A-Za-z0-9])|[上下]半年|(?<!前)[一二三四]季度"
)
"""第28届, 十六号, M1, 500米, a Latin-script name (CPI, APEC, WTA) and a part of the year (上半年, 一季度):
what pins a question down."""


def question_identifiers(question: str) -> tuple[str, ...]:
    """What pins the question down: ordinals, model numbers, Latin names, parts of the year (第28届, M1, CPI,
    上半年)."""
    return tuple(dict.fromkeys(match.group(0) for match in _IDENTIFIER.finditer(question)))


_YEAR = re.compile(
    r"(?<!\d)((?:19|20)\d{2})(?=\s*(?:年|赛季|届|财年|[“《「]))"
    r"(\s*年?\s*(?:\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?)?\s*(?:起|以来|开始|施行|实施|生效))?"
)


_BARE_YEAR = re.compile(
    rf"(?<![\d.])((?:19|20)\d{{2}})(?=[\u4e00-\u9fff])(?!{MEASURE_UNITS}|版|多|余|左右|以)"
)
"""A year a question puts straight before its subject: 2022春运, 2022清明档 (not 2000元, 2000多人,
nor a document version: 2025版)."""


def question_years(question: str) -> frozenset[int]:
    """The years a question names (2021年, 2022赛季, 2022春运)."""
    return frozenset(year for _, year in year_mentions(question))


_DECADE = re.compile(r"上世纪|[二十九一]{0,2}世纪[0-9一二三四五六七八九十]*年代|(?<!\d)[1-9]0年代")
"""上世纪60年代, 80年代: a time long before the year asked about."""


def names_other_year(text: str, years: frozenset[int]) -> bool:
    """True when `text` is dated to other years only: 2020年的销量 does not answer 2021年.

    A year the text starts from (自2020年起, 2020年以来, 自2024年1月1日起施行) still covers the
    later years asked about.
    """
    if not years:
        return False
    stated: set[int] = set()
    for match in _YEAR.finditer(text):
        year = int(match.group(1))
        if match.group(2) and year <= max(years):
            return False
        stated.add(year)
    if _DECADE.search(text) and not stated & years:
        return True
    return bool(stated) and not stated & years


_LATIN_AND_DIGITS = re.compile(r"(?:[A-Za-z]+|\d+){2,}")
_LATIN_OR_DIGITS = re.compile(r"[A-Za-z]+|\d+")


def _identifier_pattern(identifier: str) -> re.Pattern[str]:
    """The identifier as a whole: 500米 is not the end of 1500米, 3号 not the start of 30号.

    Letters and digits may be written apart: GPT4 is GPT-4, CVPR2022 is CVPR 2022.
    """
    before = r"(?<!\d)(?<!\d\.)" if identifier[0].isdigit() else ""
    after = r"(?!\.?\d)" if identifier[-1].isdigit() else ""
    apart = _LATIN_AND_DIGITS.fullmatch(identifier) is not None
    spelled = _LATIN_OR_DIGITS.findall(identifier) if apart else [identifier]
    body = r"[\s\-_]?".join(re.escape(piece) for piece in spelled)
    return re.compile(before + body + after, re.IGNORECASE)


_SPELLED_OUT = {
    "gdp": ("国内生产总值", "地区生产总值"),
    "cpi": ("居民消费价格",),
    "ppi": ("生产价格指数", "出厂价格"),
    "pmi": ("采购经理指数",),
    "上半年": ("1-6月", "1—6月", "1至6月", "1月至6月", "1月-6月", "前6个月", "前六个月", "半年度"),
    "下半年": ("7-12月", "7—12月", "7至12月", "7月至12月", "7月-12月"),
    "一季度": ("1-3月", "1—3月", "1至3月", "1月至3月", "前3个月", "前三个月"),
}
"""Names Chinese text also spells out: 国内生产总值 states GDP, 1月至6月 states 上半年."""


def names_identifiers(text: str, identifiers: tuple[str, ...]) -> bool:
    """True when `text` states every identifier (case-insensitive): 第27届 does not answer 第28届."""
    return all(
        _identifier_pattern(identifier).search(text)
        or any(word in text for word in _SPELLED_OUT.get(identifier.lower(), ()))
        for identifier in identifiers
    )


_NUMERAL_RUN = re.compile(rf"[\d{CN_NUMERALS}]+")


def _identifier_shape(identifier: str) -> str:
    """第28届 and 第27届, 十六号 and 十七号 share a shape: the kind of identifier, numbers aside."""
    return _NUMERAL_RUN.sub("#", identifier.lower())


def names_other_identifier(text: str, identifiers: tuple[str, ...]) -> bool:
    """True when `text` is about another one of the same kind: 神舟十七号 where 神舟十六号 was asked.

    The sentence before may name the asked identifier; a sentence that names a sibling instead
    (and not the asked one) is about the sibling.
    """
    shapes = {_identifier_shape(identifier): identifier for identifier in identifiers}
    for match in _IDENTIFIER.finditer(text):
        asked = shapes.get(_identifier_shape(match.group(0)))
        if asked is not None and not _identifier_pattern(asked).search(text):
            return True
    return False


def year_mentions(text: str) -> list[tuple[int, int]]:
    """(position, year) of every year `text` names, in the question's forms (2021年, 2022赛季, 2022春运)."""
    return sorted(
        (match.start(), int(match.group(1)))
        for pattern in (_YEAR, _BARE_YEAR)
        for match in pattern.finditer(text)
    )
