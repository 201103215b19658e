"""Accuracy of the deterministic planner on a development set it never trains on.

`data/dev.jsonl` holds hand-written utterances across every intent (never in the training
file, never copied from the golden set), each with the expected intent and exact tool set;
rows with `previous_intent` are elliptical follow-ups after that intent (the context layer
reports them as a new topic), rows with `attachments` come with an image.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from shifu.contracts.common import Intent
from shifu.contracts.context import ResolvedContext
from shifu.planning.classifier import DATA_FILE
from shifu.planning.deterministic import DeterministicPlanner

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 2, 10, 0, tzinfo=TZ)
DEV = Path(__file__).parent / "data" / "dev.jsonl"
GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "public.jsonl"
TARGET = 0.95


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _norm(text: str) -> str:
    return re.sub(r"[\s\W_]+", "", text.lower())


@pytest.fixture(scope="module")
def dev() -> list[dict[str, Any]]:
    return _rows(DEV)


def test_the_dev_set_is_disjoint_from_training_and_golden(dev: list[dict[str, Any]]) -> None:
    train = {_norm(r["text"]) for r in _rows(DATA_FILE)}
    golden = {_norm(t) for case in _rows(GOLDEN) for t in case["turns"]}
    texts = [_norm(r["text"]) for r in dev]
    assert len(dev) >= 75 and len(set(texts)) == len(texts)
    assert [t for t in texts if t in train or t in golden] == []
    assert {r["intent"] for r in dev} == {i.value for i in Intent}


def test_dev_intent_and_tool_set_accuracy(
    deterministic: DeterministicPlanner, dev: list[dict[str, Any]]
) -> None:
    intent_ok = tools_ok = 0
    misses: list[str] = []
    for row in dev:
        previous = row.get("previous_intent")
        resolved = ResolvedContext(previous_intent=Intent(previous)) if previous else ResolvedContext()
        plan = deterministic.build_plan(
            row["text"], resolved, now=NOW, tz=TZ, has_attachments=row.get("attachments", False)
        )
        tools = sorted(call.tool.value for call in plan.tool_calls)
        intent_ok += plan.intent.value == row["intent"]
        tools_ok += tools == sorted(row["tools"])
        if plan.intent.value != row["intent"] or tools != sorted(row["tools"]):
            misses.append(f"{row['text']}: {plan.intent.value} {tools}")
    assert intent_ok / len(dev) >= TARGET, misses
    assert tools_ok / len(dev) >= TARGET, misses
