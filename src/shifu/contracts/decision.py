"""The evidence evaluator's verdict (seed 000 DecisionResult)."""

from __future__ import annotations

from pydantic import Field

from shifu.contracts.common import Contract, DecisionStatus, EvidenceNeed
from shifu.contracts.evidence import Conflict, Gap


class SlotCoverage(Contract):
    """Whether one evidence need is covered, and by what."""

    need: EvidenceNeed
    """The evidence slot."""
    covered: bool
    """True only when all four qualification conditions hold."""
    citation_ids: tuple[str, ...] = ()
    """Qualified document evidence covering it."""
    fact_refs: tuple[str, ...] = ()
    """Qualified live facts covering it."""
    reason_code: str | None = None
    """Why it is not covered (GOVERNANCE, LABEL_MISSING, BODY_UNSUPPORTED, CALIBER_MISMATCH …)."""


class DecisionResult(Contract):
    """ANSWERED / PARTIAL / NEEDS_INPUT / NO_EVIDENCE / CONFLICT and the slot detail."""

    status: DecisionStatus
    """The verdict."""
    slots: list[SlotCoverage] = Field(default_factory=list)
    """Per-need coverage."""
    qualified_citation_ids: tuple[str, ...] = ()
    """Every citation that passed the gates this round."""
    qualified_fact_refs: tuple[str, ...] = ()
    """Every fact that passed the gates this round."""
    gaps: list[Gap] = Field(default_factory=list)
    """What is missing."""
    conflicts: list[Conflict] = Field(default_factory=list)
    """Disagreeing qualified sources."""
    reason_codes: tuple[str, ...] = ()
    """Structured reasons (ANSWER_GENERATION_SKIPPED …)."""
    domain_result: str | None = None
    """Domain-level result code (NO_TASKS, TASKS_FOUND …)."""
