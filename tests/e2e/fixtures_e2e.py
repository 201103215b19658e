"""Fixtures the acceptance modules share: an injectable clock, org edits that are undone,
row counting, and small separate deployments (no law corpus) for settings the shared
session deployment cannot have (a model endpoint, a remote domain system, production mode).

Loaded by the test modules through `pytest_plugins = ["e2e.fixtures_e2e"]`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shifu.api.app import create_app
from shifu.config import Settings, use_settings
from shifu.contracts.messages import AgentRequest
from shifu.demo.setup import bring_up_demo, demo_actor_tokens, principal_for
from shifu.runtime.wiring import Services, build_services

from .support import FakeClock, SmallDeployment

REPO = Path(__file__).resolve().parents[2]
EMBEDDING_CACHE = REPO / ".cache" / "embeddings"


@pytest.fixture(scope="session")
def warm_services(services: Services) -> Services:
    """The session deployment after one knowledge search, so the embedder is loaded.

    The first search in a process loads the embedding model and can overrun the per-tool
    timeout (runtime-requests: COLD_EMBEDDER); the acceptance modules test other things.
    """
    principal, client_id = principal_for("employee")
    services.run_message_sync(principal, client_id, AgentRequest(text="电梯困人怎么处理"))
    return services


@pytest.fixture
def clock(warm_services: Services) -> Iterator[FakeClock]:
    """Inject a controllable server clock into the session deployment; restore it after."""
    fake = FakeClock()
    original = warm_services.clock
    warm_services.clock = fake
    try:
        yield fake
    finally:
        warm_services.clock = original


@pytest.fixture(scope="module")
def small_deployment(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    """A factory of small deployments: `with small_deployment(llm_base_url=…) as d: …`."""

    @contextmanager
    def make(**changes: Any) -> Iterator[SmallDeployment]:
        root = tmp_path_factory.mktemp("small")
        empty_laws = root / "no-laws"
        empty_laws.mkdir()
        settings = Settings(
            data_dir=root / "var",
            environment="demo",
            embedding_cache=EMBEDDING_CACHE,
            laws_dir=empty_laws,
        ).with_changes(**changes)
        with use_settings(settings):
            bring_up_demo(settings, out=None)
            services = build_services(settings)
            try:
                app = create_app(settings, services, demo_actors=lambda: demo_actor_tokens(settings))
                with TestClient(app) as client:
                    yield SmallDeployment(settings, services, client)
            finally:
                services.close()

    return make
