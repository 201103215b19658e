"""Fixtures for the conversation stores: SQLite, PostgreSQL and Redis started on loopback by scripts/*.sh."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from shifu.context.redis_store import RedisConversationStore
from shifu.context.store import ConversationStore, SqlConversationStore
from shifu.store.engine import make_engine, make_session_factory, transaction
from shifu.store.migrate import upgrade
from shifu.store.tables.conversation import ConversationRow

_SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """SHIFU_TEST_REDIS_URL when the test script started one, else a server of our own."""
    given = os.environ.get("SHIFU_TEST_REDIS_URL")
    if given:
        yield given
        return
    state_dir = tmp_path_factory.mktemp("redis")
    started = subprocess.run(
        ["bash", str(_SCRIPTS / "redis.sh"), "start", str(state_dir)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if started.returncode != 0:
        if shutil.which("redis-server") is None:
            pytest.skip(f"redis-server is not installed and could not be installed: {started.stderr.strip()}")
        raise RuntimeError(f"redis.sh failed: {started.stderr.strip()}")
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run(["bash", str(_SCRIPTS / "redis.sh"), "stop", str(state_dir)], check=False, timeout=30)


@pytest.fixture
def redis_store(redis_url: str) -> Iterator[RedisConversationStore]:
    """A Redis store under a key prefix of its own (tests never see each other's keys)."""
    client = redis.Redis.from_url(redis_url)
    prefix = f"test:{uuid.uuid4().hex}:"
    yield RedisConversationStore(client, key_prefix=prefix)
    for key in client.scan_iter(match=prefix + "*"):
        client.delete(key)
    client.close()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """SHIFU_TEST_POSTGRES_URL when the test script started one, else a server of our own."""
    given = os.environ.get("SHIFU_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    state_dir = Path(tempfile.mkdtemp(prefix="shifu-pg-"))  # pytest's tmp root is private to root
    state_dir.chmod(0o755)
    script = _SCRIPTS / "postgres.sh"
    started = subprocess.run(
        ["bash", str(script), "start", str(state_dir / "pg")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if started.returncode != 0:
        if "binaries not found" in started.stderr:
            pytest.skip(f"PostgreSQL is not installed: {started.stderr.strip()}")
        raise RuntimeError(f"postgres.sh failed: {started.stderr.strip()}")
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run(["bash", str(script), "stop", str(state_dir / "pg")], check=False, timeout=60)
        shutil.rmtree(state_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_factory(postgres_url: str) -> Iterator[sessionmaker[Session]]:
    """Sessions on a migrated PostgreSQL database."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    yield make_session_factory(engine)
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One migrated SQLite file for the store suites (migrating per test would dominate their time)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'conversations.db'}"
    upgrade(url)
    return url


@pytest.fixture(scope="session")
def sqlite_factory(sqlite_url: str) -> Iterator[sessionmaker[Session]]:
    """Sessions on the shared SQLite file."""
    engine = make_engine(sqlite_url)
    yield make_session_factory(engine)
    engine.dispose()


def _emptied(factory: sessionmaker[Session]) -> Iterator[SqlConversationStore]:
    yield SqlConversationStore(factory)
    with transaction(factory) as session:
        session.execute(delete(ConversationRow))


@pytest.fixture
def sql_store(sqlite_factory: sessionmaker[Session]) -> Iterator[SqlConversationStore]:
    """The SQL store on SQLite, emptied after each test."""
    yield from _emptied(sqlite_factory)


@pytest.fixture
def postgres_store(postgres_factory: sessionmaker[Session]) -> Iterator[SqlConversationStore]:
    """The SQL store on PostgreSQL, emptied after each test."""
    yield from _emptied(postgres_factory)


@pytest.fixture(params=["sql", pytest.param("postgres", marks=pytest.mark.postgres), "redis"])
def store(request: pytest.FixtureRequest) -> ConversationStore:
    """Every backend, for the one contract suite."""
    backend: ConversationStore = request.getfixturevalue(f"{request.param}_store")
    return backend


@pytest.fixture
def twin_store(request: pytest.FixtureRequest, store: ConversationStore) -> Iterator[ConversationStore]:
    """A second, independent store over the same data: what another server process would hold."""
    if isinstance(store, SqlConversationStore):
        backend = request.node.callspec.params.get("store")
        url: str = request.getfixturevalue("postgres_url" if backend == "postgres" else "sqlite_url")
        engine = make_engine(url)
        yield SqlConversationStore(make_session_factory(engine))
        engine.dispose()
        return
    assert isinstance(store, RedisConversationStore)
    client = redis.Redis.from_url(request.getfixturevalue("redis_url"))
    yield RedisConversationStore(client, key_prefix=store.key_prefix)
    client.close()
