"""The lexical memory leg: bank questions that share the query's words vote for what they cite."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.index.base import AccessFilter, IndexPoint
from shifu.knowledge.index.edge import EdgeIndex
from shifu.knowledge.question_bank import BankEntry, QuestionBank, embed_bank
from shifu.knowledge.question_words import QuestionWords
from shifu.knowledge.retrieval import BankParams, HybridParams, TailParams, hybrid_legs
from shifu.knowledge.text import Bm25Encoder, tokenize

Shard = tuple[EdgeIndex, Bm25Encoder, dict[tuple[str, str], str]]
QUESTIONS = [
    "物业服务合同 解除 需要 提前 通知 吗",
    "物业服务合同 期满 续约",
    "电梯 困人 多久 到场",
    "消防 巡检 频次",
]


def test_questions_sharing_rarer_words_rank_first_and_unrelated_ones_never_appear() -> None:
    words = QuestionWords(QUESTIONS)
    found = words.nearest(tokenize("物业服务合同 解除"), 10)
    assert [m.question for m in found] == QUESTIONS[:2]
    assert found[0].relative == 1.0 and 0 < found[1].relative < 1.0
    assert words.nearest(tokenize("装修 押金"), 10) == []
    assert words.nearest(tokenize("物业服务合同"), 0) == []


def test_skip_leaves_one_question_out_and_the_best_remaining_scores_one() -> None:
    words = QuestionWords(QUESTIONS)
    found = words.nearest(tokenize("物业服务合同 解除"), 10, skip=QUESTIONS[0])
    assert [(m.question, m.relative) for m in found] == [(QUESTIONS[1], 1.0)]


def test_duplicate_questions_are_indexed_once_and_ties_order_by_text() -> None:
    words = QuestionWords(["乙 巡检", "甲 巡检", "乙 巡检"])
    assert len(words) == 2
    assert [m.question for m in words.nearest(["巡检"], 5)] == ["乙 巡检", "甲 巡检"]


def _bank() -> tuple[list[BankEntry], QuestionBank]:
    entries = [
        BankEntry(question="物业服务合同 解除 通知", document_key="d", locator="第1条"),
        BankEntry(question="物业服务合同 解除 通知", document_key="d", locator="第2条"),
        BankEntry(question="电梯 困人", document_key="d", locator="第3条"),
        BankEntry(question="消防 巡检", document_key="hidden", locator="第1条"),
    ]
    vectors = {
        "物业服务合同 解除 通知": [1.0, 0.0, 0.0],
        "电梯 困人": [0.0, 1.0, 0.0],
        "消防 巡检": [0.0, 0.0, 1.0],
    }
    dim = HashingEmbedder().dim

    def embed(texts: list[str]) -> np.ndarray:
        return np.stack([np.pad(np.array(vectors[t], dtype=np.float32), (0, dim - 3)) for t in texts])

    return entries, embed_bank(entries, embed)


def test_bank_lexical_neighbours_bring_every_entry_of_a_question_and_leave_one_out_shares_the_index() -> None:
    _, bank = _bank()
    found = bank.lexical_nearest(tokenize("解除 物业服务合同"), 5)
    assert [(n.entry.locator, n.similarity) for n in found] == [("第1条", 1.0), ("第2条", 1.0)]
    assert bank.excluding("物业服务合同 解除 通知").lexical_nearest(tokenize("解除"), 5) == []


@pytest.fixture
def shard(tmp_path: Path) -> Iterator[Shard]:
    """Four articles: d 第1–3条 in the caller's space, hidden 第1条 in a space the caller lacks."""
    embedder, encoder = HashingEmbedder(), Bm25Encoder()
    index = EdgeIndex(tmp_path / "edge", embedder.dim)
    base = {
        "tenant_id": "demo", "project_ids": ["*"], "roles": ["*"], "effective_from": 0,
        "effective_to": 99991231, "lifecycle": "PUBLISHED", "verification": "HUMAN_VERIFIED",
        "environment": "production",
    }  # fmt: skip
    ids: dict[tuple[str, str], str] = {}
    points = []
    for space, key, n in (("s", "d", 1), ("s", "d", 2), ("s", "d", 3), ("other", "hidden", 1)):
        fid = hashlib.sha256(f"{key}{n}".encode()).hexdigest()
        ids[(key, f"第{n}条")] = fid
        text = f"条文 {key} {n}"
        payload = {**base, "space_id": space, "fragment_id": fid, "document_id": key, "document_key": key,
                   "locator": f"第{n}条", "ordinal": n}  # fmt: skip
        vector = embedder.passages([text])[0]
        points.append(IndexPoint(fid, vector, encoder.document(tokenize(text)), payload))
    index.upsert(points)
    yield index, encoder, ids
    index.close()


class _TowardsLift:
    """An embedder whose query vector is the 电梯 question's: the dense neighbours point elsewhere."""

    dim = HashingEmbedder().dim

    def query(self, text: str) -> np.ndarray:
        return np.pad(np.array([0.0, 1.0, 0.0], dtype=np.float32), (0, self.dim - 3))


ACCESS = AccessFilter("demo", ("s",), (), "EMPLOYEE", 20250601)


def _legs(shard: Shard, params: HybridParams, query: str) -> dict[str, list[str]]:
    index, encoder, _ = shard
    _, bank = _bank()
    found = hybrid_legs(
        index, encoder, _TowardsLift(), query=query, lexical_hint="", access=ACCESS, limit=10,  # type: ignore[arg-type]
        params=params, bank=bank,
    )  # fmt: skip
    return {name: [hit.fragment_id for hit in hits] for name, hits in found.items()}


def test_the_leg_votes_for_what_word_sharing_questions_cite_though_the_dense_neighbour_is_elsewhere(
    shard: Shard,
) -> None:
    _, _, ids = shard
    params = HybridParams(bank=BankParams(neighbours=1, wide_weight=0.0, lexical_memory_weight=1.0))
    legs = _legs(shard, params, "物业服务合同 解除")
    assert legs["memory"] == [ids[("d", "第3条")]]
    assert legs["memory_lexical"] == [ids[("d", "第1条")], ids[("d", "第2条")]]


def test_the_leg_runs_only_where_it_is_fused(shard: Shard) -> None:
    off = HybridParams(bank=BankParams(lexical_memory_weight=0.0, tail=TailParams(lexical_memory_weight=0.0)))
    assert "memory_lexical" not in _legs(shard, off, "物业服务合同 解除")
    tail_only = replace(off, bank=replace(off.bank, tail=TailParams(lexical_memory_weight=1.0)))
    assert "memory_lexical" in _legs(shard, tail_only, "物业服务合同 解除")


def test_a_word_sharing_question_citing_an_unauthorized_article_votes_for_nothing(shard: Shard) -> None:
    _, _, ids = shard
    params = HybridParams(bank=BankParams(lexical_memory_weight=1.0))
    legs = _legs(shard, params, "消防 巡检")
    assert ids[("hidden", "第1条")] not in {fid for hits in legs.values() for fid in hits}
    assert legs["memory_lexical"] == []
