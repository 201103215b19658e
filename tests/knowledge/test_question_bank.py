"""The question bank: strict file format, nearest questions, and governance-safe retrieval priors."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from kb_support import (
    CANARY_BODY,
    GOVERNANCE_CANARIES,
    USERS,
    actor_access,
    open_store,
    policy,
    write_doc,
)
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.errors import ConfigurationError
from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.question_bank import (
    BANK_INVALID,
    BankEntry,
    QuestionBank,
    embed_bank,
    read_entries,
)
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _line(question: str, key: str, locator: str) -> str:
    return json.dumps({"question": question, "document_key": key, "locator": locator}, ensure_ascii=False)


def test_read_entries_skips_blank_lines(tmp_path: Path) -> None:
    path = _write(tmp_path / "bank.jsonl", [_line("报销上限？", "reimburse", "二、报销标准"), "", "  "])
    assert read_entries(path) == [
        BankEntry(question="报销上限？", document_key="reimburse", locator="二、报销标准")
    ]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ("{not json", "invalid question bank entry"),
        ('{"question": "q", "document_key": "k"}', "locator"),
        ('{"question": "q", "document_key": "k", "locator": "l", "extra": 1}', "extra"),
        ('{"question": "", "document_key": "k", "locator": "l"}', "question"),
        ('{"question": 3, "document_key": "k", "locator": "l"}', "question"),
        ("[1, 2]", "invalid question bank entry"),
    ],
)
def test_invalid_line_names_file_and_line(tmp_path: Path, bad: str, reason: str) -> None:
    path = _write(tmp_path / "bank.jsonl", [_line("q", "k", "l"), "", bad])
    with pytest.raises(ConfigurationError) as caught:
        read_entries(path)
    assert f"{path}:3:" in str(caught.value) and reason in str(caught.value)
    assert caught.value.code == BANK_INVALID


def test_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"missing\.jsonl"):
        read_entries(tmp_path / "missing.jsonl")


def test_nearest_counts_questions_and_leave_one_out_skips_only_that_question() -> None:
    entries = [
        BankEntry(question="a", document_key="d1", locator="第1条"),
        BankEntry(question="a", document_key="d1", locator="第2条"),
        BankEntry(question="b", document_key="d2", locator="第1条"),
        BankEntry(question="c", document_key="d3", locator="第1条"),
    ]
    vectors = {"a": [1.0, 0.0, 0.0], "b": [0.8, 0.6, 0.0], "c": [0.0, 0.0, 1.0]}
    bank = embed_bank(entries, lambda texts: np.array([vectors[t] for t in texts], dtype=np.float32))
    query = np.array([1.0, 0.1, 0.0], dtype=np.float32)
    nearest = bank.nearest(query, 1)
    assert [n.entry.locator for n in nearest] == ["第1条", "第2条"]
    assert [n.entry.question for n in bank.nearest(query, 2)] == ["a", "a", "b"]
    assert [n.entry.question for n in bank.excluding("a").nearest(query, 2)] == ["b", "c"]
    assert len(bank.excluding("a")) == len(bank) == 4
    assert QuestionBank([], np.zeros((0, 3), dtype=np.float32)).nearest(query, 5) == []


BODY = CANARY_BODY

# document key → (space, front-matter overrides, actors that may see it; empty = nobody)
CASES: dict[str, tuple[str, dict[str, object], set[str]]] = {
    "bank_all_staff": (
        "space-all-staff",
        {},
        {"employee", "employee_other_project", "supervisor", "operator"},
    ),
    "bank_supervisors": ("space-supervisors", {}, {"supervisor", "operator"}),
    "bank_candidates": ("space-candidates", {}, {"candidate", "operator"}),
    "bank_huafu_only": (
        "space-all-staff",
        {"projects": ["proj-huafu"]},
        {"employee", "supervisor", "operator"},
    ),
    **GOVERNANCE_CANARIES,
}
QUESTIONS = {key: f"{key} 的员工报销标准是多少？" for key in CASES}
"""One bank question per document; each cites both sections of its document."""


@pytest.fixture(scope="module")
def world(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[KnowledgeBase, sessionmaker[Session], dict[str, set[str]]]]:
    """A knowledge base whose bank cites visible, canary, retired and other-tenant fragments."""
    root = tmp_path_factory.mktemp("bank")
    docs = root / "docs"
    settings, engine, factory = open_store(root)
    plain = open_knowledge_base(settings, factory, embedder=HashingEmbedder())
    for key, (space, overrides, _) in CASES.items():
        assert plain.ingest_paths(
            [write_doc(docs / key, key, BODY.format(label=key), **policy(key, **overrides))], space_id=space
        ).ok
    assert plain.ingest_paths(
        [write_doc(docs / "v1", "versioned", BODY.format(label="旧版"), **policy("versioned"))],
        space_id="space-all-staff",
    ).ok
    retired = {e.fragment_id for e in plain.list_fragments("versioned")}
    changed = BODY.format(label="新版").replace("二、报销标准", "二、新报销标准")
    assert plain.ingest_paths(
        [write_doc(docs / "v2", "versioned", changed, **policy("versioned"))], space_id="space-all-staff"
    ).ok
    other = write_doc(docs / "other", "other_tenant", BODY.format(label="别家"), **policy("other"))
    assert plain.ingest_paths([other], space_id="space-all-staff", tenant_id="other").ok
    ids = {key: {e.fragment_id for e in plain.list_fragments(key)} for key in CASES}
    ids["canary_retired_version"] = retired
    ids["canary_other_tenant"] = {e.fragment_id for e in plain.list_fragments("other_tenant")}
    plain.close()
    lines = [
        _line(QUESTIONS[key], key, locator) for key in CASES for locator in ("一、适用范围", "二、报销标准")
    ]
    lines += [_line("出差回来怎么报账？", "bank_all_staff", "二、报销标准")]
    lines += [_line("versioned 旧版 报销标准？", "versioned", "二、报销标准")]
    lines += [_line("other_tenant 别家 报销标准？", "other_tenant", "二、报销标准")]
    bank_path = _write(root / "bank.jsonl", lines)
    base = open_knowledge_base(
        replace(settings, question_bank=bank_path), factory, embedder=HashingEmbedder()
    )
    assert base.bank is not None and len(base.bank) == len(lines)
    yield base, factory, ids
    base.close()
    engine.dispose()


@pytest.mark.parametrize("actor", sorted(USERS))
@pytest.mark.parametrize(
    "question", [*QUESTIONS.values(), "versioned 旧版 报销标准？", "other_tenant 别家 报销标准？"]
)
def test_bank_citations_never_surface_what_the_actor_may_not_see(
    world: tuple[KnowledgeBase, sessionmaker[Session], dict[str, set[str]]], actor: str, question: str
) -> None:
    kb, factory, ids = world
    access = actor_access(factory, actor)
    returned = {e.fragment_id for e in kb.search(question, domain=None, access=access, top_k=200)}
    allowed = set().union(*(ids[key] for key, (_, _, who) in CASES.items() if actor in who))
    forbidden = set().union(*(fids for key, fids in ids.items() if key.startswith("canary_")))
    assert not returned & forbidden
    assert returned <= allowed | (set() if actor == "candidate" else _current_versioned(kb))


def _current_versioned(kb: KnowledgeBase) -> set[str]:
    return {e.fragment_id for e in kb.list_fragments("versioned") if e.lifecycle.value == "PUBLISHED"}


def test_memory_leg_ranks_the_cited_fragment_for_a_bank_question(
    world: tuple[KnowledgeBase, sessionmaker[Session], dict[str, set[str]]],
) -> None:
    kb, factory, ids = world
    access = actor_access(factory, "supervisor")
    results = kb.search(QUESTIONS["bank_supervisors"], domain=None, access=access, top_k=2)
    assert {e.fragment_id for e in results} == ids["bank_supervisors"]


def test_bank_question_without_shared_words_finds_its_citation(
    world: tuple[KnowledgeBase, sessionmaker[Session], dict[str, set[str]]],
) -> None:
    kb, factory, _ = world
    results = kb.search("出差回来怎么报账？", domain=None, access=actor_access(factory, "employee"), top_k=1)
    assert [(e.document_key, e.locator) for e in results] == [("bank_all_staff", "二、报销标准")]


def test_no_bank_configured_means_no_bank(settings: Settings, session_factory: sessionmaker[Session]) -> None:
    base = open_knowledge_base(settings, session_factory, embedder=HashingEmbedder())
    try:
        assert settings.question_bank is None and base.bank is None
    finally:
        base.close()


def test_invalid_bank_fails_at_startup(
    settings: Settings, session_factory: sessionmaker[Session], tmp_path: Path
) -> None:
    bad = _write(tmp_path / "bad.jsonl", [_line("q", "k", "l"), '{"question": "q"}'])
    with pytest.raises(ConfigurationError, match=r"bad\.jsonl:2:"):
        open_knowledge_base(replace(settings, question_bank=bad), session_factory, embedder=HashingEmbedder())


def test_without_a_bank_search_is_the_plain_two_leg_fusion(tmp_path: Path) -> None:
    from shifu.knowledge.fusion import rrf
    from shifu.knowledge.index.base import AccessFilter, IndexPoint
    from shifu.knowledge.index.edge import EdgeIndex
    from shifu.knowledge.retrieval import HybridParams, hybrid_search
    from shifu.knowledge.text import Bm25Encoder, tokenize

    embedder, encoder = HashingEmbedder(), Bm25Encoder()
    texts = ["电梯困人 应急", "电梯 维保 记录", "报销 标准 单笔", "消防 巡检 记录", "装修 进场 申请"]
    index = EdgeIndex(tmp_path / "edge", embedder.dim)
    payload = {
        "tenant_id": "demo", "space_id": "s", "project_ids": ["*"], "roles": ["*"], "effective_from": 0,
        "effective_to": 99991231, "lifecycle": "PUBLISHED", "verification": "HUMAN_VERIFIED",
        "environment": "production", "document_key": "d", "locator": "l",
    }  # fmt: skip
    points = [
        IndexPoint(f"{n:064x}", embedder.passages([t])[0], encoder.document(tokenize(t)),
                   {**payload, "fragment_id": f"{n:064x}", "document_id": "d", "ordinal": n})
        for n, t in enumerate(texts)
    ]  # fmt: skip
    index.upsert(points)
    access = AccessFilter("demo", ("s",), (), "EMPLOYEE", 20250601)
    params = HybridParams()
    try:
        query = "电梯 记录"
        legs = [
            index.search_sparse(encoder.query(tokenize(query)), access, params.candidates),
            index.search_dense(embedder.query(query), access, params.candidates),
        ]
        expected = rrf(legs, weights=[1.0, params.dense_weight], k=params.rrf_k)[:3]
        empty = QuestionBank([], np.zeros((0, embedder.dim), dtype=np.float32))
        for bank in (None, empty):
            hits = hybrid_search(
                index, encoder, embedder, query=query, lexical_hint="", access=access, top_k=3,
                params=params, bank=bank,
            )  # fmt: skip
            assert hits == expected
    finally:
        index.close()


def test_wide_memory_leg_hears_further_questions_and_the_memory_leg_only_the_nearest(tmp_path: Path) -> None:
    from shifu.knowledge.index.base import AccessFilter, IndexPoint
    from shifu.knowledge.index.edge import EdgeIndex
    from shifu.knowledge.retrieval import BankParams, HybridParams, hybrid_legs
    from shifu.knowledge.text import Bm25Encoder, tokenize

    embedder, encoder = HashingEmbedder(), Bm25Encoder()
    payload = {
        "tenant_id": "demo", "space_id": "s", "project_ids": ["*"], "roles": ["*"], "effective_from": 0,
        "effective_to": 99991231, "lifecycle": "PUBLISHED", "verification": "HUMAN_VERIFIED",
        "environment": "production", "document_id": "d", "document_key": "d",
    }  # fmt: skip
    articles = {"near": "第1条", "general": "第50条", "far": "第90条"}
    index = EdgeIndex(tmp_path / "edge", embedder.dim)
    ids = {name: hashlib.sha256(name.encode()).hexdigest() for name in articles}
    index.upsert([
        IndexPoint(ids[name], embedder.passages([name])[0], encoder.document(tokenize(name)),
                   {**payload, "fragment_id": ids[name], "locator": locator, "ordinal": n * 40})
        for n, (name, locator) in enumerate(articles.items())
    ])  # fmt: skip
    entries = [
        BankEntry(question="q1", document_key="d", locator="第1条"),
        BankEntry(question="q2", document_key="d", locator="第50条"),
        BankEntry(question="q3", document_key="d", locator="第50条"),
        BankEntry(question="q3", document_key="d", locator="第90条"),
    ]
    vectors = {"q1": [1.0, 0.0, 0.0], "q2": [0.9, 0.436, 0.0], "q3": [0.8, 0.0, 0.6]}

    def padded(vector: list[float]) -> np.ndarray:
        return np.pad(np.array(vector, dtype=np.float32), (0, embedder.dim - len(vector)))

    bank = embed_bank(entries, lambda texts: np.stack([padded(vectors[t]) for t in texts]))

    class Fixed:
        """An embedder whose query vector is q1's (passages are never embedded here)."""

        dim = embedder.dim

        def query(self, text: str) -> np.ndarray:
            return padded(vectors["q1"])

    access = AccessFilter("demo", ("s",), (), "EMPLOYEE", 20250601)

    def legs(wide_weight: float) -> dict[str, list[str]]:
        params = HybridParams(
            bank=BankParams(neighbours=1, wide_neighbours=3, wide_weight=wide_weight, near=0)
        )
        found = hybrid_legs(
            index, encoder, Fixed(), query="条文", lexical_hint="", access=access, limit=10,  # type: ignore[arg-type]
            params=params, bank=bank,
        )  # fmt: skip
        return {name: [hit.fragment_id for hit in hits] for name, hits in found.items()}

    try:
        with_wide = legs(1.0)
        assert with_wide["memory"] == [ids["near"]]
        # 0.9⁴ + 0.8⁴ > 1⁴: an article two further questions cite outranks the nearest one's
        assert with_wide["memory_wide"] == [ids["general"], ids["near"], ids["far"]]
        assert with_wide["near_dense"] == [ids["near"]]
        assert "memory_wide" not in legs(0.0)
    finally:
        index.close()
