"""Which kind of claim a section heading is written for: its last kind word, the phrase's head."""

from __future__ import annotations

import pytest

from shifu.contracts.common import EvidenceNeed
from shifu.evidence.slots import heading_need


@pytest.mark.parametrize(
    ("locator", "need"),
    [
        ("一、候选人资料提交的时限", EvidenceNeed.DEADLINE),
        ("五、候选人需提交的入职资料清单", EvidenceNeed.REQUIRED_MATERIALS),
        ("六、电梯困人处置中禁止哪些行为", EvidenceNeed.PROHIBITION),
        ("二、电梯困人应急处置的步骤", EvidenceNeed.PROCESS_STEPS),
        ("二、费用报销的单笔审批权限", EvidenceNeed.APPROVAL),
        ("五、电梯困人应急联系方式", EvidenceNeed.CONTACT),
        ("第三十一条", None),
        ("一、主管复盘的目的", None),
    ],
)
def test_the_head_kind_word_decides(locator: str, need: EvidenceNeed | None) -> None:
    assert heading_need(locator) is need
