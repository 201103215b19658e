"""Numbered lists in documents: an item line (1. / 1、 / (1) / （一）) and the lead-in that introduces it.

Statutes and SOPs state a rule in a lead-in (有下列行为之一的，处…罚款：) and its cases in the items
after it; the evidence gate and the extractive composer both read the two together.
"""

from __future__ import annotations

import re

_ITEM_NUMBER = r"(?:\d{1,2}\s*[.、．)）]|[（(]\d{1,2}[)）]|[（(][一二三四五六七八九十]{1,3}[)）])"
ITEM_LINE = re.compile(rf"\s*{_ITEM_NUMBER}\s*\S")
"""The start of a numbered item: 1. / 1、 / (1) / （一）."""
ITEM_MARK = re.compile(rf"^\s*{_ITEM_NUMBER}\s*", re.MULTILINE)
"""The number in front of each item line, to read the items without it."""
LEAD_IN_END = ("：", ":")
"""A sentence ending in a colon introduces the list after it."""
MATERIALS_LEAD_IN = re.compile(
    r"(?:以下|下列)[\u4e00-\u9fff]{0,2}(?:材料|资料|单据|证件|证明|附件|内容|事项|物品)|(?:材料|资料|单据|证件|证明|附件)(?:如下|有)"
)
"""A lead-in introducing what is handed in or over (须提交以下材料：, 需提交以下入职资料：,
需提交的证明材料如下：)."""
PROHIBITED_LEAD_IN = re.compile(
    r"(?:严禁|禁止|不得有)(?:以下|下列)|(?:以下|下列)(?:行为|情形)(?:严格|一律)?(?:禁止|严禁)"
)
"""A lead-in introducing what is forbidden (物业费催缴中严禁以下行为：, 以下行为严格禁止：)."""
STEPS_LEAD_IN = re.compile(r"按(?:照)?(?:以下|下列)(?:步骤|流程|程序)")
"""A lead-in introducing the steps of a procedure (费用报销按以下步骤办理：)."""


def item_lines(text: str) -> list[str]:
    """The numbered item lines of `text`, stripped (4. 近期免冠一寸彩色照片2张。)."""
    return [line.strip() for line in text.splitlines() if ITEM_LINE.match(line)]
