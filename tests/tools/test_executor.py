"""The executor: de-dup, one budget object, per-tool timeout with late results discarded, typed failures."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from shifu.contracts.common import Intent, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall
from shifu.domain.embedded import EmbeddedDomain
from shifu.domain.fake_server import (
    FakeServerControl,
    build_fake_domain_app,
    serve_in_thread,
    unused_loopback_url,
)
from shifu.domain.http import HttpDomain
from shifu.errors import BudgetExceeded, Failure, Forbidden, NeedsInput, NotFound, Unavailable
from shifu.store.base import Base
from shifu.tools import (
    KnowledgeSearchPort,
    RunBudget,
    RunLimits,
    ToolExecutor,
    ToolRegistry,
    build_tool_executor,
)
from shifu.tools.registry import DEFAULT_SPECS
from shifu.tools.render import render_result

Ctx = Callable[..., ExecutionContext]
TASKS = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "TODAY"})


class Scripted:
    """A handler that counts calls and does what the test scripts."""

    def __init__(self, action: Callable[[], None] | None = None) -> None:
        self.calls = 0
        self.finished = threading.Event()
        self._action = action

    def __call__(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        self.calls += 1
        try:
            if self._action is not None:
                self._action()
            return ToolResult(call=call, status=ToolStatus.OK)
        finally:
            self.finished.set()


@pytest.fixture
def scripted_executor() -> Iterator[Callable[[Scripted], ToolExecutor]]:
    made: list[ToolExecutor] = []

    def make(handler: Scripted) -> ToolExecutor:
        executor = ToolExecutor(
            ToolRegistry(), {ToolCode.MY_CURRENT_TASKS: handler, ToolCode.MY_WORK_RESULTS: handler}
        )
        made.append(executor)
        return executor

    yield make
    for executor in made:
        executor.close()


def test_same_call_is_deduplicated_after_normalization(
    scripted_executor: Callable[[Scripted], ToolExecutor], ctx_of: Ctx
) -> None:
    handler = Scripted()
    executor = scripted_executor(handler)
    budget = RunBudget()
    first = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=budget)
    snake = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"date_range": "TODAY"})
    second = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, snake, budget=budget)
    assert (first.status, second.status) == (ToolStatus.OK, ToolStatus.DEDUPLICATED)
    assert handler.calls == 1 and budget.tool_calls == 1
    assert second.call.arguments == {"dateRange": "TODAY"}


def test_call_budget_raises_one_error_type(
    scripted_executor: Callable[[Scripted], ToolExecutor], ctx_of: Ctx
) -> None:
    executor = scripted_executor(Scripted())
    budget = RunBudget(RunLimits(max_tool_calls=1))
    executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=budget)
    other = ToolCall(tool=ToolCode.MY_WORK_RESULTS)
    with pytest.raises(BudgetExceeded) as info:
        executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, other, budget=budget)
    assert info.value.code == "CALL_BUDGET_EXCEEDED"


def test_time_budget(scripted_executor: Callable[[Scripted], ToolExecutor], ctx_of: Ctx) -> None:
    now = [100.0]
    budget = RunBudget(RunLimits(max_wall_time_s=2.0), clock=lambda: now[0])
    now[0] = 102.5
    with pytest.raises(BudgetExceeded) as info:
        scripted_executor(Scripted()).execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=budget)
    assert info.value.code == "TIME_BUDGET_EXCEEDED"


def test_candidate_budget_truncates_then_stops(executor: ToolExecutor, ctx_of: Ctx) -> None:
    budget = RunBudget(RunLimits(max_candidates=2))
    month = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={"dateRange": "THIS_MONTH"})
    result = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, month, budget=budget)
    assert len(result.facts) == 2 and result.facts[0].fact_type == "TASKS_SUMMARY"
    assert {o.code: o.count for o in result.observations}["CANDIDATES_TRUNCATED"] == 2
    with pytest.raises(BudgetExceeded) as info:
        executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=budget)
    assert info.value.code == "CANDIDATE_BUDGET_EXCEEDED"


def test_timeout_discards_the_late_result(
    scripted_executor: Callable[[Scripted], ToolExecutor], ctx_of: Ctx
) -> None:
    handler = Scripted(lambda: time.sleep(0.4))
    executor = scripted_executor(handler)
    started = time.monotonic()
    result = executor.execute(
        ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=RunBudget(RunLimits(tool_timeout_s=0.05))
    )
    assert time.monotonic() - started < 0.3
    assert (result.status, result.reason_code, result.facts) == (ToolStatus.TIMEOUT, "TOOL_TIMEOUT", [])
    assert handler.finished.wait(2)
    assert result.status is ToolStatus.TIMEOUT


def test_timeout_never_passes_the_run_wall_time(
    scripted_executor: Callable[[Scripted], ToolExecutor], ctx_of: Ctx
) -> None:
    executor = scripted_executor(Scripted(lambda: time.sleep(0.4)))
    budget = RunBudget(RunLimits(tool_timeout_s=5.0, max_wall_time_s=0.1))
    started = time.monotonic()
    result = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=budget)
    assert result.status is ToolStatus.TIMEOUT and time.monotonic() - started < 0.35


def _raise(error: Exception) -> Callable[[], None]:
    def action() -> None:
        raise error

    return action


@pytest.mark.parametrize(
    ("error", "status", "reason"),
    [
        (Unavailable(code="DOMAIN_UNAVAILABLE"), ToolStatus.UNAVAILABLE, "DOMAIN_UNAVAILABLE"),
        (Forbidden(code="DOMAIN_FORBIDDEN"), ToolStatus.FORBIDDEN, "DOMAIN_FORBIDDEN"),
        (NeedsInput(code="REFERENCE_UNRESOLVED"), ToolStatus.NO_RESULT, "REFERENCE_UNRESOLVED"),
        (NotFound(code="FRAGMENT_NOT_FOUND"), ToolStatus.NO_RESULT, "FRAGMENT_NOT_FOUND"),
        (Failure(code="DOMAIN_HTTP_ERROR"), ToolStatus.FAILED, "DOMAIN_HTTP_ERROR"),
        (ValueError("boom"), ToolStatus.FAILED, "TOOL_FAILED"),
    ],
)
def test_failures_are_mapped_distinctly(
    scripted_executor: Callable[[Scripted], ToolExecutor],
    ctx_of: Ctx,
    error: Exception,
    status: ToolStatus,
    reason: str,
) -> None:
    result = scripted_executor(Scripted(_raise(error))).execute(
        ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=RunBudget()
    )
    assert (result.status, result.reason_code, result.facts) == (status, reason, [])


def test_registered_tool_without_handler_is_unavailable(ctx_of: Ctx) -> None:
    executor = ToolExecutor(ToolRegistry(), {})
    result = executor.execute(
        ctx_of("employee"),
        Intent.MEDIA_UNDERSTANDING,
        ToolCall(tool=ToolCode.MEDIA_ANALYZE, arguments={"question": "图中是什么"}),
        budget=RunBudget(),
        has_attachment=True,
    )
    assert (result.status, result.reason_code) == (ToolStatus.UNAVAILABLE, "TOOL_NOT_CONNECTED")
    executor.close()


def test_unregistered_tool_is_refused(ctx_of: Ctx) -> None:
    handler = Scripted()
    registry = ToolRegistry(s for s in DEFAULT_SPECS if s.code is not ToolCode.MY_CURRENT_TASKS)
    executor = ToolExecutor(registry, {ToolCode.MY_CURRENT_TASKS: handler})
    result = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=RunBudget())
    assert (result.status, result.reason_code, handler.calls) == (ToolStatus.FORBIDDEN, "UNKNOWN_TOOL", 0)
    executor.close()


def _row_counts(factory: sessionmaker[Session]) -> dict[str, int]:
    with factory() as session:
        return {
            t.name: session.scalar(select(func.count()).select_from(t)) or 0
            for t in Base.metadata.sorted_tables
        }


def test_down_domain_is_unavailable_within_budget_and_writes_nothing(
    seeded: sessionmaker[Session], ctx_of: Ctx, knowledge: KnowledgeSearchPort
) -> None:
    before = _row_counts(seeded)
    domain = HttpDomain(unused_loopback_url(), api_key="k" * 40, timeout_s=1.0)
    executor = build_tool_executor(domain=domain, knowledge=knowledge)
    started = time.monotonic()
    result = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=RunBudget())
    assert time.monotonic() - started < RunLimits().max_wall_time_s
    assert (result.status, result.reason_code, result.facts) == (
        ToolStatus.UNAVAILABLE,
        "DOMAIN_UNAVAILABLE",
        [],
    )
    message = render_result(result)
    assert "不可用" in message and not any(ch.isdigit() for ch in message)
    assert _row_counts(seeded) == before
    executor.close()
    domain.close()


def test_slow_domain_times_out_within_budget(
    seeded: sessionmaker[Session], ctx_of: Ctx, knowledge: KnowledgeSearchPort
) -> None:
    control = FakeServerControl(delay_s=1.0)
    with serve_in_thread(build_fake_domain_app(EmbeddedDomain(seeded), control)) as url:
        domain = HttpDomain(url, api_key=None, timeout_s=0.2)
        executor = build_tool_executor(domain=domain, knowledge=knowledge)
        started = time.monotonic()
        result = executor.execute(ctx_of("employee"), Intent.LIVE_MY_WORK, TASKS, budget=RunBudget())
        assert time.monotonic() - started < 0.9
        assert (result.status, result.reason_code) == (ToolStatus.TIMEOUT, "DOMAIN_TIMEOUT")
        assert "超时" in render_result(result)
        executor.close()
        domain.close()


def test_extra_handlers_plug_in_but_never_replace_builtins(
    seeded: sessionmaker[Session], knowledge: KnowledgeSearchPort, ctx_of: Ctx
) -> None:
    draft = Scripted()
    executor = build_tool_executor(
        domain=EmbeddedDomain(seeded), knowledge=knowledge, handlers={ToolCode.CAPTURE_MEMORY_DRAFT: draft}
    )
    call = ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": "3栋1201要回访"})
    assert (
        executor.execute(ctx_of("employee"), Intent.CAPTURE_FACT, call, budget=RunBudget()).status
        is ToolStatus.OK
    )
    assert draft.calls == 1
    executor.close()
    with pytest.raises(ValueError, match="MY_CURRENT_TASKS"):
        build_tool_executor(
            domain=EmbeddedDomain(seeded), knowledge=knowledge, handlers={ToolCode.MY_CURRENT_TASKS: draft}
        )
