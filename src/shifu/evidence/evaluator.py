"""Per-slot evidence qualification and the DecisionResult (seed 000 证据资格与结论校验).

A document covers a slot only when all hold: (1) governance passes; (2) its candidate
labels name the need AND the mapped claim type; (3) the body independently supports
that claim type (and, for amounts, the question's amount and caliber); (4) the claim
check passes — the answer package's ClaimVerifier re-checks every composed claim
against the cited spans. Live state is covered only by fresh, re-authorized facts.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime

from pydantic import JsonValue

from shifu.contracts.common import DecisionStatus, EvidenceNeed, Role, ToolCode, ToolStatus
from shifu.contracts.decision import DecisionResult, SlotCoverage
from shifu.contracts.evidence import Conflict, DocumentEvidence, Gap, ToolResult, VerifiedFact
from shifu.contracts.plan import SemanticQueryPlan
from shifu.evidence.caliber import AMOUNT_NOT_MATCHED, CALIBER_MISMATCH, AmountTarget
from shifu.evidence.conflicts import VERSION, find_conflicts, sibling_versions
from shifu.evidence.governance import document_rejection, fact_rejection
from shifu.evidence.slots import (
    QuestionView,
    SlotOutcome,
    fragment_relevance,
    judge_document_slot,
    trim_covering,
    written_for_need,
)
from shifu.evidence.versions import current_versions, lacks_newest_version, missing_versions, not_requested

logger = logging.getLogger(__name__)

ANSWER_GENERATION_SKIPPED = "ANSWER_GENERATION_SKIPPED"
AMOUNT_PREMISE_UNSUPPORTED = "AMOUNT_PREMISE_UNSUPPORTED"
"""A covered slot dropped because the question's amount has no rule (seed 000: fail closed)."""
NO_QUALIFIED_SOURCE = "NO_QUALIFIED_SOURCE"

LIVE_TOOLS: frozenset[ToolCode] = frozenset(
    {
        ToolCode.MY_CURRENT_TASKS,
        ToolCode.MY_PRACTICE_SUMMARY,
        ToolCode.TEAM_PRACTICE_SUMMARY,
        ToolCode.MY_WORK_RESULTS,
        ToolCode.TEAM_WORK_RESULTS,
        ToolCode.MY_CANDIDATE_PROGRESS,
        ToolCode.CAPABILITY_QUERY,
    }
)
"""Tools whose results are VERIFIED_FACTs; calling one implies a LIVE_STATE slot."""


def effective_needs(plan: SemanticQueryPlan) -> list[EvidenceNeed]:
    """The plan's slots; a bare knowledge search asks for GENERAL_RULE, a live tool for LIVE_STATE.

    A search planned beside a live read (加班费咋算，还有我今天有啥活) with no document need of its own
    still asks for GENERAL_RULE: its results are judged, never silently left out of the answer.
    """
    needs = list(dict.fromkeys(plan.evidence_needs))
    tools = {call.tool for call in plan.tool_calls}
    document_needs = [need for need in needs if need is not EvidenceNeed.LIVE_STATE]
    if not document_needs and ToolCode.KNOWLEDGE_SEARCH in tools:
        needs.append(EvidenceNeed.GENERAL_RULE)
    if tools & LIVE_TOOLS and EvidenceNeed.LIVE_STATE not in needs:
        needs.append(EvidenceNeed.LIVE_STATE)
    return needs


def _collect(results: Sequence[ToolResult]) -> tuple[list[DocumentEvidence], list[VerifiedFact]]:
    docs: dict[str, DocumentEvidence] = {}
    facts: dict[str, VerifiedFact] = {}
    for result in results:
        if result.status is not ToolStatus.OK:
            continue
        for doc in result.documents:
            docs.setdefault(doc.citation_id, doc)
        for fact in result.facts:
            facts.setdefault(fact.fact_ref, fact)
    return list(docs.values()), list(facts.values())


VERSION_NOT_FOUND = "VERSION_NOT_FOUND"


