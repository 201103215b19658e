"""The hybrid ranking itself: both legs filtered inside the engine, then fused.

Kept apart from the service so the benchmark ranks STARD with exactly the code that serves users.
"""

from __future__ import annotations

from dataclasses import dataclass

from shifu.knowledge.embedding import Embedder
from shifu.knowledge.fusion import rrf
from shifu.knowledge.index.base import AccessFilter, Hit, VectorIndex
from shifu.knowledge.text import Bm25Encoder, tokenize


@dataclass(frozen=True)
class HybridParams:
    """Fusion settings; the defaults were chosen on the STARD train split only."""

    candidates: int = 50
    """Hits taken from each leg before fusion (at least top_k)."""
    dense_weight: float = 1.25
    """RRF weight of the dense leg (the lexical leg weighs 1)."""
    rrf_k: int = 10
    """RRF rank offset."""


def hybrid_search(
    index: VectorIndex,
    encoder: Bm25Encoder,
    embedder: Embedder,
    *,
    query: str,
    lexical_hint: str,
    access: AccessFilter,
    top_k: int,
    params: HybridParams,
) -> list[Hit]:
    """The fused top-k among the points `access` allows (never filtered after the top-k)."""
    limit = max(params.candidates, top_k)
    sparse = index.search_sparse(encoder.query(tokenize(f"{query} {lexical_hint}")), access, limit)
    dense = index.search_dense(embedder.query(query), access, limit)
    return rrf([sparse, dense], weights=[1.0, params.dense_weight], k=params.rrf_k)[:top_k]
