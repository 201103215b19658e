"""Reciprocal rank fusion of ranked hit lists: a small pure function, easy to test and tune."""

from __future__ import annotations

from collections.abc import Sequence

from shifu.knowledge.index.base import Hit


def rrf(
    rankings: Sequence[Sequence[Hit]], *, weights: Sequence[float] | None = None, k: int = 60
) -> list[Hit]:
    """Fuse ranked lists: score = Σ w / (k + rank); ties broken by fragment id for determinism."""
    weights = weights or [1.0] * len(rankings)
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.fragment_id] = scores.get(hit.fragment_id, 0.0) + weight / (k + rank)
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [Hit(fragment_id, score) for fragment_id, score in ordered]
