"""A question's most specific word that no returned fragment holds is looked for on its own.

拿收据能报销吗: the reimbursement sections repeat 报销 and fill the top-k; the one rule naming 收据 sits in
the procurement rules. Without it the gate has nothing to judge but sections that never say 收据.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kb_support import actor_access, open_store, policy, write_doc
from sqlalchemy.orm import Session, sessionmaker

from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base

REIMBURSEMENT = "\n\n".join(
    f"## 第{number}节 报销规定{number}\n\n报销规定{number}：报销人拿报销单报销，报销完成后归档。"
    for number in range(1, 21)
)
TOP_K = 8
"""The agent's top-k; a top-k of six or less asks for the fusion's best few and gets no holder."""
PROCUREMENT = (
    "## 一、适用范围\n\n本办法适用于项目零星采购。\n\n"
    "## 二、禁止行为\n\n零星采购中以下行为严格禁止：\n\n1. 无发票采购，或以收据、白条代替发票报账。\n"
)
SUPERVISORS_ONLY = "## 一、备用金\n\n主管备用金可凭收据先行支取，次月补齐发票。\n"
RECEIPTS = "## 一、收据{n}\n\n收据{n}由财务部统一印制，收据存根按月装订，收据遗失的登报声明。\n"
REVIEW = "## 二、复盘名单\n\n员工单次练习得分低于60分的，列入待复盘名单。\n"


@pytest.fixture
def kb(tmp_path: Path) -> Iterator[tuple[KnowledgeBase, sessionmaker[Session]]]:
    """Reimbursement rules, procurement rules naming 收据 once, and a supervisors' rule naming it too."""
    settings, engine, factory = open_store(tmp_path)
    base = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    staff = [
        write_doc(tmp_path / "docs", "baoxiao", REIMBURSEMENT, **policy("费用报销管理制度")),
        write_doc(tmp_path / "docs", "caigou", PROCUREMENT, **policy("零星采购管理办法")),
    ]
    assert base.ingest_paths(staff, space_id="space-all-staff").ok
    private = [
        write_doc(tmp_path / "private", "beiyongjin", SUPERVISORS_ONLY, **policy("主管备用金办法")),
        write_doc(tmp_path / "private", "fupan", REVIEW, **policy("主管复盘管理办法")),
        # Many texts naming 收据 make it a common word of the index, as the statutes do in the demo.
        *(
            write_doc(tmp_path / "private", f"shouju{n}", RECEIPTS.format(n=n), **policy(f"收据管理{n}"))
            for n in range(30)
        ),
    ]
    assert base.ingest_paths(private, space_id="space-supervisors").ok
    yield base, factory
    base.close()
    engine.dispose()


def test_the_fragment_holding_an_absent_word_takes_the_last_place(
    kb: tuple[KnowledgeBase, sessionmaker[Session]],
) -> None:
    base, factory = kb
    access = actor_access(factory, "employee")
    found = base.search("拿收据能报销吗", domain="REIMBURSEMENT", access=access, top_k=TOP_K)
    assert len(found) == TOP_K
    assert found[-1].locator == "二、禁止行为" and "收据" in found[-1].text
    assert all("收据" not in evidence.text for evidence in found[:-1])
    assert found[-1].score == min(evidence.score for evidence in found)


def test_the_holder_is_only_ever_one_the_caller_may_read(
    kb: tuple[KnowledgeBase, sessionmaker[Session]],
) -> None:
    base, factory = kb
    question = "备用金能报销吗"
    for actor, expected in (("employee", False), ("supervisor", True)):
        found = base.search(
            question, domain="REIMBURSEMENT", access=actor_access(factory, actor), top_k=TOP_K
        )
        assert any("备用金" in evidence.text for evidence in found) is expected, actor


def test_nothing_is_added_when_the_hits_already_hold_every_word(
    kb: tuple[KnowledgeBase, sessionmaker[Session]],
) -> None:
    base, factory = kb
    found = base.search(
        "报销审批", domain="REIMBURSEMENT", access=actor_access(factory, "employee"), top_k=TOP_K
    )
    assert all(evidence.title == "费用报销管理制度" for evidence in found)


def test_a_word_texts_use_for_the_absent_one_is_not_looked_for(
    kb: tuple[KnowledgeBase, sessionmaker[Session]],
) -> None:
    """公司的午休时间是几点: 午休 ~ 12:00 holds for the gate, but the working hours of a renovation rule
    are no sign that the company states a lunch break."""
    base, factory = kb
    found = base.search(
        "不及格能报销吗", domain=None, access=actor_access(factory, "supervisor"), top_k=TOP_K
    )
    assert not any("低于60分" in evidence.text for evidence in found)


def test_a_short_top_k_keeps_the_fusions_best(kb: tuple[KnowledgeBase, sessionmaker[Session]]) -> None:
    base, factory = kb
    found = base.search(
        "拿收据能报销吗", domain="REIMBURSEMENT", access=actor_access(factory, "employee"), top_k=1
    )
    assert len(found) == 1 and "收据" not in found[0].text
