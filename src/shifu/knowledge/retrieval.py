"""The hybrid ranking itself: every leg filtered inside the engine, then fused.

Legs: BM25 (sparse) and dense over everything the caller may see; with a question bank, also
the *memory* leg (fragments cited by the nearest bank questions, resolved in the engine under
the same authorization filter), the *wide memory* leg (the same votes from many more bank
questions: general articles that similar questions keep citing), the *focus* legs (the same
sparse and dense queries again, restricted to the documents the nearest bank questions cite) and
the *near* legs (restricted to the cited fragments and their neighbours in the document: related
articles sit side by side).
Kept apart from the service so the benchmark ranks STARD with exactly the code that serves users.
"""

from __future__ import annotations

from dataclasses import dataclass

from shifu.knowledge.embedding import Embedder
from shifu.knowledge.fusion import rrf
from shifu.knowledge.index.base import AccessFilter, Citation, CitedPoint, Hit, Span, VectorIndex, Within
from shifu.knowledge.question_bank import Neighbour, QuestionBank
from shifu.knowledge.text import Bm25Encoder, tokenize

LEGS = (
    "sparse",
    "dense",
    "memory",
    "memory_wide",
    "focus_sparse",
    "focus_dense",
    "near_sparse",
    "near_dense",
)
"""Every leg, in fusion order; all but the first two exist only with a question bank."""


@dataclass(frozen=True)
class BankParams:
    """How the question-bank legs are formed and fused (used only when a bank is configured).

    The defaults were chosen on the STARD train split only, full corpus, passages embedded as the
    product embeds them, tuned from equal weights (bench/retrieval/run.py, 2026-12-03).
    """

    neighbours: int = 10
    """Bank questions that vote (the nearest ones)."""
    power: float = 4.0
    """A neighbour's vote is its cosine similarity to this power (near questions dominate)."""
    focus_documents: int = 3
    """Documents the focus legs are restricted to (the most voted ones)."""
    dense_weight: float = 2.0
    """RRF weight of the dense leg (the lexical leg weighs 1)."""
    memory_weight: float = 2.0
    """RRF weight of the memory leg."""
    wide_neighbours: int = 50
    """Bank questions that vote in the wide memory leg."""
    wide_weight: float = 1.5
    """RRF weight of the wide memory leg (0 skips it)."""
    focus_sparse_weight: float = 1.0
    """RRF weight of the sparse leg restricted to the voted documents."""
    focus_dense_weight: float = 1.0
    """RRF weight of the dense leg restricted to the voted documents."""
    near: int = 2
    """The near legs search the cited fragments and this many neighbours on each side (by ordinal)."""
    near_sparse_weight: float = 0.5
    """RRF weight of the sparse leg restricted to the cited fragments' neighbourhoods."""
    near_dense_weight: float = 1.0
    """RRF weight of the dense leg restricted to the cited fragments' neighbourhoods."""
    rrf_k: int = 3
    """RRF rank offset."""


@dataclass(frozen=True)
class HybridParams:
    """Fusion settings; the defaults were chosen on the STARD train split only."""

    candidates: int = 50
    """Hits taken from each leg before fusion (at least top_k)."""
    dense_weight: float = 1.25
    """RRF weight of the dense leg (the lexical leg weighs 1), without a question bank."""
    rrf_k: int = 10
    """RRF rank offset, without a question bank."""
    bank: BankParams = BankParams()
    """Leg and fusion settings with a question bank."""

    def weights(self, with_bank: bool) -> dict[str, float]:
        """RRF weight of every leg that runs."""
        if not with_bank:
            return {"sparse": 1.0, "dense": self.dense_weight}
        return {
            "sparse": 1.0,
            "dense": self.bank.dense_weight,
            "memory": self.bank.memory_weight,
            "memory_wide": self.bank.wide_weight,
            "focus_sparse": self.bank.focus_sparse_weight,
            "focus_dense": self.bank.focus_dense_weight,
            "near_sparse": self.bank.near_sparse_weight,
            "near_dense": self.bank.near_dense_weight,
        }

    def k(self, with_bank: bool) -> int:
        """RRF rank offset of the fusion that runs."""
        return self.bank.rrf_k if with_bank else self.rrf_k


