"""kill -9 while confirmations are in flight, restart, retry every one with its key:
0 lost, 0 duplicated, 0 orphan tickets (issue #8, item 5). SQLite (WAL) always; PostgreSQL
when SHIFU_TEST_POSTGRES_URL is set (scripts/test.sh starts one)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from domain_writes.fake_domain import serve_fake_domain
from shifu.actions.directory import SqlTeamDirectory
from shifu.actions.service import ActionService
from shifu.actions.tickets import SqlTicketStore
from shifu.contracts.common import ToolCode
from shifu.contracts.plan import ToolCall
from shifu.domain.writes.embedded import EmbeddedDomainWriter
from shifu.store.engine import make_engine, make_session_factory
from shifu.store.migrate import upgrade
from shifu.store.tables.actions import ActionDraftRow, ActionIdempotencyRow, MemoryRow

from .durability_worker import context

WORKER = Path(__file__).with_name("durability_worker.py")
TOTAL = 100
KILL_AFTER = 30
_PG = os.environ.get("SHIFU_TEST_POSTGRES_URL")


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(
                    not _PG, reason="SHIFU_TEST_POSTGRES_URL is not set (scripts/postgres.sh starts one)"
                ),
            ],
        ),
    ]
)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated database: a SQLite WAL file of this test, or the CI PostgreSQL server."""
    url = f"sqlite:///{tmp_path / 'durable.db'}" if request.param == "sqlite" else str(_PG)
    upgrade(url)
    yield url


def _run_until_killed(plan_path: Path, env: dict[str, str]) -> list[str]:
    errors = plan_path.with_suffix(".stderr")
    lines: list[str] = []
    with (
        errors.open("w") as stderr,
        subprocess.Popen(
            [sys.executable, str(WORKER), str(plan_path)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env=env,
        ) as process,
    ):
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.strip())
            if len(lines) >= KILL_AFTER:
                process.send_signal(signal.SIGKILL)
                break
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL, errors.read_text()[-2000:]
    return lines


def _run_to_end(plan_path: Path, env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(WORKER), str(plan_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split("\n")


def test_kill_9_mid_way_then_retry_loses_and_duplicates_nothing(database_url: str, tmp_path: Path) -> None:
    """Half the drafts go through the embedded writer (one transaction), half over HTTP (two phases)."""
    tenant = f"dur-{uuid.uuid4().hex[:10]}"
    engine = make_engine(database_url)
    factory: sessionmaker[Session] = make_session_factory(engine)
    service = ActionService(
        session_factory=factory,
        tickets=SqlTicketStore(factory),
        writers=EmbeddedDomainWriter(factory),
        directory=SqlTeamDirectory(factory),
        reviews=_Nothing(),
    )
    ctx = context(tenant)
    now = datetime.now(UTC)
    pairs = []
    for index in range(TOTAL):
        call = ToolCall(
            tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": f"记一下，{index}栋1201要回访"}
        )
        card = service.build_draft(ctx, call, now=now).card
        assert card is not None
        pairs.append([card.draft_id, f"key-{tenant}-{index:04d}", "embedded" if index % 2 else "http"])
    with serve_fake_domain() as domain:
        plan = {
            "url": database_url,
            "tenant": tenant,
            "domain_url": domain.base_url,
            "domain_key": domain.api_key,
            "pairs": pairs,
        }
        plan_path = tmp_path / "plan.json"
        plan_path.write_text(json.dumps(plan), encoding="utf-8")
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join([str(WORKER.parents[1]), os.environ.get("PYTHONPATH", "")])
        )
        before_kill = _run_until_killed(plan_path, env)
        after_restart = _run_to_end(plan_path, env)
        remote_records = len(domain.records)

    first = dict(line.split()[1:3] for line in before_kill if line.startswith("done "))
    second = dict(line.split()[1:3] for line in after_restart if line.startswith("done "))
    assert len(first) >= KILL_AFTER and len(second) == TOTAL
    assert all(second[key] == record for key, record in first.items()), "a retry answered a different record"
    assert len(set(second.values())) == TOTAL, "two keys answered the same record"
    _assert_store(factory, tenant, remote_records, set(second.values()))
    engine.dispose()


def _assert_store(
    factory: sessionmaker[Session], tenant: str, remote_records: int, record_ids: set[str]
) -> None:
    with factory() as s:
        memories = s.scalar(select(func.count()).select_from(MemoryRow).where(MemoryRow.tenant_id == tenant))
        statuses = dict(
            s.execute(
                select(ActionDraftRow.status, func.count())
                .where(ActionDraftRow.tenant_id == tenant)
                .group_by(ActionDraftRow.status)
            ).all()
        )
        records = dict(
            s.execute(
                select(ActionIdempotencyRow.state, func.count())
                .where(ActionIdempotencyRow.tenant_id == tenant)
                .group_by(ActionIdempotencyRow.state)
            ).all()
        )
        receipts = {
            row.receipt["recordId"]
            for row in s.scalars(select(ActionDraftRow).where(ActionDraftRow.tenant_id == tenant))
        }  # type: ignore[index]
    assert statuses == {"EXECUTED": TOTAL}, "orphan or unfinished tickets"
    assert records == {"COMPLETED": TOTAL}, "idempotency records left in flight"
    assert receipts == record_ids
    assert (memories, remote_records) == (TOTAL // 2, TOTAL // 2), "lost or duplicated domain records"


class _Nothing:
    def pending_reviews(self, tenant_id: str, project_id: str, *, start: object, end: object) -> list[object]:
        return []
