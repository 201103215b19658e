"""Fixtures: the demo org on a migrated store and an ActionService over the embedded adapters."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions.directory import SqlTeamDirectory
from shifu.actions.service import ActionService
from shifu.actions.tickets import RedisTicketStore, SqlTicketStore
from shifu.domain.writes.embedded import EmbeddedDomainWriter
from shifu.store.tables.actions import MemoryRow, PracticeAssignmentRow, ReviewDispatchRow, WorkReportRow

from .support import FakePendingReviews, seed_org


@pytest.fixture
def org(session_factory: sessionmaker[Session]) -> sessionmaker[Session]:
    """A store with the demo org seeded."""
    seed_org(session_factory)
    return session_factory


@pytest.fixture
def reviews() -> FakePendingReviews:
    """Pending reviews of 华府: 张三 2, 孙八 1, 周九 0."""
    return FakePendingReviews()


@pytest.fixture
def service(org: sessionmaker[Session], reviews: FakePendingReviews) -> ActionService:
    """The embedded default: SQL tickets and the embedded domain writer (one transaction)."""
    return ActionService(
        session_factory=org,
        tickets=SqlTicketStore(org),
        writers=EmbeddedDomainWriter(org),
        directory=SqlTeamDirectory(org),
        reviews=reviews,
    )


@pytest.fixture
def counts(org: sessionmaker[Session]):  # type: ignore[no-untyped-def]
    """A function answering how many rows each domain table holds."""

    def _counts() -> dict[str, int]:
        with org() as s:
            return {
                table.__tablename__: s.scalar(select(func.count()).select_from(table)) or 0
                for table in (MemoryRow, PracticeAssignmentRow, ReviewDispatchRow, WorkReportRow)
            }

    return _counts


_REDIS_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "redis.sh"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """SHIFU_TEST_REDIS_URL when the test script started one, else a loopback server of our own."""
    given = os.environ.get("SHIFU_TEST_REDIS_URL")
    if given:
        yield given
        return
    state_dir = tmp_path_factory.mktemp("redis-actions")
    started = subprocess.run(
        ["bash", str(_REDIS_SCRIPT), "start", str(state_dir)],
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
        subprocess.run(["bash", str(_REDIS_SCRIPT), "stop", str(state_dir)], check=False, timeout=30)


@pytest.fixture
def redis_tickets(redis_url: str) -> Iterator[RedisTicketStore]:
    """Redis tickets under a key prefix of their own."""
    client = redis.Redis.from_url(redis_url)
    prefix = f"test:{uuid.uuid4().hex}:draft:"
    yield RedisTicketStore(client, prefix=prefix)
    for key in client.scan_iter(match=prefix + "*"):
        client.delete(key)
    client.close()