def votes(neighbours: list[Neighbour], power: float) -> tuple[dict[Citation, float], dict[str, float]]:
    """Votes of the neighbours for the fragments they cite and for those fragments' documents."""
    cited: dict[Citation, float] = {}
    documents: dict[str, float] = {}
    for neighbour in neighbours:
        weight = max(neighbour.similarity, 0.0) ** power
        cited[neighbour.entry.citation] = cited.get(neighbour.entry.citation, 0.0) + weight
        key = neighbour.entry.document_key
        documents[key] = documents.get(key, 0.0) + weight
    return cited, documents


def _best(scores: dict[str, float]) -> list[str]:
    return [key for key, _ in sorted(scores.items(), key=lambda item: (-item[1], item[0]))]


def _first_questions(neighbours: list[Neighbour], n: int) -> list[Neighbour]:
    """The citations of the `n` nearest distinct questions (`neighbours` is best first)."""
    questions: set[str] = set()
    for position, neighbour in enumerate(neighbours):
        questions.add(neighbour.entry.question)
        if len(questions) > n:
            return neighbours[:position]
    return neighbours


def _voted(
    found: dict[Citation, list[CitedPoint]], cited: dict[Citation, float]
) -> list[tuple[CitedPoint, float]]:
    """The points of the voted citations, most voted first (ties by fragment id)."""
    points = [(p, cited[c]) for c, hits in found.items() if c in cited for p in hits]
    points.sort(key=lambda item: (-item[1], item[0].fragment_id))
    return points


def hybrid_legs(
    index: VectorIndex,
    encoder: Bm25Encoder,
    embedder: Embedder,
    *,
    query: str,
    lexical_hint: str,
    access: AccessFilter,
    limit: int,
    params: HybridParams,
    bank: QuestionBank | None = None,
) -> dict[str, list[Hit]]:
    """Each leg's ranking among the points `access` allows (the filter always runs inside the engine)."""
    terms = encoder.query(tokenize(f"{query} {lexical_hint}"))
    vector = embedder.query(query)
    legs = {
        "sparse": index.search_sparse(terms, access, limit),
        "dense": index.search_dense(vector, access, limit),
    }
    if bank is None or not len(bank):
        return legs
    settings = params.bank
    wide = settings.wide_neighbours if settings.wide_weight > 0 else 0
    neighbours = bank.nearest(vector, max(settings.neighbours, wide))
    cited, documents = votes(_first_questions(neighbours, settings.neighbours), settings.power)
    wide_cited = votes(neighbours, settings.power)[0] if wide else cited
    found = index.cited(list(wide_cited), access)
    points = _voted(found, cited)
    legs["memory"] = [Hit(p.fragment_id, vote) for p, vote in points[:limit]]
    if wide:
        legs["memory_wide"] = [Hit(p.fragment_id, vote) for p, vote in _voted(found, wide_cited)[:limit]]
    focus = Within(documents=tuple(_best(documents)[: settings.focus_documents]))
    radius = settings.near
    near = Within(
        spans=tuple(Span(p.document_key, p.ordinal - radius, p.ordinal + radius) for p, _ in points)
    )
    for name, within in (("focus", focus), ("near", near)):
        legs[f"{name}_sparse"] = index.search_sparse(terms, access, limit, within)
        legs[f"{name}_dense"] = index.search_dense(vector, access, limit, within)
    return legs


def fuse_legs(legs: dict[str, list[Hit]], params: HybridParams, top_k: int) -> list[Hit]:
    """Weighted RRF of the legs that ran (weights and k from `params`)."""
    with_bank = any(name not in ("sparse", "dense") for name in legs)
    weights = params.weights(with_bank)
    names = [name for name in LEGS if name in legs]
    fused = rrf([legs[n] for n in names], weights=[weights[n] for n in names], k=params.k(with_bank))
    return fused[:top_k]


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
    bank: QuestionBank | None = None,
) -> list[Hit]:
    """The fused top-k among the points `access` allows (never filtered after the top-k)."""
    legs = hybrid_legs(
        index,
        encoder,
        embedder,
        query=query,
        lexical_hint=lexical_hint,
        access=access,
        limit=max(params.candidates, top_k),
        params=params,
        bank=bank,
    )
    return fuse_legs(legs, params, top_k)
