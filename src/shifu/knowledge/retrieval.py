"""The hybrid ranking itself: every leg filtered inside the engine, then fused.

Legs: BM25 (sparse) and dense over everything the caller may see; with a question bank, also
the *memory* leg (fragments cited by the nearest bank questions, resolved in the engine under
the same authorization filter), the *wide memory* leg (the same votes from many more bank
questions: general articles that similar questions keep citing), the *lexical memory* leg (the same
votes from the bank questions sharing the most BM25 weight with the query), the *focus* legs (the same
sparse and dense queries again, restricted to the documents the nearest bank questions cite) and
the *near* legs (restricted to the cited fragments and their neighbours in the document: related
articles sit side by side). Below the head of a long ranking, the *feedback* leg searches again with
the query vector moved towards the stored vectors of the head's first places (pseudo-relevance
feedback: articles like the ones that rank first).
Kept apart from the service so the benchmark ranks STARD with exactly the code that serves users.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from shifu.knowledge.embedding import Embedder
from shifu.knowledge.fusion import rrf
from shifu.knowledge.index.base import AccessFilter, Citation, CitedPoint, Hit, Span, VectorIndex, Within
from shifu.knowledge.query_adapter import QueryAdapter
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
    "memory_lexical",
    "adapted_dense",
    "feedback_dense",
)
"""Every leg, in fusion order; all but the first two exist only with a question bank (the adapted dense
leg only with a query adapter), the last only below the head of a long ranking."""
WEIGHT_FIELDS = {
    "dense": "dense_weight",
    "memory": "memory_weight",
    "memory_wide": "wide_weight",
    "focus_sparse": "focus_sparse_weight",
    "focus_dense": "focus_dense_weight",
    "near_sparse": "near_sparse_weight",
    "near_dense": "near_dense_weight",
    "memory_lexical": "lexical_memory_weight",
    "adapted_dense": "adapted_weight",
    "feedback_dense": "feedback_weight",
}
"""The field holding each leg's RRF weight, in the bank fusion and in the tail fusion alike (a fusion
without the field does not fuse that leg)."""


def leg_weights(params: object) -> dict[str, float]:
    """Each leg's weight (but the sparse BM25 leg's) read from a fusion's settings by `WEIGHT_FIELDS`."""
    return {
        leg: float(getattr(params, field)) for leg, field in WEIGHT_FIELDS.items() if hasattr(params, field)
    }


EXPANSION_WEIGHT = 0.5
"""Keyword weight of an expansion word against the query's own words (see `hybrid_legs`)."""

TAIL_SCALE = 0.999
"""A tail hit's score is below the head's last one by at least this factor."""


@dataclass(frozen=True)
class TailParams:
    """How a long ranking is fused below its head, with a question bank: recall before precision.

    The bank fusion (`BankParams`, a small RRF k) is sharp: it puts the cited article first, but a
    leg's deeper hits barely move its scores, so the end of a long list (top 100 for a reranker or an
    operator's `kb search --top-k`) is left to whichever leg ranks deepest. Below the first
    `head` places the same legs are fused again with their own weights and a flatter k, which
    weighs the legs' deeper hits. The head (every ranking the answer path asks for, top 8) is
    unchanged. The defaults were chosen on the STARD train split only, for Recall@100 with the
    head fixed (bench/retrieval/run.py, run of 2026-12-06 23:30 UTC, contrastive query adapter
    configured). The feedback leg is tried on every run; in that run no setting of it beat the
    tail without it, so the default tail has none (`feedback_documents` 0).
    """

    head: int = 10
    """Places taken from the sharp fusion; a ranking no longer than this has no tail."""
    depth: int = 2
    """A ranking with a tail reads every leg this many times its length deep."""
    sparse_weight: float = 0.5
    dense_weight: float = 1.0
    memory_weight: float = 1.0
    wide_weight: float = 0.25
    focus_sparse_weight: float = 0.25
    focus_dense_weight: float = 1.0
    near_sparse_weight: float = 1.0
    near_dense_weight: float = 1.0
    lexical_memory_weight: float = 1.0
    adapted_weight: float = 3.0
    """RRF weight of the adapted dense leg (a query adapter configured; 0 here and in the head skips it)."""
    feedback_documents: int = 0
    """Places of the head whose stored vectors move the query of the feedback leg (0: no feedback leg)."""
    feedback_mix: float = 1.0
    """Weight of the head's mean vector added to the (unit) query vector."""
    feedback_weight: float = 0.5
    """RRF weight of the feedback leg."""
    rrf_k: int = 60
    """RRF rank offset of the tail fusion."""

    def __post_init__(self) -> None:
        if not 0 <= self.feedback_documents <= self.head:
            raise ValueError("feedback_documents must lie between 0 and head")

    @property
    def feedback(self) -> bool:
        """The tail has a feedback leg."""
        return self.feedback_documents > 0 and self.feedback_weight > 0

    def weights(self) -> dict[str, float]:
        """RRF weight of every leg in the tail fusion (a leg weighing 0 is left out)."""
        return {"sparse": self.sparse_weight, **leg_weights(self)}


