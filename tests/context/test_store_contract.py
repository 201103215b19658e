"""One contract suite for every ConversationStore backend (SQL table and Redis)."""

from __future__ import annotations

import threading
import uuid
from dataclasses import replace

import pytest
import redis
from sqlalchemy.orm import Session, sessionmaker

from context.builders import NOW, later, state_with
from shifu.context.redis_store import RedisConversationStore
from shifu.context.state import ConversationState, Turn
from shifu.context.store import ConversationRecord, ConversationStore, SqlConversationStore
from shifu.errors import VersionConflict


def record(
    conversation_id: str = "conv_a", *, version: int = 1, question: str = "我今天的待办"
) -> ConversationRecord:
    return ConversationRecord(
        conversation_id=conversation_id,
        tenant_id="demo",
        app_id="staff-app",
        user_id="u-zhangsan",
        project_id="proj-huafu",
        version=version,
        turns=(Turn.of(question, answer_summary="列出了待办", at=NOW),),
        state=state_with(facts=2),
        state_version=1,
        created_at=NOW,
        last_active_at=NOW,
    )


def test_insert_then_get_round_trips(store: ConversationStore) -> None:
    stored = record()
    store.insert(stored)
    assert store.get("conv_a") == stored
    assert store.get("conv_missing") is None


def test_insert_of_an_existing_id_conflicts(store: ConversationStore) -> None:
    store.insert(record())
    with pytest.raises(VersionConflict) as caught:
        store.insert(record(question="别的"))
    assert caught.value.current == 1
    assert store.get("conv_a") == record()


def test_compare_and_set_with_the_current_version_writes(store: ConversationStore) -> None:
    store.insert(record())
    newer = replace(
        record(version=2, question="第二项"), state=ConversationState(), last_active_at=later(minutes=1)
    )
    store.compare_and_set(newer, expected_version=1)
    assert store.get("conv_a") == newer


@pytest.mark.parametrize("stale", [0, 2, 7])
def test_compare_and_set_with_a_stale_version_writes_nothing(store: ConversationStore, stale: int) -> None:
    store.insert(record())
    with pytest.raises(VersionConflict) as caught:
        store.compare_and_set(record(version=stale + 1, question="覆盖"), expected_version=stale)
    assert caught.value.current == 1
    assert store.get("conv_a") == record()


def test_concurrent_commits_of_one_version_let_exactly_one_win(store: ConversationStore) -> None:
    store.insert(record())
    contenders = [record(version=2, question=f"并发{i}") for i in range(4)]
    barrier = threading.Barrier(len(contenders))
    won: list[ConversationRecord] = []
    lost: list[VersionConflict] = []
    lock = threading.Lock()

    def commit(candidate: ConversationRecord) -> None:
        barrier.wait()
        try:
            store.compare_and_set(candidate, expected_version=1)
        except VersionConflict as conflict:
            with lock:
                lost.append(conflict)
        else:
            with lock:
                won.append(candidate)

    threads = [threading.Thread(target=commit, args=(c,)) for c in contenders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(won) == 1
    assert len(lost) == len(contenders) - 1
    assert all(conflict.current == 2 for conflict in lost)
    assert store.get("conv_a") == won[0]


def test_redis_conversations_expire_after_the_inactivity_limit(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    prefix = f"test:{uuid.uuid4().hex}:"
    backend = RedisConversationStore(client, key_prefix=prefix)
    backend.insert(record())
    assert 0 < int(client.ttl(prefix + "conv_a")) <= 30 * 60
    assert backend.delete_inactive(later(hours=1)) == 0
    client.delete(prefix + "conv_a")
    assert backend.get("conv_a") is None
    client.close()


def test_sql_store_deletes_inactive_conversations(session_factory: sessionmaker[Session]) -> None:
    sql = SqlConversationStore(session_factory)
    sql.insert(record("conv_old"))
    sql.insert(replace(record("conv_new"), last_active_at=later(minutes=40)))
    assert sql.delete_inactive(later(minutes=31)) == 1
    assert sql.get("conv_old") is None
    assert sql.get("conv_new") is not None
