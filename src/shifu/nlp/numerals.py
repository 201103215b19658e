"""Chinese and Arabic numerals to exact decimals.

Staff write amounts and counts every way at once (500, 1,200, 3.5万, 五百, 两千五,
一万二); the fidelity validator must see all of them as the same number, so one small
exact parser owns the conversion. It works on `Decimal` so 3.5万 is exactly 35000.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

CN_DIGITS: dict[str, int] = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "壹": 1,
    "二": 2,
    "两": 2,
    "贰": 2,
    "三": 3,
    "叁": 3,
    "四": 4,
    "肆": 4,
    "五": 5,
    "伍": 5,
    "六": 6,
    "陆": 6,
    "七": 7,
    "柒": 7,
    "八": 8,
    "捌": 8,
    "九": 9,
    "玖": 9,
}
CN_SMALL_UNITS: dict[str, int] = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
CN_BIG_UNITS: dict[str, int] = {"万": 10_000, "亿": 100_000_000}

_CN_CHARS = "".join(CN_DIGITS) + "".join(CN_SMALL_UNITS) + "".join(CN_BIG_UNITS)
CN_NUMBER = f"[{_CN_CHARS}]+"
"""Regex fragment: a run of Chinese numeral characters."""
ARABIC_NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"
"""Regex fragment: an Arabic number with optional thousands separators and decimals."""
NUMBER = rf"(?:{ARABIC_NUMBER}\s*[万千百亿]?|{CN_NUMBER}(?:点[{''.join(CN_DIGITS)}]+)?[万亿]?)"
"""Regex fragment: any number this module can parse."""
BODY_NUMERAL_CHARS = "零〇一二两三四五六七八九十百千万"
"""The Chinese numeral characters governed document bodies write numbers with."""
BODY_NUMBER = rf"(?:{ARABIC_NUMBER}|[{BODY_NUMERAL_CHARS}]+)"
"""Regex fragment: a number as a document body writes it next to its unit (5天, 五个工作日)."""

_ARABIC_WITH_UNIT = re.compile(rf"^({ARABIC_NUMBER})\s*([万千百亿]?)$")
_CN_DECIMAL = re.compile(rf"^([{_CN_CHARS}]+)点([{''.join(CN_DIGITS)}]+)([万亿]?)$")


def _parse_cn_integer(text: str) -> int | None:
    """Parse a run of Chinese numerals, including the spoken abbreviations 两千五 and 一万二."""
    if not text or any(ch not in _CN_CHARS for ch in text):
        return None
    if all(ch in CN_DIGITS for ch in text) and len(text) > 1:
        return int("".join(str(CN_DIGITS[ch]) for ch in text))
    total = 0
    section = 0
    digit: int | None = None
    last_unit = 1
    for ch in text:
        if ch in CN_DIGITS:
            digit = CN_DIGITS[ch]
        elif ch in CN_SMALL_UNITS:
            unit = CN_SMALL_UNITS[ch]
            section += (1 if digit is None else digit) * unit
            digit = None
            last_unit = unit
        else:
            unit = CN_BIG_UNITS[ch]
            section += digit or 0
            total = (total + section) * unit if unit > 10_000 else total + section * unit
            section = 0
            digit = None
            last_unit = unit
    if digit is not None:
        if last_unit > 1 and _ends_with_abbreviation(text):
            section += digit * (last_unit // 10)
        else:
            section += digit
    return total + section


def _ends_with_abbreviation(text: str) -> bool:
    """True for 两千五 / 一万二 (a unit immediately followed by one final digit)."""
    return len(text) >= 2 and (text[-2] in CN_SMALL_UNITS or text[-2] in CN_BIG_UNITS)


def parse_number(text: str) -> Decimal | None:
    """Parse one number written in digits, Chinese numerals or a mix (3.5万); None if not a number.

    Whole values come back without a fractional part (3.5万 → 35000), so equal amounts
    compare and serialize identically however they were written.
    """
    value = _parse(text)
    if value is not None and value == value.to_integral_value():
        return value.quantize(Decimal(1))
    return value


def _parse(text: str) -> Decimal | None:
    cleaned = text.strip().replace(" ", "")
    if not cleaned:
        return None
    match = _ARABIC_WITH_UNIT.match(cleaned)
    if match:
        try:
            value = Decimal(match.group(1).replace(",", ""))
        except InvalidOperation:
            return None
        multiplier = {"": 1, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}[match.group(2)]
        return value * multiplier
    match = _CN_DECIMAL.match(cleaned)
    if match:
        whole = _parse_cn_integer(match.group(1))
        if whole is None:
            return None
        fraction = "".join(str(CN_DIGITS[ch]) for ch in match.group(2))
        value = Decimal(f"{whole}.{fraction}")
        return value * (CN_BIG_UNITS[match.group(3)] if match.group(3) else 1)
    integer = _parse_cn_integer(cleaned)
    return None if integer is None else Decimal(integer)
