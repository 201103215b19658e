"""Which decisions may be composed at all, and the single entry point the runtime calls.

Invariant 6: zero qualified evidence → NO_EVIDENCE and no answer model is called. CONFLICT
and NEEDS_INPUT are not composed either: the user must see the disagreement or choose a
version first. Those answers are fixed templates built from the decision's structure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from shifu.answer.wording import (
    CONFLICT_SUMMARY,
    NO_EVIDENCE_SUMMARY,
    VERSION_SUMMARY,
    clarifying_questions,
    missing_information,
)
from shifu.contracts.answer import GroundedAnswer
from shifu.contracts.common import DecisionStatus
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import DocumentEvidence, VerifiedFact
from shifu.contracts.plan import SemanticQueryPlan

ANSWER_GENERATION_SKIPPED = "ANSWER_GENERATION_SKIPPED"
NOT_COMPOSED = "NONE"


class Composer(Protocol):
    """Anything that turns a composable decision into a GroundedAnswer (extractive or model)."""

    def compose(
        self,
        plan: SemanticQueryPlan,
        decision: DecisionResult,
        documents: Sequence[DocumentEvidence],
        facts: Sequence[VerifiedFact],
    ) -> GroundedAnswer:
        """Compose from gated inputs only."""
        ...


def should_compose(decision: DecisionResult) -> bool:
    """True only for ANSWERED and PARTIAL: there is qualified evidence and no disagreement."""
    return decision.status in (DecisionStatus.ANSWERED, DecisionStatus.PARTIAL)


def skipped_answer(plan: SemanticQueryPlan, decision: DecisionResult) -> GroundedAnswer:
    """The fixed answer for NO_EVIDENCE / CONFLICT / NEEDS_INPUT; reads no evidence text."""
    if decision.status is DecisionStatus.CONFLICT:
        summary = CONFLICT_SUMMARY
    elif decision.status is DecisionStatus.NEEDS_INPUT:
        summary = VERSION_SUMMARY if decision.conflicts else "还需要补充一些信息才能回答。"
    else:
        summary = NO_EVIDENCE_SUMMARY
    return GroundedAnswer(
        summary=summary,
        missing_information=missing_information(decision, plan.domain),
        clarifying_questions=clarifying_questions(decision.conflicts),
        composer=NOT_COMPOSED,
        composer_reason_code=ANSWER_GENERATION_SKIPPED,
    )


def compose_for(
    composer: Composer,
    plan: SemanticQueryPlan,
    decision: DecisionResult,
    documents: Sequence[DocumentEvidence],
    facts: Sequence[VerifiedFact],
) -> GroundedAnswer:
    """Call `composer` only when `should_compose(decision)`; otherwise return the fixed answer."""
    if not should_compose(decision):
        return skipped_answer(plan, decision)
    return composer.compose(plan, decision, documents, facts)
