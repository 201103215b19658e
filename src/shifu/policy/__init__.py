"""Policy gate (L2): role → tools, project scope, consent, attachment and confirmation rules.

Pure functions over the trusted ExecutionContext; see `gate.decide`.
"""

from shifu.policy.gate import authorized_projects, check_arguments, decide, is_operator_identity
from shifu.policy.rules import (
    ROLE_TOOLS,
    AuthorizationPolicy,
    PolicyDecision,
    ReasonCode,
    ToolPolicyFacts,
    roles_for,
)

__all__ = [
    "ROLE_TOOLS",
    "AuthorizationPolicy",
    "PolicyDecision",
    "ReasonCode",
    "ToolPolicyFacts",
    "authorized_projects",
    "check_arguments",
    "decide",
    "is_operator_identity",
    "roles_for",
]
