"""One demo deployment per test session, served through the real FastAPI app.

The deployment is seeded and has the whole demo corpus ingested (company documents and,
when present, the public laws) with the real embedder; passage vectors are cached under
`.cache/embeddings` so only the first session on a machine pays for embedding.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from demo_deployment import demo_settings_for
from shifu.api.app import create_app
from shifu.config import Settings, use_settings
from shifu.demo.setup import demo_actor_tokens, demo_token, principal_for
from shifu.runtime.wiring import Services, build_services


@pytest.fixture(scope="session")
def demo_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    """Settings of the session's demo deployment."""
    settings = demo_settings_for(tmp_path_factory, "demo")
    with use_settings(settings):
        yield settings


@pytest.fixture(scope="session")
def services(demo_settings: Settings) -> Iterator[Services]:
    """The deployment's live services."""
    built = build_services(demo_settings)
    yield built
    built.close()


@pytest.fixture(scope="session")
def client(demo_settings: Settings, services: Services) -> Iterator[TestClient]:
    """An HTTP client of the app (demo mode, with the actor picker)."""
    app = create_app(demo_settings, services, demo_actors=lambda: demo_actor_tokens(demo_settings))
    with TestClient(app) as test_client:
        yield test_client


class Actor:
    """Talks to the API as one demo actor, keeping the conversation id and version."""

    def __init__(self, client: TestClient, settings: Settings, key: str) -> None:
        self.client = client
        self.key = key
        _, self.client_id = principal_for(key)
        self.token = demo_token(settings, key)
        self.conversation_id: str | None = None
        self.version: int | None = None

    @property
    def headers(self) -> dict[str, str]:
        """Bearer token and client id."""
        return {"Authorization": f"Bearer {self.token}", "X-Client-Id": self.client_id}

    def ask(self, text: str, **extra: Any) -> dict[str, Any]:
        """Send a message in the current conversation; return the JSON AgentResponse."""
        body: dict[str, Any] = {"text": text, **extra}
        if self.conversation_id:
            body.setdefault("conversationId", self.conversation_id)
            body.setdefault("contextVersion", self.version)
        response = self.client.post("/api/aihr/agent/messages", json=body, headers=self.headers)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        self.conversation_id = data["conversationId"]
        self.version = data["contextVersion"]
        return data

    def new_conversation(self) -> None:
        """Forget the conversation; the next message starts a new one."""
        self.conversation_id = None
        self.version = None


@pytest.fixture
def actor(client: TestClient, demo_settings: Settings) -> Any:
    """A factory: `actor("employee")` → an Actor in a fresh conversation."""

    def make(key: str) -> Actor:
        return Actor(client, demo_settings, key)

    return make
