"""A resource request is served only by the document it names, never by whatever ranks first."""

from __future__ import annotations

import pytest

from shifu.contracts.evidence import DocumentEvidence
from shifu.evidence.requested import is_requested, requested_terms

from .builders import doc

REIMBURSEMENT = doc("r1", "员工因公发生的费用，应在发生后30日内提交报销申请。", title="费用报销管理制度")
CANDIDATE_GUIDE = doc(
    "c1", "候选人应在面试前提交身份证复印件和学历证明。", title="候选人资料提交说明", locator="一、提交材料"
)
GATE_SOP = doc(
    "g1", "交班人员应当面清点钥匙和对讲机。", title="华府项目门岗交接班SOP", locator="二、交接内容"
)
LEAVE = doc("l1", "员工请假应提前在系统提交申请。", title="请假管理制度", locator="一、请假申请")


@pytest.mark.parametrize(
    ("request_text", "delivery_words"),
    [
        ("把员工费用报销制度的文件发我", {"文件", "发我"}),
        ("把华府门岗交接班SOP原文给我", {"原文", "给我"}),
        ("电梯困人处置的视频发我看看", {"视频", "看看"}),
        ("消防巡检SOP的原件给我下载", {"原件", "下载"}),
    ],
)
def test_delivery_wording_is_no_part_of_the_subject(request_text: str, delivery_words: set[str]) -> None:
    terms = requested_terms(request_text)
    assert not terms.empty
    assert not {term.text for term in terms.terms} & delivery_words


@pytest.mark.parametrize(
    ("request_text", "named", "others"),
    [
        ("把员工费用报销制度的文件发我", REIMBURSEMENT, (CANDIDATE_GUIDE, GATE_SOP, LEAVE)),
        ("把华府门岗交接班SOP原文给我", GATE_SOP, (REIMBURSEMENT, CANDIDATE_GUIDE, LEAVE)),
        ("请假制度的原文发我", LEAVE, (REIMBURSEMENT, CANDIDATE_GUIDE, GATE_SOP)),
    ],
)
def test_only_the_named_document_is_requested(
    request_text: str, named: DocumentEvidence, others: tuple[DocumentEvidence, ...]
) -> None:
    terms = requested_terms(request_text)
    assert is_requested(terms, named)
    assert not any(is_requested(terms, other) for other in others)


def test_a_request_naming_no_subject_names_no_document() -> None:
    terms = requested_terms("把那个文件发我")
    assert terms.empty
    assert not is_requested(terms, REIMBURSEMENT)