@dataclass(frozen=True)
class BankParams:
    """How the question-bank legs are formed and fused (used only when a bank is configured).

    The defaults were chosen on the STARD train split only, full corpus, passages embedded as the
    product embeds them, tuned from equal weights (bench/retrieval/run.py, run of 2026-12-06 23:30
    UTC). The train split chose the setting with the contrastive query adapter (train R@10 + R@100
    1.6780 against 1.6341 without one), so the adapted dense leg weighs 3. A deployment without a
    configured adapter runs `BANK_WITHOUT_ADAPTER` instead.
    """

    neighbours: int = 10
    """Bank questions that vote (the nearest ones)."""
    power: float = 4.0
    """A neighbour's vote is its cosine similarity to this power (near questions dominate)."""
    focus_documents: int = 3
    """Documents the focus legs are restricted to (the most voted ones)."""
    dense_weight: float = 0.5
    """RRF weight of the dense leg (the sparse BM25 leg weighs 1)."""
    memory_weight: float = 0.0
    """RRF weight of the memory leg."""
    wide_neighbours: int = 100
    """Bank questions that vote in the wide memory leg."""
    wide_weight: float = 0.5
    """RRF weight of the wide memory leg (0 skips it)."""
    focus_sparse_weight: float = 0.25
    """RRF weight of the sparse leg restricted to the voted documents."""
    focus_dense_weight: float = 0.25
    """RRF weight of the dense leg restricted to the voted documents."""
    near: int = 2
    """The near legs search the cited fragments and this many neighbours on each side (by ordinal)."""
    near_sparse_weight: float = 0.5
    """RRF weight of the sparse leg restricted to the cited fragments' neighbourhoods."""
    near_dense_weight: float = 0.5
    """RRF weight of the dense leg restricted to the cited fragments' neighbourhoods."""
    lexical_neighbours: int = 50
    """Bank questions that vote in the lexical memory leg (those sharing the most BM25 weight)."""
    lexical_power: float = 1.0
    """A lexical neighbour's vote is its BM25 score ÷ the best one's, to this power."""
    lexical_memory_weight: float = 1.0
    """RRF weight of the lexical memory leg (0 here and in the tail skips it)."""
    adapted_weight: float = 3.0
    """RRF weight of the dense leg whose query vector the query adapter mapped (0 here and in the tail
    skips it; it runs only when an adapter is configured)."""
    rrf_k: int = 3
    """RRF rank offset."""
    tail: TailParams | None = TailParams()
    """How the ranking continues below its head (None: the sharp fusion all the way down)."""


@dataclass(frozen=True)
class HybridParams:
    """Fusion settings; the defaults were chosen on the STARD train split only."""

    candidates: int = 50
    """Hits taken from each leg before fusion (at least top_k; `bank.tail.depth` × top_k for a ranking with
    a tail)."""
    dense_weight: float = 1.25
    """RRF weight of the dense leg (the sparse BM25 leg weighs 1), without a question bank."""
    rrf_k: int = 10
    """RRF rank offset, without a question bank."""
    adapted_weight: float = 1.0
    """RRF weight of the adapted dense leg without a question bank (it runs only with a query adapter)."""
    bank: BankParams = BankParams()
    """Leg and fusion settings with a question bank."""

    def weights(self, with_bank: bool) -> dict[str, float]:
        """RRF weight of every leg that runs."""
        if not with_bank:
            return {"sparse": 1.0, "dense": self.dense_weight, "adapted_dense": self.adapted_weight}
        return {"sparse": 1.0, **leg_weights(self.bank)}

    def k(self, with_bank: bool) -> int:
        """RRF rank offset of the fusion that runs."""
        return self.bank.rrf_k if with_bank else self.rrf_k


BANK_WITHOUT_ADAPTER = replace(
    BankParams(),
    dense_weight=1.5,
    memory_weight=1.5,
    wide_weight=1.0,
    focus_sparse_weight=0.5,
    focus_dense_weight=1.5,
    near_dense_weight=1.0,
    rrf_k=2,
    tail=replace(
        TailParams(),
        dense_weight=2.0,
        memory_weight=0.0,
        wide_weight=1.0,
        focus_sparse_weight=1.0,
        near_sparse_weight=0.5,
        adapted_weight=0.0,
        rrf_k=30,
    ),
)
"""The bank fusion of a deployment with a question bank but no query adapter: the best train weights
of the leg settings without an adapter in the same STARD run as `BankParams`' defaults (the run of
2026-12-06 23:30 UTC; train R@10 + R@100 1.6341), written as its differences from those defaults.
Weights tuned beside the adapted leg lose recall without it (dev R@10 0.711 and R@100 0.897 against
0.729 and 0.905 with these); the adapted leg's weight never counts here, as it runs only with an
adapter."""


