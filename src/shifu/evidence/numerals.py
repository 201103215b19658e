"""Chinese and Arabic numbers as they appear in governed document bodies.

Why our own parser: `cn2an.transform` rewrites every numeral-looking character (零星 →
0星) and warns on partial inputs, which would corrupt the body checks. Here only a run
of numeral characters that the caller located next to a unit is converted.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from shifu.nlp.numerals import BODY_NUMBER, BODY_NUMERAL_CHARS

CN_DIGITS: dict[str, int] = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
CN_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
CN_NUMERAL_CHARS = BODY_NUMERAL_CHARS
NUMBER_PATTERN = BODY_NUMBER
"""A number written in Arabic digits (with optional thousands commas) or Chinese numerals."""


def _parse_section(text: str) -> int:
    """Parse a numeral below 10,000 (no 万), including colloquial 两千五 → 2500."""
    section = 0
    number = 0
    last_unit = 1
    after_zero = False
    for char in text:
        if char in CN_DIGITS:
            number = CN_DIGITS[char]
            after_zero = char in "零〇"
        elif char in CN_UNITS:
            unit = CN_UNITS[char]
            section += (number or 1) * unit
            number = 0
            last_unit = unit
            after_zero = False
    if number and last_unit >= 100 and not after_zero and not text.endswith(tuple(CN_UNITS)):
        # 两千五 means 2500, not 2005, unless a 零 says otherwise (两千零五).
        prefix_has_zero = "零" in text or "〇" in text
        if not prefix_has_zero:
            return section + number * (last_unit // 10)
    return section + number


def parse_cn_integer(text: str) -> int | None:
    """Parse a Chinese numeral (一万二千 → 12000); None when the text is not one."""
    if not text or any(char not in CN_NUMERAL_CHARS for char in text):
        return None
    if all(char in CN_DIGITS for char in text) and len(text) > 1:
        return int("".join(str(CN_DIGITS[char]) for char in text))
    if "万" in text:
        high, _, low = text.partition("万")
        high_value = _parse_section(high) if high else 1
        low_value = _parse_section(low) if low else 0
        if low and not low.startswith(("零", "〇")) and low_value < 10 and len(low) == 1:
            low_value *= 1000
        return high_value * 10000 + low_value
    return _parse_section(text)


def parse_number(text: str) -> Decimal | None:
    """Parse Arabic digits (1,000.5) or a Chinese numeral into a Decimal."""
    cleaned = text.replace(",", "").strip()
    if not cleaned:
        return None
    if re.fullmatch(r"\d+(?:\.\d+)?", cleaned):
        try:
            return Decimal(cleaned)
        except InvalidOperation:
            return None
    value = parse_cn_integer(cleaned)
    return Decimal(value) if value is not None else None
