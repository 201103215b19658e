"""Is a fragment ABOUT the question's subject? (seed 000 condition 3, for this question).

A fragment that states some rule is not evidence for every question: 公司食堂几点开饭 is not
answered by a labour-law article that happens to state a time, and a reimbursement policy
that excludes purchases does not answer a purchase question. This module scores how much
of the question's salient vocabulary a fragment's title, heading path and text cover,
deterministically, and names the most specific subject terms that must be covered.

The question's terms come from `nlp.terms` (salient words weighted by IDF, the most specific
ones required). A small table maps lay wording to statute wording (辞职 → 解除劳动合同), because
staff ask in the former and laws are written in the latter. Everything errs towards "not relevant".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from shifu.contracts.common import LAW_AUTHORITIES
from shifu.contracts.evidence import DocumentEvidence
from shifu.evidence.numerals import CN_NUMERAL_CHARS, parse_cn_integer
from shifu.nlp.lay_words import (
    HOURS_RANGE,
    LAY_SYNONYMS,
    ROLE_ACTS,
    TIMES_OF_DAY,
    interchangeable,
    interchangeable_beside,
)
from shifu.nlp.scope_sections import is_scope_section, scope_members, without_exclusions
from shifu.nlp.terms import QuestionTerms, Term, max_match, vocabulary

MIN_SCORE = 0.55
"""Weighted share of the question's terms a relevant fragment must cover."""
REQUIRED_COVERAGE = 0.75
"""How completely each required (most specific) term must be covered."""
_PARTIAL_HEAD = 0.5
"""Coverage of a long term when only its head (last two characters) is found."""


@lru_cache(maxsize=4096)
def _gapped(term: str) -> re.Pattern[str]:
    """The term's pieces in order with short gaps between them (年假 ~ 年休假, 月工资 ~ 月平均工资).

    Memoized with a bound: terms come from users' questions, so the memo must not grow forever.
    """
    if len(term) == 2:
        return re.compile(".{0,2}".join(re.escape(char) for char in term))
    pieces = max_match(term, vocabulary(), exclude=term)
    if len(pieces) == 1:
        return re.compile(re.escape(term))
    return re.compile(".{0,3}".join(re.escape(piece) for piece in pieces))


_LEADING_NUMERAL = re.compile(rf"^([{CN_NUMERAL_CHARS}]+)(?=[^{CN_NUMERAL_CHARS}])")


def _in_digits(term: str) -> str | None:
    """The term with its leading Chinese numeral in digits (一周岁 → 1周岁), or None."""
    match = _LEADING_NUMERAL.match(term)
    value = parse_cn_integer(match.group(1)) if match else None
    return None if value is None or match is None else f"{value}{term[match.end() :]}"


def term_coverage(term: str, haystack: str) -> float:
    """How completely `haystack` covers `term`: exact (numerals either way: 一周岁 ~ 1周岁), a lay
    synonym, an interchangeable word (举办 ~ 举行), a range of hours for a time of day (晚上 ~ 8:00至18:00),
    its pieces in order, or its role stated as an act
    (审批人 ~ 由…审批) → 1.

    Pieces may sit a few characters apart (书面通知 ~ 以书面形式通知); a long term whose
    head alone (its last two characters) is found counts half, never enough to be required.
    """
    if term in haystack:
        return 1.0
    digits = _in_digits(term)
    if digits is not None and digits in haystack:
        return 1.0
    if any(synonym in haystack for synonym in LAY_SYNONYMS.get(term, ())):
        return 1.0
    if any(word in haystack for word in interchangeable(term)):
        return 1.0
    if term in TIMES_OF_DAY and HOURS_RANGE.search(haystack):
        return 1.0
    if _gapped(term).search(haystack) or _filled_by_its_act(term, haystack):
        return 1.0
    if _counted_by_its_act(term, haystack):
        return 1.0
    if len(term) > 2 and term[-2:] in haystack:
        return _PARTIAL_HEAD
    return 0.0


_MEASURE = re.compile(r"^([\u4e00-\u9fff]{2,})[量率额]$")


def _counted_by_its_act(term: str, haystack: str) -> bool:
    """True when a measure is stated as its act with the figure close after it.

    发送量 ~ 发送旅客3473.6万人次, 增长率 ~ 增长2.6%; 发送工作平稳 (no figure) states no measure.
    """
    match = _MEASURE.match(term)
    if match is None:
        return False
    return re.search(re.escape(match.group(1)) + r"[^，,。；;\d]{0,4}\d", haystack) is not None


def _filled_by_its_act(term: str, haystack: str) -> bool:
    """True when the term ends with a role the text states as its act (金牌得主 ~ 获得金牌)."""
    for role, acts in ROLE_ACTS.items():
        if term.endswith(role) and any(act in haystack for act in acts):
            stem = term[: -len(role)]
            return not stem or term_coverage(stem, haystack) >= 1.0
    return False


@dataclass(frozen=True, slots=True)
class Relevance:
    """How well one fragment covers one question."""

    score: float
    """Weighted share of the question's terms covered (0..1)."""
    required_covered: bool
    """Every most-specific term is covered."""
    lent: tuple[str, ...] = ()
    """Question terms the fragment covers only through its document's scope section (灯泡, 事假)."""

    @property
    def relevant(self) -> bool:
        """The fragment is about the question's subject."""
        return self.required_covered and self.score >= MIN_SCORE


