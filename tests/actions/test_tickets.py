"""One contract for both ticket stores: opaque ids, round trip, compare-and-set on the version."""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions.model import ActionDraft
from shifu.actions.states import DraftStatus
from shifu.actions.tickets import RedisTicketStore, SqlTicketStore, TicketStore, new_draft_id
from shifu.contracts.common import ToolCode

from .support import NOW


@pytest.fixture(params=["sql", "redis"])
def store(request: pytest.FixtureRequest, session_factory: sessionmaker[Session]) -> TicketStore:
    if request.param == "sql":
        return SqlTicketStore(session_factory)
    backend: RedisTicketStore = request.getfixturevalue("redis_tickets")
    return backend


def _draft() -> ActionDraft:
    return ActionDraft(
        draft_id=new_draft_id(),
        tenant_id="demo",
        user_id="u-zhangsan",
        tool=ToolCode.CAPTURE_MEMORY_DRAFT,
        status=DraftStatus.DRAFT,
        version=1,
        payload={"content": "3栋1201要回访", "location": "3栋1201"},
        missing_fields=(),
        payload_hash="0" * 64,
        created_at=NOW,
        updated_at=NOW,
        expires_at=NOW + timedelta(minutes=30),
    )


def test_ids_are_opaque_and_unique() -> None:
    ids = {new_draft_id() for _ in range(200)}
    assert len(ids) == 200 and all(len(i) >= 32 and "demo" not in i for i in ids)


def test_round_trip_and_compare_and_set(store: TicketStore) -> None:
    draft = _draft()
    store.create(draft)
    assert store.load(draft.draft_id) == draft
    moved = draft.moved(DraftStatus.DISMISSED, now=NOW)
    assert store.replace(moved, expected_version=1) is True
    assert store.replace(draft.moved(DraftStatus.CONFIRMED, now=NOW), expected_version=1) is False
    assert store.load(draft.draft_id) == moved
    assert store.load("d_unknown") is None


def test_redis_ticket_lapses_after_its_lifetime_plus_grace(
    redis_tickets: RedisTicketStore, redis_url: str
) -> None:
    draft = _draft()
    redis_tickets.create(draft)
    client = redis.Redis.from_url(redis_url)
    keys = [k for k in client.scan_iter(match="test:*") if draft.draft_id.encode() in k]
    ttl = client.ttl(keys[0])
    client.close()
    assert 30 * 60 < ttl <= 90 * 60
