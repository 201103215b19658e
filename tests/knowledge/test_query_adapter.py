"""The query adapter: what it learns, the file it is read from, and which legs see the mapped vector."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.errors import ConfigurationError
from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.index.base import AccessFilter, Hit
from shifu.knowledge.query_adapter import (
    ADAPTER_INVALID,
    ContrastiveFit,
    QueryAdapter,
    fit_contrastive_query_adapter,
    fit_query_adapter,
    load_query_adapter,
    save_query_adapter,
)
from shifu.knowledge.question_bank import BankEntry, embed_bank
from shifu.knowledge.retrieval import BANK_WITHOUT_ADAPTER, HybridParams, hybrid_legs
from shifu.knowledge.service import open_knowledge_base
from shifu.knowledge.text import Bm25Encoder

DIM = 8


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_fit_learns_the_map_from_questions_to_their_passages() -> None:
    rng = np.random.default_rng(7)
    mixing = np.eye(DIM) + 0.5 * rng.standard_normal((DIM, DIM))
    queries = _unit(rng.standard_normal((400, DIM)))
    passages = _unit(queries @ mixing)
    adapter = fit_query_adapter(queries, passages, ridge=0.01)
    fresh = _unit(rng.standard_normal((50, DIM)))
    target = _unit(fresh @ mixing)
    mapped = np.stack([adapter.apply(v) for v in fresh])
    assert float(np.mean(np.sum(mapped * target, axis=1))) > 0.95
    assert float(np.mean(np.sum(fresh * target, axis=1))) < 0.9


def test_a_strong_ridge_keeps_the_identity() -> None:
    rng = np.random.default_rng(3)
    queries = _unit(rng.standard_normal((30, DIM)))
    passages = _unit(rng.standard_normal((30, DIM)))
    adapter = fit_query_adapter(queries, passages, ridge=1e9)
    assert np.allclose(adapter.matrix, np.eye(DIM), atol=1e-6)


def test_fit_refuses_mismatched_pairs_and_a_non_positive_ridge() -> None:
    with pytest.raises(ValueError, match="same shape"):
        fit_query_adapter(np.zeros((3, DIM), np.float32), np.zeros((2, DIM), np.float32), ridge=1.0)
    with pytest.raises(ValueError, match="ridge"):
        fit_query_adapter(np.ones((3, DIM), np.float32), np.ones((3, DIM), np.float32), ridge=0.0)


def _distorted_task(seed: int) -> tuple[np.ndarray, np.ndarray, list[list[int]], np.ndarray]:
    """Passages, questions that are a fixed distortion of their answer plus noise, and a rotation."""
    rng = np.random.default_rng(seed)
    passages = _unit(rng.standard_normal((300, DIM)))
    rotation = np.linalg.qr(rng.standard_normal((DIM, DIM)))[0]
    asked = rng.choice(len(passages), size=240, replace=False)
    queries = _unit(passages[asked] @ rotation.T + 0.05 * rng.standard_normal((len(asked), DIM)))
    return passages, queries, [[int(a)] for a in asked], rotation


def _top1(
    adapter: QueryAdapter | None, queries: np.ndarray, answers: list[list[int]], passages: np.ndarray
) -> float:
    hits = 0
    for vector, found in zip(queries, answers, strict=True):
        mapped = adapter.apply(vector) if adapter else vector
        hits += int(np.argmax(passages @ mapped)) in found
    return hits / len(queries)


def test_the_contrastive_fit_ranks_each_answer_first_on_unseen_questions() -> None:
    passages, queries, answers, _ = _distorted_task(11)
    adapter = fit_contrastive_query_adapter(
        queries[:160],
        answers[:160],
        passages,
        ContrastiveFit(temperature=0.05, epochs=100, learning_rate=0.01),
    )
    held_queries, held_answers = queries[160:], answers[160:]
    assert _top1(None, held_queries, held_answers, passages) < 0.3
    assert _top1(adapter, held_queries, held_answers, passages) > 0.95


def test_the_contrastive_fit_is_reproducible_and_reports_progress() -> None:
    passages, queries, answers, _ = _distorted_task(5)
    seen: list[tuple[int, int]] = []
    settings = ContrastiveFit(epochs=3, batch=32, seed=9)
    first = fit_contrastive_query_adapter(
        queries, answers, passages, settings, lambda d, n: seen.append((d, n))
    )
    again = fit_contrastive_query_adapter(queries, answers, passages, settings)
    assert np.array_equal(first.matrix, again.matrix)
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert first.matrix.shape == (DIM, DIM) and np.all(np.isfinite(first.matrix))


def test_a_repeated_answer_counts_once() -> None:
    passages, queries, answers, _ = _distorted_task(2)
    settings = ContrastiveFit(epochs=2)
    once = fit_contrastive_query_adapter(queries, answers, passages, settings)
    twice = fit_contrastive_query_adapter(queries, [rows * 2 for rows in answers], passages, settings)
    assert np.allclose(once.matrix, twice.matrix)


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ([[0], [1]], "every question needs its answers"),
        ([[0], [1], []], "rows of the passage matrix"),
        ([[0], [1], [300]], "rows of the passage matrix"),
        ([[0], [1], [-1]], "rows of the passage matrix"),
    ],
)
def test_the_contrastive_fit_refuses_answers_outside_the_passages(
    answers: list[list[int]], message: str
) -> None:
    passages = _unit(np.random.default_rng(1).standard_normal((300, DIM)))
    with pytest.raises(ValueError, match=message):
        fit_contrastive_query_adapter(passages[:3], answers, passages)


def test_the_contrastive_fit_refuses_mismatched_widths_and_bad_settings() -> None:
    passages = _unit(np.random.default_rng(1).standard_normal((10, DIM)))
    with pytest.raises(ValueError, match="same width"):
        fit_contrastive_query_adapter(np.ones((2, DIM + 1), np.float32), [[0], [1]], passages)
    for bad in ({"temperature": 0.0}, {"learning_rate": -1.0}, {"epochs": 0}, {"batch": 0}):
        with pytest.raises(ValueError):
            ContrastiveFit(**bad)


def test_apply_returns_a_unit_vector() -> None:
    adapter = QueryAdapter((2 * np.eye(DIM)).astype(np.float32))
    vector = np.arange(1, DIM + 1, dtype=np.float32)
    assert np.isclose(np.linalg.norm(adapter.apply(vector)), 1.0)


def test_an_adapter_file_round_trips(tmp_path: Path) -> None:
    adapter = QueryAdapter(np.eye(DIM, dtype=np.float32) * 0.5)
    path = tmp_path / "adapter.npy"
    save_query_adapter(adapter, path)
    assert np.array_equal(load_query_adapter(path, DIM).matrix, adapter.matrix)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (np.eye(DIM + 1, dtype=np.float32), "shape"),
        (np.full((DIM, DIM), np.nan, dtype=np.float32), "non-finite"),
        (np.eye(DIM, dtype=np.int64), "non-finite"),
        (None, "cannot read"),
    ],
)
def test_a_bad_adapter_file_is_refused_by_name(
    tmp_path: Path, content: np.ndarray | None, reason: str
) -> None:
    path = tmp_path / "adapter.npy"
    if content is None:
        path.write_text("not an array", encoding="utf-8")
    else:
        np.save(path, content)
    with pytest.raises(ConfigurationError, match=reason) as error:
        load_query_adapter(path, DIM)
    assert error.value.code == ADAPTER_INVALID and "adapter.npy" in str(error.value)


def test_a_configured_adapter_is_loaded_and_a_bad_one_fails_at_startup(
    settings: Settings, session_factory: sessionmaker[Session], tmp_path: Path
) -> None:
    embedder = HashingEmbedder()
    good = tmp_path / "good.npy"
    save_query_adapter(QueryAdapter(np.eye(embedder.dim, dtype=np.float32)), good)
    base = open_knowledge_base(replace(settings, query_adapter=good), session_factory, embedder=embedder)
    try:
        assert base.adapter is not None and base.adapter.matrix.shape == (embedder.dim, embedder.dim)
        assert base.params == HybridParams()
    finally:
        base.close()
    without = open_knowledge_base(settings, session_factory, embedder=embedder)
    try:
        assert without.adapter is None and without.params == HybridParams(bank=BANK_WITHOUT_ADAPTER)
    finally:
        without.close()
    bad = tmp_path / "bad.npy"
    np.save(bad, np.eye(3, dtype=np.float32))
    with pytest.raises(ConfigurationError, match=r"bad\.npy"):
        open_knowledge_base(replace(settings, query_adapter=bad), session_factory, embedder=embedder)


class _RecordingIndex:
    """A VectorIndex stand-in that records the vectors the dense searches receive."""

    def __init__(self) -> None:
        self.dense: list[np.ndarray] = []

    def search_dense(
        self, vector: np.ndarray, access: AccessFilter, limit: int, within: Any = None
    ) -> list[Hit]:
        self.dense.append(np.asarray(vector))
        return []

    def search_sparse(self, terms: Any, access: AccessFilter, limit: int, within: Any = None) -> list[Hit]:
        return []

    def cited(self, citations: Any, access: AccessFilter) -> dict[Any, Any]:
        return {}

    def dense_vectors(self, fragment_ids: Any, access: AccessFilter) -> dict[str, np.ndarray]:
        return {}


def _legs_with(
    adapter: QueryAdapter, params: HybridParams
) -> tuple[_RecordingIndex, list[np.ndarray], np.ndarray]:
    """Run every leg once; the dense searches' vectors and the bank's lookup vectors, and the raw query."""
    embedder = HashingEmbedder()
    bank = embed_bank(
        [BankEntry(question="报销上限是多少", document_key="reimburse", locator="二、报销标准")],
        lambda texts: np.stack([embedder.query(t) for t in texts]),
    )
    seen: list[np.ndarray] = []
    nearest = bank.nearest
    bank.nearest = lambda vector, n: seen.append(np.asarray(vector)) or nearest(vector, n)  # type: ignore[method-assign]
    index = _RecordingIndex()
    access = AccessFilter("demo", ("space-all-staff",), (), "EMPLOYEE", 20260101)
    hybrid_legs(
        index, Bm25Encoder(), embedder, query="报销上限", lexical_hint="", access=access, limit=10,  # type: ignore[arg-type]
        params=params, bank=bank, adapter=adapter,
    )  # fmt: skip
    return index, seen, embedder.query("报销上限")


def test_the_adapted_leg_alone_searches_with_the_mapped_vector() -> None:
    adapter = QueryAdapter(np.roll(np.eye(HashingEmbedder().dim, dtype=np.float32), 1, axis=1))
    weighed = HybridParams(bank=replace(HybridParams().bank, adapted_weight=1.0))
    index, seen, raw = _legs_with(adapter, weighed)
    mapped = [v for v in index.dense if np.allclose(v, adapter.apply(raw))]
    assert len(mapped) == 1 and len(index.dense) > 1
    assert all(np.allclose(v, raw) for v in index.dense if not np.allclose(v, adapter.apply(raw)))
    assert seen and all(np.allclose(v, raw) for v in seen)


def test_an_adapter_the_fusion_does_not_weigh_runs_no_leg() -> None:
    adapter = QueryAdapter(np.roll(np.eye(HashingEmbedder().dim, dtype=np.float32), 1, axis=1))
    shipped = HybridParams().bank
    assert shipped.tail is not None
    unweighed = replace(shipped, adapted_weight=0.0, tail=replace(shipped.tail, adapted_weight=0.0))
    index, _, raw = _legs_with(adapter, HybridParams(bank=unweighed))
    assert index.dense and all(np.allclose(v, raw) for v in index.dense)
