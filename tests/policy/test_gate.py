"""Direct tests of the pure gate functions (the matrix covers the cross product)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shifu.contracts.common import Intent, Role, ToolCode, ToolKind
from shifu.contracts.context import ExecutionContext
from shifu.policy import (
    AuthorizationPolicy,
    ReasonCode,
    ToolPolicyFacts,
    authorized_projects,
    check_arguments,
    decide,
)

NOW = datetime(2025, 6, 18, 2, 30, tzinfo=UTC)


def _ctx(**changes: object) -> ExecutionContext:
    fields: dict[str, object] = {
        "run_id": "r",
        "tenant_id": "demo",
        "app_id": "staff-app",
        "user_id": "u-lisi",
        "external_id": "e",
        "display_name": "李四",
        "role": Role.SUPERVISOR,
        "project_ids": ("proj-huafu", "proj-jiangwan"),
        "supervised_project_ids": ("proj-huafu",),
        "now": NOW,
        **changes,
    }
    return ExecutionContext.model_validate(fields)


DRAFT = ToolPolicyFacts(
    code=ToolCode.REVIEW_DRAFT,
    kind=ToolKind.DRAFT,
    allowed_intents=frozenset({Intent.DRAFT_ACTION}),
    authorization=AuthorizationPolicy.SUPERVISED_PROJECTS,
    needs_confirmation=True,
)


def test_draft_is_allowed_to_draft_only_and_scoped_to_supervised_projects() -> None:
    decision = decide(_ctx(), DRAFT, intent=Intent.DRAFT_ACTION, consent_valid=False, has_attachment=False)
    assert decision.allowed and decision.requires_confirmation
    assert decision.project_ids == ("proj-huafu",)


@pytest.mark.parametrize(
    ("selected", "expected"),
    [("proj-huafu", ("proj-huafu",)), ("proj-jiangwan", ()), (None, ("proj-huafu",)), ("proj-other", ())],
)
def test_team_scope_follows_the_selected_project(selected: str | None, expected: tuple[str, ...]) -> None:
    decision = authorized_projects(
        _ctx(selected_project_id=selected), AuthorizationPolicy.SUPERVISED_PROJECTS
    )
    assert decision.project_ids == expected
    assert decision.allowed is bool(expected)


def test_supervised_project_outside_membership_is_ignored() -> None:
    ctx = _ctx(project_ids=("proj-jiangwan",), supervised_project_ids=("proj-huafu",))
    decision = authorized_projects(ctx, AuthorizationPolicy.SUPERVISED_PROJECTS)
    assert decision.reason_code is ReasonCode.PROJECT_NOT_SUPERVISED


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("projectId", ReasonCode.SCOPE_FIELD_IN_ARGUMENTS),
        ("user_id", ReasonCode.SCOPE_FIELD_IN_ARGUMENTS),
        ("TENANT-ID", ReasonCode.SCOPE_FIELD_IN_ARGUMENTS),
        ("recipientId", ReasonCode.SCOPE_FIELD_IN_ARGUMENTS),
        ("SQL", ReasonCode.SCOPE_FIELD_IN_ARGUMENTS),
        ("url", ReasonCode.SCOPE_FIELD_IN_ARGUMENTS),
        ("confirmed", ReasonCode.CONFIRMATION_FIELD_IN_ARGUMENTS),
        ("idempotency_key", ReasonCode.CONFIRMATION_FIELD_IN_ARGUMENTS),
        ("query", ReasonCode.ALLOWED),
        ("dateRange", ReasonCode.ALLOWED),
    ],
)
def test_check_arguments(name: str, reason: ReasonCode) -> None:
    assert check_arguments({name: "x"}).reason_code is reason
