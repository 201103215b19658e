"""Numbered lists in documents: an item line (1. / 1、 / (1) / （一）) and the lead-in that introduces it.

Statutes and SOPs state a rule in a lead-in (有下列行为之一的，处…罚款：) and its cases in the items
after it; the evidence gate and the extractive composer both read the two together.
"""

from __future__ import annotations

import re

ITEM_LINE = re.compile(
    r"\s*(?:\d{1,2}\s*[.、．)）]|[（(]\d{1,2}[)）]|[（(][一二三四五六七八九十]{1,3}[)）])\s*\S"
)
"""The start of a numbered item: 1. / 1、 / (1) / （一）."""
LEAD_IN_END = ("：", ":")
"""A sentence ending in a colon introduces the list after it."""
