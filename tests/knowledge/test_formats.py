"""DOCX, PDF and plain-text parsing; structure-following fragments; the claim classifier."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from shifu.contracts.common import Authority, EvidenceNeed
from shifu.knowledge.chunking import split_document
from shifu.knowledge.classifier import classify_claims
from shifu.knowledge.governance import IngestDefaults
from shifu.knowledge.parsing import DocumentError, read_document
from shifu.knowledge.service import KnowledgeBase


def minimal_pdf(lines: list[str]) -> bytes:
    """A one-page PDF with Helvetica text lines and a correct xref table."""
    content = "BT /F1 12 Tf 72 720 Td 14 TL " + " ".join(f"({line}) Tj T*" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def test_docx_headings_become_sections(kb: KnowledgeBase, tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("电梯困人应急处置", level=0)
    document.add_heading("一、接警", level=1)
    document.add_paragraph("接到困人报警后，应当在5分钟内通知维保单位。")
    document.add_heading("二、安抚", level=1)
    document.add_paragraph("通过对讲安抚被困人员，禁止强行扒门。")
    path = tmp_path / "dianti.docx"
    document.save(str(path))
    raw = read_document(path)
    assert raw.source_format == "docx"
    fragments = split_document(raw.body, statute=False)
    assert [f.locator for f in fragments] == ["一、接警", "二、安抚"]
    assert fragments[0].heading_path == ("电梯困人应急处置",)
    report = kb.ingest_paths([path], space_id="space-all-staff", defaults=_sop())
    assert report.ok and report.fragments_added == 2


def test_pdf_text_is_extracted(kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(minimal_pdf(["1. Check the fire doors.", "2. Record the result."]))
    raw = read_document(path)
    assert raw.source_format == "pdf" and "Check the fire doors." in raw.body
    report = kb.ingest_paths([path], space_id="space-all-staff", defaults=_sop())
    assert report.ok and report.fragments_added >= 1


def _sop() -> IngestDefaults:
    return IngestDefaults(authority=Authority.SOP, version="v1")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("单笔报销不超过500元。", EvidenceNeed.AMOUNT_RULE),
        ("法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬。", EvidenceNeed.AMOUNT_RULE),
        ("按照其日工资收入的300%支付未休年休假工资报酬。", EvidenceNeed.AMOUNT_RULE),
        ("首先拨打电话，然后等待。", EvidenceNeed.PROCESS_STEPS),
        ("报销时应提交发票。", EvidenceNeed.REQUIRED_MATERIALS),
        ("须经部门经理审批。", EvidenceNeed.APPROVAL),
        ("严禁强行扒门。", EvidenceNeed.PROHIBITION),
        ("应在3个工作日内完成。", EvidenceNeed.DEADLINE),
        ("维保人员应在30分钟内到达现场。", EvidenceNeed.DEADLINE),
        ("本法所称用人单位，是指企业。", EvidenceNeed.DEFINITION),
        ("重大投诉，指5户以上业主联名投诉。", EvidenceNeed.DEFINITION),
        ("联系电话400-000-0001。", EvidenceNeed.CONTACT),
        ("用人单位应当支付工资。", EvidenceNeed.OBLIGATION),
        ("应当承担赔偿责任。", EvidenceNeed.LIABILITY),
        ("连续工作满1年的职工享受年休假。", EvidenceNeed.ELIGIBILITY),
        ("职工有下列情形之一的，应当认定为工伤。", EvidenceNeed.ELIGIBILITY),
        ("员工出现以下情况之一的，系统自动将其列入待复盘名单：", EvidenceNeed.ELIGIBILITY),
        ("本制度适用于日常费用报销，包括差旅费和市内交通费。", EvidenceNeed.ELIGIBILITY),
    ],
)
def test_classifier_cues(text: str, expected: EvidenceNeed) -> None:
    needs, claims = classify_claims(text)
    assert expected in needs and len(needs) == len(claims)
    assert classify_claims(text) == (needs, claims)


def test_classifier_does_not_invent_amounts() -> None:
    needs, _ = classify_claims("物业服务企业应当做好安全防范工作。")
    assert EvidenceNeed.AMOUNT_RULE not in needs and needs[-1] == EvidenceNeed.GENERAL_RULE


def test_front_matter_must_be_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "list.md"
    path.write_text("---\n- a\n- b\n---\n正文\n", encoding="utf-8")
    with pytest.raises(DocumentError) as caught:
        read_document(path)
    assert caught.value.reason == "BAD_METADATA"


def test_plain_paragraphs_fall_back_to_groups() -> None:
    body = "\n\n".join(["甲" * 250, "乙" * 250, "丙" * 250])
    fragments = split_document(body, statute=False)
    assert [f.locator for f in fragments] == ["第1部分", "第2部分"]
