"""Helpers every benchmark of this folder shares: machine facts, percentiles, result files."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from shifu.knowledge.embedding import Embedder, Vectors

REPO = Path(__file__).resolve().parents[1]
RESULTS_DIR = REPO / "bench" / "results"


def machine_facts() -> dict[str, Any]:
    """Date, cores and load: figures from a loaded 2-core box are not figures from an idle server."""
    try:
        load = list(os.getloadavg())
    except OSError:
        load = []
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=5
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "nproc": os.cpu_count(),
        "loadavg": [round(x, 2) for x in load],
        "python": platform.python_version(),
        "machine": platform.machine(),
        "commit": commit,
    }


def percentiles(values_ms: Sequence[float]) -> dict[str, float]:
    """n, p50/p95/p99/max and mean of a latency sample in milliseconds."""
    if not values_ms:
        return {"n": 0}
    data = np.asarray(values_ms, dtype=np.float64)
    return {
        "n": len(values_ms),
        "p50_ms": round(float(np.percentile(data, 50)), 3),
        "p95_ms": round(float(np.percentile(data, 95)), 3),
        "p99_ms": round(float(np.percentile(data, 99)), 3),
        "max_ms": round(float(data.max()), 3),
        "mean_ms": round(float(data.mean()), 3),
    }


def ratio(value: float | None, baseline: float | None) -> float | None:
    """value / baseline, or None when either is missing or the baseline is zero."""
    if value is None or not baseline:
        return None
    return round(value / baseline, 3)


def write_results(name: str, payload: dict[str, Any], markdown: str) -> tuple[Path, Path]:
    """`bench/results/<name>.json` and `.md`."""
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    json_path, md_path = RESULTS_DIR / f"{name}.json", RESULTS_DIR / f"{name}.md"
    json_path.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(markdown.rstrip() + "\n", encoding="utf-8")
    return json_path, md_path


def pct(value: float | None) -> str:
    """A share as a percentage for tables."""
    return "–" if value is None else f"{value * 100:.1f} %"


class QueryMemo:
    """Wraps an embedder and remembers query vectors within one run (the model is deterministic).

    RGB asks each question six times (once per noise ratio); embedding it once saves minutes
    on a shared 2-core machine without changing a single vector.
    """

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._queries: dict[str, Vectors] = {}

    @property
    def model_id(self) -> str:
        """The wrapped model's id."""
        return self._inner.model_id

    @property
    def dim(self) -> int:
        """The wrapped model's vector size."""
        return self._inner.dim

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Passed through (the persistent cache sits below)."""
        return self._inner.passages(texts)

    def query(self, text: str) -> Vectors:
        """Embedded once per distinct text."""
        if text not in self._queries:
            self._queries[text] = self._inner.query(text)
        return self._queries[text]
