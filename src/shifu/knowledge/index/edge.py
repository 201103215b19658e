"""The embedded engine: qdrant-edge-py (`EdgeShard`), one shard directory per deployment."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import qdrant_edge as qe
from numpy.typing import NDArray

from shifu.knowledge.index.base import (
    CITED_FIELDS,
    TIE_SLACK,
    AccessFilter,
    Citation,
    CitedPoint,
    Hit,
    IndexPoint,
    Within,
    add_cited,
    cited_by_document,
    dense_is_exact,
    in_stable_order,
)
from shifu.knowledge.text import SparseTerms

DENSE = "dense"
SPARSE = "bm25"
_KEYWORD_FIELDS = (
    "document_key",
    "locator",
    "tenant_id",
    "space_id",
    "project_ids",
    "roles",
    "lifecycle",
    "verification",
    "environment",
)
_INTEGER_FIELDS = ("effective_from", "effective_to", "ordinal")


def _point_id(fragment_id: str) -> uuid.UUID:
    return uuid.UUID(hex=fragment_id[:32])


def point_uuid(fragment_id: str) -> str:
    """The engine point id of a fragment: a UUID built from its hash."""
    return str(_point_id(fragment_id))


def edge_filter(
    access: AccessFilter, within: Within | None = None, citations: Sequence[Citation] | None = None
) -> qe.Filter:
    """The authorization filter as a qdrant-edge payload filter, optionally narrowed further.

    `within` keeps only some documents or ordinal spans; `citations` only the cited (document_key,
    locator) pairs, one condition per document. Both narrow, never widen, what `access` allows.
    """
    must: list[Any] = [
        qe.FieldCondition("tenant_id", match=qe.MatchValue(access.tenant_id)),
        qe.FieldCondition("space_id", match=qe.MatchAny(list(access.space_ids))),
        qe.FieldCondition("project_ids", match=qe.MatchAny(access.project_values())),
        qe.FieldCondition("lifecycle", match=qe.MatchValue("PUBLISHED")),
        qe.FieldCondition("verification", match=qe.MatchValue("HUMAN_VERIFIED")),
        qe.FieldCondition("environment", match=qe.MatchValue("production")),
        qe.FieldCondition("effective_from", range=qe.RangeFloat(lte=float(access.on_day))),
        qe.FieldCondition("effective_to", range=qe.RangeFloat(gte=float(access.on_day))),
    ]
    roles = access.role_values()
    if roles is not None:
        must.append(qe.FieldCondition("roles", match=qe.MatchAny(roles)))
    if within is not None and within.documents is not None:
        must.append(qe.FieldCondition("document_key", match=qe.MatchAny(list(within.documents))))
    if within is not None and within.spans is not None:
        spans: list[Any] = [
            qe.Filter(
                must=[
                    qe.FieldCondition("document_key", match=qe.MatchValue(span.document_key)),
                    qe.FieldCondition("ordinal", range=qe.RangeFloat(gte=span.first, lte=span.last)),
                ]
            )
            for span in within.spans
        ]
        must.append(qe.Filter(should=spans))
    if citations is not None:
        documents: list[Any] = [
            qe.Filter(
                must=[
                    qe.FieldCondition("document_key", match=qe.MatchValue(key)),
                    qe.FieldCondition("locator", match=qe.MatchAny(locators)),
                ]
            )
            for key, locators in cited_by_document(citations).items()
        ]
        must.append(qe.Filter(should=documents))
    return qe.Filter(must=must)


def _point_key(raw: Any) -> uuid.UUID:
    """The engine returns point ids as UUID objects; anything else is parsed once."""
    return raw if isinstance(raw, uuid.UUID) else uuid.UUID(str(raw))


class EdgeIndex:
    """VectorIndex over an embedded Qdrant shard (HNSW, payload indexes, sparse IDF)."""

    def __init__(self, path: Path, dim: int) -> None:
        self._path = path
        self._dim = dim
        self._shard = self._open()
        self._fragments = self._fragment_ids()

    def _fragment_ids(self) -> dict[uuid.UUID, str]:
        """Point id → fragment id of every point, so queries need not fetch any payload.

        One process owns an embedded shard, so this map stays exact: upsert and delete keep it.
        """
        found: dict[uuid.UUID, str] = {}
        offset: Any = None
        while True:
            records, offset = self._shard.scroll(
                qe.ScrollRequest(offset=offset, limit=4096, with_payload=["fragment_id"], with_vector=False)
            )
            for record in records:
                found[_point_key(record.id)] = str((record.payload or {})["fragment_id"])
            if offset is None:
                return found

    def _config(self) -> qe.EdgeConfig:
        return qe.EdgeConfig(
            vectors={DENSE: qe.EdgeVectorParams(size=self._dim, distance=qe.Distance.Cosine)},
            sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        )

    def _open(self) -> qe.EdgeShard:
        marker = self._path / "dim"
        if self._path.exists() and marker.exists() and marker.read_text().strip() == str(self._dim):
            return qe.EdgeShard.load(str(self._path))
        if self._path.exists():
            shutil.rmtree(self._path)
        self._path.mkdir(parents=True)
        shard = qe.EdgeShard.create(str(self._path), self._config())
        for name in _KEYWORD_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
        for name in _INTEGER_FIELDS:
            shard.update(
                qe.UpdateOperation.create_field_index(name, qe.IntegerIndexParams(lookup=False, range=True))
            )
        marker.write_text(str(self._dim))
        return shard

    def upsert(self, points: list[IndexPoint]) -> None:
        """Insert or replace points, in batches."""
        for start in range(0, len(points), 512):
            batch = [
                qe.Point(
                    point_uuid(p.fragment_id),
                    {
                        DENSE: [float(x) for x in p.dense],
                        SPARSE: qe.SparseVector(p.sparse.indices, p.sparse.values),
                    },
                    p.payload,
                )
                for p in points[start : start + 512]
            ]
            self._shard.update(qe.UpdateOperation.upsert_points(batch))
            self._fragments.update(
                (_point_id(p.fragment_id), p.fragment_id) for p in points[start : start + 512]
            )

    def delete(self, fragment_ids: list[str]) -> None:
        """Remove points by fragment id."""
        if fragment_ids:
            self._shard.update(qe.UpdateOperation.delete_points([point_uuid(f) for f in fragment_ids]))
            for fragment_id in fragment_ids:
                self._fragments.pop(_point_id(fragment_id), None)

    def _query(
        self, query: Any, access: AccessFilter, limit: int, within: Within | None, *, exact: bool = False
    ) -> list[Hit]:
        if not access.space_ids or limit <= 0 or (within is not None and within.is_empty()):
            return []
        request = qe.QueryRequest(
            limit=limit + TIE_SLACK,
            query=query,
            filter=edge_filter(access, within),
            with_payload=False,
            with_vector=False,
            params=qe.SearchParams(exact=True) if exact else None,
        )
        hits = [Hit(self._fragments[_point_key(p.id)], float(p.score)) for p in self._shard.query(request)]
        return in_stable_order(hits, limit)

    def search_dense(
        self,
        vector: NDArray[np.float32],
        access: AccessFilter,
        limit: int,
        within: Within | None = None,
    ) -> list[Hit]:
        """Filtered nearest neighbours on the dense vector."""
        query = qe.Query.Nearest([float(x) for x in vector], using=DENSE)
        return self._query(query, access, limit, within, exact=dense_is_exact(limit))

    def search_sparse(
        self, terms: SparseTerms, access: AccessFilter, limit: int, within: Within | None = None
    ) -> list[Hit]:
        """Filtered BM25 (sparse dot product with engine-side IDF)."""
        if not terms.indices:
            return []
        query = qe.Query.Nearest(qe.SparseVector(terms.indices, terms.values), using=SPARSE)
        return self._query(query, access, limit, within)

    def cited(self, citations: Sequence[Citation], access: AccessFilter) -> dict[Citation, list[CitedPoint]]:
        """Resolve citations inside the engine, under the authorization filter."""
        if not access.space_ids or not citations:
            return {}
        found: dict[Citation, list[CitedPoint]] = {}
        offset: Any = None
        request_filter = edge_filter(access, citations=citations)
        while True:
            records, offset = self._shard.scroll(
                qe.ScrollRequest(
                    offset=offset,
                    limit=256,
                    filter=request_filter,
                    with_payload=list(CITED_FIELDS),
                    with_vector=False,
                )
            )
            for record in records:
                add_cited(found, record.payload or {})
            if offset is None:
                return found

    def dense_vectors(
        self, fragment_ids: Sequence[str], access: AccessFilter
    ) -> dict[str, NDArray[np.float32]]:
        """The stored dense vectors of the `fragment_ids` that `access` allows (filtered in the engine)."""
        if not access.space_ids or not fragment_ids:
            return {}
        request_filter = qe.Filter(
            must=[edge_filter(access), qe.HasIdCondition({_point_id(f) for f in fragment_ids})]
        )
        records, _ = self._shard.scroll(
            qe.ScrollRequest(
                limit=len(fragment_ids), filter=request_filter, with_payload=False, with_vector=[DENSE]
            )
        )
        found: dict[str, NDArray[np.float32]] = {}
        for record in records:
            vectors = record.vector if isinstance(record.vector, dict) else {}
            found[self._fragments[_point_key(record.id)]] = np.asarray(vectors[DENSE], dtype=np.float32)
        return found

    def payloads(self) -> dict[str, dict[str, Any]]:
        """Every payload by fragment id (scrolls the whole shard)."""
        found: dict[str, dict[str, Any]] = {}
        offset: Any = None
        while True:
            records, offset = self._shard.scroll(
                qe.ScrollRequest(offset=offset, limit=1024, with_payload=True, with_vector=False)
            )
            for record in records:
                payload = dict(record.payload or {})
                found[str(payload.get("fragment_id", record.id))] = payload
            if offset is None:
                return found

    def count(self) -> int:
        """Number of points."""
        return int(self._shard.count(qe.CountRequest(exact=True)))

    def optimize(self) -> None:
        """Build HNSW and merge segments (after bulk loads)."""
        self._shard.optimize()

    def clear(self) -> None:
        """Drop and recreate the shard."""
        self._shard.close()
        shutil.rmtree(self._path, ignore_errors=True)
        self._shard = self._open()
        self._fragments = {}

    def flush(self) -> None:
        """Persist pending changes."""
        self._shard.flush()

    def close(self) -> None:
        """Flush and release the shard lock."""
        self._shard.flush()
        self._shard.close()
