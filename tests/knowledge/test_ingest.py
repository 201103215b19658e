"""Ingestion: idempotent re-ingest, versioning, per-file errors with nothing half-indexed, check/rebuild."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from kb_support import policy, write_doc
from sqlalchemy import select

from shifu.contracts.common import Authority, EvidenceNeed
from shifu.knowledge.admin import _governed
from shifu.knowledge.governance import IngestDefaults, resolve_metadata
from shifu.knowledge.parts import index_point
from shifu.knowledge.service import KnowledgeBase
from shifu.store.engine import transaction
from shifu.store.tables.knowledge import KbDocumentRow, KbFragmentRow

LAW = """---
title: "中华人民共和国测试法"
doc_type: 法律
source_version_date_in_filename: 2012-12-28
---
# 中华人民共和国测试法

## 第一章 总则

第一条 为了测试，制定本法。

第二条 本法所称用人单位，是指企业。

### 第一节 一般规定

第三条 用人单位应当在三十日内支付经济补偿。

## 第二章 法律责任

第四条 违反本法规定的，处二千元以下罚款。
"""

BAD_LIFECYCLE = "---\nauthority: SOP\nversion: v\nlifecycle: LIVE\n---\n## 一\n\n内容\n".encode()
BAD_DATE = "---\nauthority: SOP\nversion: v\neffective_from: 明天\n---\n## 一\n\n内容\n".encode()
POLICY = "## 一、报销标准\n\n单笔报销不超过500元。\n\n## 二、报销流程\n\n1. 提交发票。\n2. 主管审批。\n"


def test_law_is_split_per_article_with_heading_path(kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "ceshi_fa.md"
    path.write_text(LAW, encoding="utf-8")
    report = kb.ingest_paths([path], space_id="space-laws")
    assert report.ok and report.fragments_added == 4
    fragments = kb.list_fragments("ceshi_fa")
    assert [f.locator for f in fragments] == ["第一条", "第二条", "第三条", "第四条"]
    assert fragments[2].heading_path == ("第一章 总则", "第一节 一般规定")
    assert fragments[3].heading_path == ("第二章 法律责任",)
    assert fragments[0].authority.value == "STATUTE" and fragments[0].kind == "法律"
    assert fragments[0].version == "2012-12-28"
    assert "DEFINITION" in [n.value for n in fragments[1].supported_need_codes]
    assert "LIABILITY" in [n.value for n in fragments[3].supported_need_codes]


def test_reingest_is_idempotent(kb: KnowledgeBase, tmp_path: Path) -> None:
    write_doc(tmp_path / "docs", "baoxiao", POLICY, **policy("报销制度"))
    (tmp_path / "docs" / "ceshi_fa.md").write_text(LAW, encoding="utf-8")
    first = kb.ingest_paths([tmp_path / "docs"], space_id="space-all-staff")
    ids = {f.fragment_id for key in ("baoxiao", "ceshi_fa") for f in kb.list_fragments(key)}
    second = kb.ingest_paths([tmp_path / "docs"], space_id="space-all-staff")
    assert first.ok and sorted(first.added) == ["baoxiao", "ceshi_fa"]
    assert second.added == [] and sorted(second.unchanged) == ["baoxiao", "ceshi_fa"]
    assert {f.fragment_id for key in ("baoxiao", "ceshi_fa") for f in kb.list_fragments(key)} == ids
    assert kb.parts.index.count() == len(ids) == 6
    assert kb.check().problems == 0


def test_changed_document_retires_old_fragments(kb: KnowledgeBase, tmp_path: Path) -> None:
    path = write_doc(tmp_path, "baoxiao", POLICY, **policy("报销制度"))
    kb.ingest_paths([path], space_id="space-all-staff")
    old = {f.fragment_id for f in kb.list_fragments("baoxiao")}
    write_doc(tmp_path, "baoxiao", POLICY.replace("500", "800"), **policy("报销制度", version="2026版"))
    report = kb.ingest_paths([path], space_id="space-all-staff")
    assert report.retired_documents == 1 and report.fragments_retired == 2
    fragments = kb.list_fragments("baoxiao")
    retired = [f for f in fragments if f.fragment_id in old]
    assert len(retired) == 2 and all(f.lifecycle.value == "RETIRED" for f in retired)
    assert set(kb.parts.index.payloads()) == {f.fragment_id for f in fragments} - old
    versions = [(d.version, d.lifecycle, d.current) for d in kb.list_documents()]
    assert sorted(versions) == [("2025版", "RETIRED", False), ("2026版", "PUBLISHED", True)]
    assert kb.check().problems == 0


def test_cli_flags_are_defaults_that_front_matter_overrides(kb: KnowledgeBase, tmp_path: Path) -> None:
    plain = tmp_path / "notice.txt"
    plain.write_text("一、门岗交接\n\n交接时应当核对钥匙。\n\n二、记录\n\n填写交接记录。\n", encoding="utf-8")
    with_front = write_doc(tmp_path, "sop", POLICY, title="SOP", authority="SOP", version="v9")
    defaults = IngestDefaults(authority=Authority.MANUAL, version="v1", kind="手册")
    report = kb.ingest_paths([plain, with_front], space_id="space-huafu", defaults=defaults)
    assert report.ok
    docs = {d.document_key: d for d in kb.list_documents()}
    assert (docs["notice"].authority, docs["notice"].version, docs["notice"].kind) == ("MANUAL", "v1", "手册")
    assert (docs["sop"].authority, docs["sop"].version, docs["sop"].kind) == ("SOP", "v9", "手册")
    assert [f.locator for f in kb.list_fragments("notice")] == ["一、门岗交接", "二、记录"]


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("image.png", b"\x89PNG....", "UNKNOWN_FORMAT"),
        ("broken.docx", b"not a zip file", "UNREADABLE"),
        ("broken.pdf", b"%PDF-1.4 garbage", "UNREADABLE"),
        ("latin1.txt", "版本".encode("gbk"), "UNREADABLE"),
        ("badyaml.md", b"---\ntitle: [unclosed\n---\n## a\n\nb\n", "BAD_METADATA"),
        ("noauthority.md", "---\ntitle: x\nversion: v1\n---\n## 一\n\n内容\n".encode(), "BAD_METADATA"),
        (
            "badlifecycle.md",
            "---\nauthority: SOP\nversion: v\nlifecycle: LIVE\n---\n## 一\n\n内容\n".encode(),
            "BAD_METADATA",
        ),
        (
            "baddate.md",
            "---\nauthority: SOP\nversion: v\neffective_from: 明天\n---\n## 一\n\n内容\n".encode(),
            "BAD_METADATA",
        ),
        ("empty.md", b"---\nauthority: SOP\nversion: v\n---\n\n", "EMPTY_DOCUMENT"),
    ],
)
def test_bad_file_is_reported_by_name_and_nothing_is_indexed(
    kb: KnowledgeBase, tmp_path: Path, name: str, content: bytes, reason: str
) -> None:
    good = write_doc(tmp_path / "ok", "good", POLICY, **policy("好文档"))
    bad = tmp_path / name
    bad.write_bytes(content)
    report = kb.ingest_paths([bad, good], space_id="space-all-staff")
    assert [(p.file, p.reason) for p in report.problems] == [(name, reason)]
    assert report.added == ["good"]
    assert [d.document_key for d in kb.list_documents()] == ["good"]
    assert kb.parts.index.count() == 2
    assert len(list(kb.parts.originals_dir.iterdir())) == 1


def test_missing_path_is_reported(kb: KnowledgeBase, tmp_path: Path) -> None:
    report = kb.ingest_paths([tmp_path / "nope.md"], space_id="space-all-staff")
    assert [(p.file, p.reason) for p in report.problems] == [("nope.md", "NOT_FOUND")]


def test_failing_index_leaves_store_committed_and_check_reports_it(kb: KnowledgeBase, tmp_path: Path) -> None:
    path = write_doc(tmp_path, "baoxiao", POLICY, **policy("报销制度"))
    kb.ingest_paths([path], space_id="space-all-staff")
    kb.parts.index.clear()
    report = kb.check()
    assert report.problems == 2 and len(report.missing_in_index) == 2
    assert kb.rebuild().points == 2
    again = kb.check()
    assert again.problems == 0 and again.per_space == {"space-all-staff": 2}
    assert again.per_authority == {"COMPANY_POLICY": 2}
    assert kb.rebuild().points == 2 and kb.check().problems == 0


def test_non_governed_documents_have_no_index_points(kb: KnowledgeBase, tmp_path: Path) -> None:
    for key, overrides in {
        "d": {"lifecycle": "DRAFT"},
        "u": {"verification": "UNVERIFIED"},
        "s": {"environment": "staging"},
    }.items():
        kb.ingest_paths(
            [write_doc(tmp_path, key, POLICY, **policy(key, **overrides))], space_id="space-all-staff"
        )
    assert kb.parts.index.count() == 0
    assert kb.check().store_fragments == 0
    assert {d.document_key: d.indexed for d in kb.list_documents()} == {"d": False, "s": False, "u": False}


def test_points_indexed_without_locator_and_ordinal_are_reported_until_rebuilt(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    path = write_doc(tmp_path, "baoxiao", POLICY, **policy("报销制度"))
    kb.ingest_paths([path], space_id="space-all-staff")
    index = kb.parts.index
    fresh = [index_point(kb.parts, document, fragment) for fragment, document in _governed(kb.parts)]
    stale = [replace(p, payload={k: v for k, v in p.payload.items() if k != "ordinal"}) for p in fresh]
    index.upsert(stale)
    index.flush()
    assert kb.check().payload_mismatches == 2
    kb.rebuild()
    assert kb.check().problems == 0


def _age_labels(kb: KnowledgeBase, document_key: str) -> None:
    """Make the stored labels look like an older classifier's: no PROCESS_STEPS anywhere."""
    with transaction(kb.parts.session_factory) as session:
        rows = session.scalars(
            select(KbFragmentRow)
            .join(KbDocumentRow, KbDocumentRow.id == KbFragmentRow.document_id)
            .where(KbDocumentRow.document_key == document_key)
        )
        for row in rows:
            row.supported_need_codes = [n for n in row.supported_need_codes if n != "PROCESS_STEPS"]
            row.claim_types = [c for c in row.claim_types if c != "STEP"]


