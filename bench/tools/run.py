"""Benchmark: registry + policy overhead per tool call (target p95 ≤ 1 ms).

Measures two things over every role × tool combination of the demo:
- `gate`: registry lookup, forged-argument check, policy decision, schema validation and the
  de-dup hash — everything the executor does before a handler runs;
- `execute`: a full `ToolExecutor.execute` with a no-op handler (adds the worker-thread hop
  that enforces the per-tool timeout).

Run: `.venv/bin/python -m bench.tools.run` → bench/results/tools.{json,md}.
"""

from __future__ import annotations

import json
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from shifu.contracts.common import Intent, Role, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall
from shifu.policy import check_arguments, decide
from shifu.tools import RunBudget, RunLimits, ToolExecutor, ToolRegistry
from shifu.tools.executor import call_hash

RESULTS = Path(__file__).resolve().parents[1] / "results"
TARGET_P95_MS = 1.0
ROUNDS = 200

ARGS: dict[ToolCode, dict[str, Any]] = {
    ToolCode.KNOWLEDGE_SEARCH: {"query": "报销流程", "domain": "REIMBURSEMENT"},
    ToolCode.KNOWLEDGE_RESOURCE: {"citationId": "c-1"},
    ToolCode.MY_CURRENT_TASKS: {"dateRange": "TODAY", "status": "OPEN"},
    ToolCode.MY_PRACTICE_SUMMARY: {"dateRange": "THIS_MONTH"},
    ToolCode.TEAM_PRACTICE_SUMMARY: {"dateRange": "THIS_WEEK"},
    ToolCode.MY_WORK_RESULTS: {},
    ToolCode.TEAM_WORK_RESULTS: {},
    ToolCode.MY_CANDIDATE_PROGRESS: {},
    ToolCode.CAPABILITY_QUERY: {"requestedSystem": "CRM"},
    ToolCode.CAPTURE_MEMORY_DRAFT: {"content": "3栋1201要回访"},
    ToolCode.PRACTICE_ASSIGNMENT_DRAFT: {"assigneeName": "孙八"},
    ToolCode.REVIEW_DRAFT: {"recipient": "项目经理"},
    ToolCode.WORK_REPORT_DRAFT: {"content": "完成漏水处置"},
    ToolCode.MEDIA_ANALYZE: {"question": "图中是什么"},
    ToolCode.WEB_RESEARCH: {"query": "宠物品种"},
}


def _ctx(role: Role) -> ExecutionContext:
    operator = role is Role.OPERATOR
    return ExecutionContext(
        run_id="bench",
        tenant_id="demo",
        app_id="staff-app",
        user_id="operator:u-chenqi" if operator else "u-bench",
        external_id="ext",
        display_name="bench",
        role=role,
        project_ids=() if role in (Role.CANDIDATE, Role.OPERATOR) else ("proj-huafu",),
        supervised_project_ids=("proj-huafu",) if role is Role.SUPERVISOR else (),
        is_operator_preview=operator,
        now=datetime(2025, 6, 18, 2, 30, tzinfo=UTC),
    )


def _noop(
    ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
) -> ToolResult:
    return ToolResult(call=call, status=ToolStatus.OK)


def _percentiles(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    q = statistics.quantiles(ordered, n=100, method="inclusive")
    return {
        "n": len(ordered),
        "p50_ms": round(q[49], 4),
        "p95_ms": round(q[94], 4),
        "p99_ms": round(q[98], 4),
        "max_ms": round(ordered[-1], 4),
    }


def _cases(registry: ToolRegistry) -> list[tuple[ExecutionContext, Intent, ToolCall]]:
    cases = []
    for role in Role:
        ctx = _ctx(role)
        for spec in registry.specs():
            intent = sorted(spec.allowed_intents)[0]
            cases.append((ctx, Intent(intent), ToolCall(tool=spec.code, arguments=ARGS[spec.code])))
    return cases


def bench_gate(registry: ToolRegistry) -> list[float]:
    """Pre-handler work only."""
    samples: list[float] = []
    cases = _cases(registry)
    for _ in range(ROUNDS):
        for ctx, intent, call in cases:
            start = time.perf_counter()
            spec = registry.get(call.tool)
            if check_arguments(call.arguments).allowed:
                decision = decide(
                    ctx, spec.policy_facts, intent=intent, consent_valid=True, has_attachment=True
                )
                if decision.allowed:
                    args = spec.args_model.model_validate(call.arguments)
                    call_hash(call.tool.value, args.model_dump(mode="json", by_alias=True, exclude_none=True))
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def bench_execute(registry: ToolRegistry) -> list[float]:
    """Full executor calls with a no-op handler (fresh budget per call so nothing is de-duplicated)."""
    executor = ToolExecutor(registry, dict.fromkeys(ToolCode, _noop))
    limits = RunLimits(max_tool_calls=10, tool_timeout_s=1.0)
    samples: list[float] = []
    try:
        for _ in range(ROUNDS // 4):
            for ctx, intent, call in _cases(registry):
                budget = RunBudget(limits)
                start = time.perf_counter()
                executor.execute(ctx, intent, call, budget=budget, consent_valid=True, has_attachment=True)
                samples.append((time.perf_counter() - start) * 1000)
    finally:
        executor.close()
    return samples


def main() -> None:
    """Run both measurements and write the results."""
    registry = ToolRegistry()
    bench_gate(registry)  # warm-up
    gate = _percentiles(bench_gate(registry))
    execute = _percentiles(bench_execute(registry))
    report = {
        "benchmark": "tools.registry_policy_overhead",
        "target_p95_ms": TARGET_P95_MS,
        "gate": gate,
        "execute_noop_handler": execute,
        "pass": gate["p95_ms"] <= TARGET_P95_MS,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "tools.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    lines = [
        "# Tools: registry + policy overhead per call",
        "",
        f"Target: p95 ≤ {TARGET_P95_MS} ms for registry + policy (everything before the handler).",
        "",
        "| measurement | n | p50 ms | p95 ms | p99 ms | max ms |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, row in (
        ("gate (registry + policy + schema + hash)", gate),
        ("execute, no-op handler", execute),
    ):
        lines.append(
            f"| {name} | {row['n']} | {row['p50_ms']} | {row['p95_ms']} | {row['p99_ms']} | {row['max_ms']} |"
        )
    lines += [
        "",
        f"Result: {'PASS' if report['pass'] else 'FAIL'} (gate p95 {gate['p95_ms']} ms). "
        "`execute` adds the worker-thread hop that enforces per-tool timeouts.",
        f"Python {report['python']} on {report['machine']}, measured {report['measured_at']}.",
        "",
    ]
    (RESULTS / "tools.md").write_text("\n".join(lines), encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
