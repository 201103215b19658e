"""Is a fragment's document the one a resource request names?

把员工费用报销制度的文件发我 asks for one document. The best search hit among the documents the
user may see is not that document when the user may not see it (a candidate, another project's
staff): delivering whatever ranks first would hand over 候选人资料提交说明 as if it were the
reimbursement policy. A document is delivered for a request only when its title, heading path and
text cover the request's subject as the evidence gate's relevance check measures it; the delivery
wording (文件, 原文, 视频, 发我 …) is no part of the subject.
"""

from __future__ import annotations

import re

from shifu.contracts.evidence import DocumentEvidence
from shifu.evidence.relevance import fragment_haystack, relevance
from shifu.nlp.terms import QuestionTerms, question_terms

_DELIVERY_WORDS = re.compile(
    r"原文件|原文|原件|全文|文件|文档|附件|视频|录像|录屏|下载|链接|PDF|pdf|Word|word|"
    r"发给我|发我|给我|发一下|发一份|一份|传给我|看看|看一下|打开"
)


def requested_terms(request: str) -> QuestionTerms:
    """The subject terms of a resource request, its delivery wording left out."""
    return question_terms(_DELIVERY_WORDS.sub(" ", request))


def is_requested(terms: QuestionTerms, document: DocumentEvidence) -> bool:
    """True when the fragment's document is about what the request names.

    A request that names no subject (把那个文件发我, with nothing cited before) names no document.
    """
    if terms.empty:
        return False
    return relevance(terms, fragment_haystack(document, document.text)).relevant
