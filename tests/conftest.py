"""Shared fixtures: an isolated data directory, settings and a migrated store per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings, use_settings
from shifu.store.engine import make_engine, make_session_factory
from shifu.store.migrate import upgrade


@pytest.fixture
def settings(tmp_path: Path) -> Iterator[Settings]:
    """Settings over a fresh data directory, with no model, Redis or domain server configured."""
    value = Settings(data_dir=tmp_path / "var", environment="test", jwt_secret="x" * 48)
    with use_settings(value):
        yield value


@pytest.fixture
def engine(settings: Settings) -> Iterator[Engine]:
    """A migrated SQLite engine under the test's data directory."""
    upgrade(settings.sqlalchemy_url)
    eng = make_engine(settings.sqlalchemy_url)
    yield eng
    eng.dispose()


@pytest.fixture
def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to the migrated engine."""
    return make_session_factory(engine)
