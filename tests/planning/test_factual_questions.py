"""General factual questions are planned as one knowledge search, never as a note or a live query.

The product answers only from governed evidence: an encyclopedic or news-like question ("2022年某地地震震级",
"某比赛的冠军是谁") must become KNOWLEDGE_QA with a KNOWLEDGE_SEARCH call, so that it ends NO_EVIDENCE when
the knowledge base holds nothing about it. `data/factual.jsonl` holds hand-written questions kept out of the
training file; none may turn into a draft (a note would store the question as if it were a fact).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from shifu.contracts.common import EvidenceNeed, Intent, ToolCode
from shifu.contracts.context import ResolvedContext
from shifu.contracts.plan import SemanticQueryPlan
from shifu.planning.classifier import DATA_FILE
from shifu.planning.deterministic import DeterministicPlanner
from shifu.planning.tool_calls import DRAFT_TOOLS

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)
FACTUAL = Path(__file__).parent / "data" / "factual.jsonl"
TARGET = 0.90


def _texts(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["text"] for line in lines if line.strip()]


def _norm(text: str) -> str:
    return re.sub(r"[\s\W_]+", "", text.lower())


@pytest.fixture(scope="module")
def plans(deterministic: DeterministicPlanner) -> dict[str, SemanticQueryPlan]:
    return {
        text: deterministic.build_plan(text, ResolvedContext(), now=NOW, tz=TZ) for text in _texts(FACTUAL)
    }


def test_the_factual_set_is_held_out_from_training() -> None:
    texts = [_norm(t) for t in _texts(FACTUAL)]
    train = {_norm(t) for t in _texts(DATA_FILE)}
    assert len(texts) == 40 and len(set(texts)) == len(texts)
    assert [t for t in texts if t in train] == []


def test_factual_questions_are_planned_as_one_knowledge_search(plans: dict[str, SemanticQueryPlan]) -> None:
    one_search = [ToolCode.KNOWLEDGE_SEARCH]
    searched = {
        text
        for text, plan in plans.items()
        if plan.intent is Intent.KNOWLEDGE_QA and [c.tool for c in plan.tool_calls] == one_search
    }
    misses = [f"{t}: {p.intent.value}" for t, p in plans.items() if t not in searched]
    assert len(searched) / len(plans) >= TARGET, misses
    for text in searched:
        plan = plans[text]
        assert plan.tool_calls[0].arguments["query"], text
        assert EvidenceNeed.LIVE_STATE not in plan.evidence_needs, text
        assert plan.evidence_needs, text


def test_no_factual_question_becomes_a_note_or_a_draft(plans: dict[str, SemanticQueryPlan]) -> None:
    drafted = [
        f"{text}: {plan.intent.value}"
        for text, plan in plans.items()
        if plan.intent in (Intent.CAPTURE_FACT, Intent.DRAFT_ACTION)
        or plan.requires_confirmation
        or any(call.tool in DRAFT_TOOLS for call in plan.tool_calls)
    ]
    assert drafted == []
