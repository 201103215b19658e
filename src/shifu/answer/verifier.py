"""Claim verifier: model output is untrusted input, checked claim by claim before it is shown.

Every statement and step must cite this round's gated evidence for a covered slot, every
number it states must appear in the cited spans (or the question, unless the question asks to
confirm that very figure), and its wording must
overlap the cited spans. Any violation sends the runtime back to the extractive answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from shifu.answer.extractive import describe_fact
from shifu.answer.gated import GatedEvidence
from shifu.answer.numbers import available_numbers, claimed_numbers
from shifu.contracts.answer import GroundedAnswer
from shifu.contracts.common import EvidenceNeed
from shifu.nlp.injection import strip_instructions
from shifu.nlp.quantities import confirms_a_figure

UNCITED_CLAIM = "UNCITED_CLAIM"
CITATION_NOT_GATED = "CITATION_NOT_GATED"
FACT_NOT_GATED = "FACT_NOT_GATED"
UNCOVERED_SLOT_CLAIM = "UNCOVERED_SLOT_CLAIM"
CITATION_SLOT_MISMATCH = "CITATION_SLOT_MISMATCH"
CLAIM_UNSUPPORTED_NUMBER = "CLAIM_UNSUPPORTED_NUMBER"
CLAIM_NOT_ENTAILED = "CLAIM_NOT_ENTAILED"

MIN_BIGRAM_OVERLAP = 0.5
"""Share of a claim's Chinese character bigrams that must occur in its cited spans."""

_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")


def _bigrams(text: str) -> set[str]:
    grams: set[str] = set()
    for run in _CJK_RUN.findall(text):
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    return grams


def _overlap(claim: str, source: str) -> float:
    grams = _bigrams(claim)
    if not grams:
        return 1.0
    return len(grams & _bigrams(source)) / len(grams)


class ClaimVerifier:
    """Checks a composed answer against the gated inputs; returns violation codes, first found first."""

    def verify(self, answer: GroundedAnswer, gated: GatedEvidence, question: str) -> list[str]:
        """Violation codes of every claim (empty when the answer may be shown)."""
        violations: list[str] = []
        # 押金是5000元对吧: the user's figure is what is being checked, never support for stating it.
        question_numbers = set() if confirms_a_figure(question) else available_numbers(question)
        claims: list[tuple[str, EvidenceNeed | None, tuple[str, ...], tuple[str, ...]]] = [
            (s.text, s.need, s.citation_ids, s.fact_refs) for s in answer.statements
        ]
        claims += [(step.text, EvidenceNeed.PROCESS_STEPS, step.citation_ids, ()) for step in answer.steps]
        for text, need, citation_ids, fact_refs in claims:
            violations += self._check_claim(text, need, citation_ids, fact_refs, gated, question_numbers)
        everything = " ".join(self._source_text(gated, gated.documents, gated.facts))
        if not claimed_numbers(answer.summary) <= available_numbers(everything) | question_numbers:
            violations.append(CLAIM_UNSUPPORTED_NUMBER)
        return list(dict.fromkeys(violations))

    def _check_claim(
        self,
        text: str,
        need: EvidenceNeed | None,
        citation_ids: tuple[str, ...],
        fact_refs: tuple[str, ...],
        gated: GatedEvidence,
        question_numbers: set[Decimal],
    ) -> list[str]:
        if not citation_ids and not fact_refs:
            return [UNCITED_CLAIM]
        found: list[str] = []
        if any(cid not in gated.documents for cid in citation_ids):
            found.append(CITATION_NOT_GATED)
        if any(ref not in gated.facts for ref in fact_refs):
            found.append(FACT_NOT_GATED)
        if need is not None and need not in gated.covered_needs:
            found.append(UNCOVERED_SLOT_CLAIM)
        if found:
            return found
        if need is not None:
            cited_needs = [gated.needs_by_citation.get(cid, frozenset()) for cid in citation_ids]
            cited_needs += [gated.needs_by_fact.get(ref, frozenset()) for ref in fact_refs]
            if not any(need in needs for needs in cited_needs):
                found.append(CITATION_SLOT_MISMATCH)
        source = " ".join(self._source_text(gated, citation_ids, fact_refs))
        if not claimed_numbers(text) <= available_numbers(source) | question_numbers:
            found.append(CLAIM_UNSUPPORTED_NUMBER)
        if _overlap(text, source) < MIN_BIGRAM_OVERLAP:
            found.append(CLAIM_NOT_ENTAILED)
        return found

    @staticmethod
    def _source_text(
        gated: GatedEvidence, citation_ids: Iterable[str], fact_refs: Iterable[str]
    ) -> list[str]:
        parts: list[str] = []
        for cid in citation_ids:
            doc = gated.documents[cid]
            parts.append(f"{doc.title} {doc.version} {doc.locator} {strip_instructions(doc.text)}")
        for ref in fact_refs:
            fact = gated.facts[ref]
            parts.append(f"{describe_fact(fact)} {fact.value}")
        return parts
