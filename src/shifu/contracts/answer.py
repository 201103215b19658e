"""The grounded answer: every statement and step bound to this round's gated evidence."""

from __future__ import annotations

from pydantic import Field

from shifu.contracts.common import Contract, EvidenceNeed


class Statement(Contract):
    """One claim of the answer and what supports it."""

    text: str
    """The claim."""
    need: EvidenceNeed | None = None
    """The slot it answers."""
    citation_ids: tuple[str, ...] = ()
    """Supporting document evidence."""
    fact_refs: tuple[str, ...] = ()
    """Supporting live facts."""


class Step(Contract):
    """One step of a procedure and what supports it."""

    order: int = Field(ge=1)
    """1-based position."""
    text: str
    """What to do."""
    citation_ids: tuple[str, ...]
    """Supporting document evidence."""


class GroundedAnswer(Contract):
    """Summary, statements, steps, missing information and clarifying questions."""

    summary: str
    """One-paragraph answer."""
    statements: list[Statement] = Field(default_factory=list)
    """Bound claims."""
    steps: list[Step] = Field(default_factory=list)
    """Bound steps, when the answer is a procedure."""
    missing_information: list[str] = Field(default_factory=list)
    """What the sources did not cover (never filled in)."""
    clarifying_questions: list[str] = Field(default_factory=list)
    """Questions back to the user."""
    composer: str = "EXTRACTIVE"
    """EXTRACTIVE or MODEL."""
    composer_reason_code: str | None = None
    """Why the extractive fallback ran, if it did."""
