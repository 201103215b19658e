"""Numbers a claim states, normalized so 五百 == 500 and 5万 == 50000, for the claim verifier."""

from __future__ import annotations

import re
from decimal import Decimal

from shifu.nlp.numerals import parse_number

_ARABIC = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?\s*[万千亿]?")
_CHINESE = re.compile(r"[零〇一二两三四五六七八九十百千万亿]+")
_UNIT_AFTER = tuple("元块万千个日天月年周时次笔项条%人份张名号楼层岁")


def _chinese_values(text: str, *, strict: bool) -> set[Decimal]:
    values: set[Decimal] = set()
    for match in _CHINESE.finditer(text):
        following = text[match.end() : match.end() + 1]
        if match.start() > 0 and text[match.start() - 1].isdigit():
            continue  # the 万 of 5万 belongs to the Arabic number
        if strict and not following.startswith(_UNIT_AFTER) and len(match.group(0)) < 2:
            continue
        value = parse_number(match.group(0))
        if value is not None:
            values.add(value)
    return values


def _arabic_values(text: str, *, with_bare: bool) -> set[Decimal]:
    values: set[Decimal] = set()
    for match in _ARABIC.finditer(text):
        raw = match.group(0).replace(" ", "")
        value = parse_number(raw)
        if value is not None:
            values.add(value)
        bare = parse_number(re.sub(r"[万千亿]$", "", raw)) if with_bare else None
        if bare is not None:
            values.add(bare)
    return values


def claimed_numbers(text: str) -> set[Decimal]:
    """Numbers a claim asserts: every Arabic number, and Chinese numerals used as quantities.

    A lone Chinese numeral not followed by a unit (一般, 统一) is a word, not a number.
    """
    return _arabic_values(text, with_bare=False) | _chinese_values(text, strict=True)


def available_numbers(text: str) -> set[Decimal]:
    """Every number a source text could support (liberal, so paraphrases of real numbers pass)."""
    return _arabic_values(text, with_bare=True) | _chinese_values(text, strict=False)
