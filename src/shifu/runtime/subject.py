"""Knowledge questions that name no subject: asked back, never answered from whatever matched.

"超过30天还能报吗" as a conversation's first message names nothing a document could be about:
every fragment would pass the relevance gate, and the answer would quote reimbursement
deadlines, annual leave and a labour-law article side by side. After a knowledge question the
context layer lends the previous subject; with none to lend, the user is asked which matter
they mean. A question bound to a cited document ("刚才那份文件怎么说") has its subject.
"""

from __future__ import annotations

from shifu.contracts.common import Intent
from shifu.contracts.context import ResolvedContext
from shifu.contracts.plan import SemanticQueryPlan
from shifu.nlp.terms import question_terms

SUBJECT_MISSING = "SUBJECT_MISSING"
"""Reason code: a knowledge question without a subject, asked back."""


def lacks_subject(plan: SemanticQueryPlan, resolved: ResolvedContext) -> bool:
    """True for a knowledge question that names no salient term and points at no document."""
    if plan.intent is not Intent.KNOWLEDGE_QA:
        return False
    if any(reference.citation_id for reference in resolved.references):
        return False
    return question_terms(plan.normalized_question).empty
