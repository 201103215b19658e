"""Operator views of the knowledge base: consistency check, idempotent rebuild, document list."""

from __future__ import annotations

from collections import Counter
from datetime import date

from pydantic import BaseModel, Field
from sqlalchemy import Select, select
from tqdm import tqdm

from shifu.knowledge.index.base import GOVERNANCE_FIELDS, RETRIEVAL_FIELDS
from shifu.knowledge.labels import is_stale, relabel
from shifu.knowledge.parts import (
    KnowledgeParts,
    embedding_text,
    index_point,
    is_indexable,
    payload_for,
    stored_vector,
)
from shifu.store.engine import transaction
from shifu.store.tables.knowledge import KbDocumentRow, KbFragmentRow


class CheckReport(BaseModel):
    """Store ↔ index consistency: zero problems means one point per governed fragment, nothing else."""

    store_fragments: int = 0
    """Fragments the governance gate admits to the index."""
    index_points: int = 0
    missing_in_index: list[str] = Field(default_factory=list)
    extra_in_index: list[str] = Field(default_factory=list)
    missing_payload_fields: int = 0
    """Points lacking any governance payload field."""
    payload_mismatches: int = 0
    """Points whose governance payload differs from the store."""
    stale_labels: int = 0
    """Current fragments whose stored claim labels the current classifier would change (`kb rebuild`)."""
    per_space: dict[str, int] = Field(default_factory=dict)
    per_authority: dict[str, int] = Field(default_factory=dict)

    @property
    def problems(self) -> int:
        """Total count of inconsistencies."""
        return (
            len(self.missing_in_index)
            + len(self.extra_in_index)
            + self.missing_payload_fields
            + self.payload_mismatches
            + self.stale_labels
        )


class RebuildReport(BaseModel):
    """What a rebuild indexed."""

    points: int
    embedded: int
    """Fragments whose stored embedding was missing or from another model and was recomputed."""
    relabelled: int = 0
    """Current fragments whose stored claim labels were brought up to the current classifier."""


class DocumentSummary(BaseModel):
    """One document version as `kb list` shows it."""

    document_id: str
    tenant_id: str
    space_id: str
    document_key: str
    title: str
    authority: str
    kind: str
    version: str
    effective_from: date | None
    effective_to: date | None
    lifecycle: str
    verification: str
    environment: str
    project_ids: list[str]
    roles: list[str]
    fragments: int
    current: bool
    indexed: bool


def _current_fragments() -> Select[KbFragmentRow, KbDocumentRow]:
    """Every fragment of a current document version, with its document."""
    return (
        select(KbFragmentRow, KbDocumentRow)
        .join(KbDocumentRow, KbDocumentRow.id == KbFragmentRow.document_id)
        .where(KbDocumentRow.is_current.is_(True))
    )


def _current(parts: KnowledgeParts) -> list[tuple[KbFragmentRow, KbDocumentRow]]:
    with parts.session_factory() as session:
        rows = session.execute(
            _current_fragments().order_by(KbDocumentRow.document_key, KbFragmentRow.ordinal)
        ).all()
    return [(f, d) for f, d in rows]


def _indexable(
    current: list[tuple[KbFragmentRow, KbDocumentRow]],
) -> list[tuple[KbFragmentRow, KbDocumentRow]]:
    return [(f, d) for f, d in current if is_indexable(d)]


def _governed(parts: KnowledgeParts) -> list[tuple[KbFragmentRow, KbDocumentRow]]:
    return _indexable(_current(parts))


def _relabel_current(parts: KnowledgeParts) -> int:
    with transaction(parts.session_factory) as session:
        return relabel(session.scalars(_current_fragments().with_only_columns(KbFragmentRow)))


def check(parts: KnowledgeParts) -> CheckReport:
    """Compare the governed fragments in the store with the points in the index."""
    current = _current(parts)
    governed = _indexable(current)
    expected = {f.id: payload_for(d, f) for f, d in governed}
    actual = parts.index.payloads()
    report = CheckReport(store_fragments=len(expected), index_points=len(actual))
    report.missing_in_index = sorted(set(expected) - set(actual))
    report.extra_in_index = sorted(set(actual) - set(expected))
    for fragment_id, payload in actual.items():
        if any(payload.get(name) in (None, "", []) for name in GOVERNANCE_FIELDS):
            report.missing_payload_fields += 1
        elif fragment_id in expected and any(
            payload.get(name) != expected[fragment_id][name] for name in GOVERNANCE_FIELDS + RETRIEVAL_FIELDS
        ):
            report.payload_mismatches += 1
    report.stale_labels = sum(1 for f, _ in current if is_stale(f))
    report.per_space = dict(sorted(Counter(d.space_id for _, d in governed).items()))
    report.per_authority = dict(sorted(Counter(d.authority for _, d in governed).items()))
    return report


def rebuild(parts: KnowledgeParts, *, progress: bool = False) -> RebuildReport:
    """Relabel, then clear the index and re-add every governed fragment from stored vectors (idempotent)."""
    relabelled = _relabel_current(parts)
    governed = _governed(parts)
    stale = [(f, d) for f, d in governed if stored_vector(f, parts.embedder.model_id) is None]
    if stale:
        vectors = parts.embedder.passages([embedding_text(d, f) for f, d in stale])
        with transaction(parts.session_factory) as session:
            for (fragment, _), vector in zip(stale, vectors, strict=True):
                row = session.get_one(KbFragmentRow, fragment.id)
                row.embedding = vector.astype("float32").tobytes()
                row.embedding_model = parts.embedder.model_id
                fragment.embedding, fragment.embedding_model = row.embedding, row.embedding_model
    parts.index.clear()
    batch: list[tuple[KbFragmentRow, KbDocumentRow]] = []
    for item in tqdm(governed, desc="rebuild", unit="fragment", disable=not progress):
        batch.append(item)
        if len(batch) == 512:
            parts.index.upsert([index_point(parts, d, f) for f, d in batch])
            batch = []
    parts.index.upsert([index_point(parts, d, f) for f, d in batch])
    parts.index.flush()
    parts.index.optimize()
    return RebuildReport(points=parts.index.count(), embedded=len(stale), relabelled=relabelled)


def list_documents(parts: KnowledgeParts, *, tenant_id: str | None = None) -> list[DocumentSummary]:
    """Every document version, newest state first within a key."""
    with parts.session_factory() as session:
        query = select(KbDocumentRow).order_by(
            KbDocumentRow.space_id, KbDocumentRow.document_key, KbDocumentRow.is_current.desc()
        )
        if tenant_id is not None:
            query = query.where(KbDocumentRow.tenant_id == tenant_id)
        documents = session.scalars(query).all()
    return [
        DocumentSummary(
            document_id=d.id,
            tenant_id=d.tenant_id,
            space_id=d.space_id,
            document_key=d.document_key,
            title=d.title,
            authority=d.authority,
            kind=d.kind,
            version=d.version,
            effective_from=d.effective_from,
            effective_to=d.effective_to,
            lifecycle=d.lifecycle,
            verification=d.verification,
            environment=d.environment,
            project_ids=list(d.project_ids),
            roles=list(d.roles),
            fragments=d.fragment_count,
            current=d.is_current,
            indexed=is_indexable(d),
        )
        for d in documents
    ]
