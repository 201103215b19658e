"""The tail fusion: below the head of a long ranking the legs are fused again for recall."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from kb_support import hits, ids

from shifu.knowledge import retrieval
from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.fusion import rrf
from shifu.knowledge.index.base import AccessFilter, Hit
from shifu.knowledge.question_bank import BankEntry, embed_bank
from shifu.knowledge.retrieval import (
    WEIGHT_FIELDS,
    BankParams,
    HybridParams,
    TailParams,
    fuse_legs,
    hybrid_search,
)
from shifu.knowledge.text import Bm25Encoder

TAIL = TailParams(
    head=3, depth=2, sparse_weight=1.0, dense_weight=1.0, memory_weight=0.0, wide_weight=0.0,
    focus_sparse_weight=0.0, focus_dense_weight=0.0, near_sparse_weight=0.0, near_dense_weight=0.0,
    lexical_memory_weight=0.0, feedback_documents=0, feedback_weight=0.0, rrf_k=60,
)  # fmt: skip
PARAMS = HybridParams(bank=BankParams(tail=TAIL))


def legs() -> dict[str, list[Hit]]:
    """The memory leg alone holds m1..m6; the lexical and dense legs agree on a1..a6."""
    return {
        "sparse": hits("a1", "a2", "a3", "a4", "a5", "a6"),
        "dense": hits("a2", "a1", "a4", "a3", "a6", "a5"),
        "memory": hits("m1", "m2", "m3", "m4", "m5", "m6"),
    }


def test_a_ranking_no_longer_than_the_head_is_the_sharp_fusion() -> None:
    sharp = fuse_legs(legs(), replace(PARAMS, bank=replace(PARAMS.bank, tail=None)), 3)
    assert fuse_legs(legs(), PARAMS, 3) == sharp


def test_below_the_head_the_tail_weights_decide_and_the_head_is_not_repeated() -> None:
    headless = replace(PARAMS, bank=replace(PARAMS.bank, tail=None))
    sharp = ids(fuse_legs(legs(), headless, 10))
    # the memory leg weighs 2 with k 3: the sharp fusion keeps ranking its hits high all the way down
    assert {"m3", "m4"} <= set(sharp)
    ranking = ids(fuse_legs(legs(), PARAMS, 10))
    assert ranking[:3] == sharp[:3]
    # the tail weighs the memory leg 0: what follows comes from the lexical and dense legs only
    assert ranking[3:] == [i for i in ("a1", "a2", "a3", "a4", "a5", "a6") if i not in ranking[:3]]
    assert len(ranking) == len(set(ranking))


def test_the_whole_ranking_stays_sorted_by_score() -> None:
    ranking = fuse_legs(legs(), PARAMS, 10)
    scores = [hit.score for hit in ranking]
    assert scores == sorted(scores, reverse=True)
    assert scores[3] < scores[2]


def test_without_bank_legs_there_is_no_tail() -> None:
    plain = {name: found for name, found in legs().items() if name in ("sparse", "dense")}
    expected = rrf([plain["sparse"], plain["dense"]], weights=[1.0, PARAMS.dense_weight], k=PARAMS.rrf_k)
    assert fuse_legs(plain, PARAMS, 10) == expected[:10]


@pytest.mark.parametrize(("top_k", "limit"), [(3, 50), (8, 50), (40, 80), (100, 200)])
def test_a_ranking_with_a_tail_reads_the_legs_deeper_and_asks_for_the_feedback_leg(
    monkeypatch: pytest.MonkeyPatch, top_k: int, limit: int
) -> None:
    seen: list[int] = []
    feedback: list[bool] = []

    def recording_legs(*args: Any, **kwargs: Any) -> dict[str, list[Hit]]:
        seen.append(kwargs["limit"])
        feedback.append(kwargs["feedback"])
        return legs()

    monkeypatch.setattr(retrieval, "hybrid_legs", recording_legs)
    embedder = HashingEmbedder()
    bank = embed_bank([BankEntry(question="q", document_key="d", locator="第1条")], embedder.passages)
    access = AccessFilter("demo", ("s",), (), "EMPLOYEE", 20250601)
    params = replace(PARAMS, candidates=50)
    hybrid_search(
        None, Bm25Encoder(), embedder, query="q", lexical_hint="", access=access, top_k=top_k,  # type: ignore[arg-type]
        params=params, bank=bank,
    )  # fmt: skip
    assert seen == [limit]
    assert feedback == [top_k > TAIL.head]
    seen.clear()
    feedback.clear()
    hybrid_search(
        None, Bm25Encoder(), embedder, query="q", lexical_hint="", access=access, top_k=top_k,  # type: ignore[arg-type]
        params=params, bank=None,
    )  # fmt: skip
    assert seen == [max(50, top_k)]
    assert feedback == [False]


def every_leg() -> dict[str, list[Hit]]:
    """Each leg the fusions know holds 20 hits of its own, so every weight and k shows in the order."""
    names = ("sparse", *(name for name in WEIGHT_FIELDS if name != "feedback_dense"))
    return {name: hits(*(f"{name}-{n}" for n in range(20))) for name in names}


def test_the_shipped_tail_leaves_the_answer_paths_top_eight_alone() -> None:
    shipped = HybridParams()
    assert shipped.bank.tail is not None
    headless = replace(shipped, bank=replace(shipped.bank, tail=None))
    assert fuse_legs(every_leg(), shipped, 8) == fuse_legs(every_leg(), headless, 8)
    assert fuse_legs(every_leg(), shipped, 40) != fuse_legs(every_leg(), headless, 40)
