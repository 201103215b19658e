"""Subprocess worker for test_durability: confirms a list of drafts with their keys, 4 at a time.

    python durability_worker.py PLAN.json

PLAN holds the database URL, the tenant, the fake domain's URL and the (draft id, key,
writer) triples; writer is `embedded` (one transaction) or `http` (two phases). Each
finished confirmation prints `done <key> <record id>` and flushes, so the parent can
SIGKILL the process while others are still in flight.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from shifu.actions.directory import SqlTeamDirectory
from shifu.actions.model import ConfirmRequest
from shifu.actions.payloads import Visibility
from shifu.actions.service import ActionService
from shifu.actions.tickets import SqlTicketStore
from shifu.contracts.common import Role
from shifu.contracts.context import ExecutionContext
from shifu.domain.writes.embedded import EmbeddedDomainWriter
from shifu.domain.writes.http import HttpDomainWriter
from shifu.errors import Unavailable, VersionConflict
from shifu.store.engine import make_engine, make_session_factory


class _NoPending:
    def pending_reviews(self, tenant_id: str, project_id: str, *, start: Any, end: Any) -> list[Any]:
        return []


def context(tenant: str) -> ExecutionContext:
    """The one user every durability draft belongs to."""
    return ExecutionContext(
        run_id="run-durability",
        tenant_id=tenant,
        app_id="staff-app",
        user_id="u-durable",
        external_id="ext-durable",
        display_name="张三",
        role=Role.EMPLOYEE,
        project_ids=("proj-huafu",),
        selected_project_id="proj-huafu",
        now=datetime.now(UTC),
    )


def build_service(plan: dict[str, Any], kind: str) -> ActionService:
    """The service as a server process would build it, with the embedded or the HTTP writer."""
    factory = make_session_factory(make_engine(plan["url"]))
    writer: Any = (
        EmbeddedDomainWriter(factory)
        if kind == "embedded"
        else HttpDomainWriter(plan["domain_url"], api_key=plan["domain_key"], timeout_s=2.0)
    )
    return ActionService(
        session_factory=factory,
        tickets=SqlTicketStore(factory),
        writers=writer,
        directory=SqlTeamDirectory(factory),
        reviews=_NoPending(),
        lease=timedelta(seconds=0.5),
    )


def main(path: str) -> None:
    """Confirm every pair, retrying IN_FLIGHT / UNAVAILABLE answers until each one finishes."""
    with open(path, encoding="utf-8") as handle:
        plan = json.load(handle)
    services = {kind: build_service(plan, kind) for kind in ("embedded", "http")}
    ctx = context(plan["tenant"])
    printing = threading.Lock()

    def confirm(pair: list[str]) -> None:
        draft_id, key, kind = pair
        service = services[kind]
        request = ConfirmRequest(expected_version=1, idempotency_key=key, visibility=Visibility.PRIVATE)
        for _ in range(200):
            try:
                result = service.confirm(ctx, draft_id, request, now=datetime.now(UTC))
            except (VersionConflict, Unavailable) as exc:
                if getattr(exc, "code", "") not in {
                    "IN_FLIGHT",
                    "DOMAIN_TIMEOUT",
                    "DOMAIN_TRANSPORT",
                    "DOMAIN_HTTP_ERROR",
                }:
                    raise
                time.sleep(0.2)
                continue
            record_id = result.receipt.record_id if result.receipt else "-"
            with printing:
                sys.stdout.write(f"done {key} {record_id}\n")
                sys.stdout.flush()
            return
        raise RuntimeError("confirmation never finished")

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(confirm, plan["pairs"]))


if __name__ == "__main__":
    main(sys.argv[1])
