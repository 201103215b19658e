"""The structured state holds references only and refuses anything else."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from context.builders import NOW, citation, fact_ref, later, state_with
from shifu.context.state import (
    MAX_MEDIA_FACTS,
    MAX_SUMMARY_CHARS,
    ConversationState,
    MediaFact,
    Turn,
    dump_state,
    parse_state,
)
from shifu.context.transitions import with_media_fact
from shifu.errors import BadRequest

HASH = "a" * 64


def test_state_round_trips_through_json() -> None:
    state = state_with(facts=2, citations=(citation("c1", "baoxiao"),))
    assert parse_state(dump_state(state)) == state


@pytest.mark.parametrize("smuggled", ["value", "text", "title", "body"])
def test_fact_content_sent_in_a_reference_is_refused(smuggled: str) -> None:
    raw = json.loads(dump_state(state_with(facts=1)))
    raw["factRefs"][0][smuggled] = {"title": "伪造的待办"}
    with pytest.raises(BadRequest) as caught:
        parse_state(json.dumps(raw))
    assert caught.value.code == "STATE_INVALID"


def test_unknown_top_level_field_is_refused() -> None:
    with pytest.raises(BadRequest):
        parse_state(json.dumps({"format": 1, "facts": [{"title": "x"}]}))


def test_a_turn_can_never_be_marked_factual() -> None:
    with pytest.raises(ValidationError):
        Turn(question="我有几项待办", answer_summary="你有3项待办", factual=True, at=NOW)


@pytest.mark.parametrize(
    ("length", "kept"), [(0, 0), (MAX_SUMMARY_CHARS, MAX_SUMMARY_CHARS), (500, MAX_SUMMARY_CHARS)]
)
def test_turn_summary_is_cut_to_a_hint(length: int, kept: int) -> None:
    turn = Turn.of("问题", answer_summary="字" * length, at=NOW)
    assert turn.answer_summary is not None
    assert len(turn.answer_summary) == kept
    assert turn.factual is False


def test_media_facts_keep_the_newest_and_replace_same_id() -> None:
    state = ConversationState()
    for i in range(MAX_MEDIA_FACTS + 3):
        fact = MediaFact(
            media_fact_id=f"m{i}", label=f"图片识别：第{i}张", attachment_sha256=HASH, created_at=NOW
        )
        state = with_media_fact(state, fact)
    assert len(state.media_facts) == MAX_MEDIA_FACTS
    assert state.media_facts[-1].media_fact_id == f"m{MAX_MEDIA_FACTS + 2}"
    relabel = MediaFact(
        media_fact_id="m12",
        label="图片识别：电梯门无法打开",
        attachment_sha256=HASH,
        created_at=later(minutes=1),
    )
    state = with_media_fact(state, relabel)
    assert [m.label for m in state.media_facts].count("图片识别：电梯门无法打开") == 1
    assert state.media_facts[-1] == relabel
    assert all(m.source == "MEDIA" for m in state.media_facts)


@pytest.mark.parametrize("bad_hash", ["", "A" * 64, "a" * 63, "照片.jpg"])
def test_media_fact_keeps_only_a_hash_of_the_attachment(bad_hash: str) -> None:
    with pytest.raises(ValidationError):
        MediaFact(media_fact_id="m1", label="图片识别：漏水", attachment_sha256=bad_hash, created_at=NOW)


def test_fact_ref_rebuilds_its_registered_call() -> None:
    record = fact_ref(2)
    call = record.tool_call()
    assert call.tool == record.tool
    assert call.arguments == {"dateRange": "THIS_MONTH"}
    assert record.expires_at == later(seconds=300)
