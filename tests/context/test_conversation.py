"""Conversations: scoped to their owner, versioned, expiring — over every store backend."""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

import pytest

from context.builders import NOW, frame, later, principal, tasks_result
from shifu.config import Settings
from shifu.context.conversation import ConversationService, ConversationView, conversation_store
from shifu.context.redis_store import RedisConversationStore
from shifu.context.refs import RefOutcome, check_fact_ref
from shifu.context.resolve import REFERENCE_UNRESOLVED, resolve
from shifu.context.state import MAX_TURNS, ConversationState, MediaFact, Turn
from shifu.context.store import ConversationStore, SqlConversationStore
from shifu.context.transitions import state_after_turn, with_media_fact
from shifu.contracts.entities import ExtractedEntities
from shifu.errors import VersionConflict

OWNER: dict[str, Any] = {
    "tenant_id": "demo",
    "app_id": "staff-app",
    "user_id": "u-zhangsan",
    "project_id": "proj-huafu",
}


@pytest.fixture
def service(store: ConversationStore) -> ConversationService:
    return ConversationService(store)


def open_as(
    service: ConversationService,
    conversation_id: str | None,
    *,
    expected_version: int | None = None,
    now: datetime = NOW,
    **owner: Any,
) -> ConversationView:
    return service.open(
        **{**OWNER, **owner}, conversation_id=conversation_id, expected_version=expected_version, now=now
    )


def turn(question: str, at: datetime = NOW) -> Turn:
    return Turn.of(question, answer_summary="（回答摘要）", at=at)


def listed_tasks(service: ConversationService) -> ConversationView:
    """Turn 1: 张三 lists three tasks; the view after the commit."""
    view = open_as(service, None)
    ctx = principal(conversation_id=view.conversation_id)
    state = state_after_turn(
        view.state, frame=frame("我这个月的待办"), results=[tasks_result(3)], ctx=ctx, now=NOW
    )
    service.commit(view, turn=turn("我这个月的待办"), state=state, now=NOW)
    return open_as(service, view.conversation_id, expected_version=1, now=later(minutes=1))


def test_a_new_conversation_starts_at_version_zero_and_commits_version_one(
    service: ConversationService,
) -> None:
    view = open_as(service, None)
    assert (view.is_new, view.version, view.turns, view.state) == (True, 0, (), ConversationState())
    assert view.conversation_id.startswith("conv_")
    assert service.commit(view, turn=turn("你好"), state=view.state, now=NOW) == 1
    again = open_as(service, view.conversation_id, expected_version=1, now=later(minutes=5))
    assert (again.is_new, again.version, [t.question for t in again.turns]) == (False, 1, ["你好"])


def test_continuing_without_an_expected_version_is_allowed(service: ConversationService) -> None:
    view = listed_tasks(service)
    assert open_as(service, view.conversation_id, now=later(minutes=2)).version == 1


@pytest.mark.parametrize("stale", [0, 2, 5])
def test_a_stale_expected_version_conflicts_with_the_current_one(
    service: ConversationService, stale: int
) -> None:
    view = listed_tasks(service)
    with pytest.raises(VersionConflict) as caught:
        open_as(service, view.conversation_id, expected_version=stale, now=later(minutes=2))
    assert caught.value.current == 1


def test_a_commit_from_a_stale_view_writes_nothing(
    service: ConversationService, store: ConversationStore
) -> None:
    view = listed_tasks(service)
    service.commit(view, turn=turn("第二项"), state=view.state, now=later(minutes=2))
    with pytest.raises(VersionConflict) as caught:
        service.commit(view, turn=turn("覆盖"), state=ConversationState(), now=later(minutes=3))
    assert caught.value.current == 2
    stored = store.get(view.conversation_id)
    assert stored is not None
    assert [t.question for t in stored.turns] == ["我这个月的待办", "第二项"]
    assert len(stored.state.fact_refs) == 3


