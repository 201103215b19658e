"""Defining sentences: the statute forms (是指, 所称) and the company rules' short form (，指)."""

from __future__ import annotations

import pytest

from shifu.nlp.definitions import defines


@pytest.mark.parametrize(
    ("text", "defining"),
    [
        ("重大投诉，指5户以上业主联名投诉、涉及人身伤害或财产重大损失的投诉。", True),
        ("人员密集场所，是指公众聚集场所，医院的门诊楼、病房楼。", True),
        ("本条例所称物业服务企业，是指依法设立的企业。", True),
        ("项目经理应指定专人负责，指导员工完成交接。", False),
        ("主管负责考核，指出问题并跟进整改。", False),
        ("投诉登记后，责任人应在2小时内与业主取得联系。", False),
    ],
)
def test_a_sentence_defines_a_term_only_in_defining_wording(text: str, defining: bool) -> None:
    assert defines(text) is defining
