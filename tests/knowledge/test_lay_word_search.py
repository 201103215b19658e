"""Staff ask in lay words (加班费); the statute is written in its own (工资报酬, 延长工作时间)."""

from __future__ import annotations

from pathlib import Path

from kb_support import actor_access, open_store, policy, write_doc

from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.retrieval import hybrid_legs
from shifu.knowledge.service import open_knowledge_base
from shifu.knowledge.text import Bm25Encoder, term_id
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


def test_a_thing_spelled_two_ways_is_searched_both_ways() -> None:
    assert set(statute_words("消防栓每个月要查什么")) == {"消防栓", "消火栓"}
    assert set(statute_words("消火栓被遮挡了怎么办")) == {"消防栓", "消火栓"}


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


LEAVING = {
    "tools": "## 五、工具的登记\n\n可重复使用的工具类物品须贴上项目标签，离职或调岗时交回。",
    "certificate": "## 第五十条\n\n用人单位应当在解除或者终止劳动合同时出具解除或者终止劳动合同的证明。",
    "agreement": (
        "## 第三十六条\n\n用人单位与劳动者协商一致，可以解除劳动合同。"
        "劳动合同解除后，终止劳动合同的手续照办。"
    ),
    "notice": "## 第三十七条\n\n劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。",
    **{f"duty{index}": f"## 第{index}条\n\n员工应当遵守第{index}项安全规定。" for index in range(12)},
}


def test_a_fragment_in_the_askers_own_word_outranks_statutes_repeating_its_expansion(tmp_path: Path) -> None:
    settings, engine, factory = open_store(tmp_path / "store")
    kb = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    try:
        paths = [write_doc(tmp_path / "docs", key, body, **policy(key)) for key, body in LEAVING.items()]
        assert kb.ingest_paths(paths, space_id="space-all-staff").ok
        question = "工具类的东西离职要还吗"
        legs = hybrid_legs(
            kb.parts.index,
            kb.parts.encoder,
            kb.parts.embedder,
            query=question,
            lexical_hint="",
            access=actor_access(factory, "employee").to_filter(),
            limit=4,
            params=kb.params,
            expansion=" ".join(statute_words(question)),
        )
        first = legs["sparse"][0].fragment_id
        assert [fragment.locator for fragment, _ in kb._load([first])] == ["五、工具的登记"]
    finally:
        kb.close()
        engine.dispose()


def test_an_expansion_word_weighs_less_unless_the_question_says_it_too() -> None:
    terms = Bm25Encoder().query(["离职", "解除"], ["解除", "劳动合同"], 0.5)
    weights = dict(zip(terms.indices, terms.values, strict=True))
    assert weights == {term_id("离职"): 1.0, term_id("解除"): 1.0, term_id("劳动合同"): 0.5}
