"""Where the benchmark data and caches live (SHIFU_BENCH_DATA overrides the shared data path)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def bench_data_dir() -> Path:
    """Root of the external benchmark data, default `../shared/data/bench` beside the repository."""
    value = os.environ.get("SHIFU_BENCH_DATA")
    return Path(value) if value else REPO.parent / "shared" / "data" / "bench"


def stard_dir() -> Path:
    """The STARD folder (read its SOURCES.md)."""
    return bench_data_dir() / "stard"


def bench_out_dir() -> Path:
    """Gitignored cache for embeddings and intermediate files."""
    path = REPO / "bench" / "out"
    path.mkdir(parents=True, exist_ok=True)
    return path
