"""Fit a deployment's query adapter from its question bank and its governed index.

`shifu kb fit-adapter` reads the (question → cited fragment) pairs of a bank, resolves each
citation to the searchable fragments of the index (what retrieval can return), and learns the
contrastive adapter with the softmax over every one of those fragments. The matrix is written in
the `SHIFU_QUERY_ADAPTER` format. Only vectors and counts are used: no question text is logged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sqlalchemy import select

from shifu.errors import InvalidInput
from shifu.knowledge.index.base import Citation
from shifu.knowledge.parts import stored_vector
from shifu.knowledge.query_adapter import ContrastiveFit, QueryAdapter, fit_contrastive_query_adapter
from shifu.knowledge.question_bank import BankEntry, QueryTexts
from shifu.knowledge.service import KnowledgeBase
from shifu.store.tables.knowledge import KbFragmentRow

NO_PAIRS = "QUERY_ADAPTER_NO_PAIRS"
"""Code of the error raised when no bank citation names a searchable fragment."""
STALE_VECTORS = "QUERY_ADAPTER_STALE_VECTORS"
"""Code of the error raised when stored vectors are missing or were made by another model."""


@dataclass(frozen=True, slots=True)
class AdapterFitReport:
    """What a fit learned from: questions and passages used, and citations that named nothing searchable."""

    questions: int
    passages: int
    unresolved: tuple[Citation, ...]


def fit_adapter_from_bank(
    kb: KnowledgeBase,
    entries: Sequence[BankEntry],
    settings: ContrastiveFit | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[QueryAdapter, AdapterFitReport]:
    """The contrastive adapter of the bank's questions over every searchable fragment of `kb`."""
    fragment_ids, by_citation = _searchable(kb)
    row = {fragment_id: n for n, fragment_id in enumerate(fragment_ids)}
    answers: dict[str, set[int]] = {}
    unresolved: set[Citation] = set()
    for entry in entries:
        found = by_citation.get(entry.citation)
        if found is None:
            unresolved.add(entry.citation)
            continue
        answers.setdefault(entry.question, set()).update(row[f] for f in found)
    if not answers:
        raise InvalidInput(
            f"问题库的 {len(unresolved)} 个引用在索引中都找不到可检索的片段，无法训练查询适配器。",
            code=NO_PAIRS,
        )
    vectors = _stored_vectors(kb, fragment_ids)
    questions = sorted(answers)
    queries = np.asarray(QueryTexts(kb.parts.embedder).passages(questions), dtype=np.float32)
    adapter = fit_contrastive_query_adapter(
        queries, [sorted(answers[q]) for q in questions], vectors, settings or ContrastiveFit(), progress
    )
    return adapter, AdapterFitReport(len(questions), len(fragment_ids), tuple(sorted(unresolved)))


def _searchable(kb: KnowledgeBase) -> tuple[list[str], dict[Citation, list[str]]]:
    """Every fragment id of the index (sorted) and the ids each (document_key, locator) names."""
    payloads = kb.parts.index.payloads()
    fragment_ids = sorted(payloads)
    by_citation: dict[Citation, list[str]] = {}
    for fragment_id in fragment_ids:
        payload = payloads[fragment_id]
        by_citation.setdefault((payload["document_key"], payload["locator"]), []).append(fragment_id)
    return fragment_ids, by_citation


def _stored_vectors(kb: KnowledgeBase, fragment_ids: list[str]) -> np.ndarray:
    """The persisted passage vectors of the fragments, in the order of `fragment_ids`."""
    model_id = kb.parts.embedder.model_id
    stored: dict[str, np.ndarray | None] = {}
    with kb.parts.session_factory() as session:
        for start in range(0, len(fragment_ids), 1000):
            chunk = fragment_ids[start : start + 1000]
            rows = session.scalars(select(KbFragmentRow).where(KbFragmentRow.id.in_(chunk)))
            stored.update((row.id, stored_vector(row, model_id)) for row in rows)
    vectors = [stored.get(f) for f in fragment_ids]
    stale = sum(1 for vector in vectors if vector is None)
    if stale:
        raise InvalidInput(
            f"索引中有 {stale} 个片段没有当前嵌入模型的向量，请先运行 `shifu kb rebuild`。",
            code=STALE_VECTORS,
        )
    return np.stack([vector for vector in vectors if vector is not None])
