"""What every index engine must do, in engine-neutral types.

The authorization filter (`AccessFilter`) is translated by each adapter into the engine's own
payload filter and applied inside the engine query, for the dense and the lexical leg alike,
so a top-k can never contain a point the caller may not see.
"""

from __future__ import annotations

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


class VectorIndex(Protocol):
    """A governed index engine (qdrant-edge embedded, or a Qdrant server through qdrant-client)."""

    def upsert(self, points: list[IndexPoint]) -> None:
        """Insert or replace points (idempotent by fragment id)."""
        ...

    def delete(self, fragment_ids: list[str]) -> None:
        """Remove points; unknown ids are ignored."""
        ...

    def search_dense(self, vector: NDArray[np.float32], access: AccessFilter, limit: int) -> list[Hit]:
        """Nearest neighbours among the points `access` allows."""
        ...

    def search_sparse(self, terms: SparseTerms, access: AccessFilter, limit: int) -> list[Hit]:
        """BM25 matches among the points `access` allows."""
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