def shipped_params(adapter_configured: bool) -> HybridParams:
    """The fusion a deployment runs: `BankParams`' defaults with a query adapter, else
    `BANK_WITHOUT_ADAPTER`."""
    return HybridParams() if adapter_configured else HybridParams(bank=BANK_WITHOUT_ADAPTER)


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
    feedback: bool = False,
    adapter: QueryAdapter | None = None,
    expansion: str = "",
) -> dict[str, list[Hit]]:
    """Each leg's ranking among the points `access` allows (the filter always runs inside the engine).

    `expansion` (the document words a query's lay words stand for: 离职 → 解除劳动合同) joins the
    dense query whole and the keyword query at `EXPANSION_WEIGHT`, so a fragment using the asker's
    own word (工具类物品…离职时交回) is not outvoted by statutes repeating the expansion.

    `feedback` adds the tail's feedback leg (when the tail has one): only a ranking longer than its
    head asks for it, since the leg is fused below the head only. `adapter` adds a dense leg searched
    with the adapted query vector, when the fusion weighs it; every other leg uses the raw one.
    """
    tokens = tokenize(f"{query} {lexical_hint}")
    expanded = tokenize(expansion) if expansion else []
    terms = encoder.query(tokens, expanded, EXPANSION_WEIGHT)
    vector = embedder.query(f"{query} {expansion}".strip())
    legs = {
        "sparse": index.search_sparse(terms, access, limit),
        "dense": index.search_dense(vector, access, limit),
    }
    if adapter is not None and _adapted(params, bank is not None and len(bank) > 0):
        legs["adapted_dense"] = index.search_dense(adapter.apply(vector), access, limit)
    if bank is None or not len(bank):
        return legs
    settings = params.bank
    wide = settings.wide_neighbours if settings.wide_weight > 0 else 0
    neighbours = bank.nearest(vector, max(settings.neighbours, wide))
    cited, documents = votes(_first_questions(neighbours, settings.neighbours), settings.power)
    wide_cited = votes(neighbours, settings.power)[0] if wide else cited
    lexical_cited = (
        votes(bank.lexical_nearest(tokens + expanded, settings.lexical_neighbours), settings.lexical_power)[0]
        if _lexical_memory(settings)
        else {}
    )
    found = index.cited(list({**wide_cited, **lexical_cited}), access)
    points = _voted(found, cited)
    legs["memory"] = [Hit(p.fragment_id, vote) for p, vote in points[:limit]]
    if wide:
        legs["memory_wide"] = [Hit(p.fragment_id, vote) for p, vote in _voted(found, wide_cited)[:limit]]
    if lexical_cited:
        legs["memory_lexical"] = [Hit(p.fragment_id, v) for p, v in _voted(found, lexical_cited)[:limit]]
    focus = Within(documents=tuple(_best(documents)[: settings.focus_documents]))
    radius = settings.near
    near = Within(
        spans=tuple(Span(p.document_key, p.ordinal - radius, p.ordinal + radius) for p, _ in points)
    )
    for name, within in (("focus", focus), ("near", near)):
        legs[f"{name}_sparse"] = index.search_sparse(terms, access, limit, within)
        legs[f"{name}_dense"] = index.search_dense(vector, access, limit, within)
    if feedback and settings.tail is not None and settings.tail.feedback:
        legs["feedback_dense"] = feedback_leg(index, vector, legs, params, access, limit)
    return legs


def _adapted(params: HybridParams, with_bank: bool) -> bool:
    """The adapted dense leg is fused somewhere (without a bank; or in the bank's head or tail)."""
    if not with_bank:
        return params.adapted_weight > 0
    tail = params.bank.tail
    return max(params.bank.adapted_weight, tail.adapted_weight if tail is not None else 0.0) > 0


def _lexical_memory(settings: BankParams) -> bool:
    """The lexical memory leg is fused somewhere (in the head or in the tail), so it must run."""
    tail_weight = settings.tail.lexical_memory_weight if settings.tail is not None else 0.0
    return settings.lexical_neighbours > 0 and max(settings.lexical_memory_weight, tail_weight) > 0


def feedback_vector(
    query: NDArray[np.float32], head: list[NDArray[np.float32]], mix: float
) -> NDArray[np.float32]:
    """The unit query vector moved by `mix` towards the unit mean of the head's vectors (Rocchio)."""
    moved: NDArray[np.float32] = np.asarray(query, dtype=np.float32) / np.float32(np.linalg.norm(query))
    if head:
        mean = np.mean(np.stack(head), axis=0)
        norm = float(np.linalg.norm(mean))
        if norm > 0:
            moved = moved + np.float32(mix / norm) * mean
    result: NDArray[np.float32] = (moved / np.float32(np.linalg.norm(moved))).astype(np.float32)
    return result


