"""The query adapter learned from the TRAIN split: its fit chosen by 5-fold cross-validation on train.

Two fits are tried (`shifu.knowledge.query_adapter`): the ridge regression of gold-article vectors
on question vectors, and the contrastive fit whose softmax runs over every article of the corpus.
Pairs are (train question, its gold articles). Dev questions (and the all-query rows' dev part) use
the adapter fitted on every train question; each train question uses the adapter fitted on the
other four folds, so no train question is ever mapped by a matrix that saw it (the leave-one-out
rule of the question bank, applied to the adapter). Dev is never looked at.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from bench.retrieval.stard import Stard, metrics

from shifu.knowledge.query_adapter import (
    ContrastiveFit,
    QueryAdapter,
    fit_contrastive_query_adapter,
    fit_query_adapter,
)

log = logging.getLogger("bench.retrieval.adapter")

FITS: tuple[dict[str, Any], ...] = (
    {"method": "ridge", "ridge": 0.3},
    {"method": "ridge", "ridge": 1.0},
    {"method": "ridge", "ridge": 3.0},
    {"method": "contrastive", "temperature": 0.01, "epochs": 20},
    {"method": "contrastive", "temperature": 0.01, "epochs": 40},
    {"method": "contrastive", "temperature": 0.005, "epochs": 20},
)
"""Fits tried; the best train cross-validated dense-only R@10 + R@100 ships. The contrastive
settings come from a probe on train folds only (2026-12-06: temperature 0.05 and 0.02 learned far
slower, 0.01 and 0.005 level off between 20 and 40 epochs; starting from the ridge solution was
worse than starting from the identity)."""
FOLDS = 5


def _folds(stard: Stard) -> list[list[int]]:
    train = sorted(stard.train)
    return [train[i::FOLDS] for i in range(FOLDS)]


def fit_adapter(
    stard: Stard,
    qids: Sequence[int],
    qvec: dict[int, np.ndarray],
    position: dict[str, int],
    vectors: np.ndarray,
    fit: dict[str, Any],
) -> QueryAdapter:
    """The adapter of one fit setting, learned from the questions `qids` and their gold articles."""
    asked = [q for q in qids if any(g in position for g in stard.gold[q])]
    answers = [sorted(position[g] for g in stard.gold[q] if g in position) for q in asked]
    queries = np.stack([qvec[q] for q in asked])
    if fit["method"] == "ridge":
        rows = [(i, a) for i, found in enumerate(answers) for a in found]
        return fit_query_adapter(queries[[i for i, _ in rows]], vectors[[a for _, a in rows]], fit["ridge"])
    settings = ContrastiveFit(temperature=fit["temperature"], epochs=fit["epochs"])
    return fit_contrastive_query_adapter(queries, answers, vectors, settings)


def cross_fitted(
    stard: Stard, indices: list[int], vectors: np.ndarray, qvec: dict[int, np.ndarray], fit: dict[str, Any]
) -> dict[int, QueryAdapter]:
    """Every query's adapter: train questions get their fold's, the others the all-train one."""
    position = {stard.corpus_ids[i]: n for n, i in enumerate(indices)}
    adapters: dict[int, QueryAdapter] = {}
    for fold in _folds(stard):
        held = set(fold)
        adapter = fit_adapter(stard, [q for q in stard.train if q not in held], qvec, position, vectors, fit)
        adapters.update(dict.fromkeys(fold, adapter))
    everything = fit_adapter(stard, stard.train, qvec, position, vectors, fit)
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


def choose_fit(
    stard: Stard, indices: list[int], vectors: np.ndarray, qvec: dict[int, np.ndarray]
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[int, QueryAdapter]]:
    """The fit with the best cross-validated train dense-only R@10 + R@100, every trial, and its adapters."""
    trials: list[dict[str, Any]] = []
    best: tuple[float, dict[str, Any], dict[int, QueryAdapter]] | None = None
    for fit in FITS:
        started = time.monotonic()
        adapters = cross_fitted(stard, indices, vectors, qvec, fit)
        found = metrics(
            dense_ranking(stard, indices, vectors, qvec, stard.train, adapters), stard.gold, stard.train
        )
        trials.append({**fit, "train_cv_R@10": found["R@10"], "train_cv_R@100": found["R@100"]})
        log.info("adapter %s: %s (%.0f s)", fit, found, time.monotonic() - started)
        score = found["R@10"] + found["R@100"]
        if best is None or score > best[0]:
            best = (score, fit, adapters)
    assert best is not None
    return best[1], trials, best[2]