class EvidenceEvaluator:
    """Turns this round's tool results into a DecisionResult, slot by slot, failing closed."""

    def evaluate(
        self,
        plan: SemanticQueryPlan,
        results: Sequence[ToolResult],
        *,
        on_date: date,
        now: datetime | None = None,
        role: Role | None = None,
    ) -> DecisionResult:
        """Qualify every document and fact against every slot of the plan.

        `now` and `role` re-check live facts (TTL and the authorization snapshot's role);
        without them no fact qualifies. `role` also enforces a document's role scope.
        """
        docs, facts = _collect(results)
        needs = effective_needs(plan)
        view = QuestionView.of(plan)
        target = view.target
        relevant = fragment_relevance(view, docs)
        governance = {doc.citation_id: document_rejection(doc, on_date=on_date, role=role) for doc in docs}
        dropped = not_requested(plan, docs, in_force=lambda doc: governance[doc.citation_id] is None)
        fact_gate = {fact.fact_ref: fact_rejection(fact, now=now, role=role) for fact in facts}

        outcomes = [
            self._live_slot(need, facts, fact_gate)
            if need is EvidenceNeed.LIVE_STATE
            else judge_document_slot(
                need, docs, governance=governance, not_requested=dropped, view=view, relevant=relevant
            )
            for need in needs
        ]
        qualified = [
            doc for doc in docs if governance[doc.citation_id] is None and doc.citation_id not in dropped
        ]
        conflicts = [c for result in results for c in result.conflicts]
        for outcome in outcomes:
            compared = written_for_need(outcome.covering, outcome.need)
            if lacks_newest_version(compared, qualified):
                compared = outcome.covering
            siblings = sibling_versions(compared, qualified) if compared else []
            found = find_conflicts(
                outcome.need,
                compared,
                about_subject=view.about_subject,
                siblings=siblings,
                claim_score=view.claim_score,
                states_claim=view.states_claim,
            )
            if found:
                conflicts += found
                outcome.reason = (
                    "VERSION_CONFLICT" if all(c.kind == VERSION for c in found) else "SOURCE_CONFLICT"
                )
                outcome.covering = []
            outcome.covering = current_versions(outcome.covering)
            trim_covering(outcome, relevant)
        missing = missing_versions(plan, docs, dropped)
        decision = self._decide(plan, results, outcomes, conflicts, target, facts, missing)
        logger.info(
            "evidence evaluated",
            extra={
                "decision": decision.status.value,
                "slots": len(decision.slots),
                "covered": sum(1 for slot in decision.slots if slot.covered),
                "documents": len(docs),
                "facts": len(facts),
            },
        )
        return decision

    @staticmethod
    def _live_slot(
        need: EvidenceNeed, facts: Sequence[VerifiedFact], gate: dict[str, str | None]
    ) -> SlotOutcome:
        outcome = SlotOutcome(need=need, reason="NO_VERIFIED_FACT")
        for fact in facts:
            rejection = gate[fact.fact_ref]
            if rejection is None:
                outcome.fact_refs.append(fact.fact_ref)
            else:
                outcome.reason = rejection
        return outcome

    @staticmethod
    def _decide(
        plan: SemanticQueryPlan,
        results: Sequence[ToolResult],
        outcomes: Sequence[SlotOutcome],
        conflicts: list[Conflict],
        target: AmountTarget,
        facts: Sequence[VerifiedFact],
        missing_versions: Sequence[str],
    ) -> DecisionResult:
        slots: list[SlotCoverage] = []
        gaps: list[Gap] = [gap for result in results for gap in result.gaps]
        for outcome in outcomes:
            citation_ids = tuple(item.doc.citation_id for item in outcome.covering)
            covered = bool(citation_ids or outcome.fact_refs)
            slots.append(
                SlotCoverage(
                    need=outcome.need,
                    covered=covered,
                    citation_ids=citation_ids,
                    fact_refs=tuple(outcome.fact_refs),
                    reason_code=None if covered else outcome.reason,
                )
            )
            if not covered:
                gaps.append(_gap_for(outcome, target, missing_versions))
        slots = _without_an_unsupported_amount_premise(slots, target)
        qualified_citations = tuple(dict.fromkeys(cid for slot in slots for cid in slot.citation_ids))
        qualified_facts = tuple(dict.fromkeys(ref for slot in slots for ref in slot.fact_refs))
        reason_codes = [
            f"TOOL_{result.status.value}" for result in results if result.status is not ToolStatus.OK
        ]
        covered_count = sum(1 for slot in slots if slot.covered)
        if conflicts:
            status = (
                DecisionStatus.NEEDS_INPUT
                if all(conflict.kind == VERSION for conflict in conflicts)
                else DecisionStatus.CONFLICT
            )
        elif covered_count == 0:
            status = DecisionStatus.NO_EVIDENCE
            reason_codes.append(ANSWER_GENERATION_SKIPPED)
            if not slots:
                reason_codes.append("NO_EVIDENCE_NEEDS")
        elif covered_count == len(slots):
            status = DecisionStatus.ANSWERED
        else:
            status = DecisionStatus.PARTIAL
        qualified_fact_set = set(qualified_facts)
        return DecisionResult(
            status=status,
            slots=slots,
            qualified_citation_ids=qualified_citations,
            qualified_fact_refs=qualified_facts,
            gaps=gaps,
            conflicts=conflicts,
            reason_codes=tuple(dict.fromkeys(reason_codes)),
            domain_result=_domain_result([f for f in facts if f.fact_ref in qualified_fact_set]),
        )


