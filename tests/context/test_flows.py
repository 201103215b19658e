"""Multi-turn flows of the seed-000 contract set, at component level with the real entity extractor.

(第二项, 月份纠正, 过期 factRef, 跨项目; the integrator replays them over HTTP.)
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from context.builders import NOW, later, principal, tasks_result
from shifu.context.conversation import ConversationService, ConversationView
from shifu.context.refs import FactRefReason, RefOutcome, check_fact_ref, find_fact_ref
from shifu.context.resolve import REFERENCE_UNRESOLVED, Resolution, resolve, turn_frame
from shifu.context.state import ConversationState, Turn
from shifu.context.store import ConversationStore
from shifu.context.transitions import state_after_turn
from shifu.contracts.common import ContextRelation, Intent
from shifu.contracts.evidence import ToolResult
from shifu.nlp.entities import extract_entities

TZ = ZoneInfo("Asia/Shanghai")


class Client:
    """Plays one user's requests against the service the way the runtime will."""

    def __init__(self, service: ConversationService, project_id: str = "proj-huafu") -> None:
        self.service = service
        self.project_id = project_id
        self.conversation_id: str | None = None
        self.version: int | None = None

    def ask(
        self, question: str, now: datetime, results: list[ToolResult] | None = None
    ) -> tuple[Resolution, ConversationView]:
        view = self.service.open(
            tenant_id="demo",
            app_id="staff-app",
            user_id="u-zhangsan",
            project_id=self.project_id,
            conversation_id=self.conversation_id,
            expected_version=self.version,
            now=now,
        )
        resolution = resolve(question, view.state, entities=extract_entities(question, now=now, tz=TZ))
        effective = extract_entities(resolution.effective_question, now=now, tz=TZ)
        intent = Intent.SOCIAL if question == "谢谢" else Intent.LIVE_MY_WORK
        frame = turn_frame(resolution, intent=intent, entities=effective)
        ctx = principal(conversation_id=view.conversation_id, selected_project_id=self.project_id, now=now)
        state = state_after_turn(resolution.state, frame=frame, results=results or [], ctx=ctx, now=now)
        turn = Turn.of(question, answer_summary="你有3项待办", at=now, relation=resolution.context.relation)
        self.version = self.service.commit(view, turn=turn, state=state, now=now)
        self.conversation_id = view.conversation_id
        return resolution, view


@pytest.fixture
def client(store: ConversationStore) -> Client:
    return Client(ConversationService(store))


def test_second_item_then_month_correction(client: Client) -> None:
    first, _ = client.ask("我这个月的待办", NOW, [tasks_result(3)])
    assert first.context.relation is ContextRelation.NEW_TOPIC

    second, view = client.ask("第二项", later(minutes=1))
    assert [(r.kind, r.fact_ref) for r in second.context.references] == [("FACT_ITEM", "fr-2")]
    record = find_fact_ref(view.state, "fr-2")
    assert record is not None
    ctx = principal(conversation_id=view.conversation_id, now=later(minutes=1))
    assert check_fact_ref(record, ctx, later(minutes=1)).outcome is RefOutcome.REUSABLE

    corrected, _ = client.ask("不对，是上个月", later(minutes=2))
    assert corrected.context.relation is ContextRelation.CORRECTION
    assert corrected.effective_question == "我上个月的待办"
    assert corrected.state.fact_refs == ()

    dangling, _ = client.ask("第二项", later(minutes=3))
    assert dangling.context.gaps == [REFERENCE_UNRESOLVED]


def test_expired_fact_ref_is_requeried(client: Client) -> None:
    client.ask("我今天的待办", NOW, [tasks_result(2)])
    resolution, view = client.ask("第2个", later(minutes=10))
    ref_id = resolution.context.references[0].fact_ref
    assert ref_id is not None
    record = find_fact_ref(view.state, ref_id)
    assert record is not None
    ctx = principal(conversation_id=view.conversation_id, now=later(minutes=10))
    check = check_fact_ref(record, ctx, later(minutes=10))
    assert (check.outcome, check.reason) == (RefOutcome.EXPIRED_REQUERY, FactRefReason.FACT_TTL_EXPIRED)
    assert record.tool_call().arguments == {"dateRange": "THIS_MONTH"}


def test_switching_project_starts_over_and_old_refs_are_forbidden(client: Client) -> None:
    _, first_view = client.ask("我这个月的待办", NOW, [tasks_result(3)])
    _, huafu_view = client.ask("谢谢", later(minutes=1))
    old_ref = huafu_view.state.fact_refs[1]
    client.project_id = "proj-jiangwan"
    resolution, jiangwan_view = client.ask("第二项", later(minutes=2))
    assert jiangwan_view.is_new
    assert jiangwan_view.conversation_id != first_view.conversation_id
    assert resolution.context.gaps == [REFERENCE_UNRESOLVED]
    replay = principal(
        conversation_id=jiangwan_view.conversation_id,
        project_ids=("proj-huafu", "proj-jiangwan"),
        selected_project_id="proj-jiangwan",
    )
    check = check_fact_ref(old_ref, replay, later(minutes=2))
    assert check.outcome is RefOutcome.FORBIDDEN


def test_follow_up_with_real_entities(client: Client) -> None:
    client.ask("工作满10年年假有几天", NOW)
    resolution, _ = client.ask("满20年呢", later(minutes=1))
    assert resolution.context.relation is ContextRelation.FOLLOW_UP
    assert resolution.effective_question == "工作满20年年假有几天"
    again, _ = client.ask("那如果只签一年呢", later(minutes=2))
    assert again.context.relation is ContextRelation.FOLLOW_UP


def test_another_item_is_asked_what_the_last_item_was_asked() -> None:
    ctx = principal(conversation_id="conv-1", now=NOW)
    listed = state_after_turn(ConversationState(), frame=None, results=[tasks_result(3)], ctx=ctx, now=NOW)
    second = resolve("第二项怎么做", listed, entities=extract_entities("第二项怎么做", now=NOW, tz=TZ))
    assert [r.fact_ref for r in second.context.references] == ["fr-2"]
    kept = state_after_turn(
        second.state,
        frame=None,
        results=[],
        ctx=ctx,
        now=NOW,
        keeps_listing=True,
        item_question="第二项怎么做",
    )
    assert [r.ref_id for r in kept.fact_refs] == ["fr-1", "fr-2", "fr-3"], "a re-read keeps the listing"
    third = resolve("第三项呢", kept, entities=extract_entities("第三项呢", now=NOW, tz=TZ))
    assert third.effective_question == "第三项怎么做"
    assert [r.fact_ref for r in third.context.references] == ["fr-3"]
    relisted = state_after_turn(kept, frame=None, results=[tasks_result(2)], ctx=ctx, now=NOW)
    assert relisted.item_question is None, "a new listing forgets what was asked of the old one"
    fourth = resolve("第一项呢", relisted, entities=extract_entities("第一项呢", now=NOW, tz=TZ))
    assert fourth.effective_question == "第一项呢"
