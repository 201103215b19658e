"""Governance gate: may this document or fact serve as evidence at all, today, for this role?

Seed 000 condition 1: authority, kind, version, validity period and scope. Live state
only from unexpired VERIFIED_FACTs read under the same role. Returns a reason code
instead of raising, so every rejection is explained in the DecisionResult.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from shifu.contracts.common import LAW_AUTHORITIES, Authority, Environment, Lifecycle, Role, Verification
from shifu.contracts.evidence import DocumentEvidence, VerifiedFact

RULE_AUTHORITIES: frozenset[Authority] = frozenset(
    {
        Authority.STATUTE,
        Authority.REGULATION,
        Authority.JUDICIAL_INTERPRETATION,
        Authority.DEPARTMENTAL_RULE,
        Authority.COMPANY_POLICY,
        Authority.SOP,
        Authority.MANUAL,
    }
)
"""Authorities a policy or process conclusion may rest on; CASE and INTERVIEW never qualify."""


ANECDOTAL_KINDS: frozenset[str] = frozenset({"案例", "访谈", "case", "interview"})
"""Document kinds that describe what happened once, never what the rule is."""


def document_rejection(doc: DocumentEvidence, *, on_date: date, role: Role | None = None) -> str | None:
    """Why this document cannot be evidence on `on_date`, or None when it passes governance.

    An operator previews the content every role sees (the knowledge search is not narrowed by
    document roles for them either, `SearchAccess.to_filter`); every other role must be one the
    document is written for.
    """
    if doc.authority not in RULE_AUTHORITIES:
        return "AUTHORITY_NOT_ACCEPTED"
    if doc.kind.strip().lower() in ANECDOTAL_KINDS:
        return "KIND_NOT_ACCEPTED"
    if doc.lifecycle is not Lifecycle.PUBLISHED:
        return "NOT_PUBLISHED"
    if doc.verification is not Verification.HUMAN_VERIFIED:
        return "NOT_VERIFIED"
    if doc.environment != Environment.PRODUCTION.value:
        return "NOT_PRODUCTION"
    if not doc.version.strip():
        return "VERSION_MISSING"
    if doc.effective_from is None and doc.authority not in LAW_AUTHORITIES:
        return "EFFECTIVE_DATE_MISSING"
    if doc.effective_from is not None and doc.effective_from > on_date:
        return "NOT_YET_EFFECTIVE"
    if doc.effective_to is not None and doc.effective_to < on_date:
        return "EXPIRED"
    if role is not None and role is not Role.OPERATOR and doc.scope.roles and role not in doc.scope.roles:
        return "SCOPE_ROLE_MISMATCH"
    return None


def fact_rejection(fact: VerifiedFact, *, now: datetime | None, role: Role | None) -> str | None:
    """Why this live fact cannot be evidence now, or None when it is fresh and re-authorized.

    Without a clock or a current role the fact cannot be re-checked, so it fails closed.
    """
    if now is None:
        return "FACT_CLOCK_MISSING"
    if role is None:
        return "FACT_ROLE_MISSING"
    if fact.queried_at.tzinfo is None or now.tzinfo is None:
        return "FACT_TIME_NAIVE"
    if fact.queried_at > now + timedelta(seconds=5):
        return "FACT_FROM_FUTURE"
    if fact.queried_at + timedelta(seconds=fact.ttl_seconds) < now:
        return "FACT_EXPIRED"
    if fact.authorization.role is not role:
        return "FACT_ROLE_MISMATCH"
    return None
