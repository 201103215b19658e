"""Server-side validation of a model's plan: untrusted input until every rule passes.

Order matters and each failure has one reason code (raised as `PlanRejected`):

1. AUTHORIZATION_FIELD — any key, at any depth, that names a scope or identity field
   (tenantId, user_id, ｔｅｎａｎｔＩｄ, project-id, rоle with a Cyrillic о …) voids the
   whole plan (invariant 1). Keys are compared after NFKC, confusable folding, casefold
   and removing separators.
2. UNKNOWN_TOOL — a tool code the server does not register.
3. SCHEMA_VIOLATION — unknown or missing plan fields, arguments that do not match the
   tool's registered schema (a date range on KNOWLEDGE_SEARCH), or more than one tool
   outside the predefined combinations.
4. FIDELITY_VIOLATION — the rewritten question lost or changed a number, date,
   comparator, negation or version (see `fidelity.py`).
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import Field, JsonValue, ValidationError

from shifu.contracts.common import Contract, EvidenceNeed, Intent, ToolCode
from shifu.contracts.plan import ResponseStyle, ToolCall
from shifu.contracts.tool_args import TOOL_ARGUMENT_MODELS
from shifu.errors import PlanRejected
from shifu.planning.fidelity import fidelity_violations
from shifu.planning.outcome import ReasonCode
from shifu.planning.tool_calls import PREDEFINED_COMBINATIONS


class ModelToolCall(Contract):
    """A tool call as the model writes it (the code is checked against the registry separately)."""

    tool: str
    """Tool code."""
    arguments: dict[str, JsonValue] = Field(default_factory=dict)
    """Business arguments only."""


class ModelPlan(Contract):
    """The only shape a model plan may have (seed 001 §6.2); no scope fields exist in it."""

    intent: Intent
    """Execution strategy."""
    normalized_question: str = Field(min_length=1, max_length=2000)
    """The question rewritten for retrieval, keeping every number, date and negation."""
    domain: str | None = Field(default=None, max_length=40)
    """Business domain code."""
    evidence_needs: list[EvidenceNeed] = Field(default_factory=list)
    """Evidence slots the answer needs."""
    tool_calls: list[ModelToolCall] = Field(default_factory=list, max_length=2)
    """Tool calls, in order."""
    missing_fields: list[str] = Field(default_factory=list)
    """What the user must still supply."""
    response_style: ResponseStyle = ResponseStyle.FACT
    """Answer shape."""


_FORBIDDEN_EXACT = frozenset(
    {
        "role",
        "roles",
        "user",
        "users",
        "uid",
        "tenant",
        "project",
        "projects",
        "space",
        "spaces",
        "app",
        "scope",
    }
)
_FORBIDDEN_PARTS = (
    "tenant",
    "userid",
    "username",
    "projectid",
    "projectcode",
    "spaceid",
    "appid",
    "clientid",
    "extparty",
    "externalid",
    "employeeid",
    "staffid",
    "recipientid",
    "assigneeid",
    "orgid",
    "organizationid",
    "deptid",
    "departmentid",
    "userrole",
    "phone",
    "mobile",
)
_CONFUSABLES = str.maketrans(
    {
        "а": "a",
        "е": "e",
        "о": "o",
        "р": "p",
        "с": "c",
        "у": "y",
        "х": "x",
        "і": "i",
        "ј": "j",
        "ԁ": "d",
        "ɑ": "a",
        "ο": "o",
        "ι": "i",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "ν": "v",
        "κ": "k",
        "ӏ": "l",
        "ı": "i",
    }
)


def canonical_key(key: str) -> str:
    """A key folded for comparison: NFKC, confusables, casefold, letters and digits only."""
    folded = unicodedata.normalize("NFKC", key).translate(_CONFUSABLES).casefold()
    folded = folded.translate(_CONFUSABLES)
    return "".join(ch for ch in folded if ch.isalnum())


def is_authorization_key(key: str) -> bool:
    """Whether a key names a scope or identity field in any spelling."""
    canonical = canonical_key(key)
    return canonical in _FORBIDDEN_EXACT or any(part in canonical for part in _FORBIDDEN_PARTS)


def find_authorization_keys(value: Any) -> int:
    """How many authorization-named keys appear anywhere in a JSON value."""
    if isinstance(value, dict):
        return sum(
            int(isinstance(k, str) and is_authorization_key(k)) + find_authorization_keys(v)
            for k, v in value.items()
        )
    if isinstance(value, list):
        return sum(find_authorization_keys(item) for item in value)
    return 0


def _reject(code: str, message: str) -> PlanRejected:
    return PlanRejected(message, code=code)


def validate_model_plan(raw: dict[str, Any], question: str, *, now: datetime, tz: ZoneInfo) -> ModelPlan:
    """Apply rules 1–4 to a raw model plan; return it typed, or raise `PlanRejected(code)`."""
    if find_authorization_keys(raw):
        raise _reject(ReasonCode.AUTHORIZATION_FIELD, "计划包含授权字段。")
    calls = raw.get("toolCalls", raw.get("tool_calls", []))
    if isinstance(calls, list):
        known = {t.value for t in ToolCode}
        for call in calls:
            if isinstance(call, dict) and isinstance(call.get("tool"), str) and call["tool"] not in known:
                raise _reject(ReasonCode.UNKNOWN_TOOL, "计划包含未注册的工具。")
    try:
        plan = ModelPlan.model_validate(raw)
    except ValidationError as exc:
        raise _reject(ReasonCode.SCHEMA_VIOLATION, "计划不符合契约。") from exc
    tools = [ToolCode(call.tool) for call in plan.tool_calls]
    if len(tools) != len(set(tools)) or (len(tools) > 1 and frozenset(tools) not in PREDEFINED_COMBINATIONS):
        raise _reject(ReasonCode.SCHEMA_VIOLATION, "计划的工具组合不被允许。")
    for call in plan.tool_calls:
        try:
            TOOL_ARGUMENT_MODELS[ToolCode(call.tool)].model_validate(call.arguments)
        except ValidationError as exc:
            raise _reject(ReasonCode.SCHEMA_VIOLATION, "工具参数不符合注册的 schema。") from exc
    if fidelity_violations(question, plan.normalized_question, now=now, tz=tz):
        raise _reject(ReasonCode.FIDELITY_VIOLATION, "改写丢失或改变了问题中的关键信息。")
    return plan


def to_tool_calls(plan: ModelPlan) -> list[ToolCall]:
    """The validated calls with arguments re-serialized by their registered schema."""
    calls: list[ToolCall] = []
    for call in plan.tool_calls:
        tool = ToolCode(call.tool)
        args = TOOL_ARGUMENT_MODELS[tool].model_validate(call.arguments)
        calls.append(
            ToolCall(tool=tool, arguments=args.model_dump(mode="json", by_alias=True, exclude_none=True))
        )
    return calls
