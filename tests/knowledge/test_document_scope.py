"""Each searched fragment carries its document's scope sections, so a listed thing reaches the others."""

from __future__ import annotations

from pathlib import Path

from kb_support import actor_access, open_store, policy, write_doc

from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.service import open_knowledge_base

PURCHASE = (
    "## 一、零星采购的定义和适用范围\n\n零星采购是指低值物品采购，例如灯泡、水龙头。"
    "办公设备不属于零星采购。\n\n"
    "## 三、零星采购的办理流程\n\n零星采购按以下流程办理：\n1. 填写申请单。\n2. 项目经理签字同意。\n"
)
CANTEEN = "## 一、食堂开放时间\n\n员工食堂每日11:30开放午餐。"


def test_every_fragment_of_a_document_carries_its_scope_sections_and_no_other_document_does(
    tmp_path: Path,
) -> None:
    settings, engine, factory = open_store(tmp_path / "store")
    kb = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    try:
        paths = [
            write_doc(tmp_path / "docs", "purchase", PURCHASE, **policy("零星采购管理办法")),
            write_doc(tmp_path / "docs", "canteen", CANTEEN, **policy("食堂管理规定")),
        ]
        assert kb.ingest_paths(paths, space_id="space-all-staff").ok
        results = kb.search(
            "零星采购流程 食堂", domain=None, access=actor_access(factory, "employee"), top_k=8
        )
        by_locator = {r.locator: r for r in results}
        steps = by_locator["三、零星采购的办理流程"]
        assert "例如灯泡" in steps.document_scope
        assert "填写申请单" not in steps.document_scope, "only scope sections ride along"
        assert by_locator["一、食堂开放时间"].document_scope == ""
    finally:
        kb.close()
        engine.dispose()