def feedback_leg(
    index: VectorIndex,
    vector: NDArray[np.float32],
    legs: dict[str, list[Hit]],
    params: HybridParams,
    access: AccessFilter,
    limit: int,
) -> list[Hit]:
    """Dense search again, the query moved towards the head's first places (stored vectors, read under
    `access` inside the engine); empty when the tail has no feedback leg or the head is empty."""
    tail = params.bank.tail
    if tail is None or not tail.feedback:
        return []
    head = [hit.fragment_id for hit in fuse_legs(legs, params, tail.feedback_documents)]
    stored = index.dense_vectors(head, access)
    if not stored:
        return []
    moved = feedback_vector(vector, [stored[f] for f in head if f in stored], tail.feedback_mix)
    return index.search_dense(moved, access, limit)


def fuse_legs(legs: dict[str, list[Hit]], params: HybridParams, top_k: int) -> list[Hit]:
    """Weighted RRF of the legs that ran (weights and k from `params`), the tail fusion below the head."""
    with_bank = any(name not in ("sparse", "dense", "adapted_dense") for name in legs)
    weights = params.weights(with_bank)
    names = [name for name in LEGS if name in legs and name in weights]
    fused = rrf([legs[n] for n in names], weights=[weights[n] for n in names], k=params.k(with_bank))
    tail = params.bank.tail
    if not with_bank or tail is None or top_k <= tail.head:
        return fused[:top_k]
    tail_weights = tail.weights()
    broad = [n for n in LEGS if n in legs and tail_weights[n] > 0]
    below = rrf([legs[n] for n in broad], weights=[tail_weights[n] for n in broad], k=tail.rrf_k)
    return _continued(fused[: tail.head], below, top_k)


def _continued(head: list[Hit], below: list[Hit], top_k: int) -> list[Hit]:
    """`head`, then the best of `below` not already in it, scored under the head's last score.

    The tail's own RRF scores are on another scale; they are scaled (order kept) so that the
    whole list stays sorted by score, as every consumer of a ranking expects.
    """
    chosen = {hit.fragment_id for hit in head}
    rest = [hit for hit in below if hit.fragment_id not in chosen][: top_k - len(head)]
    if not rest or not head:
        return head + rest
    scale = head[-1].score / rest[0].score * TAIL_SCALE if rest[0].score > 0 else 0.0
    return head + [Hit(hit.fragment_id, hit.score * scale) for hit in rest]


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
    adapter: QueryAdapter | None = None,
    lexical_floor: int = 0,
    expansion: str = "",
) -> list[Hit]:
    """The fused top-k among the points `access` allows (never filtered after the top-k).

    `lexical_floor` keeps the first that many BM25 hits within a top-k longer than twice the floor (see
    `with_lexical_floor`); a shorter top-k asks for the fusion's best few, and the floor would replace
    most of them.
    """
    tail = params.bank.tail if bank is not None and len(bank) else None
    deep = tail.depth * top_k if tail is not None and top_k > tail.head else 0
    legs = hybrid_legs(
        index,
        encoder,
        embedder,
        query=query,
        lexical_hint=lexical_hint,
        access=access,
        limit=max(params.candidates, top_k, deep),
        params=params,
        bank=bank,
        feedback=deep > 0,
        adapter=adapter,
        expansion=expansion,
    )
    if not lexical_floor or top_k <= 2 * lexical_floor:
        return fuse_legs(legs, params, top_k)
    fused = fuse_legs(legs, params, max(params.candidates, top_k, deep))
    return with_lexical_floor(fused, legs["sparse"][:lexical_floor], top_k)


def with_lexical_floor(fused: list[Hit], lexical_head: list[Hit], top_k: int) -> list[Hit]:
    """The top-k of `fused` (a longer fused ranking) with every hit of `lexical_head` kept within it, each
    at its own fused score.

    A short question's rarest words (验收单, 汇总表) are its strongest sign, and BM25 ranks the one
    fragment that holds them first; the dense leg, weak on such questions, can outvote it so that it
    misses a short top-k. The missing heads take the last places (the gate still judges them), so the
    ranking stays sorted by score.
    """
    chosen = {hit.fragment_id for hit in fused[:top_k]}
    missing = [hit.fragment_id for hit in lexical_head if hit.fragment_id not in chosen]
    if not missing:
        return fused[:top_k]
    scores = {hit.fragment_id: hit.score for hit in fused}
    kept = fused[: max(top_k - len(missing), 0)]
    raised = sorted((Hit(f, scores.get(f, 0.0)) for f in missing), key=lambda h: (-h.score, h.fragment_id))
    return (kept + raised)[:top_k]
