"""The pieces a knowledge base is made of, passed together to ingest, admin and search code."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy.orm import Session, sessionmaker

from shifu.knowledge.embedding import Embedder
from shifu.knowledge.index.base import OPEN_END, IndexPoint, VectorIndex, day_number
from shifu.knowledge.text import Bm25Encoder, tokenize
from shifu.store.tables.knowledge import KbDocumentRow, KbFragmentRow


@dataclass
class KnowledgeParts:
    """Store, index, embedder, BM25 encoder and the originals folder of one deployment."""

    session_factory: sessionmaker[Session]
    index: VectorIndex
    embedder: Embedder
    encoder: Bm25Encoder
    originals_dir: Path


def is_indexable(document: KbDocumentRow) -> bool:
    """Governance gate of the index: current, production, PUBLISHED and HUMAN_VERIFIED."""
    return (
        document.is_current
        and document.lifecycle == "PUBLISHED"
        and document.verification == "HUMAN_VERIFIED"
        and document.environment == "production"
    )


def search_text(document: KbDocumentRow, fragment: KbFragmentRow) -> str:
    """What retrieval sees of a fragment: title, headings, locator and body."""
    return " ".join([document.title, *fragment.heading_path, fragment.locator, fragment.text])


EMBED_MAX_CHARS = 256
"""Dense passages are cut here: it keeps first ingest of the laws to minutes on two cores, and
the opening of an article or section carries its topic (the BM25 leg still sees the whole text)."""


def embedding_text(document: KbDocumentRow, fragment: KbFragmentRow) -> str:
    """What the dense leg embeds of a fragment: the start of its search text."""
    return search_text(document, fragment)[:EMBED_MAX_CHARS]


def payload_for(document: KbDocumentRow, fragment: KbFragmentRow) -> dict[str, Any]:
    """The governance payload of a point (every GOVERNANCE_FIELDS entry, plus display keys)."""
    return {
        "fragment_id": fragment.id,
        "document_id": document.id,
        "document_key": document.document_key,
        "locator": fragment.locator,
        "ordinal": fragment.ordinal,
        "tenant_id": document.tenant_id,
        "space_id": document.space_id,
        "project_ids": list(document.project_ids) or ["*"],
        "roles": list(document.roles) or ["*"],
        "effective_from": day_number(document.effective_from, 0),
        "effective_to": day_number(document.effective_to, OPEN_END),
        "lifecycle": document.lifecycle,
        "verification": document.verification,
        "environment": document.environment,
        "authority": document.authority,
    }


def stored_vector(fragment: KbFragmentRow, model_id: str) -> np.ndarray | None:
    """The fragment's persisted dense vector, or None when it has none or another model made it."""
    if fragment.embedding is None or fragment.embedding_model != model_id:
        return None
    return np.frombuffer(fragment.embedding, dtype=np.float32)


def index_point(parts: KnowledgeParts, document: KbDocumentRow, fragment: KbFragmentRow) -> IndexPoint:
    """The index point of a fragment, from its persisted embedding (never re-embedded here)."""
    if fragment.embedding is None:
        raise ValueError("fragment has no stored embedding")
    dense = np.frombuffer(fragment.embedding, dtype=np.float32)
    sparse = parts.encoder.document(tokenize(search_text(document, fragment)))
    return IndexPoint(fragment.id, dense, sparse, payload_for(document, fragment))
