"""A question naming a thing a document's scope lists (买灯泡) reaches that document's other sections."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kb_support import actor_access, open_store, policy, write_doc
from sqlalchemy.orm import Session, sessionmaker

from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base

PURCHASES = (
    "## 一、零星采购的定义和适用范围\n\n"
    "零星采购是指项目急需使用的低值物品采购，例如灯泡、水龙头和清洁用品。办公设备不属于零星采购。\n\n"
    "## 二、零星采购的月度额度\n\n每个项目每月零星采购累计金额不超过2000元。\n\n"
    "## 三、零星采购的办理流程\n\n经办人填写申请单，项目经理核对额度后签字同意。\n\n"
    "## 四、零星采购的验收\n\n物品到场后由仓管员验收。"
)
SIGNATURES = {
    f"signing{index}": f"## 一、交接规定{index}\n\n交接记录由值班人员填写，主管签字后存档。"
    for index in range(6)
}


def _ingest(kb: KnowledgeBase, folder: Path, space_id: str = "space-all-staff") -> None:
    paths = [write_doc(folder, "purchases", PURCHASES, **policy("零星采购管理办法"))]
    paths += [write_doc(folder, key, body, **policy(key)) for key, body in SIGNATURES.items()]
    assert kb.ingest_paths(paths, space_id=space_id).ok


World = tuple[KnowledgeBase, sessionmaker[Session]]


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """An empty knowledge base on a fresh store with the demo org."""
    settings, engine, factory = open_store(tmp_path / "store")
    kb = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    try:
        yield kb, factory
    finally:
        kb.close()
        engine.dispose()


def test_a_listed_thing_names_its_document_and_an_excluded_one_does_not(world: World, tmp_path: Path) -> None:
    kb, factory = world
    access = actor_access(factory, "employee")
    assert kb.members.titles("买灯泡要谁签字", access) == ()
    _ingest(kb, tmp_path / "docs")
    assert kb.members.titles("买灯泡要谁签字", access) == ("零星采购管理办法",)
    assert kb.members.titles("清洁用品找谁买", access) == ("零星采购管理办法",)
    assert kb.members.titles("买办公设备要谁签字", access) == ()
    assert kb.members.titles("买电脑要谁签字", access) == ()


def test_the_procedure_that_never_names_the_thing_is_retrieved_for_it(world: World, tmp_path: Path) -> None:
    kb, factory = world
    _ingest(kb, tmp_path / "docs")
    results = kb.search("买灯泡要谁签字", domain=None, access=actor_access(factory, "employee"), top_k=8)
    assert "三、零星采购的办理流程" in [result.locator for result in results][:4]


def test_a_scope_in_a_space_the_caller_cannot_read_lends_nothing(world: World, tmp_path: Path) -> None:
    kb, factory = world
    _ingest(kb, tmp_path / "docs", space_id="space-supervisors")
    question = "买灯泡要谁签字"
    assert kb.members.titles(question, actor_access(factory, "employee")) == ()
    assert kb.members.titles(question, actor_access(factory, "supervisor")) == ("零星采购管理办法",)


LEAVE = (
    "## 一、请假类型有哪些\n\n公司设置的请假类型有以下几种：\n\n1. 年休假：带薪假期。\n2. 婚假：3天。\n\n"
    "## 二、请假的办理步骤\n\n1. 在员工App提交申请。\n2. 审批通过后离岗。"
)


def test_a_thing_named_in_a_lay_word_names_the_document_that_lists_it_in_its_own_word(
    world: World, tmp_path: Path
) -> None:
    kb, factory = world
    paths = [write_doc(tmp_path / "docs", "leave", LEAVE, **policy("请假管理制度"))]
    assert kb.ingest_paths(paths, space_id="space-all-staff").ok
    access = actor_access(factory, "employee")
    assert kb.members.titles("年休假怎么请", access) == ("请假管理制度",)
    assert kb.members.titles("年假怎么请", access) == ("请假管理制度",), "年假 is the staff word for 年休假"
    assert kb.members.titles("加班费怎么算", access) == ()
