"""The model planner: an OpenAI-compatible chat model proposes a plan; the server disposes.

The model sees only the question, a redacted summary of the conversation (relation,
goal, entity kinds) and the tool catalogue — never ExecutionContext, ids or the role.
Its answer is untrusted input: `validation.validate_model_plan` applies the schema,
authorization-field, tool-registry and fidelity rules and raises `PlanRejected` with a
reason code; model transport problems surface as `ModelError`. The fallback chain
(`fallback.py`) turns either into a deterministic plan.
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from shifu.contracts.common import PlannerKind
from shifu.contracts.context import ResolvedContext
from shifu.contracts.plan import SemanticQueryPlan
from shifu.contracts.tool_args import TOOL_ARGUMENT_MODELS
from shifu.llm.client import ChatClient
from shifu.nlp.entities import extract_entities
from shifu.planning.outcome import PlanningOutcome, ReasonCode
from shifu.planning.tool_calls import DRAFT_TOOLS, EXTERNAL_TOOLS
from shifu.planning.validation import ModelPlan, to_tool_calls, validate_model_plan

PROMPTS_DIR = Path(__file__).parent / "prompts"
SCHEMA_NAME = "semantic_query_plan"


@cache
def _prompt(name: str) -> str:
    return (PROMPTS_DIR / name).read_text(encoding="utf-8")


@cache
def tool_catalogue() -> str:
    """Each registered tool with its business arguments (from the registered schemas)."""
    lines = []
    for tool, model in TOOL_ARGUMENT_MODELS.items():
        props = model.model_json_schema(by_alias=True).get("properties", {})
        args = ", ".join(props) or "无参数"
        doc = (model.__doc__ or "").strip().splitlines()[0]
        lines.append(f"- {tool.value}({args}): {doc}")
    return "\n".join(lines)


@cache
def plan_schema() -> dict[str, Any]:
    """JSON schema of the model's plan, sent as the strict response format."""
    return ModelPlan.model_json_schema(by_alias=True)


def context_summary(resolved: ResolvedContext) -> str:
    """What the model may know about the conversation: no ids, no facts, no assertions' text."""
    present = [name for name, value in resolved.entities if value]
    summary: dict[str, Any] = {
        "relation": resolved.relation.value,
        "goal": resolved.goal,
        "previousIntent": resolved.previous_intent.value if resolved.previous_intent else None,
        "entityKinds": present,
        "references": [ref.kind for ref in resolved.references],
    }
    return json.dumps(summary, ensure_ascii=False)


class ProbabilityOracle(Protocol):
    """Port: a calibrated probability for an intent (the deterministic classifier provides it)."""

    def intent_probability(self, question: str, intent: str) -> float:
        """Calibrated probability that `question` has `intent`."""
        ...


class ModelPlanner:
    """Asks a chat model for a plan and validates it; raises on any failure (no fallback here)."""

    def __init__(
        self, client: ChatClient, *, timeout_s: float, confidence: ProbabilityOracle | None = None
    ) -> None:
        self._client = client
        self._timeout_s = timeout_s
        self._confidence = confidence

    def build_plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> SemanticQueryPlan:
        """One model call, then validation; raises `ModelError` or `PlanRejected`."""
        user = _prompt("user.md").format(
            tool_catalogue=tool_catalogue(),
            context_summary=context_summary(resolved),
            question=question,
        )
        raw = self._client.complete_json(
            system=_prompt("system.md"),
            user=user,
            schema=plan_schema(),
            schema_name=SCHEMA_NAME,
            timeout_s=self._timeout_s,
        )
        plan = validate_model_plan(raw, question, now=now, tz=tz)
        calls = to_tool_calls(plan)
        missing = list(plan.missing_fields)
        if (
            any(c.tool.value == "MEDIA_ANALYZE" for c in calls)
            and not has_attachments
            and "attachment" not in missing
        ):
            missing.append("attachment")
        confidence = 1.0
        if self._confidence is not None:
            confidence = self._confidence.intent_probability(question, plan.intent.value)
        return SemanticQueryPlan(
            question=question,
            normalized_question=plan.normalized_question,
            intent=plan.intent,
            confidence=round(min(max(confidence, 0.0), 1.0), 4),
            domain=plan.domain,
            entities=extract_entities(question, now=now, tz=tz),
            evidence_needs=plan.evidence_needs,
            tool_calls=calls,
            missing_fields=missing,
            requires_confirmation=any(c.tool in DRAFT_TOOLS for c in calls),
            requires_external_consent=any(c.tool in EXTERNAL_TOOLS for c in calls),
            response_style=plan.response_style,
        )

    def plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> PlanningOutcome:
        """`build_plan` timed as an outcome; failures propagate (wrap in `FallbackPlanner`)."""
        started = time.perf_counter()
        plan = self.build_plan(question, resolved, now=now, tz=tz, has_attachments=has_attachments)
        return PlanningOutcome(
            plan=plan,
            planner=PlannerKind.MODEL,
            reason_code=ReasonCode.MODEL_OK,
            model_calls=1,
            latency_ms=(time.perf_counter() - started) * 1000,
        )
