"""Ingest files into the governed store and index, one document at a time, all or nothing.

Each document is parsed, validated, split and embedded *before* its one database transaction;
the index is updated only after that transaction commits. A file that fails anywhere is
reported by name with its reason and leaves nothing behind. Re-ingesting an unchanged file
changes nothing; a changed file becomes a new version and retires the old one's fragments.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from tqdm import tqdm

from shifu.errors import Unavailable
from shifu.knowledge.chunking import split_document
from shifu.knowledge.governance import (
    STATUTE_AUTHORITIES,
    DocumentMeta,
    IngestDefaults,
    MetadataError,
    resolve_metadata,
)
from shifu.knowledge.labels import current_labels, relabel
from shifu.knowledge.parsing import SUPPORTED_SUFFIXES, DocumentError, RawDocument, read_document
from shifu.knowledge.parts import KnowledgeParts, embedding_text, index_point, is_indexable
from shifu.store.base import utcnow
from shifu.store.engine import transaction
from shifu.store.tables.knowledge import KbDocumentRow, KbFragmentRow

log = logging.getLogger(__name__)
_SKIPPED_NAMES = {"readme.md", "sources.md"}


class IngestProblem(BaseModel):
    """A file that was not ingested, with a stable reason code."""

    model_config = ConfigDict(frozen=True)
    file: str
    reason: str
    detail: str


class IngestReport(BaseModel):
    """What one ingest run did."""

    added: list[str] = Field(default_factory=list)
    """Document keys that got a new version."""
    unchanged: list[str] = Field(default_factory=list)
    """Document keys whose current version was already this content."""
    retired_documents: int = 0
    fragments_added: int = 0
    fragments_retired: int = 0
    fragments_relabelled: int = 0
    """Fragments of unchanged documents whose stored labels the current classifier changed."""
    problems: list[IngestProblem] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every file was ingested."""
        return not self.problems


@dataclass(frozen=True)
class _Prepared:
    key: str
    raw: RawDocument
    meta: DocumentMeta
    content_sha: str
    original_sha: str


