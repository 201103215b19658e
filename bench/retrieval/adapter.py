"""The query adapter learned from the TRAIN split: its ridge chosen by 5-fold cross-validation on train.

Pairs are (train question vector, vector of each gold article). Dev questions (and the all-query
rows' dev part) use the adapter fitted on every train pair; each train question uses the adapter
fitted on the other four folds, so no train question is ever mapped by a matrix that saw it (the
leave-one-out rule of the question bank, applied to the adapter). Dev is never looked at.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from bench.retrieval.stard import Stard, metrics

from shifu.knowledge.query_adapter import QueryAdapter, fit_query_adapter

RIDGES = (0.3, 1.0, 3.0)
"""Ridge strengths tried; the best train cross-validated dense-only R@10 + R@100 ships."""
FOLDS = 5


def _pairs(
    stard: Stard,
    qids: Sequence[int],
    qvec: dict[int, np.ndarray],
    position: dict[str, int],
    vectors: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    rows = [(qvec[q], vectors[position[g]]) for q in qids for g in sorted(stard.gold[q]) if g in position]
    return np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows])


def _folds(stard: Stard) -> list[list[int]]:
    train = sorted(stard.train)
    return [train[i::FOLDS] for i in range(FOLDS)]


def cross_fitted(
    stard: Stard, indices: list[int], vectors: np.ndarray, qvec: dict[int, np.ndarray], ridge: float
) -> dict[int, QueryAdapter]:
    """Every query's adapter: train questions get their fold's, the others the all-train one."""
    position = {stard.corpus_ids[i]: n for n, i in enumerate(indices)}
    adapters: dict[int, QueryAdapter] = {}
    for fold in _folds(stard):
        held = set(fold)
        adapter = fit_query_adapter(
            *_pairs(stard, [q for q in stard.train if q not in held], qvec, position, vectors), ridge
        )
        adapters.update(dict.fromkeys(fold, adapter))
    everything = fit_query_adapter(*_pairs(stard, stard.train, qvec, position, vectors), ridge)
    for q in stard.queries:
        adapters.setdefault(q, everything)
    return adapters


def dense_ranking(
    stard: Stard, indices: list[int], vectors: np.ndarray, qvec: dict[int, np.ndarray], qids: Sequence[int],
    adapters: dict[int, QueryAdapter] | None,
) -> dict[int, list[str]]:  # fmt: skip
    """Exact cosine top 100 of each query (mapped by its adapter when given)."""
    ids = [stard.corpus_ids[i] for i in indices]
    out: dict[int, list[str]] = {}
    for q in qids:
        vector = adapters[q].apply(qvec[q]) if adapters else qvec[q]
        scores = vectors @ vector
        top = np.argpartition(-scores, 100)[:100]
        out[q] = [ids[j] for j in top[np.argsort(-scores[top])]]
    return out


def choose_ridge(
    stard: Stard, indices: list[int], vectors: np.ndarray, qvec: dict[int, np.ndarray]
) -> tuple[float, list[dict[str, float]]]:
    """The ridge with the best cross-validated train dense-only R@10 + R@100, and every trial."""
    trials = []
    for ridge in RIDGES:
        adapters = cross_fitted(stard, indices, vectors, qvec, ridge)
        found = metrics(
            dense_ranking(stard, indices, vectors, qvec, stard.train, adapters), stard.gold, stard.train
        )
        trials.append({"ridge": ridge, "train_cv_R@10": found["R@10"], "train_cv_R@100": found["R@100"]})
    best = max(trials, key=lambda t: t["train_cv_R@10"] + t["train_cv_R@100"])
    return best["ridge"], trials