def _without_an_unsupported_amount_premise(
    slots: list[SlotCoverage], target: AmountTarget
) -> list[SlotCoverage]:
    """No document answers the rest of a question whose amount no rule covers.

    一笔500的采购怎么报 asks about a 500元 single purchase: with no rule for that amount and caliber,
    the 零星采购 procedure would answer a case the question may not be (seed 000: fail closed, keep
    the amount as a gap). Document-backed slots are dropped; verified live facts still stand.
    """
    premise_missing = target.is_constrained and any(
        slot.need is EvidenceNeed.AMOUNT_RULE and not slot.covered for slot in slots
    )
    if not premise_missing:
        return slots
    return [
        slot.model_copy(
            update={"covered": False, "citation_ids": (), "reason_code": AMOUNT_PREMISE_UNSUPPORTED}
        )
        if slot.covered and not slot.fact_refs
        else slot
        for slot in slots
    ]


def _gap_for(outcome: SlotOutcome, target: AmountTarget, missing_versions: Sequence[str] = ()) -> Gap:
    if missing_versions and outcome.reason == "VERSION_NOT_REQUESTED":
        detail: dict[str, JsonValue] = {"rejection": outcome.reason, "versions": list(missing_versions)}
        return Gap(need=outcome.need, reason_code=VERSION_NOT_FOUND, detail=detail)
    if outcome.need is EvidenceNeed.AMOUNT_RULE and target.is_constrained:
        reason = (
            outcome.reason
            if outcome.reason in (CALIBER_MISMATCH, AMOUNT_NOT_MATCHED)
            else NO_QUALIFIED_SOURCE
        )
        detail = target.detail()
        detail["rejection"] = outcome.reason
        return Gap(need=outcome.need, reason_code=reason, detail=detail)
    reason = (
        outcome.reason if outcome.reason in ("SOURCE_CONFLICT", "VERSION_CONFLICT") else NO_QUALIFIED_SOURCE
    )
    return Gap(need=outcome.need, reason_code=reason, detail={"rejection": outcome.reason})


def _domain_result(facts: Sequence[VerifiedFact]) -> str | None:
    types = {fact.fact_type for fact in facts}
    if "NO_TASKS" in types:
        return "NO_TASKS"
    if "TASK" in types:
        return "TASKS_FOUND"
    return None
