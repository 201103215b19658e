"""What every index engine must do, in engine-neutral types.

The authorization filter (`AccessFilter`) is translated by each adapter into the engine's own
payload filter and applied inside the engine query, for the dense and the lexical leg alike,
so a top-k can never contain a point the caller may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from shifu.knowledge.text import SparseTerms

ANY = "*"
"""Payload marker for "no restriction on this axis" (empty project or role scope)."""
OPEN_END = 99991231
"""effective_to payload value of a document with no end date."""

GOVERNANCE_FIELDS = (
    "fragment_id",
    "document_id",
    "tenant_id",
    "space_id",
    "project_ids",
    "roles",
    "effective_from",
    "effective_to",
    "lifecycle",
    "verification",
    "environment",
    "authority",
)
"""Payload fields every point must carry; `kb check` counts points missing any of them."""


def day_number(value: date | None, default: int) -> int:
    """A date as a sortable yyyymmdd integer (range filters work on numbers everywhere)."""
    return value.year * 10000 + value.month * 100 + value.day if value else default


@dataclass(frozen=True)
class AccessFilter:
    """The engine-side filter: tenant, spaces, scope, governance and effective date."""

    tenant_id: str
    space_ids: tuple[str, ...]
    project_ids: tuple[str, ...]
    role: str | None
    on_day: int

    def project_values(self) -> list[str]:
        """Project values a point may carry to match: the caller's projects or the ANY marker."""
        return [ANY, *self.project_ids]

    def role_values(self) -> list[str] | None:
        """Role values a point may carry to match; None = no role restriction (operator preview)."""
        return None if self.role is None else [ANY, self.role]


Citation = tuple[str, str]
"""(document_key, locator): how a question bank names the fragment that answers a question."""


@dataclass(frozen=True)
class Span:
    """Fragments `first`..`last` (by ordinal, inclusive) of one document: a cited one and its neighbours."""

    document_key: str
    first: int
    last: int


@dataclass(frozen=True)
class Within:
    """A narrowing applied inside the engine on top of the access filter (it never widens it).

    `documents`: only these document keys; `spans`: only fragments inside one of these spans.
    An empty tuple matches nothing; None means no narrowing on that axis.
    """

    documents: tuple[str, ...] | None = None
    spans: tuple[Span, ...] | None = None

    def is_empty(self) -> bool:
        """True when nothing can match."""
        return self.documents == () or self.spans == ()


@dataclass(frozen=True)
class CitedPoint:
    """A fragment a citation resolved to, with where it sits in its document."""

    fragment_id: str
    document_key: str
    ordinal: int


@dataclass(frozen=True)
class IndexPoint:
    """One fragment in the index: its vectors and its governance payload."""

    fragment_id: str
    dense: NDArray[np.float32]
    sparse: SparseTerms
    payload: dict[str, Any]


@dataclass(frozen=True)
class Hit:
    """A scored fragment id from one leg of a query."""

    fragment_id: str
    score: float


TIE_SLACK = 16
"""Extra hits a leg asks the engine for, so equal scores at the cut are ordered by id, not by layout."""


def in_stable_order(hits: list[Hit], limit: int) -> list[Hit]:
    """The best `limit` hits, equal scores ordered by fragment id.

    BM25 scores tie often (most queries have ties, many at the cut); the engine orders ties by its
    internal segment layout, which depends on how the index was built. Ordering them by id makes a
    ranking depend on the index's content only.
    """
    return sorted(hits, key=lambda hit: (-hit.score, hit.fragment_id))[:limit]


EXACT_DEPTH = 100
"""A dense search this deep or deeper is exact rather than HNSW.

An HNSW graph is built in parallel, so two builds of the same content differ and their approximate
rankings differ with them (on STARD only 125 of 300 dense top-200 rankings were identical between
two builds). At this depth the graph search visits about as many points as a scan, so a long
ranking (an operator's `kb search --top-k 100`, a reranker's candidates) is exact at no extra cost;
the answer path's shallow searches keep the graph's speed.
"""


def dense_is_exact(limit: int) -> bool:
    """Whether a dense search for `limit` hits scans every allowed point instead of the graph."""
    return limit >= EXACT_DEPTH


CITED_FIELDS = ("fragment_id", "document_key", "locator", "ordinal")
"""Payload fields a citation lookup reads back."""

RETRIEVAL_FIELDS = ("document_key", "locator", "ordinal")
"""Payload fields the question-bank legs filter on; an index built without them needs a rebuild."""


def cited_by_document(citations: Sequence[Citation]) -> dict[str, list[str]]:
    """The cited locators of each document: one engine condition per document, not per pair."""
    grouped: dict[str, list[str]] = {}
    for key, locator in citations:
        grouped.setdefault(key, [])
        if locator not in grouped[key]:
            grouped[key].append(locator)
    return grouped


def add_cited(found: dict[Citation, list[CitedPoint]], payload: dict[str, Any]) -> None:
    """Record one resolved point (from an engine record's payload) under its citation."""
    key = (str(payload["document_key"]), str(payload["locator"]))
    point = CitedPoint(str(payload["fragment_id"]), key[0], int(payload.get("ordinal", -1)))
    found.setdefault(key, []).append(point)


class VectorIndex(Protocol):
    """A governed index engine (qdrant-edge embedded, or a Qdrant server through qdrant-client)."""

    def upsert(self, points: list[IndexPoint]) -> None:
        """Insert or replace points (idempotent by fragment id)."""
        ...

    def delete(self, fragment_ids: list[str]) -> None:
        """Remove points; unknown ids are ignored."""
        ...

    def search_dense(
        self,
        vector: NDArray[np.float32],
        access: AccessFilter,
        limit: int,
        within: Within | None = None,
    ) -> list[Hit]:
        """Nearest neighbours among the points `access` allows (narrowed further by `within`)."""
        ...

    def search_sparse(
        self, terms: SparseTerms, access: AccessFilter, limit: int, within: Within | None = None
    ) -> list[Hit]:
        """BM25 matches among the points `access` allows (narrowed further by `within`)."""
        ...

    def cited(self, citations: Sequence[Citation], access: AccessFilter) -> dict[Citation, list[CitedPoint]]:
        """The points of the cited (document_key, locator) pairs among those `access` allows."""
        ...

    def dense_vectors(
        self, fragment_ids: Sequence[str], access: AccessFilter
    ) -> dict[str, NDArray[np.float32]]:
        """The stored dense vectors of the `fragment_ids` that `access` allows (filtered in the engine)."""
        ...

    def payloads(self) -> dict[str, dict[str, Any]]:
        """Every point's payload by fragment id (for `kb check`)."""
        ...

    def count(self) -> int:
        """Number of points."""
        ...

    def flush(self) -> None:
        """Persist pending writes (end of an ingest or rebuild)."""
        ...

    def clear(self) -> None:
        """Remove every point (rebuild)."""
        ...

    def optimize(self) -> None:
        """Build the search structures (HNSW, payload indexes) over what was written."""
        ...

    def close(self) -> None:
        """Release files and locks."""
        ...