def _steps_labelled(kb: KnowledgeBase) -> bool:
    return any(EvidenceNeed.PROCESS_STEPS in f.supported_need_codes for f in kb.list_fragments("baoxiao"))


def test_labels_from_an_older_classifier_are_reported_and_reingest_refreshes_them(
    kb: KnowledgeBase, tmp_path: Path
) -> None:
    path = write_doc(tmp_path, "baoxiao", POLICY, **policy("报销制度"))
    kb.ingest_paths([path], space_id="space-all-staff")
    _age_labels(kb, "baoxiao")
    assert not _steps_labelled(kb)
    assert kb.check().stale_labels == 1 and kb.check().problems == 1
    again = kb.ingest_paths([path], space_id="space-all-staff")
    assert again.unchanged == ["baoxiao"] and again.fragments_relabelled == 1
    assert _steps_labelled(kb) and kb.check().problems == 0
    assert kb.ingest_paths([path], space_id="space-all-staff").fragments_relabelled == 0


def test_rebuild_relabels_fragments_of_every_current_document(kb: KnowledgeBase, tmp_path: Path) -> None:
    path = write_doc(tmp_path, "baoxiao", POLICY, **policy("报销制度"))
    kb.ingest_paths([path], space_id="space-all-staff")
    ids = {f.fragment_id for f in kb.list_fragments("baoxiao")}
    _age_labels(kb, "baoxiao")
    report = kb.rebuild()
    assert report.relabelled == 1 and _steps_labelled(kb)
    assert {f.fragment_id for f in kb.list_fragments("baoxiao")} == ids
    assert kb.check().problems == 0 and kb.rebuild().relabelled == 0


@pytest.mark.parametrize(
    ("front", "version"),
    [
        ({"source_version_date_in_filename": "2012-12-28"}, "2012-12-28"),
        (
            {
                "source_version_date_in_filename": "none",
                "history_as_stated_in_text": [
                    "2020年5月28日 第十三届全国人民代表大会第三次会议通过",
                    "2021年1月1日 施行",
                ],
            },
            "2020-05-28",
        ),
        (
            {"source_version_date_in_filename": "none", "source_file_last_changed": "2022-04-20 (3cd6e86b)"},
            "2022",
        ),
    ],
)
def test_a_law_version_is_a_date_never_the_word_none(front: dict[str, object], version: str) -> None:
    meta = resolve_metadata({"doc_type": "法律", **front}, IngestDefaults(), fallback_title="某法")
    assert meta.version == version
