"""A hit brings the same section of the document's other versions: the gate can compare them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kb_support import actor_access, open_store, policy, write_doc
from sqlalchemy.orm import Session, sessionmaker

from shifu.contracts.evidence import DocumentEvidence
from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base

TITLE = "请假管理制度"


def _body(version: str, approval: str) -> str:
    return (
        f"## 一、适用范围（{version}）\n\n本制度适用于全体员工。\n\n"
        f"## 四、请假审批权限（{version}）\n\n{approval}\n\n"
        "## 五、销假\n\n假期结束应当日销假。\n"
    )


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[KnowledgeBase, sessionmaker[Session]]]:
    """Two published versions of one policy under their own keys, a draft third and another
    tenant's copy, all titled alike."""
    settings, engine, factory = open_store(tmp_path)
    base = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    documents = [
        ("qingjia_2024", "2024版", "请假3日以内由项目经理审批。", {}, "demo"),
        ("qingjia_2025", "2025版", "请假2日以内由部门负责人或项目经理审批，超过的报分管副总。", {}, "demo"),
        ("qingjia_draft", "2026版", "请假1日以内由班组长审批。", {"lifecycle": "DRAFT"}, "demo"),
        ("qingjia_other", "2025版", "请假5日以内由店长审批。", {}, "other"),
    ]
    for key, version, approval, overrides, tenant in documents:
        path = write_doc(
            tmp_path / key, key, _body(version, approval), **policy(TITLE, version=version, **overrides)
        )
        assert base.ingest_paths([path], space_id="space-all-staff", tenant_id=tenant).ok
    yield base, factory
    base.close()
    engine.dispose()


def _found(store: tuple[KnowledgeBase, sessionmaker[Session]], top_k: int) -> list[DocumentEvidence]:
    kb, factory = store
    access = actor_access(factory, "employee")
    return kb.search("分管副总 部门负责人 审批", domain=None, access=access, top_k=top_k)


def test_the_same_section_of_the_other_version_comes_with_a_hit(
    store: tuple[KnowledgeBase, sessionmaker[Session]],
) -> None:
    approvals = [e for e in _found(store, top_k=1) if "审批权限" in e.locator]
    assert {(e.version, e.locator) for e in approvals} == {
        ("2025版", "四、请假审批权限（2025版）"),
        ("2024版", "四、请假审批权限（2024版）"),
    }
    assert len({e.score for e in approvals}) == 1


def test_only_governed_versions_of_the_callers_tenant_come_along(
    store: tuple[KnowledgeBase, sessionmaker[Session]],
) -> None:
    found = _found(store, top_k=8)
    assert {e.version for e in found} == {"2024版", "2025版"}
    assert not any("店长" in e.text or "班组长" in e.text for e in found)
