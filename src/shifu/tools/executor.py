"""The tool executor: policy gate first, then schema, de-dup, budgets, timeout and typed failures.

Order of one call (each step can end it, and the handler runs only after all of them):

    registered?          no  → FORBIDDEN  UNKNOWN_TOOL
    scope/confirm args?  yes → FORBIDDEN  SCOPE_FIELD_IN_ARGUMENTS / CONFIRMATION_FIELD_IN_ARGUMENTS
    policy.decide        no  → FORBIDDEN  <reason code>
    schema               bad → INVALID_ARGUMENTS
    same (tool, args)    yes → DEDUPLICATED
    budget               out → raises BudgetExceeded (the run ends)
    handler wired?       no  → UNAVAILABLE TOOL_NOT_CONNECTED
    handler              ToolTimeout/slow → TIMEOUT (late result discarded), Unavailable → UNAVAILABLE,
                         Forbidden → FORBIDDEN, NeedsInput/NotFound/Expired → NO_RESULT,
                         anything else → FAILED

Nothing here invents an answer: a failed call carries a status and a reason code only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from pydantic import ValidationError

from shifu.contracts.common import Intent, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import Observation, ToolResult
from shifu.contracts.plan import ToolCall
from shifu.errors import (
    BudgetExceeded,
    Expired,
    Forbidden,
    NeedsInput,
    NotFound,
    ShifuError,
    ToolTimeout,
    Unavailable,
)
from shifu.policy import ReasonCode, check_arguments, decide
from shifu.tools.handlers import ToolHandler, ToolHandlers
from shifu.tools.limits import RunBudget
from shifu.tools.registry import ToolRegistry

logger = logging.getLogger(__name__)


def call_hash(tool: str, arguments: object) -> str:
    """SHA-256 of a tool code and its canonical arguments (the de-dup key)."""
    canonical = json.dumps([tool, arguments], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


class ToolExecutor:
    """Runs registered tools for one principal, within one run's budget."""

    def __init__(self, registry: ToolRegistry, handlers: ToolHandlers, *, max_workers: int = 8) -> None:
        self._registry = registry
        self._handlers = dict(handlers)
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="shifu-tool")

    @property
    def registry(self) -> ToolRegistry:
        """The registry this executor enforces."""
        return self._registry

    def close(self) -> None:
        """Stop the worker pool without waiting for abandoned (timed-out) calls."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def execute(
        self,
        ctx: ExecutionContext,
        intent: Intent,
        call: ToolCall,
        *,
        budget: RunBudget,
        consent_valid: bool = False,
        has_attachment: bool = False,
    ) -> ToolResult:
        """Run one call through the gate and the handler; see the module docstring for the order."""
        started = time.perf_counter()
        result = self._execute(
            ctx, intent, call, budget=budget, consent_valid=consent_valid, has_attachment=has_attachment
        )
        result = result.model_copy(update={"elapsed_ms": round((time.perf_counter() - started) * 1000, 3)})
        logger.info(
            "tool call",
            extra={
                "run_id": ctx.run_id,
                "tool": call.tool.value,
                "status": result.status.value,
                "reason_code": result.reason_code,
                "args_sha256": call_hash(call.tool.value, call.arguments),
                "facts": len(result.facts),
                "documents": len(result.documents),
                "elapsed_ms": result.elapsed_ms,
            },
        )
        return result

    def _execute(
        self,
        ctx: ExecutionContext,
        intent: Intent,
        call: ToolCall,
        *,
        budget: RunBudget,
        consent_valid: bool,
        has_attachment: bool,
    ) -> ToolResult:
        if call.tool not in self._registry:
            return _refused(call, ToolStatus.FORBIDDEN, ReasonCode.UNKNOWN_TOOL.value)
        spec = self._registry.get(call.tool)
        forged = check_arguments(call.arguments)
        if not forged.allowed:
            return _refused(call, ToolStatus.FORBIDDEN, forged.reason_code.value)
        decision = decide(
            ctx, spec.policy_facts, intent=intent, consent_valid=consent_valid, has_attachment=has_attachment
        )
        if not decision.allowed:
            return _refused(call, ToolStatus.FORBIDDEN, decision.reason_code.value)
        try:
            args = spec.args_model.model_validate(call.arguments)
        except ValidationError:
            return _refused(call, ToolStatus.INVALID_ARGUMENTS, "ARGUMENTS_DO_NOT_MATCH_SCHEMA")
        normalized = ToolCall(
            tool=call.tool, arguments=args.model_dump(mode="json", by_alias=True, exclude_none=True)
        )
        key = call_hash(normalized.tool.value, normalized.arguments)
        if key in budget.seen_calls:
            return _refused(normalized, ToolStatus.DEDUPLICATED, "SAME_CALL_IN_RUN")
        budget.check_before_call()
        handler = self._handlers.get(call.tool)
        if handler is None:
            return _refused(normalized, ToolStatus.UNAVAILABLE, "TOOL_NOT_CONNECTED")
        budget.seen_calls.add(key)
        budget.tool_calls += 1
        result = self._run(handler, ctx, normalized, args, decision.project_ids, budget.call_timeout_s())
        return _within_candidate_budget(result, budget)

    def _run(
        self,
        handler: ToolHandler,
        ctx: ExecutionContext,
        call: ToolCall,
        args: object,
        project_ids: tuple[str, ...],
        timeout_s: float,
    ) -> ToolResult:
        future: Future[ToolResult] = self._pool.submit(handler, ctx, call, args, project_ids)  # type: ignore[arg-type]
        try:
            result = future.result(timeout=timeout_s)
        except FutureTimeout:
            future.cancel()
            return _refused(call, ToolStatus.TIMEOUT, "TOOL_TIMEOUT")
        except ToolTimeout as exc:
            return _refused(call, ToolStatus.TIMEOUT, exc.code)
        except Unavailable as exc:
            return _refused(call, ToolStatus.UNAVAILABLE, exc.code)
        except Forbidden as exc:
            return _refused(call, ToolStatus.FORBIDDEN, exc.code)
        except (NeedsInput, NotFound, Expired) as exc:
            return _refused(call, ToolStatus.NO_RESULT, exc.code)
        except BudgetExceeded:
            raise
        except ShifuError as exc:
            return _refused(call, ToolStatus.FAILED, exc.code)
        except Exception:
            logger.exception("tool handler crashed", extra={"tool": call.tool.value})
            return _refused(call, ToolStatus.FAILED, "TOOL_FAILED")
        if not isinstance(result, ToolResult):
            return _refused(call, ToolStatus.FAILED, "HANDLER_RETURNED_NO_RESULT")
        return result.model_copy(update={"call": call})


def _refused(call: ToolCall, status: ToolStatus, reason: str) -> ToolResult:
    return ToolResult(call=call, status=status, reason_code=reason)


def _within_candidate_budget(result: ToolResult, budget: RunBudget) -> ToolResult:
    wanted = len(result.documents) + len(result.facts) + len(result.resources)
    allowed = budget.take_candidates(wanted)
    if allowed >= wanted:
        return result
    facts = result.facts[:allowed]
    documents = result.documents[: max(0, allowed - len(facts))]
    resources = result.resources[: max(0, allowed - len(facts) - len(documents))]
    observations = [*result.observations, Observation(code="CANDIDATES_TRUNCATED", count=wanted - allowed)]
    return result.model_copy(
        update={"facts": facts, "documents": documents, "resources": resources, "observations": observations}
    )
