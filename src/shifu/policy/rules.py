"""The role → tool table and the small facts about a tool the policy gate needs.

This module is the one source of truth for which role may call which tool (interfaces.md,
"Role → tools"). The tool registry (L3) reads it to describe each tool's allowed roles;
the gate reads it to decide. Policy sits in L2, so it cannot import the registry: the
registry hands the gate a `ToolPolicyFacts` instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from shifu.contracts.common import Intent, Role, ToolCode, ToolKind


class AuthorizationPolicy(StrEnum):
    """How a tool's scope is authorized beyond the role check."""

    SELF_ONLY = "SELF_ONLY"
    """Only the authenticated principal's own data (never an operator identity)."""
    SUPERVISED_PROJECTS = "SUPERVISED_PROJECTS"
    """Team data, only over projects the principal supervises; the selected project must be one."""
    SPACE_INTERSECTION = "SPACE_INTERSECTION"
    """Documents in the intersection of the principal's spaces and each document's scope."""
    REGISTERED_TOOLS = "REGISTERED_TOOLS"
    """Describes the registered tools the principal may use; reads no business data."""
    ATTACHMENT_SCOPE = "ATTACHMENT_SCOPE"
    """Only the attachments of the current request."""
    CONSENTED_EXTERNAL = "CONSENTED_EXTERNAL"
    """Leaves the company only after a valid consent."""


class ReasonCode(StrEnum):
    """Why the gate allowed or refused a call; stable codes for audit and tests."""

    ALLOWED = "ALLOWED"
    UNKNOWN_TOOL = "UNKNOWN_TOOL"
    ROLE_NOT_ALLOWED = "ROLE_NOT_ALLOWED"
    INTENT_NOT_ALLOWED = "INTENT_NOT_ALLOWED"
    PROJECT_NOT_ALLOWED = "PROJECT_NOT_ALLOWED"
    PROJECT_NOT_SUPERVISED = "PROJECT_NOT_SUPERVISED"
    OPERATOR_PREVIEW_READ_ONLY = "OPERATOR_PREVIEW_READ_ONLY"
    IDENTITY_MISMATCH = "IDENTITY_MISMATCH"
    CONSENT_REQUIRED = "CONSENT_REQUIRED"
    ATTACHMENT_REQUIRED = "ATTACHMENT_REQUIRED"
    SCOPE_FIELD_IN_ARGUMENTS = "SCOPE_FIELD_IN_ARGUMENTS"
    CONFIRMATION_FIELD_IN_ARGUMENTS = "CONFIRMATION_FIELD_IN_ARGUMENTS"


OPERATOR_PREFIX = "operator:"
"""Operator preview acts only as the fixed identity `operator:{userId}`."""

_EMPLOYEE_TOOLS = frozenset(
    {
        ToolCode.KNOWLEDGE_SEARCH,
        ToolCode.KNOWLEDGE_RESOURCE,
        ToolCode.MY_CURRENT_TASKS,
        ToolCode.MY_PRACTICE_SUMMARY,
        ToolCode.MY_WORK_RESULTS,
        ToolCode.CAPABILITY_QUERY,
        ToolCode.CAPTURE_MEMORY_DRAFT,
        ToolCode.WORK_REPORT_DRAFT,
        ToolCode.MEDIA_ANALYZE,
        ToolCode.WEB_RESEARCH,
    }
)

ROLE_TOOLS: dict[Role, frozenset[ToolCode]] = {
    Role.EMPLOYEE: _EMPLOYEE_TOOLS,
    Role.SUPERVISOR: _EMPLOYEE_TOOLS
    | {
        ToolCode.TEAM_PRACTICE_SUMMARY,
        ToolCode.TEAM_WORK_RESULTS,
        ToolCode.PRACTICE_ASSIGNMENT_DRAFT,
        ToolCode.REVIEW_DRAFT,
    },
    Role.CANDIDATE: frozenset(
        {
            ToolCode.KNOWLEDGE_SEARCH,
            ToolCode.KNOWLEDGE_RESOURCE,
            ToolCode.MY_CANDIDATE_PROGRESS,
            ToolCode.CAPABILITY_QUERY,
        }
    ),
    Role.OPERATOR: frozenset(
        {ToolCode.KNOWLEDGE_SEARCH, ToolCode.KNOWLEDGE_RESOURCE, ToolCode.CAPABILITY_QUERY}
    ),
}
"""Which tools each trusted role may call; anything else is FORBIDDEN."""

SCOPE_ARGUMENT_NAMES = frozenset(
    {
        "tenant",
        "tenantid",
        "user",
        "userid",
        "employee",
        "employeeid",
        "staffid",
        "project",
        "projectid",
        "projectids",
        "projectcode",
        "space",
        "spaceid",
        "spaceids",
        "app",
        "appid",
        "clientid",
        "role",
        "extpartyid",
        "externalid",
        "recipientid",
        "assigneeid",
        "phone",
        "mobile",
        "operator",
        "sql",
        "url",
        "endpoint",
    }
)
"""Argument names (lower-cased, `_`/`-` removed) that carry authorization scope or raw access.

A model never produces these (invariant 1); their presence voids the call before any
schema check, so the refusal is FORBIDDEN rather than a mere validation error.
"""

CONFIRMATION_ARGUMENT_NAMES = frozenset(
    {"confirmed", "confirmation", "isconfirmed", "userconfirmed", "approve", "approved", "idempotencykey"}
)
"""Argument names that would claim a confirmation only the user can give."""


def roles_for(tool: ToolCode) -> frozenset[Role]:
    """The roles allowed to call `tool`, read from `ROLE_TOOLS`."""
    return frozenset(role for role, tools in ROLE_TOOLS.items() if tool in tools)


@dataclass(frozen=True, slots=True)
class ToolPolicyFacts:
    """What the gate must know about one registered tool (handed over by the registry)."""

    code: ToolCode
    kind: ToolKind
    allowed_intents: frozenset[Intent]
    authorization: AuthorizationPolicy
    needs_attachment: bool = False
    needs_consent: bool = False
    needs_confirmation: bool = False


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    """An explicit decision: allowed or not, why, and what the caller must still do."""

    allowed: bool
    reason_code: ReasonCode
    requires_confirmation: bool = False
    """True for DRAFT tools: the draft may be shown, nothing is written before confirmation."""
    project_ids: tuple[str, ...] = ()
    """The project scope the call is authorized over (empty for project-less tools)."""


ALLOW = PolicyDecision(True, ReasonCode.ALLOWED)
