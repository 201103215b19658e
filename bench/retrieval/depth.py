"""Do deeper legs or more focus documents help the shipped retriever on STARD? Chosen on TRAIN only.

Usage: `python -m bench.retrieval.depth` from the repository root. Builds the full-corpus shard once,
collects every query's legs once per focus-document setting at the deepest candidate depth, then,
offline, truncates each leg to every depth tried (a leg's top-n is the prefix of its top-200),
re-tunes the bank fusion on train (R@10 + R@100, leave-one-out bank) and reports train and dev.
Dev is reported, never used to choose. Writes `bench/out/depth.json`.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.retrieval.data import bench_out_dir
from bench.retrieval.run import corpus_vectors, query_vectors
from bench.retrieval.shipped import (
    ALL_LEGS,
    BANK_GRID,
    CachedQueryEmbedder,
    build_index,
    collect_legs,
    ranked,
    train_bank,
    truncated,
    tune,
)
from bench.retrieval.stard import Stard, load_stard, metrics

from shifu.knowledge.index.base import Hit
from shifu.knowledge.retrieval import HybridParams

log = logging.getLogger("bench.retrieval")
DEPTHS = (100, 150, 200)
FOCUS_DOCUMENTS = (3, 5)


def scores(
    stard: Stard, legs: dict[int, dict[str, list[Hit]]], params: HybridParams, back: dict[str, str]
) -> dict[str, dict[str, float]]:
    """Train and dev metrics of the fused ranking."""
    ranking = ranked(legs, params, ALL_LEGS, back)
    return {
        "train": metrics(ranking, stard.gold, stard.train),
        "dev": metrics(ranking, stard.gold, stard.dev),
    }


def gold_in_any_leg(stard: Stard, legs: dict[int, dict[str, list[Hit]]], back: dict[str, str]) -> float:
    """Share of train gold articles present in at least one leg (the ceiling of fused R@100)."""
    found = total = 0
    for q in stard.train:
        seen = {back[h.fragment_id] for hits in legs[q].values() for h in hits}
        found += len(seen & stard.gold[q])
        total += len(stard.gold[q])
    return round(found / total, 4)


def main() -> None:
    """Collect the legs, sweep depth × focus documents, write the results."""
    logging.basicConfig(level=logging.INFO)
    stard = load_stard()
    indices, vectors, complete = corpus_vectors(stard)
    assert complete, "the depth study runs on the full corpus only"
    embedder = CachedQueryEmbedder(stard, query_vectors(stard))
    bank, _ = train_bank(stard, embedder)
    folder = Path(tempfile.mkdtemp(dir=bench_out_dir()))
    rows: list[dict[str, Any]] = []
    try:
        index, encoder, back, build_s = build_index(stard, indices, vectors, folder)
        log.info("shard built in %.0f s", build_s)
        for focus in FOCUS_DOCUMENTS:
            deep = HybridParams(candidates=max(DEPTHS))
            deep = replace(deep, bank=replace(deep.bank, focus_documents=focus, tail=None))
            started = time.perf_counter()
            legs, p50 = collect_legs(stard, index, encoder, embedder, bank, deep, back)
            log.info(
                "focus %d: legs at depth %d in %.0f s", focus, max(DEPTHS), time.perf_counter() - started
            )
            for depth in DEPTHS:
                cut = truncated(legs, depth)
                start = replace(deep, candidates=depth)
                tuned, _ = tune(stard, cut, start, ALL_LEGS, BANK_GRID, back, bank_fields=True)
                row = {
                    "focus_documents": focus,
                    "candidates": depth,
                    "legs_p50_ms_at_200": round(p50, 2),
                    "train_gold_in_any_leg": gold_in_any_leg(stard, cut, back),
                    "defaults": scores(stard, cut, start, back),
                    "tuned_params": tuned.bank.__dict__,
                    "tuned": scores(stard, cut, tuned, back),
                }
                rows.append(row)
                log.info("%s", json.dumps(row, ensure_ascii=False))
                (bench_out_dir() / "depth.json").write_text(json.dumps(rows, ensure_ascii=False, indent=2))
        index.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