def test_two_concurrent_requests_with_one_version_exactly_one_wins(
    service: ConversationService, twin_store: ConversationStore
) -> None:
    """Two "server processes" (independent stores over the same data) commit the same contextVersion."""
    view = listed_tasks(service)
    other_process = ConversationService(twin_store)
    other_view = other_process.open(
        **OWNER, conversation_id=view.conversation_id, expected_version=1, now=later(minutes=1)
    )
    barrier = threading.Barrier(2)
    outcomes: list[object] = []
    lock = threading.Lock()

    def request(server: ConversationService, seen: ConversationView, question: str) -> None:
        barrier.wait()
        try:
            result: object = server.commit(seen, turn=turn(question), state=seen.state, now=later(minutes=2))
        except VersionConflict as conflict:
            result = conflict
        with lock:
            outcomes.append(result)

    threads = [
        threading.Thread(target=request, args=(service, view, "第一项")),
        threading.Thread(target=request, args=(other_process, other_view, "第二项")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(type(o).__name__ for o in outcomes) == ["VersionConflict", "int"]
    assert 2 in outcomes
    after = open_as(service, view.conversation_id, expected_version=2, now=later(minutes=3))
    assert len(after.turns) == 2
    assert after.turns[-1].question in {"第一项", "第二项"}
    assert len(after.state.fact_refs) == 3


@pytest.mark.parametrize(
    "other",
    [
        {"user_id": "u-zhaoliu"},
        {"tenant_id": "other"},
        {"app_id": "admin-console"},
        {"project_id": "proj-jiangwan"},
        {"project_id": None},
    ],
)
def test_someone_elses_conversation_id_opens_a_new_conversation(
    service: ConversationService, other: dict[str, Any]
) -> None:
    mine = listed_tasks(service)
    theirs = open_as(service, mine.conversation_id, expected_version=1, now=later(minutes=2), **other)
    assert theirs.is_new
    assert theirs.conversation_id != mine.conversation_id
    assert theirs.state == ConversationState()
    assert theirs.turns == ()


def test_an_unknown_id_opens_a_new_conversation(service: ConversationService) -> None:
    view = open_as(service, "conv_forged", expected_version=3)
    assert view.is_new
    assert view.conversation_id != "conv_forged"


def test_after_31_idle_minutes_the_conversation_is_new_and_old_refs_resolve_to_nothing(
    service: ConversationService,
) -> None:
    first = listed_tasks(service)
    assert first.state.fact_refs
    stale = open_as(service, first.conversation_id, expected_version=1, now=later(minutes=32))
    assert stale.is_new
    assert stale.conversation_id != first.conversation_id
    context = resolve("第二项", stale.state, entities=ExtractedEntities()).context
    assert context.references == []
    assert context.gaps == [REFERENCE_UNRESOLVED]
    old_ref = first.state.fact_refs[1]
    ctx = principal(conversation_id=stale.conversation_id, now=later(minutes=32))
    assert check_fact_ref(old_ref, ctx, later(minutes=32)).outcome is RefOutcome.FORBIDDEN


def test_activity_within_30_minutes_keeps_the_conversation(service: ConversationService) -> None:
    view = listed_tasks(service)  # last active at NOW
    service.commit(view, turn=turn("第一项", later(minutes=29)), state=view.state, now=later(minutes=29))
    again = open_as(service, view.conversation_id, expected_version=2, now=later(minutes=58))
    assert not again.is_new


def test_only_the_last_six_turns_are_kept(service: ConversationService) -> None:
    view = open_as(service, None)
    for i in range(MAX_TURNS + 3):
        at = later(minutes=i)
        service.commit(view, turn=turn(f"问题{i}", at), state=view.state, now=at)
        view = open_as(service, view.conversation_id, expected_version=i + 1, now=at)
    assert [t.question for t in view.turns] == [f"问题{i}" for i in range(3, MAX_TURNS + 3)]
    assert view.version == MAX_TURNS + 3


def test_state_version_moves_only_when_the_state_changes(service: ConversationService) -> None:
    view = listed_tasks(service)
    assert view.state_version == 1
    service.commit(view, turn=turn("谢谢"), state=view.state, now=later(minutes=2))
    view = open_as(service, view.conversation_id, now=later(minutes=2))
    assert view.state_version == 1
    changed = view.state.model_copy(update={"fact_refs": ()})
    service.commit(view, turn=turn("不对，是上个月"), state=changed, now=later(minutes=3))
    assert open_as(service, view.conversation_id, now=later(minutes=3)).state_version == 2


def test_revoked_project_access_forbids_reusing_a_stored_reference(service: ConversationService) -> None:
    view = listed_tasks(service)
    second = view.state.fact_refs[1]
    still_member = principal(conversation_id=view.conversation_id)
    assert check_fact_ref(second, still_member, later(minutes=1)).outcome is RefOutcome.REUSABLE
    revoked = principal(conversation_id=view.conversation_id, project_ids=())
    check = check_fact_ref(second, revoked, later(minutes=1))
    assert check.outcome is RefOutcome.FORBIDDEN
    assert not check.allowed


def test_media_labels_live_in_the_conversation_until_it_expires(service: ConversationService) -> None:
    view = open_as(service, None)
    label = MediaFact(
        media_fact_id="m1", label="图片识别：电梯门无法打开", attachment_sha256="b" * 64, created_at=NOW
    )
    service.commit(view, turn=turn("这是什么问题"), state=with_media_fact(view.state, label), now=NOW)
    follow = open_as(service, view.conversation_id, now=later(minutes=10))
    assert follow.state.media_facts == (label,)
    expired = open_as(service, view.conversation_id, now=later(minutes=31))
    assert expired.state.media_facts == ()


def test_settings_choose_the_backend(settings: Settings, session_factory: Any, redis_url: str) -> None:
    assert isinstance(conversation_store(settings, session_factory), SqlConversationStore)
    with_redis = settings.with_changes(redis_url=redis_url)
    assert isinstance(conversation_store(with_redis, session_factory), RedisConversationStore)
