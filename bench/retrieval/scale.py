"""Scale: ingest throughput, filtered hybrid search latency and RSS at 1k/10k/100k fragments.

Synthetic fragments (random vocabulary text → real BM25 sparse vectors) and synthetic random
unit vectors for the dense leg, so the figures measure the engine and the authorization filter,
not the embedding model. Each size runs in its own process so its peak RSS is its own.
Usage: `python -m bench.retrieval.scale` (all sizes) or `--size N` (one, prints JSON).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from bench.retrieval.data import REPO, bench_out_dir

SIZES = (1_000, 10_000, 100_000)
SPACES = [f"space-{i}" for i in range(8)]
PROJECTS = [f"proj-{i}" for i in range(20)]
ROLES = ["EMPLOYEE", "SUPERVISOR", "CANDIDATE"]


class RandomQueryEmbedder:
    """Random unit query vectors (the document vectors are random too)."""

    model_id = "random"
    dim = 384

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def passages(self, texts: Any) -> np.ndarray:
        raise NotImplementedError

    def query(self, text: str) -> np.ndarray:
        v = self._rng.standard_normal(self.dim).astype(np.float32)
        return v / np.linalg.norm(v)


def run_size(n: int) -> dict[str, Any]:
    """Build an index of n synthetic fragments and time 200 filtered hybrid searches."""
    from shifu.knowledge.index.base import AccessFilter, IndexPoint
    from shifu.knowledge.index.edge import EdgeIndex
    from shifu.knowledge.retrieval import HybridParams, hybrid_search
    from shifu.knowledge.text import Bm25Encoder

    rng = np.random.default_rng(n)
    vocab = [f"词{i}" for i in range(20_000)]
    zipf = 1.0 / np.arange(1, len(vocab) + 1)
    zipf /= zipf.sum()
    encoder = Bm25Encoder(avg_len=60)
    started = time.perf_counter()
    lengths = rng.integers(20, 100, size=n)
    drawn = rng.choice(len(vocab), size=int(lengths.sum()), p=zipf)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    points = []
    for i in range(n):
        words = [vocab[w] for w in drawn[offsets[i] : offsets[i + 1]]]
        vector = rng.standard_normal(384).astype(np.float32)
        fid = hashlib.sha256(f"{n}-{i}".encode()).hexdigest()
        projects = ["*"] if rng.random() < 0.7 else [str(rng.choice(PROJECTS))]
        roles = ["*"] if rng.random() < 0.8 else [str(rng.choice(ROLES))]
        payload = {
            "fragment_id": fid, "document_id": fid, "tenant_id": "demo" if rng.random() < 0.9 else "other",
            "space_id": str(rng.choice(SPACES)), "project_ids": projects, "roles": roles,
            "effective_from": 20240101, "effective_to": 99991231 if rng.random() < 0.9 else 20241231,
            "lifecycle": "PUBLISHED", "verification": "HUMAN_VERIFIED", "environment": "production",
            "authority": "SOP",
        }  # fmt: skip
        points.append(IndexPoint(fid, vector / np.linalg.norm(vector), encoder.document(words), payload))
    prepare_s = time.perf_counter() - started
    path = Path(tempfile.mkdtemp(dir=bench_out_dir())) / "scale"
    index = EdgeIndex(path, 384)
    started = time.perf_counter()
    index.upsert(points)
    index.flush()
    upsert_s = time.perf_counter() - started
    started = time.perf_counter()
    index.optimize()
    optimize_s = time.perf_counter() - started
    del points
    access = AccessFilter("demo", tuple(SPACES[:3]), ("proj-1", "proj-2"), "EMPLOYEE", 20250601)
    embedder = RandomQueryEmbedder(7)
    params = HybridParams()
    latencies = []
    for q in range(220):
        words = " ".join(rng.choice(vocab[:3000], size=4))
        t0 = time.perf_counter()
        hits = hybrid_search(
            index, encoder, embedder, query=words, lexical_hint="", access=access, top_k=8, params=params
        )
        if q >= 20:
            latencies.append(1000 * (time.perf_counter() - t0))
        assert len(hits) <= 8
    index.close()
    shutil.rmtree(path.parent, ignore_errors=True)
    return {
        "fragments": n,
        "prepare_s": round(prepare_s, 2),
        "upsert_s": round(upsert_s, 2),
        "index_points_per_s": round(n / upsert_s),
        "optimize_s": round(optimize_s, 2),
        "search_p50_ms": round(float(np.percentile(latencies, 50)), 2),
        "search_p95_ms": round(float(np.percentile(latencies, 95)), 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def main() -> None:
    """Run one size (`--size`) or every size in its own process and store them in retrieval.json."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int)
    args = parser.parse_args()
    if args.size:
        print(json.dumps(run_size(args.size)))
        return
    rows = []
    for n in SIZES:
        done = subprocess.run(
            [sys.executable, "-m", "bench.retrieval.scale", "--size", str(n)],
            cwd=REPO, capture_output=True, text=True, check=True,
        )  # fmt: skip
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(rows[-1], flush=True)
    results = REPO / "bench" / "results" / "retrieval.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(results.read_text()) if results.exists() else {}
    data["scale"] = {
        "note": "synthetic fragments; dense leg uses synthetic random 384-d vectors; filter = tenant, 3 of 8 "
        "spaces, 2 projects, role, governance, effective date; search = sparse + dense legs + RRF, top-8",
        "rows": rows,
    }
    results.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    from bench.retrieval.report import write

    write()


if __name__ == "__main__":
    main()
