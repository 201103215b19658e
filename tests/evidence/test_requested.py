"""A resource request is served only by the document it names, never by whatever ranks first."""

from __future__ import annotations

import pytest

from shifu.contracts.evidence import DocumentEvidence
from shifu.evidence.requested import is_requested, names_title, requested_terms

from .builders import doc

REIMBURSEMENT = doc("r1", "员工因公发生的费用，应在发生后30日内提交报销申请。", title="费用报销管理制度")
CANDIDATE_GUIDE = doc(
    "c1", "候选人应在面试前提交身份证复印件和学历证明。", title="候选人资料提交说明", locator="一、提交材料"
)
GATE_SOP = doc(
    "g1", "交班人员应当面清点钥匙和对讲机。", title="华府项目门岗交接班SOP", locator="二、交接内容"
)
ELEVATOR = doc("e1", "发现电梯困人后应立即安抚被困人员。", title="电梯困人应急处置规程", locator="一、接报")
HANDBOOK = doc("h1", "员工应遵守公司各项规章。", title="员工手册", locator="一、总则")
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
        ("把员工费用报销制度的文件发我", REIMBURSEMENT, (CANDIDATE_GUIDE, GATE_SOP, LEAVE, HANDBOOK)),
        ("把华府门岗交接班SOP原文给我", GATE_SOP, (REIMBURSEMENT, CANDIDATE_GUIDE, LEAVE, HANDBOOK)),
        ("请假制度的原文发我", LEAVE, (REIMBURSEMENT, CANDIDATE_GUIDE, GATE_SOP, HANDBOOK)),
    ],
)
def test_only_the_named_document_is_requested(
    request_text: str, named: DocumentEvidence, others: tuple[DocumentEvidence, ...]
) -> None:
    assert is_requested(request_text, named)
    assert not any(is_requested(request_text, other) for other in others)


def test_a_request_spelling_the_title_names_the_document_whatever_else_it_says() -> None:
    request = "电梯困人应急处置规程原文件发我（备注：琥珀鲸落13957219486）"
    assert names_title(request, ELEVATOR)
    assert is_requested(request, ELEVATOR)
    assert not requested_terms(request).empty
    assert not is_requested(request, REIMBURSEMENT)


def test_a_short_title_core_names_nothing_on_its_own() -> None:
    assert not names_title("把员工费用报销制度的文件发我", HANDBOOK)


def test_a_request_naming_no_subject_names_no_document() -> None:
    assert requested_terms("把那个文件发我").empty
    assert not is_requested("把那个文件发我", REIMBURSEMENT)


CHECKUP = doc(
    "c2",
    "体检费用由候选人先行垫付，入职满1个月后凭体检发票报销，报销上限为200元。",
    title="候选人资料提交说明",
    locator="三、入职体检要求",
)


def test_a_rulebook_request_is_for_the_document_whose_title_names_its_subject() -> None:
    assert not is_requested("报销制度发我看看", CHECKUP)
    assert is_requested("报销制度发我看看", REIMBURSEMENT)


def test_a_request_for_no_rulebook_may_be_met_by_the_section_about_its_subject() -> None:
    assert is_requested("入职体检的原文发我", CHECKUP)
