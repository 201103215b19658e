"""The embedded write adapter: one row per key, PRIVATE active, COMPANY pending review."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from shifu.domain.writes.embedded import EmbeddedDomainWriter
from shifu.store.engine import transaction
from shifu.store.tables.actions import MemoryRow, WorkReportRow


@pytest.mark.parametrize("visibility,status", [("PRIVATE", "ACTIVE"), ("COMPANY", "PENDING")])
def test_memory_status_follows_visibility(
    session_factory: sessionmaker[Session], visibility: str, status: str
) -> None:
    writer = EmbeddedDomainWriter(session_factory)
    receipt = writer.save_memory(
        tenant_id="demo",
        owner_id="u-zhangsan",
        project_id=None,
        content="记得回访",
        location=None,
        visibility=visibility,
        idempotency_key="ik-1",
        session=None,
    )
    assert receipt.status == status and receipt.record_id.startswith("mem-")


def test_same_key_answers_the_first_record(session_factory: sessionmaker[Session]) -> None:
    writer = EmbeddedDomainWriter(session_factory)
    receipts = [
        writer.submit_work_report(
            tenant_id="demo",
            author_id="u-zhangsan",
            project_id=None,
            title="t",
            content="c",
            idempotency_key="ik-same",
            session=None,
        )
        for _ in range(3)
    ]
    assert len(set(receipts)) == 1
    with session_factory() as s:
        assert s.scalar(select(func.count()).select_from(WorkReportRow)) == 1


def test_joins_the_callers_transaction(session_factory: sessionmaker[Session]) -> None:
    writer = EmbeddedDomainWriter(session_factory)
    with pytest.raises(RuntimeError), transaction(session_factory) as s:
        writer.save_memory(
            tenant_id="demo",
            owner_id="u",
            project_id=None,
            content="x",
            location=None,
            visibility="PRIVATE",
            idempotency_key="ik-rolled-back",
            session=s,
        )
        raise RuntimeError("caller fails after the write")
    with session_factory() as s:
        assert s.scalar(select(func.count()).select_from(MemoryRow)) == 0
