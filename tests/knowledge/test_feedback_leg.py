"""The feedback leg: below the head of a long ranking, articles like the ones that rank first."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from kb_support import hits, ids

from shifu.knowledge.index.base import AccessFilter, Hit
from shifu.knowledge.retrieval import (
    BankParams,
    HybridParams,
    TailParams,
    feedback_leg,
    feedback_vector,
    fuse_legs,
)

ACCESS = AccessFilter("demo", ("s",), (), "EMPLOYEE", 20250601)
TAIL = TailParams(
    head=3, depth=2, sparse_weight=1.0, dense_weight=1.0, memory_weight=1.0, wide_weight=0.0,
    focus_sparse_weight=0.0, focus_dense_weight=0.0, near_sparse_weight=0.0, near_dense_weight=0.0,
    lexical_memory_weight=0.0, feedback_documents=2, feedback_mix=1.0, feedback_weight=3.0, rrf_k=60,
)  # fmt: skip
PARAMS = HybridParams(bank=BankParams(dense_weight=1.5, memory_weight=3.0, tail=TAIL))
"""Head weights pinned (the memory leg leads the head), so the expected rankings do not follow the
shipped defaults."""


def legs() -> dict[str, list[Hit]]:
    return {
        "sparse": hits("a1", "a2", "a3", "a4", "a5"),
        "dense": hits("a2", "a1", "a3", "a5", "a4"),
        "memory": hits("a1", "a3"),
    }


def unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def test_the_query_moves_towards_the_heads_mean_and_stays_a_unit_vector() -> None:
    query = unit(1.0, 0.0, 0.0)
    head = [unit(0.0, 1.0, 0.0), unit(0.0, 0.8, 0.6)]
    moved = feedback_vector(query, head, 1.0)
    assert moved.dtype == np.float32
    assert np.isclose(np.linalg.norm(moved), 1.0)
    assert float(moved @ head[0]) > float(query @ head[0])
    assert float(moved @ query) > 0.5
    stronger = feedback_vector(query, head, 3.0)
    assert float(stronger @ head[0]) > float(moved @ head[0])
    assert np.allclose(feedback_vector(query * 5, [], 1.0), query)


def test_the_feedback_leg_is_fused_below_the_head_only() -> None:
    found = legs()
    with_feedback = {**found, "feedback_dense": hits("f1", "f2", "a5")}
    assert fuse_legs(with_feedback, PARAMS, 3) == fuse_legs(found, PARAMS, 3)
    assert ids(fuse_legs(found, PARAMS, 8)) == ["a1", "a3", "a2", "a4", "a5"]
    # below the head, the feedback leg lifts a5 over a4 and brings in what only it found
    assert ids(fuse_legs(with_feedback, PARAMS, 8)) == ["a1", "a3", "a2", "a5", "f1", "f2", "a4"]
    silent = replace(PARAMS, bank=replace(PARAMS.bank, tail=replace(TAIL, feedback_weight=0.0)))
    assert "f1" not in ids(fuse_legs(with_feedback, silent, 8))


class RecordingIndex:
    """Stored vectors and one dense search, both recording the access filter they were given."""

    def __init__(self) -> None:
        self.stored = {"a1": unit(0.0, 1.0, 0.0), "a3": unit(0.0, 0.0, 1.0)}
        self.calls: list[tuple[str, Any, AccessFilter]] = []

    def dense_vectors(self, fragment_ids: list[str], access: AccessFilter) -> dict[str, np.ndarray]:
        self.calls.append(("vectors", list(fragment_ids), access))
        return {f: self.stored[f] for f in fragment_ids if f in self.stored}

    def search_dense(
        self, vector: np.ndarray, access: AccessFilter, limit: int, within: Any = None
    ) -> list[Hit]:
        self.calls.append(("search", vector, access))
        return hits("f1", "f2")[:limit]


def test_the_feedback_leg_reads_the_heads_vectors_and_searches_under_the_callers_access() -> None:
    index = RecordingIndex()
    query = unit(1.0, 0.0, 0.0)
    found = feedback_leg(index, query, legs(), PARAMS, ACCESS, 50)  # type: ignore[arg-type]
    assert ids(found) == ["f1", "f2"]
    (kind, head, access), (search, moved, search_access) = index.calls
    assert (kind, search) == ("vectors", "search")
    assert head == ids(fuse_legs(legs(), PARAMS, TAIL.feedback_documents)) == ["a1", "a3"]
    assert access == search_access == ACCESS
    assert np.allclose(moved, feedback_vector(query, [index.stored[f] for f in head], TAIL.feedback_mix))


def test_no_feedback_leg_without_head_vectors_or_without_its_weight() -> None:
    index = RecordingIndex()
    index.stored = {}
    assert feedback_leg(index, unit(1.0, 0.0), legs(), PARAMS, ACCESS, 50) == []  # type: ignore[arg-type]
    assert [call[0] for call in index.calls] == ["vectors"]
    silent = replace(PARAMS, bank=replace(PARAMS.bank, tail=replace(TAIL, feedback_weight=0.0)))
    assert feedback_leg(RecordingIndex(), unit(1.0, 0.0), legs(), silent, ACCESS, 50) == []  # type: ignore[arg-type]


def test_the_feedback_head_cannot_reach_below_the_head() -> None:
    with pytest.raises(ValueError, match="feedback_documents"):
        replace(TAIL, feedback_documents=TAIL.head + 1)
