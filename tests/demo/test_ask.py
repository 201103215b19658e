"""`shifu ask` on a data directory that was never seeded says so, instead of blaming a login."""

from __future__ import annotations

import pytest

from shifu.config import Settings
from shifu.demo.setup import ask_as, seed_demo
from shifu.errors import ConfigurationError
from shifu.store.migrate import upgrade


def test_asking_before_the_demo_is_seeded_names_the_missing_setup(settings: Settings) -> None:
    upgrade(settings.sqlalchemy_url)
    with pytest.raises(ConfigurationError) as raised:
        ask_as(settings, "employee", "我今天有什么待办？")
    assert raised.value.code == "DEMO_NOT_SEEDED"
    assert "shifu demo up" in raised.value.message


def test_asking_after_the_demo_is_seeded_answers(settings: Settings) -> None:
    seed_demo(settings)
    response = ask_as(settings, "employee", "我今天有什么待办？")
    assert response.status.value == "COMPLETED"
    assert response.data["items"], "the demo employee has a task due today"
