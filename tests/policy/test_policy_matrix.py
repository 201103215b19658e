"""The YAML-declared policy matrix, run through the real executor with recording handlers.

Zero unexpected allows: a case is allowed only when the YAML says so, and a refused case
never reaches its handler.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

from shifu.contracts.common import Intent, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall
from shifu.tools import RunBudget, ToolExecutor, ToolRegistry

MATRIX: dict[str, Any] = yaml.safe_load((Path(__file__).parent / "matrix.yaml").read_text(encoding="utf-8"))


class Recorder:
    """A handler for every tool that records who reached it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ToolCode]] = []

    def __call__(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        self.calls.append((ctx.user_id, call.tool))
        return ToolResult(call=call, status=ToolStatus.OK)


@pytest.fixture(scope="module")
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture(scope="module")
def executor(recorder: Recorder) -> Iterator[ToolExecutor]:
    value = ToolExecutor(ToolRegistry(), dict.fromkeys(ToolCode, recorder))
    yield value
    value.close()


def _ctx(actor: str, changes: dict[str, Any]) -> ExecutionContext:
    fields = {
        "run_id": "run-matrix",
        "tenant_id": "demo",
        "app_id": "staff-app",
        "external_id": "ext",
        "display_name": actor,
        "now": datetime(2025, 6, 18, 2, 30, tzinfo=UTC),
        **MATRIX["actors"][actor],
        **changes,
    }
    return ExecutionContext(**fields)


def _cross_product() -> Iterator[Any]:
    for actor, tool, user, project, tenant in itertools.product(
        MATRIX["actors"], ToolCode, ("own", "other"), ("own", "other"), ("own", "other")
    ):
        yield pytest.param(
            actor, tool.value, user, project, tenant, id=f"{actor}-{tool.value}-u{user}-p{project}-t{tenant}"
        )


def _expected(actor: str, tool: str, user: str, project: str, tenant: str) -> str:
    dims = MATRIX["dimensions"]
    if user == "other":
        return str(dims["user"]["other"]["reason"])
    if tenant == "other":
        return str(dims["tenant"]["other"]["reason"])
    if tool not in MATRIX["allowed"][actor]:
        return str(MATRIX["not_allowed_reason"][actor])
    if project == "other":
        return str(dims["project"]["other"]["reason"])
    return "ALLOWED"


def _run(
    executor: ToolExecutor,
    ctx: ExecutionContext,
    tool: str,
    *,
    intent: str,
    arguments: dict[str, Any],
    consent_valid: bool = True,
    has_attachment: bool = True,
) -> ToolResult:
    return executor.execute(
        ctx,
        Intent(intent),
        ToolCall(tool=ToolCode(tool), arguments=arguments),
        budget=RunBudget(),
        consent_valid=consent_valid,
        has_attachment=has_attachment,
    )


def _check(result: ToolResult, expected: str, recorder: Recorder, before: int) -> None:
    reached = len(recorder.calls) > before
    if expected == "ALLOWED":
        assert result.status is ToolStatus.OK, result.reason_code
        assert reached
    else:
        assert result.status is ToolStatus.FORBIDDEN, f"unexpected allow: {result.status}"
        assert result.reason_code == expected
        assert not reached, "a refused call reached its handler"


@pytest.mark.parametrize(("actor", "tool", "user", "project", "tenant"), list(_cross_product()))
def test_matrix(
    executor: ToolExecutor, recorder: Recorder, actor: str, tool: str, user: str, project: str, tenant: str
) -> None:
    dims = MATRIX["dimensions"]
    spec = MATRIX["tools"][tool]
    arguments = dict(spec["arguments"])
    context: dict[str, Any] = {}
    if user == "other":
        arguments.update(dims["user"]["other"]["arguments"])
    if tenant == "other":
        arguments.update(dims["tenant"]["other"]["arguments"])
    if project == "other":
        context["selected_project_id"] = dims["project"]["other"]["selected_project_id"]
    before = len(recorder.calls)
    result = _run(executor, _ctx(actor, context), tool, intent=spec["intent"], arguments=arguments)
    _check(result, _expected(actor, tool, user, project, tenant), recorder, before)


@pytest.mark.parametrize("case", MATRIX["cases"], ids=[c["name"] for c in MATRIX["cases"]])
def test_declared_cases(executor: ToolExecutor, recorder: Recorder, case: dict[str, Any]) -> None:
    tool = case["tool"]
    spec = MATRIX["tools"][tool]
    before = len(recorder.calls)
    result = _run(
        executor,
        _ctx(case["actor"], case.get("context", {})),
        tool,
        intent=case.get("intent", spec["intent"]),
        arguments={**spec["arguments"], **case.get("arguments", {})},
        consent_valid=case.get("consent_valid", True),
        has_attachment=case.get("has_attachment", True),
    )
    _check(result, case["expect"], recorder, before)


def test_matrix_covers_every_tool_and_role() -> None:
    assert set(MATRIX["tools"]) == {t.value for t in ToolCode}
    assert {a["role"] for a in MATRIX["actors"].values()} == {
        "EMPLOYEE",
        "SUPERVISOR",
        "CANDIDATE",
        "OPERATOR",
    }