def fragment_heading(doc: DocumentEvidence) -> str:
    """A fragment's title, heading path and locator: what names the subject of all it says."""
    return "\n".join((doc.title, *doc.heading_path, doc.locator))


def fragment_haystack(doc: DocumentEvidence, body: str, terms: QuestionTerms | None = None) -> str:
    """Everything a fragment says about its subject: title, heading path, locator and body.

    A sentence that excludes something from the document's scope does not make the document
    about that thing, so exclusion sentences are left out, unless with the fragment's headings
    they name every required term of the question (`terms`): 办公设备能走零星采购吗 is answered
    by 办公设备…不属于零星采购. A statute's definition speaks of what it defines, not of the examples
    in its meaning (`_without_unasked_meanings`).
    """
    heading = fragment_heading(doc)

    def asked_about(sentence: str) -> bool:
        return terms is not None and not terms.empty and relevance(terms, heading + sentence).required_covered

    if doc.authority in LAW_AUTHORITIES and terms is not None and not terms.empty:
        body = _without_unasked_meanings(body, terms)
    return "\n".join((heading, without_exclusions(body, asked_about)))


_DEFINITION = re.compile(r"(?P<term>[^，,。；;：:\n（）()]{2,24})[，,]?(?:是指|系指)[^。；;\n]*")


def _without_unasked_meanings(body: str, terms: QuestionTerms) -> str:
    """A statute's definitions with the meaning kept only where the question names the defined term.

    人员密集场所，是指…食堂和集体宿舍 defines 人员密集场所: the things its meaning lists make it about
    them only for a question about that term (食堂算人员密集场所吗), not for 公司有食堂吗.
    """

    def kept(match: re.Match[str]) -> str:
        defined = match.group("term")
        return match.group(0) if relevance(terms, defined).score > 0 else defined

    return _DEFINITION.sub(kept, body)


def scope_statement(doc: DocumentEvidence, body: str) -> str:
    """What a document's scope or kinds section says the document covers, or "" for any other section.

    零星采购是指…低值物品采购，例如灯泡、水龙头 makes every section of 《零星采购管理办法》 about
    灯泡: 买个灯泡要走什么流程 is answered by its procedure, which never repeats the examples. So
    does 请假类型有哪些 … 3. 事假 for 事假谁批 and its 请假审批权限. Exclusions (办公设备…不属于零星
    采购) are left out.
    """
    if not is_scope_section(doc.locator):
        return ""
    return without_exclusions(body)


def members_in_scope(terms: QuestionTerms, scope: str, heading: str) -> tuple[str, ...]:
    """The question's terms that a document's scope statement names as things it covers, as they
    hold for the section under `heading`.

    A section whose heading names another listed thing is that thing's own (三、年休假的天数和申请
    时限 says nothing of 事假), so nothing is lent to it.
    """
    if not scope:
        return ()
    members = scope_members(scope)
    named = tuple(
        term.text
        for term in terms.terms
        if any(term_coverage(term.text, member) >= 1.0 for member in members)
    )
    others = [
        member
        for member in members
        if member in heading and not any(term_coverage(term, member) >= 1.0 for term in named)
    ]
    return () if others else named


def relevance(terms: QuestionTerms, haystack: str, heading: str = "") -> Relevance:
    """Score one fragment's text against the question's terms (no terms → nothing to miss).

    `heading` is what names the fragment's subject (its title and headings, inside `haystack` too): a
    question word it names is the subject, never a detail that a word standing for another beside it
    (`interchangeable_beside`) is read with.
    """
    if terms.empty:
        return Relevance(score=1.0, required_covered=True)
    total = sum(term.weight for term in terms.terms)
    coverage = {term.text: term_coverage(term.text, haystack) for term in terms.terms}
    for term in terms.terms:
        if coverage[term.text] < 1.0 and _covered_beside(term, terms, haystack, heading):
            coverage[term.text] = 1.0
    score = sum(term.weight * coverage[term.text] for term in terms.terms) / total
    required = all(coverage[text] >= REQUIRED_COVERAGE for text in terms.required)
    return Relevance(score=round(score, 4), required_covered=required)


def _covered_beside(term: Term, terms: QuestionTerms, haystack: str, heading: str) -> bool:
    """True when the text uses a word standing for `term` beside a more specific question word it
    states and its headings do not name (`interchangeable_beside`).

    收据 … 报账 covers 拿收据能报销吗's 报销. 零星采购能走报销吗 is not asked of the procurement rules'
    own 零星采购报账: 零星采购 is what they are about, not a detail beside 报账.
    """
    if not any(word in haystack for word in interchangeable_beside(term.text)):
        return False
    return any(
        other.weight > term.weight and other.text in haystack and other.text not in heading
        for other in terms.terms
    )


def rank(items: Sequence[tuple[str, Relevance]]) -> list[str]:
    """Citation ids from most to least relevant (stable for ties)."""
    return [cid for cid, _ in sorted(items, key=lambda pair: -pair[1].score)]


def mentions_subject(terms: QuestionTerms, text: str) -> bool:
    """True when `text` (a sentence or clause) fully covers at least one of the question's terms.

    Required terms are preferred; when the question has none, any salient term will do.
    """
    if terms.empty:
        return True
    candidates = terms.required or tuple(term.text for term in terms.terms)
    return any(term_coverage(text_term, text) >= 1.0 for text_term in candidates)
