"""Re-authorization of references on reuse (invariant 4, seed 000 factRef rules).

A reference stored in turn n is only a pointer. Before turn n+1 uses it, the current
principal is compared with the scope and authorization the reference was created under:
any change refuses reuse (FORBIDDEN with a reason code, no data served); past its TTL the
caller reads it again through the registered tool. A cited document whose version was
retired or replaced is searched again instead of quoted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from shifu.context.state import CitationRefRecord, ConversationState, FactRefRecord
from shifu.contracts.common import Role
from shifu.contracts.context import ExecutionContext

SUPERVISED_POLICY = "SUPERVISED_PROJECTS"
"""Authorization policy code of team reads: projects must still be supervised."""


class RefOutcome(StrEnum):
    """What may be done with a stored fact reference now."""

    REUSABLE = "REUSABLE"
    """Same principal, same scope, within TTL: read the item through its tool with the stored call."""
    EXPIRED_REQUERY = "EXPIRED_REQUERY"
    """Past TTL: query the tool again (the item is located by its item key in the new listing)."""
    FORBIDDEN = "FORBIDDEN"
    """Scope or authorization changed: refuse, serve nothing."""


class FactRefReason(StrEnum):
    """Reason codes of a fact reference check."""

    OK = "OK"
    FACT_TTL_EXPIRED = "FACT_TTL_EXPIRED"
    TENANT_CHANGED = "REF_TENANT_CHANGED"
    APP_CHANGED = "REF_APP_CHANGED"
    USER_CHANGED = "REF_USER_CHANGED"
    CONVERSATION_CHANGED = "REF_CONVERSATION_CHANGED"
    PROJECT_CHANGED = "REF_PROJECT_CHANGED"
    ROLE_CHANGED = "REF_ROLE_CHANGED"
    PROJECT_ACCESS_REVOKED = "REF_PROJECT_ACCESS_REVOKED"
    OPERATOR_PREVIEW = "REF_OPERATOR_PREVIEW"


@dataclass(frozen=True)
class RefCheck:
    """Result of checking one fact reference against the current principal."""

    outcome: RefOutcome
    """What may be done."""
    reason: FactRefReason
    """Why (a stable code for audit and the response)."""

    @property
    def allowed(self) -> bool:
        """True when the tool may be called again for this reference."""
        return self.outcome is not RefOutcome.FORBIDDEN


def _scope_change(record: FactRefRecord, ctx: ExecutionContext) -> FactRefReason | None:
    scope = record.scope
    if ctx.is_operator_preview or ctx.role is Role.OPERATOR:
        return FactRefReason.OPERATOR_PREVIEW
    checks = (
        (scope.tenant_id != ctx.tenant_id, FactRefReason.TENANT_CHANGED),
        (scope.app_id != ctx.app_id, FactRefReason.APP_CHANGED),
        (scope.user_id != ctx.user_id, FactRefReason.USER_CHANGED),
        (scope.conversation_id != ctx.conversation_id, FactRefReason.CONVERSATION_CHANGED),
        (scope.project_id != ctx.selected_project_id, FactRefReason.PROJECT_CHANGED),
        (record.authorization.role is not ctx.role, FactRefReason.ROLE_CHANGED),
    )
    for changed, reason in checks:
        if changed:
            return reason
    allowed = set(ctx.project_ids)
    if record.authorization.policy == SUPERVISED_POLICY:
        allowed = set(ctx.supervised_project_ids)
    if not set(record.authorization.project_ids) <= allowed:
        return FactRefReason.PROJECT_ACCESS_REVOKED
    return None


def check_fact_ref(record: FactRefRecord, ctx: ExecutionContext, now: datetime) -> RefCheck:
    """May this reference be used by the current principal now? Authorization is checked before TTL."""
    reason = _scope_change(record, ctx)
    if reason is not None:
        return RefCheck(RefOutcome.FORBIDDEN, reason)
    if now >= record.expires_at:
        return RefCheck(RefOutcome.EXPIRED_REQUERY, FactRefReason.FACT_TTL_EXPIRED)
    return RefCheck(RefOutcome.REUSABLE, FactRefReason.OK)


class CitationOutcome(StrEnum):
    """What may be done with a stored citation now."""

    CURRENT = "CURRENT"
    """The cited version is still the current one: re-read the fragment and use it."""
    RETIRED_RESEARCH = "RETIRED_RESEARCH"
    """The version was retired or replaced: search again (or report it), never quote the old one."""


class CitationReason(StrEnum):
    """Reason codes of a citation check."""

    OK = "OK"
    DOCUMENT_RETIRED = "DOCUMENT_RETIRED"
    DOCUMENT_VERSION_CHANGED = "DOCUMENT_VERSION_CHANGED"


@dataclass(frozen=True)
class CitationCheck:
    """Result of checking one citation against the document's current version."""

    outcome: CitationOutcome
    """What may be done."""
    reason: CitationReason
    """Why."""


def check_citation_ref(record: CitationRefRecord, current_version: str | None) -> CitationCheck:
    """Compare a stored citation with the version the knowledge layer serves now.

    `current_version` is what the knowledge layer returns when it re-reads the fragment
    under the current principal; None means it is retired, gone or no longer readable.
    """
    if current_version is None:
        return CitationCheck(CitationOutcome.RETIRED_RESEARCH, CitationReason.DOCUMENT_RETIRED)
    if current_version != record.document_version:
        return CitationCheck(CitationOutcome.RETIRED_RESEARCH, CitationReason.DOCUMENT_VERSION_CHANGED)
    return CitationCheck(CitationOutcome.CURRENT, CitationReason.OK)


def find_fact_ref(state: ConversationState, ref_id: str) -> FactRefRecord | None:
    """The stored record of a factRef id, or None (an unknown id never resolves to a guess)."""
    return next((r for r in state.fact_refs if r.ref_id == ref_id), None)


def find_citation(state: ConversationState, citation_id: str) -> CitationRefRecord | None:
    """The stored record of a citation id, or None."""
    return next((c for c in state.citations if c.citation_id == citation_id), None)
