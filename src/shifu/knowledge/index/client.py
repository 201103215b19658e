"""A Qdrant server (or qdrant-client's local mode in tests) behind the same VectorIndex Protocol."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from qdrant_client import QdrantClient, models

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
from shifu.knowledge.index.edge import DENSE, SPARSE, point_uuid
from shifu.knowledge.text import SparseTerms

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


def _equals(key: str, value: str) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchValue(value=value))


def client_filter(
    access: AccessFilter, within: Within | None = None, citations: Sequence[Citation] | None = None
) -> models.Filter:
    """The authorization filter as a qdrant-client payload filter, optionally narrowed further.

    `within` keeps only some documents or ordinal spans; `citations` only the cited (document_key,
    locator) pairs, one condition per document. Both narrow, never widen, what `access` allows.
    """
    must: list[Any] = [
        models.FieldCondition(key="tenant_id", match=models.MatchValue(value=access.tenant_id)),
        models.FieldCondition(key="space_id", match=models.MatchAny(any=list(access.space_ids))),
        models.FieldCondition(key="project_ids", match=models.MatchAny(any=access.project_values())),
        models.FieldCondition(key="lifecycle", match=models.MatchValue(value="PUBLISHED")),
        models.FieldCondition(key="verification", match=models.MatchValue(value="HUMAN_VERIFIED")),
        models.FieldCondition(key="environment", match=models.MatchValue(value="production")),
        models.FieldCondition(key="effective_from", range=models.Range(lte=access.on_day)),
        models.FieldCondition(key="effective_to", range=models.Range(gte=access.on_day)),
    ]
    roles = access.role_values()
    if roles is not None:
        must.append(models.FieldCondition(key="roles", match=models.MatchAny(any=roles)))
    if within is not None and within.documents is not None:
        must.append(
            models.FieldCondition(key="document_key", match=models.MatchAny(any=list(within.documents)))
        )
    if within is not None and within.spans is not None:
        spans: list[Any] = [
            models.Filter(
                must=[
                    models.FieldCondition(
                        key="document_key", match=models.MatchValue(value=span.document_key)
                    ),
                    models.FieldCondition(key="ordinal", range=models.Range(gte=span.first, lte=span.last)),
                ]
            )
            for span in within.spans
        ]
        must.append(models.Filter(should=spans))
    if citations is not None:
        documents: list[Any] = [
            models.Filter(
                must=[
                    _equals("document_key", key),
                    models.FieldCondition(key="locator", match=models.MatchAny(any=locators)),
                ]
            )
            for key, locators in cited_by_document(citations).items()
        ]
        must.append(models.Filter(should=documents))
    return models.Filter(must=must)


class ClientIndex:
    """VectorIndex over one Qdrant collection reached through qdrant-client."""

    def __init__(self, client: QdrantClient, dim: int, collection: str = "shifu_knowledge") -> None:
        self._client = client
        self._dim = dim
        self._collection = collection
        self._ensure()

    def _ensure(self) -> None:
        if self._client.collection_exists(self._collection):
            info = self._client.get_collection(self._collection)
            vectors = info.config.params.vectors
            size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
            if size == self._dim:
                return
            self._client.delete_collection(self._collection)
        self._client.create_collection(
            self._collection,
            vectors_config={DENSE: models.VectorParams(size=self._dim, distance=models.Distance.COSINE)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        )
        if not self._is_local():
            for name in _KEYWORD_FIELDS:
                self._client.create_payload_index(self._collection, name, models.PayloadSchemaType.KEYWORD)
            for name in ("effective_from", "effective_to", "ordinal"):
                self._client.create_payload_index(self._collection, name, models.PayloadSchemaType.INTEGER)

    def _is_local(self) -> bool:
        return type(getattr(self._client, "_client", None)).__name__ == "QdrantLocal"

    def upsert(self, points: list[IndexPoint]) -> None:
        """Insert or replace points, in batches."""
        for start in range(0, len(points), 512):
            batch = [
                models.PointStruct(
                    id=point_uuid(p.fragment_id),
                    vector={
                        DENSE: [float(x) for x in p.dense],
                        SPARSE: models.SparseVector(indices=p.sparse.indices, values=p.sparse.values),
                    },
                    payload=p.payload,
                )
                for p in points[start : start + 512]
            ]
            self._client.upsert(self._collection, batch, wait=True)

    def delete(self, fragment_ids: list[str]) -> None:
        """Remove points by fragment id."""
        if fragment_ids:
            selector = models.PointIdsList(points=[point_uuid(f) for f in fragment_ids])
            self._client.delete(self._collection, points_selector=selector, wait=True)

    def _query(
        self,
        query: Any,
        using: str,
        access: AccessFilter,
        limit: int,
        within: Within | None,
        *,
        exact: bool = False,
    ) -> list[Hit]:
        if not access.space_ids or limit <= 0 or (within is not None and within.is_empty()):
            return []
        with warnings.catch_warnings():
            # Local mode (the tests' stand-in for a server) is always exact and says so.
            warnings.filterwarnings("ignore", message="Local mode performs exact", category=UserWarning)
            response = self._client.query_points(
                self._collection,
                query=query,
                using=using,
                query_filter=client_filter(access, within),
                limit=limit + TIE_SLACK,
                with_payload=["fragment_id"],
                search_params=models.SearchParams(exact=True) if exact else None,
            )
        hits = [Hit(str((p.payload or {})["fragment_id"]), float(p.score)) for p in response.points]
        return in_stable_order(hits, limit)

    def search_dense(
        self,
        vector: NDArray[np.float32],
        access: AccessFilter,
        limit: int,
        within: Within | None = None,
    ) -> list[Hit]:
        """Filtered nearest neighbours on the dense vector."""
        return self._query(
            [float(x) for x in vector], DENSE, access, limit, within, exact=dense_is_exact(limit)
        )

    def search_sparse(
        self, terms: SparseTerms, access: AccessFilter, limit: int, within: Within | None = None
    ) -> list[Hit]:
        """Filtered BM25 (sparse dot product with engine-side IDF)."""
        if not terms.indices:
            return []
        query = models.SparseVector(indices=terms.indices, values=terms.values)
        return self._query(query, SPARSE, access, limit, within)

    def cited(self, citations: Sequence[Citation], access: AccessFilter) -> dict[Citation, list[CitedPoint]]:
        """Resolve citations inside the engine, under the authorization filter."""
        if not access.space_ids or not citations:
            return {}
        found: dict[Citation, list[CitedPoint]] = {}
        offset: Any = None
        request_filter = client_filter(access, citations=citations)
        while True:
            records, offset = self._client.scroll(
                self._collection,
                scroll_filter=request_filter,
                limit=256,
                offset=offset,
                with_payload=list(CITED_FIELDS),
                with_vectors=False,
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
        request_filter = models.Filter(
            must=[client_filter(access), models.HasIdCondition(has_id=[point_uuid(f) for f in fragment_ids])]
        )
        records, _ = self._client.scroll(
            self._collection,
            scroll_filter=request_filter,
            limit=len(fragment_ids),
            with_payload=["fragment_id"],
            with_vectors=[DENSE],
        )
        found: dict[str, NDArray[np.float32]] = {}
        for record in records:
            vectors = record.vector if isinstance(record.vector, dict) else {}
            found[str((record.payload or {})["fragment_id"])] = np.asarray(vectors[DENSE], dtype=np.float32)
        return found

    def payloads(self) -> dict[str, dict[str, Any]]:
        """Every payload by fragment id (scrolls the collection)."""
        found: dict[str, dict[str, Any]] = {}
        offset: Any = None
        while True:
            records, offset = self._client.scroll(
                self._collection, limit=1024, offset=offset, with_payload=True, with_vectors=False
            )
            for record in records:
                payload = dict(record.payload or {})
                found[str(payload.get("fragment_id", record.id))] = payload
            if offset is None:
                return found

    def count(self) -> int:
        """Number of points."""
        return int(self._client.count(self._collection, exact=True).count)

    def optimize(self) -> None:
        """A server optimizes on its own."""

    def clear(self) -> None:
        """Drop and recreate the collection."""
        self._client.delete_collection(self._collection)
        self._ensure()

    def flush(self) -> None:
        """Writes are acknowledged with wait=True; nothing is pending."""

    def close(self) -> None:
        """Close the client."""
        self._client.close()
