"""A small fake of the company's domain systems, served over real HTTP on loopback.

It answers the routes `HttpDomain` calls from any object satisfying the read ports
(normally `EmbeddedDomain` over the demo data), checks the bearer key, and can be told
to be slow or to fail, so the HTTP adapter and the executor's UNAVAILABLE/TIMEOUT paths
are tested over a real socket rather than a mock.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from shifu.domain.embedded import EmbeddedDomain


@dataclass
class FakeServerControl:
    """Knobs a test turns to script the fake: delay every answer, or answer with an error status."""

    delay_s: float = 0.0
    fail_status: int | None = None
    api_key: str | None = None
    calls: int = 0


def _opt_date(request: Request, name: str) -> date | None:
    value = request.query_params.get(name)
    return date.fromisoformat(value) if value else None


def _opt_dt(request: Request, name: str) -> datetime | None:
    value = request.query_params.get(name)
    return datetime.fromisoformat(value) if value else None


def build_fake_domain_app(domain: EmbeddedDomain, control: FakeServerControl) -> Starlette:
    """The Starlette app of the fake domain systems."""

    def guarded(handler: Any) -> Any:
        async def endpoint(request: Request) -> JSONResponse:
            control.calls += 1
            if control.delay_s:
                await asyncio.sleep(control.delay_s)
            if control.api_key and request.headers.get("authorization") != f"Bearer {control.api_key}":
                return JSONResponse({"error": "unauthorized"}, status_code=401)
            if control.fail_status is not None:
                return JSONResponse({"error": "scripted"}, status_code=control.fail_status)
            result: dict[str, Any] = handler(request)
            return JSONResponse(result)

        return endpoint

    def items(records: list[Any]) -> dict[str, Any]:
        return {"items": [record.model_dump(mode="json", by_alias=True) for record in records]}

    def tasks(request: Request) -> dict[str, Any]:
        q = request.query_params
        return items(
            domain.tasks_of(
                tenant_id=q["tenantId"],
                user_id=q["userId"],
                start=_opt_date(request, "start"),
                end=_opt_date(request, "end"),
            )
        )

    def practice(request: Request) -> dict[str, Any]:
        q = request.query_params
        return items(
            domain.practice_of(
                tenant_id=q["tenantId"],
                user_id=q["userId"],
                start=_opt_dt(request, "start"),
                end=_opt_dt(request, "end"),
            )
        )

    def team_practice(request: Request) -> dict[str, Any]:
        q = request.query_params
        return items(
            domain.team_practice(
                tenant_id=q["tenantId"],
                project_ids=q.getlist("projectId"),
                start=_opt_dt(request, "start"),
                end=_opt_dt(request, "end"),
            )
        )

    def results(request: Request) -> dict[str, Any]:
        q = request.query_params
        return items(
            domain.results_of(
                tenant_id=q["tenantId"],
                user_id=q["userId"],
                start=_opt_dt(request, "start"),
                end=_opt_dt(request, "end"),
            )
        )

    def team_results(request: Request) -> dict[str, Any]:
        q = request.query_params
        return items(
            domain.team_results(
                tenant_id=q["tenantId"],
                project_ids=q.getlist("projectId"),
                start=_opt_dt(request, "start"),
                end=_opt_dt(request, "end"),
            )
        )

    def progress(request: Request) -> dict[str, Any]:
        q = request.query_params
        record = domain.progress_of(tenant_id=q["tenantId"], user_id=q["userId"])
        return {"item": None if record is None else record.model_dump(mode="json", by_alias=True)}

    return Starlette(
        routes=[
            Route("/v1/tasks", guarded(tasks)),
            Route("/v1/practice", guarded(practice)),
            Route("/v1/team-practice", guarded(team_practice)),
            Route("/v1/work-results", guarded(results)),
            Route("/v1/team-work-results", guarded(team_results)),
            Route("/v1/candidate-progress", guarded(progress)),
        ]
    )


def unused_loopback_url() -> str:
    """A loopback URL nothing listens on (for "connection refused" tests)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@contextmanager
def serve_in_thread(app: Starlette) -> Iterator[str]:
    """Serve `app` with uvicorn on 127.0.0.1 and a random port; yield its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", ws="none", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("fake domain server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
