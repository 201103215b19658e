"""Staff ask in lay words (加班费); the statute is written in its own (工资报酬, 延长工作时间)."""

from __future__ import annotations

from pathlib import Path

from kb_support import actor_access, open_store, policy, write_doc

from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.service import open_knowledge_base
from shifu.nlp.lay_words import statute_words

STATUTE = (
    "## 第四十四条\n\n有下列情形之一的，用人单位应当按照下列标准支付高于劳动者正常工作时间工资的工资报酬："
    "（一）安排劳动者延长工作时间的，支付不低于工资的百分之一百五十的工资报酬。"
)
OTHERS = {
    "contract": (
        "## 第三十一条\n\n用人单位不得强迫劳动者加班。"
        "用人单位安排加班的，应当按照国家有关规定向劳动者支付加班费。"
    ),
    "canteen": "## 一、食堂开放时间\n\n员工食堂每日11:30开放午餐，17:30开放晚餐。",
    "uniform": "## 一、工服管理\n\n员工上岗应穿着公司统一配发的工服，工服损坏的可以申请更换。",
    "parking": "## 一、车位管理\n\n员工车辆应停放在指定区域，不得占用业主车位。",
}


def test_statute_words_of_lay_words() -> None:
    assert set(statute_words("加班费怎么算")) == {"工资报酬", "加班", "延长工作时间"}
    assert set(statute_words("干活时摔伤了算工伤吗")) >= {"事故伤害"}
    assert statute_words("报告写好了吗") == ()


def test_a_lay_word_question_finds_the_statute_wording(tmp_path: Path) -> None:
    settings, engine, factory = open_store(tmp_path / "store")
    kb = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    try:
        paths = [write_doc(tmp_path / "docs", "statute", STATUTE, **policy("劳动法"))]
        paths += [write_doc(tmp_path / "docs", key, body, **policy(key)) for key, body in OTHERS.items()]
        assert kb.ingest_paths(paths, space_id="space-all-staff").ok
        results = kb.search("加班费怎么算", domain=None, access=actor_access(factory, "employee"), top_k=1)
        assert [r.locator for r in results] == ["第四十四条"]
    finally:
        kb.close()
        engine.dispose()
