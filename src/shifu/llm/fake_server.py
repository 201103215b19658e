"""A fake OpenAI-compatible HTTP server on 127.0.0.1, for tests over real HTTP.

It answers `POST /v1/chat/completions` from a script: each call takes the next `Reply`
(JSON content, prose, a delay, an HTTP status, or a rejection of `json_schema`
response formats) and records the request body, so tests can assert what the model
was — and was not — shown. Loopback only; nothing leaves the machine.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted answer."""

    content: str | None = None
    """Message content (JSON text or prose)."""
    status: int = 200
    """HTTP status."""
    delay_s: float = 0.0
    """Seconds to wait before answering."""
    reject_json_schema: bool = False
    """Answer 400 if the request asks for `json_schema`, without consuming this reply."""

    @classmethod
    def json(cls, value: Any, **kwargs: Any) -> Reply:
        """A reply whose content is `value` serialized as JSON."""
        return cls(content=json.dumps(value, ensure_ascii=False), **kwargs)


@dataclass
class FakeOpenAIServer:
    """Scripted replies plus the request bodies received."""

    replies: deque[Reply] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def script(self, replies: Iterable[Reply]) -> None:
        """Queue replies for the next calls."""
        with self._lock:
            self.replies.extend(replies)

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if not self.replies:
                return Reply(status=503, content="no scripted reply")
            head = self.replies[0]
            wants_schema = (body.get("response_format") or {}).get("type") == "json_schema"
            if head.reject_json_schema and wants_schema:
                return Reply(status=400, content="response_format json_schema is not supported")
            return self.replies.popleft()


def _handler(server_state: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            """Silence the default stderr access log."""

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = {}
            reply = server_state._next(body)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.status >= 300:
                payload = json.dumps({"error": {"message": reply.content or "error"}}).encode()
            else:
                message = {"role": "assistant", "content": reply.content or ""}
                payload = json.dumps(
                    {"id": "fake", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
                ).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


@contextmanager
def running_fake_server(replies: Iterable[Reply] = ()) -> Iterator[FakeOpenAIServer]:
    """Start the fake server on a random loopback port in a thread; stop it on exit."""
    state = FakeOpenAIServer(replies=deque(replies))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    httpd.daemon_threads = True
    state.base_url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), name="fake-openai", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
