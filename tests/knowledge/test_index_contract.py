"""One contract suite for every VectorIndex engine: qdrant-edge and qdrant-client (local mode)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from qdrant_client import QdrantClient

from shifu.knowledge.index.base import (
    EXACT_DEPTH,
    GOVERNANCE_FIELDS,
    AccessFilter,
    CitedPoint,
    IndexPoint,
    Span,
    VectorIndex,
    Within,
    dense_is_exact,
)
from shifu.knowledge.index.client import ClientIndex
from shifu.knowledge.index.edge import EdgeIndex
from shifu.knowledge.text import Bm25Encoder, tokenize

DIM = 8
DAY = 20250601


def _fid(n: int) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()


NUMBER = {_fid(n): n for n in range(1, 11)}
"""Test point number by fragment id; odd numbers belong to document `doc-odd`, even to `doc-even`."""


def _payload(fid: str, **overrides: Any) -> dict[str, Any]:
    number = NUMBER.get(fid, 0)
    payload: dict[str, Any] = {
        "fragment_id": fid,
        "document_id": "doc",
        "document_key": "doc-odd" if number % 2 else "doc-even",
        "locator": f"第{number}条",
        "ordinal": number,
        "tenant_id": "demo",
        "space_id": "space-a",
        "project_ids": ["*"],
        "roles": ["*"],
        "effective_from": 20240101,
        "effective_to": 99991231,
        "lifecycle": "PUBLISHED",
        "verification": "HUMAN_VERIFIED",
        "environment": "production",
        "authority": "SOP",
    }
    payload.update(overrides)
    return payload


def _point(n: int, text: str, **overrides: Any) -> IndexPoint:
    fid = _fid(n)
    vector = np.zeros(DIM, dtype=np.float32)
    vector[n % DIM] = 1.0
    vector[(n + 1) % DIM] = 0.3
    return IndexPoint(
        fid,
        vector / np.linalg.norm(vector),
        Bm25Encoder().document(tokenize(text)),
        _payload(fid, **overrides),
    )


POINTS = [
    _point(1, "电梯困人 应急 处置"),
    _point(2, "电梯 维保 记录", space_id="space-b"),
    _point(3, "电梯困人 华府 专用", project_ids=["proj-huafu"]),
    _point(4, "电梯困人 主管 专用", roles=["SUPERVISOR"]),
    _point(5, "电梯困人 过期", effective_to=20241231),
    _point(6, "电梯困人 未来", effective_from=20260101),
    _point(7, "电梯困人 草稿", lifecycle="DRAFT"),
    _point(8, "电梯困人 别家", tenant_id="other"),
    _point(9, "电梯困人 预发", environment="staging"),
    _point(10, "电梯困人 未核验", verification="UNVERIFIED"),
]
EMPLOYEE = AccessFilter("demo", ("space-a", "space-b"), ("proj-huafu",), "EMPLOYEE", DAY)


@pytest.fixture(params=["edge", "client-memory", "client-path"])
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorIndex]:
    """Every engine adapter, empty."""
    engine: VectorIndex
    if request.param == "edge":
        engine = EdgeIndex(tmp_path / "edge", DIM)
    elif request.param == "client-memory":
        engine = ClientIndex(QdrantClient(":memory:"), DIM)
    else:
        engine = ClientIndex(QdrantClient(path=str(tmp_path / "client")), DIM)
    engine.upsert(POINTS)
    yield engine
    engine.close()


def _ids(hits: list[Any]) -> set[int]:
    return {NUMBER[h.fragment_id] for h in hits}


def test_filter_applies_inside_both_legs(index: VectorIndex) -> None:
    sparse = Bm25Encoder().query(tokenize("电梯困人"))
    assert _ids(index.search_sparse(sparse, EMPLOYEE, 100)) == {1, 2, 3}
    dense_all = set()
    for n in range(DIM):
        vector = np.zeros(DIM, dtype=np.float32)
        vector[n] = 1.0
        dense_all |= _ids(index.search_dense(vector, EMPLOYEE, 100))
    assert dense_all == {1, 2, 3}


def test_filter_top_k_is_never_spent_on_forbidden_points(index: VectorIndex) -> None:
    sparse = Bm25Encoder().query(tokenize("电梯困人 过期 未来 草稿 别家 预发 未核验"))
    assert _ids(index.search_sparse(sparse, EMPLOYEE, 1)) <= {1, 2, 3}
    assert len(index.search_sparse(sparse, EMPLOYEE, 1)) == 1


@pytest.mark.parametrize(
    ("access", "expected"),
    [
        (AccessFilter("demo", ("space-a",), (), "SUPERVISOR", DAY), {1, 4}),
        (AccessFilter("demo", ("space-a",), ("proj-huafu",), None, DAY), {1, 3, 4}),
        (AccessFilter("demo", ("space-a",), (), "EMPLOYEE", 20241231), {1, 5}),
        (AccessFilter("demo", ("space-a",), (), "EMPLOYEE", 20260101), {1, 6}),
        (AccessFilter("demo", (), (), "EMPLOYEE", DAY), set()),
        (AccessFilter("other", ("space-a",), (), "EMPLOYEE", DAY), {8}),
    ],
)
def test_scope_axes(index: VectorIndex, access: AccessFilter, expected: set[int]) -> None:
    assert _ids(index.search_sparse(Bm25Encoder().query(tokenize("电梯困人")), access, 100)) == expected


def test_upsert_is_idempotent_and_delete_removes(index: VectorIndex) -> None:
    index.upsert(POINTS[:3])
    assert index.count() == len(POINTS)
    index.delete([POINTS[0].fragment_id, "f" * 64])
    assert index.count() == len(POINTS) - 1
    payloads = index.payloads()
    assert POINTS[0].fragment_id not in payloads
    assert all(all(name in p for name in GOVERNANCE_FIELDS) for p in payloads.values())
    index.clear()
    assert index.count() == 0 and index.payloads() == {}


def test_sparse_ranks_the_better_match_first(index: VectorIndex) -> None:
    access = AccessFilter("demo", ("space-a", "space-b"), ("proj-huafu",), "SUPERVISOR", DAY)
    hits = index.search_sparse(Bm25Encoder().query(tokenize("主管 电梯困人")), access, 3)
    assert NUMBER[hits[0].fragment_id] == 4


def _resolved(found: dict[tuple[str, str], list[CitedPoint]]) -> set[int]:
    return {NUMBER[p.fragment_id] for points in found.values() for p in points}


def _citation(n: int) -> tuple[str, str]:
    return ("doc-odd" if n % 2 else "doc-even", f"第{n}条")


def test_document_restriction_narrows_both_legs_and_never_widens(index: VectorIndex) -> None:
    sparse = Bm25Encoder().query(tokenize("电梯困人 电梯 维保"))
    assert _ids(index.search_sparse(sparse, EMPLOYEE, 100, Within(documents=("doc-odd",)))) == {1, 3}
    assert _ids(index.search_sparse(sparse, EMPLOYEE, 100, Within(documents=("doc-even",)))) == {2}
    assert index.search_sparse(sparse, EMPLOYEE, 100, Within(documents=())) == []
    dense_odd: set[int] = set()
    for n in range(DIM):
        vector = np.zeros(DIM, dtype=np.float32)
        vector[n] = 1.0
        dense_odd |= _ids(index.search_dense(vector, EMPLOYEE, 100, Within(documents=("doc-odd",))))
    assert dense_odd == {1, 3}
    nobody = AccessFilter("demo", (), (), "EMPLOYEE", DAY)
    assert index.search_sparse(sparse, nobody, 100, Within(documents=("doc-odd", "doc-even"))) == []


def test_citations_resolve_only_to_points_the_caller_may_see(index: VectorIndex) -> None:
    everything = [_citation(n) for n in range(1, 11)]
    resolved = index.cited(everything, EMPLOYEE)
    assert _resolved(resolved) == {1, 2, 3}
    assert resolved[_citation(1)] == [CitedPoint(_fid(1), "doc-odd", 1)]
    supervisor = AccessFilter("demo", ("space-a",), (), "SUPERVISOR", DAY)
    assert _resolved(index.cited(everything, supervisor)) == {1, 4}
    other = AccessFilter("other", ("space-a",), (), "EMPLOYEE", DAY)
    assert _resolved(index.cited(everything, other)) == {8}
    assert index.cited(everything, AccessFilter("demo", (), (), "EMPLOYEE", DAY)) == {}
    assert index.cited([], EMPLOYEE) == {}


def test_citations_match_exact_pairs_not_their_cross_product(index: VectorIndex) -> None:
    resolved = index.cited([("doc-odd", "第1条"), ("doc-even", "第3条"), ("doc-odd", "第99条")], EMPLOYEE)
    assert resolved == {("doc-odd", "第1条"): [CitedPoint(_fid(1), "doc-odd", 1)]}


def test_retired_point_is_never_resolved(index: VectorIndex) -> None:
    index.delete([_fid(1)])
    assert index.cited([_citation(1), _citation(3)], EMPLOYEE) == {
        _citation(3): [CitedPoint(_fid(3), "doc-odd", 3)]
    }


def test_span_restriction_keeps_neighbours_by_ordinal_inside_the_access_filter(index: VectorIndex) -> None:
    sparse = Bm25Encoder().query(tokenize("电梯困人 电梯 维保"))
    supervisor = AccessFilter("demo", ("space-a", "space-b"), ("proj-huafu",), "SUPERVISOR", DAY)
    around_three = Within(spans=(Span("doc-odd", 2, 4),))
    assert _ids(index.search_sparse(sparse, supervisor, 100, around_three)) == {3}
    both = Within(spans=(Span("doc-odd", 1, 3), Span("doc-even", 2, 4)))
    assert _ids(index.search_sparse(sparse, supervisor, 100, both)) == {1, 2, 3, 4}
    assert _ids(index.search_sparse(sparse, EMPLOYEE, 100, both)) == {1, 2, 3}
    everything = Within(spans=(Span("doc-odd", 0, 99), Span("doc-even", 0, 99)))
    assert _ids(index.search_sparse(sparse, EMPLOYEE, 100, everything)) == {1, 2, 3}
    assert index.search_sparse(sparse, EMPLOYEE, 100, Within(spans=())) == []
    vector = np.zeros(DIM, dtype=np.float32)
    vector[3] = 1.0
    assert _ids(index.search_dense(vector, supervisor, 100, around_three)) == {3}


def test_a_reopened_edge_shard_names_the_same_fragments_and_forgets_deleted_ones(tmp_path: Path) -> None:
    sparse = Bm25Encoder().query(tokenize("电梯困人"))
    first = EdgeIndex(tmp_path / "edge", DIM)
    first.upsert(POINTS)
    before = [(h.fragment_id, round(h.score, 5)) for h in first.search_sparse(sparse, EMPLOYEE, 100)]
    first.delete([POINTS[0].fragment_id])
    first.close()
    reopened = EdgeIndex(tmp_path / "edge", DIM)
    try:
        after = [(h.fragment_id, round(h.score, 5)) for h in reopened.search_sparse(sparse, EMPLOYEE, 100)]
        assert {fid for fid, _ in after} == {fid for fid, _ in before} - {POINTS[0].fragment_id}
        reopened.upsert(POINTS[:1])
        assert POINTS[0].fragment_id in {h.fragment_id for h in reopened.search_sparse(sparse, EMPLOYEE, 100)}
    finally:
        reopened.close()


def test_dense_vectors_are_returned_only_for_points_the_caller_may_see(index: VectorIndex) -> None:
    wanted = [_fid(n) for n in (1, 2, 3, 4, 7, 8)] + ["f" * 64]
    found = index.dense_vectors(wanted, EMPLOYEE)
    assert {NUMBER[f] for f in found} == {1, 2, 3}
    stored = {p.fragment_id: p.dense for p in POINTS}
    for fragment_id, vector in found.items():
        assert vector.dtype == np.float32
        assert np.allclose(vector, stored[fragment_id], atol=1e-6)
    assert index.dense_vectors(wanted, AccessFilter("demo", (), (), "EMPLOYEE", DAY)) == {}
    assert index.dense_vectors([], EMPLOYEE) == {}


def test_equal_scores_are_ordered_by_fragment_id_whatever_the_insertion_order(index: VectorIndex) -> None:
    index.clear()
    twins = [_point(n, "消防巡检 记录") for n in (9, 4, 7, 1, 10, 3, 6)]
    index.upsert(twins)
    sparse = Bm25Encoder().query(tokenize("消防巡检"))
    hits = index.search_sparse(sparse, AccessFilter("demo", ("space-a",), (), None, DAY), 3)
    assert [h.fragment_id for h in hits] == sorted(p.fragment_id for p in twins)[:3]
    assert len({h.score for h in hits}) == 1, "the points tie"


def test_a_long_dense_ranking_is_the_exact_cosine_order_of_the_allowed_points(index: VectorIndex) -> None:
    assert dense_is_exact(EXACT_DEPTH) and not dense_is_exact(EXACT_DEPTH - 1)
    query = np.linspace(1.0, 2.0, DIM).astype(np.float32)
    allowed = [p for p in POINTS if NUMBER[p.fragment_id] in {1, 2, 3}]
    expected = sorted(allowed, key=lambda p: (-float(p.dense @ query / np.linalg.norm(query)), p.fragment_id))
    hits = index.search_dense(query, EMPLOYEE, EXACT_DEPTH)
    assert [h.fragment_id for h in hits] == [p.fragment_id for p in expected]
