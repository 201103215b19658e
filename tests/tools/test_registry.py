"""The registry declares every tool once, with the facts seed 003 requires; unknown tools are refused."""

from __future__ import annotations

import pytest

from shifu.contracts.common import Role, ToolCode, ToolKind
from shifu.contracts.tool_args import TOOL_ARGUMENT_MODELS
from shifu.errors import Forbidden
from shifu.policy import ROLE_TOOLS
from shifu.tools import ToolRegistry
from shifu.tools.registry import DEFAULT_SPECS, IdempotencyClass

SCOPE_WORDS = ("tenant", "user", "project", "space", "app", "role", "recipient_id", "employee_id")


def test_every_tool_code_is_declared_exactly_once() -> None:
    assert [s.code for s in DEFAULT_SPECS] == list(ToolCode)


@pytest.mark.parametrize("spec", DEFAULT_SPECS, ids=lambda s: s.code.value)
def test_spec_is_consistent(spec: object) -> None:
    from shifu.tools.registry import ToolSpec

    assert isinstance(spec, ToolSpec)
    assert spec.args_model is TOOL_ARGUMENT_MODELS[spec.code]
    assert spec.allowed_intents and spec.audit_type and spec.label
    assert spec.allowed_roles == {r for r, tools in ROLE_TOOLS.items() if spec.code in tools}
    if spec.kind is ToolKind.DRAFT:
        assert spec.needs_confirmation and spec.idempotency is IdempotencyClass.DRAFT_NO_WRITE
    if spec.kind is ToolKind.READ:
        assert spec.idempotency is IdempotencyClass.SAFE_READ and not spec.needs_consent
    if spec.kind is ToolKind.EXTERNAL:
        assert spec.needs_consent
    for name in spec.args_model.model_fields:
        assert not any(name == w or name.startswith(w + "_") for w in SCOPE_WORDS), name


def test_operator_never_gets_live_data_or_drafts() -> None:
    registry = ToolRegistry()
    for code in ROLE_TOOLS[Role.OPERATOR]:
        spec = registry.get(code)
        assert spec.kind is ToolKind.READ and spec.authorization.value != "SELF_ONLY"


@pytest.mark.parametrize("name", ["SQL_QUERY", "CRM_LOOKUP", "", "my_current_tasks ", "HTTP_GET"])
def test_unknown_tool_names_are_refused(name: str) -> None:
    with pytest.raises(Forbidden) as info:
        ToolRegistry().parse_call({"tool": name, "arguments": {}})
    assert info.value.code == "UNKNOWN_TOOL"


def test_parse_call_keeps_arguments_for_revalidation() -> None:
    call = ToolRegistry().parse_call(
        {"tool": "MY_CURRENT_TASKS", "arguments": {"dateRange": "TODAY", "userId": "x"}}
    )
    assert call.tool is ToolCode.MY_CURRENT_TASKS and call.arguments["userId"] == "x"
    with pytest.raises(Forbidden):
        ToolRegistry().parse_call({"tool": "MY_CURRENT_TASKS", "arguments": ["not", "an", "object"]})


def test_duplicate_registration_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        ToolRegistry([DEFAULT_SPECS[0], DEFAULT_SPECS[0]])
