"""A persistent cache of passage vectors keyed by (model, SHA-256 of the text).

Embedding is the slow part of ingestion (tens of passages per second on two cores). The
model is deterministic, so a vector computed once for a text is valid forever for that
model: re-ingesting, rebuilding, a fresh evaluation deployment or a new test session reuse
it. The cache holds vectors only, never the text.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from shifu.knowledge.embedding import Embedder, Vectors

QUERY_MEMO = 8
"""Query vectors remembered in memory (a request's rounds; an immediate re-ask)."""


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """Wraps an embedder; passage vectors come from the cache when present."""

    def __init__(self, inner: Embedder, cache_dir: Path) -> None:
        self._inner = inner
        cache_dir.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(cache_dir / "embeddings.sqlite", check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT, key TEXT, vector BLOB, PRIMARY KEY (model, key))"
        )
        self._db.commit()
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, Vectors] = OrderedDict()

    @property
    def model_id(self) -> str:
        """The wrapped model's id."""
        return self._inner.model_id

    @property
    def dim(self) -> int:
        """The wrapped model's vector size."""
        return self._inner.dim

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Cached vectors where known; the rest embedded in one batch and stored."""
        keys = [_key(t) for t in texts]
        found = self._lookup(keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            fresh = self._inner.passages([texts[i] for i in missing])
            rows = [
                (self.model_id, keys[i], fresh[n].astype(np.float32).tobytes()) for n, i in enumerate(missing)
            ]
            with self._lock:
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)
                self._db.commit()
            for n, i in enumerate(missing):
                found[keys[i]] = fresh[n].astype(np.float32)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32)

    def query(self, text: str) -> Vectors:
        """The query's vector; the last few are remembered in memory (never on disk).

        A follow-up round searches the same question again with other keyword cues, so its
        dense leg reuses the vector instead of paying the model twice. The memo is kept
        small (QUERY_MEMO entries): it serves a request's own rounds and an immediate
        re-ask, not a long history of what users asked.
        """
        with self._lock:
            vector = self._recent.get(text)
            if vector is not None:
                self._recent.move_to_end(text)
                return vector
        vector = self._inner.query(text)
        with self._lock:
            self._recent[text] = vector
            while len(self._recent) > QUERY_MEMO:
                self._recent.popitem(last=False)
        return vector

    def _lookup(self, keys: Sequence[str]) -> dict[str, Vectors]:
        found: dict[str, Vectors] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), 500):
                chunk = unique[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({marks})",
                    [self.model_id, *chunk],
                ).fetchall()
                for key, blob in rows:
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found
