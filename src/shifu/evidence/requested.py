"""Is a fragment's document the one a resource request names?

把员工费用报销制度的文件发我 asks for one document. The best search hit among the documents the
user may see is not that document when the user may not see it (a candidate, another project's
staff): delivering whatever ranks first would hand over 候选人资料提交说明 as if it were the
reimbursement policy. A document is delivered for a request only when its title, heading path and
text cover the request's subject as the evidence gate's relevance check measures it (the delivery
wording — 文件, 原文, 视频, 发我 … — is no part of the subject), or when the request spells its title.
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


TITLE_MIN_CHARS = 4
"""A title shorter than this without its kind word (员工手册 → 员工) says too little to name a document."""
_TITLE_KIND = re.compile(r"(?:管理)?(?:制度|规程|规定|办法|细则|指引|说明|手册|作业指导书|指导书|流程|SOP)$")


def names_title(request: str, document: DocumentEvidence) -> bool:
    """True when the request spells the document's title, its kind word (制度, 规程, SOP …) aside.

    电梯困人应急处置规程原文件发我（另附备注） names its document whatever else it says.
    """
    core = _TITLE_KIND.sub("", document.title.replace(" ", ""))
    return len(core) >= TITLE_MIN_CHARS and core in request.replace(" ", "")


_ASKS_FOR_A_RULEBOOK = re.compile(r"制度|规程|规定|办法|细则|指引|手册|指导书|SOP|sop")
"""报销制度发我 asks for the document about 报销 (its title says so), not for any section that
mentions 报销 in passing (a candidate's 体检费用…凭发票报销)."""


def requested_terms(request: str) -> QuestionTerms:
    """The subject terms of a resource request, its delivery wording left out."""
    return question_terms(_DELIVERY_WORDS.sub(" ", request))


def is_requested(request: str, document: DocumentEvidence) -> bool:
    """True when the request spells the document's title or the fragment is about the request's subject.

    A request for a rulebook (…制度, …规程, …SOP) is about the subject its title names. A request that
    names no subject (把那个文件发我, with nothing cited before) names no document.
    """
    if names_title(request, document):
        return True
    terms = requested_terms(request)
    if terms.empty:
        return False
    if _ASKS_FOR_A_RULEBOOK.search(request):
        return relevance(terms, document.title).relevant
    return relevance(terms, fragment_haystack(document, document.text)).relevant
