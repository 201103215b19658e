"""The golden-case format: an actor, a list of turns in one conversation, and expectations.

Each expectation list holds acceptable alternatives; `tools` holds acceptable exact sets of
tool codes called in the last turn; expectations apply to the last turn.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from shifu.contracts.common import DecisionStatus, Intent, ResponseStatus, ToolCode


class Expectation(BaseModel):
    """What the last turn must show; an omitted key is not checked."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    intent: list[Intent] | None = None
    """Acceptable intents."""
    tools: list[list[ToolCode]] | None = None
    """Acceptable exact sets of tools called (status OK/NO_RESULT…; refused calls do not count)."""
    forbid_tools: list[ToolCode] = Field(default_factory=list)
    """Tools that must never be called in any turn."""
    status: list[ResponseStatus] | None = None
    """Acceptable response statuses."""
    decision: list[DecisionStatus] | None = None
    """Acceptable evidence decisions."""


class GoldenCase(BaseModel):
    """One case of a golden set."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    id: str
    """Unique case id."""
    actor: str
    """Demo actor key."""
    turns: list[str] = Field(min_length=1)
    """Messages sent in one conversation."""
    expect: Expectation
    """Expectations on the last turn."""
    tags: list[str] = Field(default_factory=list)
    """Free labels (multi_turn, adversarial …)."""


def load_cases(path: Path) -> list[GoldenCase]:
    """Read a JSONL case file; a bad line is reported with its number."""
    cases: list[GoldenCase] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            cases.append(GoldenCase.model_validate(json.loads(line)))
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from exc
    return cases
