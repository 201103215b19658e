"""One in-process demo deployment for the contract golden set (seed 000 验收, "纯内存").

The deployment is the real one — seeded org, the whole corpus ingested with the real
embedder (vectors cached under `.cache/embeddings`, shared with tests/e2e) — and the cases
drive `AgentRuntime.handle` directly with the real planner, tool executor, evidence
evaluator, composer and conversation service. Cases that need controlled behaviour swap
one part for a small purpose-built fake (see `support.py`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from demo_deployment import demo_settings_for
from shifu.api.app import create_app
from shifu.config import Settings, use_settings
from shifu.contracts.messages import AgentRequest
from shifu.demo.setup import demo_actor_tokens, principal_for
from shifu.runtime.wiring import Services, build_services

from .support import Parts


@pytest.fixture(scope="session")
def contract_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    """Settings of the contract set's demo deployment (no model endpoint configured)."""
    settings = demo_settings_for(tmp_path_factory, "contract")
    with use_settings(settings):
        yield settings


@pytest.fixture(scope="session")
def services(contract_settings: Settings) -> Iterator[Services]:
    """The deployment's live services, warmed up so the first case does not pay the embedder's load."""
    built = build_services(contract_settings)
    principal, client = principal_for("employee")
    built.run_message_sync(
        principal, client, AgentRequest(text="劳动合同期限一年的，试用期最长可以约定多久？")
    )
    yield built
    built.close()


@pytest.fixture(scope="session")
def parts(services: Services) -> Parts:
    """Builds runtimes over the deployment with chosen parts replaced by fakes."""
    return Parts(services)


@pytest.fixture(scope="session")
def http(contract_settings: Settings, services: Services) -> Iterator[TestClient]:
    """An HTTP client of the real app over the same deployment."""
    app = create_app(contract_settings, services, demo_actors=lambda: demo_actor_tokens(contract_settings))
    with TestClient(app) as client:
        yield client
