"""Query vectors: the last few are reused in memory, so a follow-up round does not embed twice."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from shifu.knowledge.embedding import Vectors
from shifu.knowledge.embedding_cache import QUERY_MEMO, CachedEmbedder


class CountingEmbedder:
    """Deterministic vectors; counts how often the model was asked for a query."""

    model_id = "counting"
    dim = 4

    def __init__(self) -> None:
        self.queries: list[str] = []

    def passages(self, texts: Sequence[str]) -> Vectors:
        return np.ones((len(texts), self.dim), dtype=np.float32)

    def query(self, text: str) -> Vectors:
        self.queries.append(text)
        return np.full(self.dim, float(len(text)), dtype=np.float32)


def test_the_same_query_is_embedded_once_while_it_is_recent(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    embedder = CachedEmbedder(inner, tmp_path)
    first = embedder.query("年假几天")
    again = embedder.query("年假几天")
    assert inner.queries == ["年假几天"]
    assert np.array_equal(first, again)


def test_only_the_last_few_queries_are_remembered(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    embedder = CachedEmbedder(inner, tmp_path)
    for n in range(QUERY_MEMO + 1):
        embedder.query(f"问题{n}")
    embedder.query("问题0")
    assert inner.queries.count("问题0") == 2
    assert len(inner.queries) == QUERY_MEMO + 2
