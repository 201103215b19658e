"""The planning chain: model first, deterministic on exactly the named failures.

Which failures trigger the fallback is a closed list (`FALLBACK_TRIGGERS`): the model
timed out, the transport failed, the endpoint answered an error, the content was not
JSON, or the plan failed validation (schema, unknown tool, authorization field,
fidelity). Anything else is a bug and propagates. The outcome names the planner that
ran and the reason code, so the trace always says why.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from zoneinfo import ZoneInfo

from shifu.config import Settings
from shifu.contracts.common import PlannerKind
from shifu.contracts.context import ResolvedContext
from shifu.errors import ModelError, PlanRejected
from shifu.llm.client import OpenAICompatibleClient
from shifu.planning.deterministic import DeterministicPlanner
from shifu.planning.model import ModelPlanner
from shifu.planning.outcome import FALLBACK_TRIGGERS, Planner, PlanningOutcome, ReasonCode

logger = logging.getLogger(__name__)


class FallbackPlanner:
    """Model planner → deterministic planner, with the reason recorded."""

    def __init__(self, model: ModelPlanner | None, deterministic: DeterministicPlanner) -> None:
        self._model = model
        self._deterministic = deterministic

    def plan(
        self,
        question: str,
        resolved: ResolvedContext,
        *,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool = False,
    ) -> PlanningOutcome:
        """Plan with the model when configured; fall back on a trigger failure."""
        started = time.perf_counter()
        if self._model is None:
            return self._fallback(
                question, resolved, now, tz, has_attachments, ReasonCode.MODEL_NOT_CONFIGURED, 0, started
            )
        try:
            plan = self._model.build_plan(question, resolved, now=now, tz=tz, has_attachments=has_attachments)
        except (ModelError, PlanRejected) as exc:
            if exc.code not in FALLBACK_TRIGGERS:
                raise
            logger.info("model plan rejected, falling back", extra={"reason_code": exc.code})
            return self._fallback(question, resolved, now, tz, has_attachments, exc.code, 1, started)
        return PlanningOutcome(
            plan=plan,
            planner=PlannerKind.MODEL,
            reason_code=ReasonCode.MODEL_OK,
            model_calls=1,
            latency_ms=(time.perf_counter() - started) * 1000,
        )

    def _fallback(
        self,
        question: str,
        resolved: ResolvedContext,
        now: datetime,
        tz: ZoneInfo,
        has_attachments: bool,
        reason: str,
        model_calls: int,
        started: float,
    ) -> PlanningOutcome:
        plan = self._deterministic.build_plan(
            question, resolved, now=now, tz=tz, has_attachments=has_attachments
        )
        return PlanningOutcome(
            plan=plan,
            planner=PlannerKind.DETERMINISTIC,
            reason_code=reason,
            model_calls=model_calls,
            latency_ms=(time.perf_counter() - started) * 1000,
        )


def build_planner(settings: Settings) -> Planner:
    """The planner a deployment uses: model + fallback when an endpoint is configured."""
    deterministic = DeterministicPlanner()
    if not settings.llm_base_url or not settings.llm_model:
        return FallbackPlanner(None, deterministic)
    client = OpenAICompatibleClient(settings.llm_base_url, settings.llm_model, settings.llm_api_key)
    model = ModelPlanner(client, timeout_s=settings.llm_timeout_s, confidence=deterministic)
    return FallbackPlanner(model, deterministic)
