"""Sentences that state what a term means: 人员密集场所，是指…, 本条例所称物业服务企业…, and the
short form company rules use, 重大投诉，指5户以上业主联名投诉….

The claim classifier labels such fragments as candidates for a DEFINITION slot, the evidence gate
checks the body states one, and the extractive composer quotes the defining sentence. 指 after a
comma only defines when it is not the start of another word (，指定专人, ，指导员工).
"""

from __future__ import annotations

import re

DEFINES = re.compile(r"是指|指的是|系指|称为|所称|定义|[，,：:]\s*指(?![定导挥出令示标引南派望向着])")
"""Wording that defines a term."""


def defines(text: str) -> bool:
    """True when `text` states what some term means."""
    return DEFINES.search(text) is not None
