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
    """True for a knowledge question that names no subject and points at no document.

    "多久能到账" names what happened (到账), not to what: it is asked back like "要谁批".
    """
    if plan.intent is not Intent.KNOWLEDGE_QA:
        return False
    if any(reference.citation_id for reference in resolved.references):
        return False
    return not question_terms(plan.normalized_question).names_a_subject
