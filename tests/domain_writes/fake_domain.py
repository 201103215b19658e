"""A small fake of the company's domain write API, served over real HTTP on 127.0.0.1.

It de-duplicates on the `Idempotency-Key` header as a real domain system must, checks the
bearer key, and can be told to answer the next requests with an error status or to stall.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_KINDS = {
    "/memories": "mem",
    "/practice-assignments": "asg",
    "/review-dispatches": "rvw",
    "/work-reports": "wr",
}
_STATUS = {"/practice-assignments": "ASSIGNED", "/review-dispatches": "SENT", "/work-reports": "SUBMITTED"}


@dataclass
class FakeDomain:
    """State of the fake: records by key, scripted failures, every request seen."""

    api_key: str = "domain-key-for-tests-0123456789"
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    fail_next: list[int] = field(default_factory=list)
    stall_s: float = 0.0
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    base_url: str = ""

    def answer(
        self, path: str, key: str | None, auth: str | None, body: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """What the fake answers for one request."""
        with self.lock:
            self.requests.append((path, key))
            if self.fail_next:
                return self.fail_next.pop(0), {"error": "scripted"}
        if auth != f"Bearer {self.api_key}":
            return 401, {"error": "unauthorized"}
        if path not in _KINDS or not key:
            return 400, {"error": "bad request"}
        if self.stall_s:
            time.sleep(self.stall_s)
        with self.lock:
            if key not in self.records:
                status = _STATUS.get(path) or ("ACTIVE" if body.get("visibility") == "PRIVATE" else "PENDING")
                self.records[key] = {
                    "id": f"{_KINDS[path]}-remote-{len(self.records) + 1}",
                    "status": status,
                    "createdAt": "2026-07-24T06:00:01+00:00",
                    "path": path,
                    "body": body,
                }
            record = self.records[key]
        return 201, {"id": record["id"], "status": record["status"], "createdAt": record["createdAt"]}


def _handler(domain: FakeDomain) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            status, answer = domain.answer(
                self.path, self.headers.get("Idempotency-Key"), self.headers.get("Authorization"), body
            )
            raw = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


@contextmanager
def serve_fake_domain() -> Iterator[FakeDomain]:
    """Run the fake on a free loopback port for the duration of a block."""
    domain = FakeDomain()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(domain))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    domain.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield domain
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
