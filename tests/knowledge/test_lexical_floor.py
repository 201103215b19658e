"""The lexical floor: the best BM25 hits of a question always reach a short top-k."""

from __future__ import annotations

from kb_support import hits, ids

from shifu.knowledge.index.base import Hit
from shifu.knowledge.retrieval import with_lexical_floor


def fused() -> list[Hit]:
    """A fused ranking where the dense leg's favourites d1..d5 outrank the lexical head l1, l2."""
    return [Hit(f, 1.0 - i / 10) for i, f in enumerate(("d1", "d2", "d3", "d4", "d5", "l1", "d6", "l2"))]


def test_a_lexical_head_outside_the_top_k_takes_its_last_places_in_fused_order() -> None:
    ranking = with_lexical_floor(fused(), hits("l2", "l1"), 4)
    assert ids(ranking) == ["d1", "d2", "l1", "l2"]
    assert [hit.score for hit in ranking] == sorted((hit.score for hit in ranking), reverse=True)


def test_a_lexical_head_already_in_the_top_k_changes_nothing() -> None:
    assert with_lexical_floor(fused(), hits("d2", "d1"), 4) == fused()[:4]


def test_no_floor_is_the_plain_top_k_and_the_top_k_is_never_exceeded() -> None:
    assert with_lexical_floor(fused(), [], 3) == fused()[:3]
    assert ids(with_lexical_floor(fused(), hits("l1", "l2", "d6"), 2)) == ["l1", "d6"]
