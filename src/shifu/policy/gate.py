"""The policy gate: pure functions that decide whether one tool call may run.

Every decision is explicit and carries a reason code; nothing here performs I/O, so the
gate is cheap enough to run before every call and simple enough to test exhaustively
(tests/policy/matrix.yaml). The gate runs before any domain or external tool, and the
tools still read only the scope this module authorizes (seed 001 §13).
"""

from __future__ import annotations

from collections.abc import Mapping

from shifu.contracts.common import Intent, Role, ToolKind
from shifu.contracts.context import ExecutionContext
from shifu.policy.rules import (
    ALLOW,
    CONFIRMATION_ARGUMENT_NAMES,
    OPERATOR_PREFIX,
    ROLE_TOOLS,
    SCOPE_ARGUMENT_NAMES,
    AuthorizationPolicy,
    PolicyDecision,
    ReasonCode,
    ToolPolicyFacts,
)


def _deny(reason: ReasonCode) -> PolicyDecision:
    return PolicyDecision(False, reason)


def _normalized_name(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def check_arguments(arguments: Mapping[str, object]) -> PolicyDecision:
    """Refuse arguments that try to set scope or claim a confirmation (invariant 1).

    Runs before schema validation so that a forged `projectId`, `userId`, `sql`, `url`,
    `recipientId` or `confirmed` flag is a FORBIDDEN decision, not a validation error.
    """
    for name in arguments:
        key = _normalized_name(name)
        if key in SCOPE_ARGUMENT_NAMES:
            return _deny(ReasonCode.SCOPE_FIELD_IN_ARGUMENTS)
        if key in CONFIRMATION_ARGUMENT_NAMES:
            return _deny(ReasonCode.CONFIRMATION_FIELD_IN_ARGUMENTS)
    return ALLOW


def is_operator_identity(ctx: ExecutionContext) -> bool:
    """Whether any of the context's markers say this is back-office operator preview."""
    return ctx.role is Role.OPERATOR or ctx.is_operator_preview or ctx.user_id.startswith(OPERATOR_PREFIX)


def _identity_consistent(ctx: ExecutionContext) -> bool:
    markers = (ctx.role is Role.OPERATOR, ctx.is_operator_preview, ctx.user_id.startswith(OPERATOR_PREFIX))
    return all(markers) or not any(markers)


def authorized_projects(ctx: ExecutionContext, authorization: AuthorizationPolicy) -> PolicyDecision:
    """The project scope a tool with `authorization` may read for this principal.

    A selected project outside the principal's projects is refused for every tool; team
    tools need the selected project (or, without a selection, some project) to be supervised.
    """
    own = set(ctx.project_ids)
    selected = ctx.selected_project_id
    if selected is not None and selected not in own:
        return _deny(ReasonCode.PROJECT_NOT_ALLOWED)
    if authorization is AuthorizationPolicy.SUPERVISED_PROJECTS:
        supervised = tuple(p for p in ctx.supervised_project_ids if p in own)
        if selected is not None:
            supervised = (selected,) if selected in supervised else ()
        if not supervised:
            return _deny(ReasonCode.PROJECT_NOT_SUPERVISED)
        return PolicyDecision(True, ReasonCode.ALLOWED, project_ids=supervised)
    return PolicyDecision(True, ReasonCode.ALLOWED, project_ids=tuple(ctx.project_ids))


def decide(
    ctx: ExecutionContext,
    facts: ToolPolicyFacts,
    *,
    intent: Intent,
    consent_valid: bool,
    has_attachment: bool,
) -> PolicyDecision:
    """Decide one call: identity, role, intent, project scope, attachment, consent — in that order.

    DRAFT tools are allowed to *draft* only: the decision says `requires_confirmation`,
    and the write happens elsewhere after the user confirms.
    """
    if not _identity_consistent(ctx):
        return _deny(ReasonCode.IDENTITY_MISMATCH)
    operator = is_operator_identity(ctx)
    if facts.code not in ROLE_TOOLS[ctx.role]:
        return _deny(ReasonCode.OPERATOR_PREVIEW_READ_ONLY if operator else ReasonCode.ROLE_NOT_ALLOWED)
    if operator and facts.kind is not ToolKind.READ:
        return _deny(ReasonCode.OPERATOR_PREVIEW_READ_ONLY)
    if intent not in facts.allowed_intents:
        return _deny(ReasonCode.INTENT_NOT_ALLOWED)
    scope = authorized_projects(ctx, facts.authorization)
    if not scope.allowed:
        return scope
    if facts.needs_attachment and not has_attachment:
        return _deny(ReasonCode.ATTACHMENT_REQUIRED)
    if facts.needs_consent and not consent_valid:
        return _deny(ReasonCode.CONSENT_REQUIRED)
    return PolicyDecision(
        True,
        ReasonCode.ALLOWED,
        requires_confirmation=facts.needs_confirmation or facts.kind is ToolKind.DRAFT,
        project_ids=scope.project_ids,
    )
