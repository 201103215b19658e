"""This round's gated inputs: the only evidence a composer may use and a verifier may accept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shifu.contracts.common import EvidenceNeed
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import DocumentEvidence, VerifiedFact


@dataclass(frozen=True, slots=True)
class GatedEvidence:
    """Qualified documents and facts of covered slots, and which slot each one covers."""

    documents: Mapping[str, DocumentEvidence]
    """citation id → qualified fragment."""
    facts: Mapping[str, VerifiedFact]
    """fact ref → qualified fact."""
    needs_by_citation: Mapping[str, frozenset[EvidenceNeed]]
    """Which covered slots each citation covers."""
    needs_by_fact: Mapping[str, frozenset[EvidenceNeed]]
    """Which covered slots each fact covers."""
    covered_needs: frozenset[EvidenceNeed]
    """Slots the answer may speak to."""
    uncovered_needs: tuple[EvidenceNeed, ...]
    """Slots the answer must not speak to."""

    @classmethod
    def from_decision(
        cls,
        decision: DecisionResult,
        documents: Sequence[DocumentEvidence],
        facts: Sequence[VerifiedFact],
    ) -> GatedEvidence:
        """Keep only what the decision qualified for a covered slot; everything else is invisible."""
        by_citation: dict[str, set[EvidenceNeed]] = {}
        by_fact: dict[str, set[EvidenceNeed]] = {}
        for slot in decision.slots:
            if not slot.covered:
                continue
            for cid in slot.citation_ids:
                by_citation.setdefault(cid, set()).add(slot.need)
            for ref in slot.fact_refs:
                by_fact.setdefault(ref, set()).add(slot.need)
        qualified_ids = set(decision.qualified_citation_ids) & set(by_citation)
        qualified_refs = set(decision.qualified_fact_refs) & set(by_fact)
        return cls(
            documents={doc.citation_id: doc for doc in documents if doc.citation_id in qualified_ids},
            facts={fact.fact_ref: fact for fact in facts if fact.fact_ref in qualified_refs},
            needs_by_citation={cid: frozenset(needs) for cid, needs in by_citation.items()},
            needs_by_fact={ref: frozenset(needs) for ref, needs in by_fact.items()},
            covered_needs=frozenset(slot.need for slot in decision.slots if slot.covered),
            uncovered_needs=tuple(slot.need for slot in decision.slots if not slot.covered),
        )
