"""Runs golden cases in-process against a fresh demo deployment.

One deployment per run (migrated, seeded and with the demo corpus ingested) in a fresh
SQLite store under `<data_dir>/eval/`, removed afterwards; each case gets its own
conversation, so cases never share conversational state.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from shifu.config import Settings, use_settings
from shifu.contracts.messages import AgentRequest
from shifu.demo.setup import bring_up_demo, principal_for
from shifu.eval.cases import GoldenCase
from shifu.runtime.wiring import Services, build_services


def run_case(services: Services, case: GoldenCase) -> list[dict[str, Any]]:
    """Send a case's turns in one conversation; return each AgentResponse as JSON."""
    principal, client = principal_for(case.actor)
    responses: list[dict[str, Any]] = []
    conversation_id: str | None = None
    version: int | None = None
    for text in case.turns:
        request = AgentRequest(text=text, conversation_id=conversation_id, context_version=version)
        response = services.run_message_sync(principal, client, request)
        conversation_id, version = response.conversation_id, response.context_version
        responses.append(response.model_dump(mode="json", by_alias=True))
    return responses


def run_cases(
    cases: Iterable[GoldenCase],
    out: TextIO,
    *,
    settings: Settings,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Run every case against a fresh deployment and write one JSON line per case."""
    root = settings.data_dir / "eval" / uuid.uuid4().hex[:12]
    fresh = settings.with_changes(
        data_dir=root, database_url=None, environment="demo", embedding_cache=settings.embedding_cache_dir
    )
    try:
        with use_settings(fresh):
            bring_up_demo(fresh, out=None)
            services = build_services(fresh)
            try:
                count = 0
                for case in cases:
                    line = {"id": case.id, "responses": run_case(services, case)}
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
                    count += 1
                    if progress:
                        progress(count)
                return count
            finally:
                services.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)