def collect_files(paths: Iterable[Path], *, recursive: bool) -> list[Path]:
    """Expand directories (sorted; README/SOURCES and hidden files skipped); files stay as given."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            children = path.rglob("*") if recursive else path.iterdir()
            found.extend(
                sorted(
                    child
                    for child in children
                    if child.is_file()
                    and not child.name.startswith(".")
                    and child.name.lower() not in _SKIPPED_NAMES
                    and child.suffix.lower() in SUPPORTED_SUFFIXES
                )
            )
        else:
            found.append(path)
    return found


def _prepare(path: Path, defaults: IngestDefaults) -> _Prepared:
    raw = read_document(path)
    title = str(raw.front_matter.get("title") or path.stem)
    try:
        meta = resolve_metadata(raw.front_matter, defaults, fallback_title=title)
    except MetadataError as exc:
        raise DocumentError("BAD_METADATA", str(exc)) from exc
    canonical = json.dumps(meta.canonical(), sort_keys=True, ensure_ascii=False).encode()
    content_sha = hashlib.sha256(raw.data + b"\x00" + canonical).hexdigest()
    return _Prepared(path.stem, raw, meta, content_sha, hashlib.sha256(raw.data).hexdigest())


def _store_original(parts: KnowledgeParts, prepared: _Prepared) -> None:
    target = parts.originals_dir / f"{prepared.original_sha}{prepared.raw.suffix}"
    if target.exists():
        return
    parts.originals_dir.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=parts.originals_dir, prefix=".incoming-")
    with os.fdopen(handle, "wb") as out:
        out.write(prepared.raw.data)
    os.replace(temp, target)


def _fragment_id(tenant: str, space: str, prepared: _Prepared, ordinal: int, locator: str, text: str) -> str:
    canonical = json.dumps(
        [tenant, space, prepared.key, prepared.content_sha, ordinal, locator, text], ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _new_rows(
    parts: KnowledgeParts, prepared: _Prepared, tenant_id: str, space_id: str, document_id: str
) -> tuple[KbDocumentRow, list[KbFragmentRow]]:
    meta = prepared.meta
    drafts = split_document(prepared.raw.body, statute=meta.authority in STATUTE_AUTHORITIES)
    if not drafts:
        raise DocumentError("EMPTY_DOCUMENT", "no fragments found")
    document = KbDocumentRow(
        id=document_id,
        tenant_id=tenant_id,
        space_id=space_id,
        document_key=prepared.key,
        title=meta.title,
        authority=meta.authority.value,
        kind=meta.kind,
        version=meta.version,
        effective_from=meta.effective_from,
        effective_to=meta.effective_to,
        lifecycle=meta.lifecycle.value,
        verification=meta.verification.value,
        environment=meta.environment.value,
        project_ids=list(meta.project_ids),
        roles=[role.value for role in meta.roles],
        content_sha256=prepared.content_sha,
        original_sha256=prepared.original_sha,
        original_suffix=prepared.raw.suffix,
        media_type=prepared.raw.media_type,
        source_format=prepared.raw.source_format,
        fragment_count=len(drafts),
        is_current=True,
    )
    fragments: list[KbFragmentRow] = []
    for ordinal, draft in enumerate(drafts):
        needs, claims = current_labels(draft.text)
        fragments.append(
            KbFragmentRow(
                id=_fragment_id(tenant_id, space_id, prepared, ordinal, draft.locator, draft.text),
                document_id=document_id,
                tenant_id=tenant_id,
                space_id=space_id,
                ordinal=ordinal,
                locator=draft.locator,
                heading_path=list(draft.heading_path),
                text=draft.text,
                supported_need_codes=needs,
                claim_types=claims,
                lifecycle=meta.lifecycle.value,
            )
        )
    try:
        vectors = parts.embedder.passages([embedding_text(document, f) for f in fragments])
    except Unavailable as exc:
        raise DocumentError("EMBEDDING_UNAVAILABLE", "the embedding endpoint failed") from exc
    for fragment, vector in zip(fragments, vectors, strict=True):
        fragment.embedding = vector.astype("float32").tobytes()
        fragment.embedding_model = parts.embedder.model_id
    return document, fragments


def _ingest_one(
    parts: KnowledgeParts,
    path: Path,
    tenant_id: str,
    space_id: str,
    defaults: IngestDefaults,
    report: IngestReport,
) -> None:
    prepared = _prepare(path, defaults)
    lifecycle = prepared.meta.lifecycle.value
    document_id = hashlib.sha256(
        f"{tenant_id}\x00{space_id}\x00{prepared.key}\x00{prepared.content_sha}".encode()
    ).hexdigest()
    with transaction(parts.session_factory) as session:
        existing = session.get(KbDocumentRow, document_id)
        if existing is not None and existing.is_current:
            report.unchanged.append(prepared.key)
            report.fragments_relabelled += relabel(
                session.scalars(select(KbFragmentRow).where(KbFragmentRow.document_id == document_id))
            )
            return
    if existing is None:
        document, fragments = _new_rows(parts, prepared, tenant_id, space_id, document_id)
        _store_original(parts, prepared)
    retired_ids: list[str] = []
    with transaction(parts.session_factory) as session:
        previous = session.scalars(
            select(KbDocumentRow).where(
                KbDocumentRow.tenant_id == tenant_id,
                KbDocumentRow.space_id == space_id,
                KbDocumentRow.document_key == prepared.key,
                KbDocumentRow.is_current.is_(True),
            )
        ).all()
        for old in previous:
            old.is_current, old.lifecycle, old.retired_at = False, "RETIRED", utcnow()
            for old_fragment in session.scalars(
                select(KbFragmentRow).where(KbFragmentRow.document_id == old.id)
            ):
                old_fragment.lifecycle = "RETIRED"
                retired_ids.append(old_fragment.id)
        if existing is None:
            session.add(document)
            session.add_all(fragments)
        else:
            document = session.get_one(KbDocumentRow, document_id)
            document.is_current, document.lifecycle, document.retired_at = True, lifecycle, None
            fragments = list(
                session.scalars(select(KbFragmentRow).where(KbFragmentRow.document_id == document_id))
            )
            for fragment in fragments:
                fragment.lifecycle = lifecycle
    report.added.append(prepared.key)
    report.retired_documents += len(previous)
    report.fragments_added += len(fragments)
    report.fragments_retired += len(retired_ids)
    parts.index.delete(retired_ids)
    if is_indexable(document):
        parts.index.upsert([index_point(parts, document, f) for f in fragments])


def ingest_paths(
    parts: KnowledgeParts,
    paths: Iterable[Path],
    *,
    space_id: str,
    tenant_id: str = "demo",
    defaults: IngestDefaults | None = None,
    recursive: bool = False,
    progress: bool = False,
) -> IngestReport:
    """Ingest every file under `paths` into `space_id`; problems are reported per file, never raised."""
    report = IngestReport()
    files = collect_files(paths, recursive=recursive)
    for path in tqdm(files, desc="ingest", unit="file", disable=not progress):
        try:
            _ingest_one(parts, path, tenant_id, space_id, defaults or IngestDefaults(), report)
        except DocumentError as exc:
            report.problems.append(IngestProblem(file=path.name, reason=exc.reason, detail=exc.detail))
            log.warning("kb ingest refused a file", extra={"reason": exc.reason})
    parts.index.flush()
    return report
