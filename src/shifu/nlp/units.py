"""Units Chinese text counts in, and the characters of Chinese numerals.

Shared by the answer-span patterns, the count reader and the year reader: 2000元 is an amount and
2000多人 a count, never the year 2000.
"""

from __future__ import annotations

CN_NUMERALS = "零〇一二两三四五六七八九十百千万亿"
"""The characters of a Chinese numeral (for character classes)."""
MEASURE_UNITS = (
    r"人次|人|名|个月|个|次|万|亿|倍|天|年|周岁|岁|辆|吨|架|艘|座|家|所|项|条|份|元|块|米|公里|千米|"
    r"平方米|公顷|亩|小时|分钟|百分点|届|场|部|枚|票|户|套|台|件|位|斤|克|度|级"
)
"""Regex alternation: the units and classifiers a number is counted in (longest first where it matters)."""
