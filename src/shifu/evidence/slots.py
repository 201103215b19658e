"""One document slot, judged against THIS question: governance, labels, relevance, body, amount.

The evaluator builds one QuestionView per evaluation (the question's salient terms, the
quantity it asks for, its money target) and asks `judge_document_slot` which fragments
cover each slot. A fragment must be about the question's subject (relevance) before its
body is checked at all; covering fragments come back ordered by relevance, so composers
cite the most relevant first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from shifu.contracts.common import LAW_AUTHORITIES, NEED_CLAIM_TYPE, ClaimType, EvidenceNeed, ToolCode
from shifu.contracts.entities import AmountCaliber, DurationUnit
from shifu.contracts.evidence import DocumentEvidence
from shifu.contracts.plan import SemanticQueryPlan
from shifu.evidence.answering import CONTEXT_SCORE, SENTENCE, AnswerAsk, answering_sentences, items_after
from shifu.evidence.body import AmountRule, amount_rules, body_supports
from shifu.evidence.caliber import (
    AMOUNT_NOT_MATCHED,
    CALIBER_MISMATCH,
    AmountTarget,
    amount_target,
    match_rules,
)
from shifu.evidence.conflicts import Covering
from shifu.evidence.relevance import (
    Relevance,
    fragment_haystack,
    fragment_heading,
    members_in_scope,
    mentions_subject,
    relevance,
    scope_statement,
    term_coverage,
)
from shifu.nlp.answer_kind import asks_a_day
from shifu.nlp.bounds import Bound, asked_bound, states_bound
from shifu.nlp.injection import strip_instructions, without_instructions
from shifu.nlp.lists import ITEM_LINE, LEAD_IN_END, item_lines
from shifu.nlp.quantities import CONFIRMS_A_FIGURE, PAY_STATED, asked_in_place_of_confirmed, find_durations
from shifu.nlp.quantity_asks import (
    QUANTITY_NEEDS,
    QuantityAsk,
    QuantityKind,
    asked_measure,
    asked_qualifiers,
    defers_the_quantity,
    heading_names_quantity,
    lead_time_act,
    quantity_ask,
    states_asked_quantity,
    supports_quantity,
)
from shifu.nlp.quoted_items import asked_item, quotes_item
from shifu.nlp.scope_sections import without_exclusions
from shifu.nlp.terms import QuestionTerms, question_terms

NOT_RELEVANT = "NOT_RELEVANT"
ANSWER_NOT_STATED = "ANSWER_NOT_STATED"
MAX_COVERING = 3
"""Fragments kept per slot (the most relevant); more only repeat or dilute the answer."""
RELEVANCE_MARGIN = 0.25
"""A covering fragment this much less relevant than the best one is dropped."""

# How close a rejected document came to covering a slot; the closest reason is reported.
REASON_RANK: dict[str, int] = {
    "NO_CANDIDATES": 0,
    "VERSION_NOT_REQUESTED": 1,
    "GOVERNANCE": 2,
    NOT_RELEVANT: 3,
    "LABEL_MISSING": 4,
    "BODY_UNSUPPORTED": 5,
    ANSWER_NOT_STATED: 5,
    CALIBER_MISMATCH: 6,
    AMOUNT_NOT_MATCHED: 7,
}

HEADING_KIND_WORDS: dict[EvidenceNeed, tuple[str, ...]] = {
    EvidenceNeed.PROCESS_STEPS: ("步骤", "流程", "程序", "办理", "处置", "操作"),
    EvidenceNeed.REQUIRED_MATERIALS: ("材料", "资料", "证明"),
    EvidenceNeed.DEADLINE: ("时限", "期限", "时间", "截止"),
    EvidenceNeed.PROHIBITION: ("禁止", "不得", "严禁"),
    EvidenceNeed.CONTACT: ("联系", "电话"),
    EvidenceNeed.APPROVAL: ("审批", "审核", "批准"),
    EvidenceNeed.AMOUNT_RULE: ("额度", "标准", "金额", "费用"),
    EvidenceNeed.ELIGIBILITY: ("条件", "范围", "适用"),
    EvidenceNeed.DEFINITION: ("定义", "含义"),
}
"""Heading words of a section written for a need: among equally relevant fragments, the section
titled 办理步骤 answers a steps question before the one titled 联系方式 that also lists lines."""

_SENTENCE = re.compile(r"[^。；;\n]+")
_CLAUSE = re.compile(r"[^。；;，,\n]+")
_LIST_PART = re.compile(r"(?:(?!以及|和|及|并|或)[^。；;，,、\n])+")
"""A clause, or one part of a list (、 和 及 并 或): 提交入职资料和查询本人的面试进度 names two things, not
materials for 面试."""
_PERMISSION = re.compile(
    r"可以|可不可以|能不能|能否|可否|允许|行不行|能.{0,10}(?:吗|(?<![什怎])么)|不能|不许|不准|不让|禁止"
)
"""A question whether something is allowed (能报吗, 可以…吗); 能买什么 asks what, not whether."""
_ARTICLE = re.compile(r"第[零〇一二两三四五六七八九十百千\d]+条")
_ASKS_KINDS = re.compile(
    r"(?:哪几|哪些|什么|几)(?:种|类)|(?:哪些|什么|几种)(?:类型|种类|类别)|分(?:为)?几(?:种|类)|"
    r"(?:类型|种类|类别)(?:有|是)?(?:哪些|哪几种|几种|什么)"
)
"""The question asks what kinds of something there are (请假有哪几种 / 分几类)."""
_KINDS_HEADING = re.compile(r"类型|种类|类别|分类")
_ASKED_ACTION = re.compile(r"(?:怎么|如何|怎样|咋)(?:去|来)?(?P<verb>申请|请|报名|申报|报销|领取)")
"""How to do an action (年假怎么请 / 工伤怎么申请): the action the question asks about, not a situation."""


@dataclass(slots=True)
class SlotOutcome:
    """What one slot ended with: covering fragments or facts, else the closest rejection."""

    need: EvidenceNeed
    covering: list[Covering] = field(default_factory=list)
    fact_refs: list[str] = field(default_factory=list)
    reason: str = "NO_CANDIDATES"

    def reject(self, reason: str) -> None:
        """Remember `reason` when it is at least as close to covering as the current one."""
        if REASON_RANK.get(reason, 0) >= REASON_RANK.get(self.reason, 0):
            self.reason = reason

    def prefer(self, keep: Callable[[Covering], bool]) -> None:
        """Narrow the covering fragments to those `keep` picks, unless it picks none of them."""
        self.covering = [item for item in self.covering if keep(item)] or self.covering


@dataclass(frozen=True, slots=True)
class QuestionView:
    """What the question asks, read once per evaluation."""

    terms: QuestionTerms
    ask: QuantityAsk | None
    target: AmountTarget
    answer: AnswerAsk | None = None
    """The kind of answer a general question asks for (谁 / 在哪 / 何时 / 多少 / 叫什么)."""
    locators: frozenset[str] = frozenset()
    """Article locators the question names (第十六条)."""
    asks_permission: bool = False
    """可以…吗 / 能不能 / 哪些不能做: what is forbidden answers it first."""
    durations: frozenset[tuple[Decimal, DurationUnit]] = frozenset()
    """Lengths of time the question states (超过30天还能报吗): a section stating one is on point."""
    qualifiers: frozenset[str] = frozenset()
    """Words qualifying the quantity asked (要提前几天): see `quantity_asks.states_asked_quantity`."""
    asks_kinds: bool = False
    """请假有哪几种: the section headed for the subject's kinds (请假类型有哪些) answers it."""
    action: str | None = None
    """The action a how-to question asks about (申请 of 工伤怎么申请; 请 of 年假怎么请)."""
    item: str | None = None
    """The quoted item the question asks the content of (第三步是什么 → “立即通知…”是什么)."""
    upper_bound: bool = False
    """最多 / 最长 几天: only a figure stated as a limit (不超过3项) answers it."""
    lead_act: frozenset[str] | None = None
    """要提前多久申请: the act a lead time is asked of; only a sentence naming it answers."""
    measure: str | None = None
    """复盘时长多长: the measure a quantity question names; a fragment stating that word answers it."""

    @classmethod
    def of(cls, plan: SemanticQueryPlan) -> QuestionView:
        """Read terms, quantity ask and money target from the plan's verbatim question."""
        target = amount_target(plan)
        if target.value is not None and (_ratio_not_money(plan) or CONFIRMS_A_FIGURE.search(plan.question)):
            target = replace(target, value=None, comparator=None)
        # An instruction smuggled into the question (忽略以上指令，…) names no subject; the clauses
        # around it still ask the question.
        subject = asked_in_place_of_confirmed(without_instructions(_subject_text(plan)))
        ask = None if target.value is not None else quantity_ask(subject)
        if ask is not None:
            # 一次最多能请几天事假 asks a count of days: 一次 is no per-transaction caliber of money.
            target = replace(target, caliber=AmountCaliber.UNSPECIFIED)
        terms = question_terms(subject)
        return cls(
            terms=terms,
            ask=ask,
            target=target,
            answer=AnswerAsk.of(subject, terms),
            locators=frozenset(_ARTICLE.findall(subject)),
            asks_permission=bool(_PERMISSION.search(subject)),
            durations=_durations(subject),
            qualifiers=asked_qualifiers(subject),
            asks_kinds=bool(_ASKS_KINDS.search(subject)),
            action=action.group("verb") if (action := _ASKED_ACTION.search(subject)) else None,
            item=asked_item(subject),
            upper_bound=asked_bound(subject) is Bound.UPPER,
            lead_act=lead_time_act(subject),
            measure=asked_measure(subject) if ask is not None else None,
        )

    def states_duration(self, doc: DocumentEvidence) -> bool:
        """True when the fragment states a length of time the question states (30天 ~ 30日)."""
        if not self.durations:
            return False
        return not self.durations.isdisjoint(_durations(strip_instructions(doc.text)))

    def about_subject(self, text: str) -> bool:
        """True when a sentence or clause names the question's subject."""
        return mentions_subject(self.terms, text)

    def names_most_specific_term(self, text: str) -> bool:
        """True when a sentence or clause names the question's most specific term (演练 of 消防演练)."""
        if self.terms.empty:
            return True
        top = max(self.terms.terms, key=lambda term: term.weight)
        return term_coverage(top.text, text) >= 1.0

    def names_locator(self, doc: DocumentEvidence) -> bool:
        """The question names this fragment's own article or section (消防法第十六条 → 第十六条)."""
        return bool(self.locators) and doc.locator in self.locators

    def states_claim(self, sentence: str) -> bool:
        """True when a sentence states what the question asks for: for a quantity question, the
        quantity itself (年休假5天), not a condition or lead time stated in days (提前5个工作日)."""
        return self.ask is None or states_asked_quantity(self.ask, sentence, self.qualifiers)

    def claim_score(self, sentence: str) -> float:
        """How much of the question one sentence covers (0 when it has nothing to say on it)."""
        return 0.0 if self.terms.empty else relevance(self.terms, sentence).score


def _durations(text: str) -> frozenset[tuple[Decimal, DurationUnit]]:
    return frozenset((found.value, found.unit) for _, found in find_durations(text, []))


def _subject_text(plan: SemanticQueryPlan) -> str:
    """The question, or for an elliptical follow-up (那法定节假日呢) the search query that carries
    the conversation's goal in front of it: the subject lives in the goal."""
    tail = plan.normalized_question.strip()
    for call in plan.tool_calls:
        query = call.arguments.get("query") if call.tool is ToolCode.KNOWLEDGE_SEARCH else None
        if not isinstance(query, str):
            continue
        query = query.strip()
        if tail and len(query) > len(tail) and query.endswith(tail):
            return query
    return plan.question


def _ratio_not_money(plan: SemanticQueryPlan) -> bool:
    """The extracted "amount" is the 百 of 百分之 (a ratio), never money (百分之多少 → not 100元)."""
    texts = [amount.text for amount in plan.entities.amounts]
    return bool(texts) and all(text and _only_before_fraction(plan.question, text) for text in texts)


def _only_before_fraction(question: str, part: str) -> bool:
    starts = [match.start() for match in re.finditer(re.escape(part), question)]
    return bool(starts) and all(question.startswith("分之", start + len(part)) for start in starts)


def fragment_relevance(view: QuestionView, docs: Sequence[DocumentEvidence]) -> dict[str, Relevance]:
    """Relevance of every fragment to the question, by citation id.

    A term that the scope or kinds section of a fragment's document names as covered (灯泡 in 零星采购
    是指…例如灯泡) counts as covered by the other fragments of that document, except those headed for
    another listed thing (see `members_in_scope`). The scope comes with each fragment
    (`document_scope`) and from the scope sections retrieved beside it.
    """
    bodies = {doc.citation_id: strip_instructions(doc.text) for doc in docs}
    # Per document, each scope text once: every fragment carries the same `document_scope`, and a
    # retrieved scope section is part of it too.
    scopes: dict[tuple[str, str], dict[str, None]] = {}
    for doc in docs:
        texts = scopes.setdefault((doc.document_key, doc.version), {})
        texts[scope_statement(doc, bodies[doc.citation_id])] = None
        texts[without_exclusions(strip_instructions(doc.document_scope))] = None
    joined = {key: "\n".join(text for text in texts if text) for key, texts in scopes.items()}
    relevant: dict[str, Relevance] = {}
    for doc in docs:
        scope = joined[(doc.document_key, doc.version)]
        lent = members_in_scope(view.terms, scope, "\n".join((*doc.heading_path, doc.locator)))
        haystack = fragment_haystack(doc, bodies[doc.citation_id], view.terms)
        fit = relevance(view.terms, "\n".join((haystack, *lent)), fragment_heading(doc))
        relevant[doc.citation_id] = replace(fit, lent=lent) if lent else fit
    return relevant


def _windows(body: str) -> list[str]:
    """Each sentence of `body` with what it continues: a listed item with its list's lead-in, any
    other sentence with the sentence before it (when that is no item)."""
    sentences = [part.strip() for part in SENTENCE.findall(body) if part.strip()]
    windows: list[str] = []
    lead = ""
    for index, sentence in enumerate(sentences):
        if ITEM_LINE.match(sentence):
            windows.append(lead + sentence)
            continue
        before = sentences[index - 1] if index and not ITEM_LINE.match(sentences[index - 1]) else ""
        windows.append(before + sentence)
        lead = sentence
    return windows or [""]


def _lead(doc: DocumentEvidence) -> str:
    """The fragment's headings and its first sentence (公司设置的请假类型有以下几种：)."""
    first = next((part for part in SENTENCE.findall(strip_instructions(doc.text)) if part.strip()), "")
    return f"{fragment_heading(doc)}\n{first}"


def _steps_name_the_subject(
    terms: QuestionTerms, doc: DocumentEvidence, relevant: Mapping[str, Relevance]
) -> bool:
    """True when a procedure names the how-to's subject terms together: its headings (with what its
    document's scope lends it) and one step or sentence with its lead-in (`_windows`).

    工单完成了怎么关闭 is not answered by a patrol procedure whose step 4 closes a fire door and whose
    step 5 files a hazard 工单: each term is there, about something else.
    """
    if len(terms.required) < 2:
        return True
    context = "\n".join((fragment_heading(doc), *relevant[doc.citation_id].lent, ""))
    body = strip_instructions(doc.text)
    return any(relevance(terms, context + window).required_covered for window in _windows(body))


def _labelled(doc: DocumentEvidence, need: EvidenceNeed, claim_type: ClaimType) -> bool:
    return need in doc.supported_need_codes and claim_type in doc.claim_types


def _rule_labelled(doc: DocumentEvidence) -> bool:
    return EvidenceNeed.GENERAL_RULE in doc.supported_need_codes and ClaimType.RULE in doc.claim_types


def _subject_rules(
    view: QuestionView, doc: DocumentEvidence, body: str, rules: Sequence[AmountRule]
) -> list[AmountRule]:
    """Amount rules stated about the question's subject (押金 3000元, not 出入证工本费 10元).

    Within a sentence, rules whose own clause names the subject win; when no clause does but
    the sentence as a whole does (单笔500元以下的零星采购，可直接报销), all its rules count.
    When no sentence names the subject but the fragment's heading does (四、装修押金：每户
    3000元), the heading is the subject of all its rules.
    """
    kept: list[AmountRule] = []
    for sentence in _SENTENCE.findall(body):
        inside = [rule for rule in rules if rule.text in sentence]
        if not inside:
            continue
        clauses = _CLAUSE.findall(sentence)
        named = [rule for rule in inside if any(rule.text in c and view.about_subject(c) for c in clauses)]
        if named:
            kept += named
        elif view.about_subject(sentence):
            kept += inside
    if not kept and view.about_subject("\n".join((*doc.heading_path, doc.locator))):
        return list(rules)
    return list(dict.fromkeys(kept))


def _quantity_covers(view: QuestionView, need: EvidenceNeed, doc: DocumentEvidence, body: str) -> bool:
    """A non-money quantity question answered by a rule stating that quantity about its subject.

    The section heading counts as every sentence's subject (二、消防巡检的频次要求 … 每日2次), and so
    does a company document's title: every section of 《电梯困人应急处置规程》 is about 电梯困人, so its
    四、电梯维保单位到场时限 answers 电梯困人多久要到. A law's title names a whole field (消防法), no subject.
    A rule leaving the figure to national or local rules (陪产假：按国家和当地规定执行) answers it too.
    """
    if view.ask is None or need not in QUANTITY_NEEDS:
        return False
    if not (_labelled(doc, need, NEED_CLAIM_TYPE[need]) or _rule_labelled(doc)):
        return False
    title = "" if doc.authority in LAW_AUTHORITIES else doc.title + "\n"
    heading = title + doc.locator + "\n"
    if QuantityKind.FREQUENCY in view.ask.kinds:
        # How often names an activity: 每年至少进行一次全面检测 of 消防设施 is no frequency of 消防演练.
        return supports_quantity(
            view.ask, body, lambda sentence: view.names_most_specific_term(heading + sentence)
        )

    def about(sentence: str) -> bool:
        return view.about_subject(heading + sentence)

    def limits(sentence: str) -> bool:
        # 病假最多能请几天 is not answered by 请病假1日的可先提交就诊记录: that day is no limit.
        if view.lead_act is not None and not any(word in sentence for word in view.lead_act):
            # 业主装修要提前多久申请 is not answered by 客服中心提前3日在单元大堂公告.
            return False
        return about(sentence) and (not view.upper_bound or states_bound(sentence, Bound.UPPER))

    return supports_quantity(view.ask, body, limits) or defers_the_quantity(body, about)


_HANDLING = re.compile(r"[^，,。；;]{2,}的[，,][^。；;]*(?:应当|可以|继续|由|按照|依照|享受|支付)")
"""A statute's prescribed handling of a situation: 停工留薪期满后仍需治疗的，继续享受工伤医疗待遇."""


def _law_handles_the_situation(view: QuestionView, doc: DocumentEvidence, body: str) -> bool:
    """A law answers 怎么处理 for a situation by the handling it prescribes, without numbered steps.

    Only laws and regulations (a company procedure states its steps), and only a sentence that
    names the question's subject (with the items it introduces) and most of what the question says
    of it (员工宿舍怎么申请 is not answered by a penalty for dangerous goods stored beside 员工宿舍),
    states the situation (…的，) and what follows from it. A question asking how to do something
    (年假怎么请) is answered only by a sentence about doing it (…应当…提出工伤认定申请 answers 工伤怎么申请;
    有下列情形之一的，不享受当年的年休假 says who has no leave, not how it is asked for).
    """
    if doc.authority not in LAW_AUTHORITIES or view.terms.empty:
        return False
    heading = "\n".join((*doc.heading_path, ""))
    sentences = [sentence.strip() for sentence in _SENTENCE.findall(body) if sentence.strip()]
    for index, sentence in enumerate(sentences):
        if not _HANDLING.search(sentence):
            continue
        # 有下列情形之一的，由劳动行政部门责令支付…：（一）无故拖欠劳动者工资的: the situations are the items.
        listed = "".join(items_after(sentences, index)) if sentence.endswith(LEAD_IN_END) else ""
        if view.action is not None and view.action not in sentence:
            continue
        handled = heading + sentence + listed
        if view.about_subject(handled) and relevance(view.terms, handled).score >= CONTEXT_SCORE:
            return True
    return False


def _pay_rate_about_subject(view: QuestionView, doc: DocumentEvidence, body: str) -> bool:
    """A sentence about the subject states pay as a share or multiple of wages, or as paid or unpaid.

    加班怎么给钱 is answered by 法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬: how
    much is paid, with no money figure to compare. Only for a question that names no amount: a
    question about 500元 still needs a rule about 500元, and one asking a count of days (事假最多请几天)
    is not answered by 事假期间不发工资.
    """
    heading = "\n".join((*doc.heading_path, doc.locator, ""))
    return any(
        PAY_STATED.search(sentence) and view.about_subject(heading + sentence)
        for sentence in _SENTENCE.findall(body)
    )


def _materials_about_subject(view: QuestionView, doc: DocumentEvidence, body: str) -> bool:
    """The fragment states materials OF the question's subject, not materials of something else beside it.

    Either its own section is written for materials about the subject (五、入职需提交的资料), or that
    section lists the asked thing as one of its items (几张照片: 4. 近期免冠一寸彩色照片2张。), or a
    sentence names the subject before or within a part that states what is supplied (参加面试时，请携带
    身份证原件; 提出工伤认定申请应当提交下列材料). A guide saying candidates can 提交入职资料和查询本人的
    面试进度 names 面试 only in a later list part: it states no materials for the interview. The sentence
    must name the most specific term: 巡检结束后填写《消防巡查记录表》 names 巡检, not the 消防通道巡检 asked.
    """
    if view.terms.empty:
        return True
    heading = fragment_heading(doc)
    if heading_names_need(doc, EvidenceNeed.REQUIRED_MATERIALS) and (
        view.about_subject(heading) or any(view.names_most_specific_term(line) for line in item_lines(body))
    ):
        return True
    for sentence in _SENTENCE.findall(body):
        for part in _LIST_PART.finditer(sentence):
            said_before = sentence[: part.end()]
            supplied = body_supports(ClaimType.MATERIAL, part.group(0))
            if supplied and view.names_most_specific_term(said_before):
                return True
    return False


def _judge_body(
    need: EvidenceNeed, doc: DocumentEvidence, view: QuestionView, lent: tuple[str, ...] = ()
) -> Covering | str:
    """Conditions 2 and 3 for one fragment: a Covering, or the rejection reason.

    Terms `lent` by the document's scope section (事假 of 请假类型) name the subject of every sentence,
    like the heading: 四、请假审批权限 answers 事假谁批 with 由部门负责人或项目经理审批.
    """
    body = strip_instructions(doc.text)
    claim_type = NEED_CLAIM_TYPE[need]
    if _quantity_covers(view, need, doc, body):
        return Covering(doc=doc)
    if need is EvidenceNeed.DEADLINE and view.answer is not None and asks_a_day(view.answer.question):
        # 几号发 / 哪天: only a sentence naming a day about the subject answers; 一个月内 is a time limit.
        heading = "\n".join((fragment_heading(doc), *lent, ""))
        answered = answering_sentences(view.answer, view.terms, body, heading)
        return Covering(doc=doc) if answered else ANSWER_NOT_STATED
    if need is EvidenceNeed.DEADLINE and view.ask is not None:
        # 多久一次 / 几天内: a time limit that states no quantity of the asked kind answers nothing.
        return ANSWER_NOT_STATED if _labelled(doc, need, claim_type) else "LABEL_MISSING"
    if need is EvidenceNeed.PROCESS_STEPS and _law_handles_the_situation(view, doc, body):
        return Covering(doc=doc)
    if not _labelled(doc, need, claim_type):
        return "LABEL_MISSING"
    if need is EvidenceNeed.GENERAL_RULE and view.answer is not None:
        # A question that asks for a person, place, date, number or name is answered only by
        # a sentence stating one about its subject; rule wording alone does not answer it.
        heading = "\n".join((fragment_heading(doc), *lent, ""))
        answered = answering_sentences(view.answer, view.terms, body, heading)
        return Covering(doc=doc) if answered else ANSWER_NOT_STATED
    if not body_supports(claim_type, body):
        return "BODY_UNSUPPORTED"
    if need is EvidenceNeed.REQUIRED_MATERIALS and not _materials_about_subject(view, doc, body):
        return "BODY_UNSUPPORTED"
    if need is not EvidenceNeed.AMOUNT_RULE:
        return Covering(doc=doc)
    rules = amount_rules(body)
    if not view.terms.empty:
        rules = _subject_rules(view, doc, body, rules)
    if (
        not rules
        and not view.target.is_constrained
        and view.ask is None
        and _pay_rate_about_subject(view, doc, body)
    ):
        return Covering(doc=doc)
    matching, reason = match_rules(view.target, rules)
    return reason if reason is not None else Covering(doc=doc, rules=tuple(matching))


def judge_document_slot(
    need: EvidenceNeed,
    docs: Sequence[DocumentEvidence],
    *,
    governance: Mapping[str, str | None],
    not_requested: set[str],
    view: QuestionView,
    relevant: Mapping[str, Relevance],
) -> SlotOutcome:
    """Which fragments cover `need` for this question, most relevant first.

    Among equally relevant fragments, a section of prohibitions comes first for a question asking
    what is allowed (可以…吗) and last for any other (要交接哪些东西 is not answered by 严禁以下行为).
    """
    outcome = SlotOutcome(need=need)
    for doc in docs:
        if doc.citation_id in not_requested:
            outcome.reject("VERSION_NOT_REQUESTED")
        elif governance[doc.citation_id] is not None:
            outcome.reject("GOVERNANCE")
        elif not relevant[doc.citation_id].relevant or (
            need is EvidenceNeed.PROCESS_STEPS and not _steps_name_the_subject(view.terms, doc, relevant)
        ):
            # Still report how an off-subject amount rule fails the question's caliber: the gap
            # "no source states this amount on this basis" stays visible (seed 000's 500元 cases).
            verdict = _judge_body(need, doc, view, relevant[doc.citation_id].lent)
            outcome.reject(NOT_RELEVANT)
            if isinstance(verdict, str) and verdict in (CALIBER_MISMATCH, AMOUNT_NOT_MATCHED):
                outcome.reject(verdict)
        else:
            verdict = _judge_body(need, doc, view, relevant[doc.citation_id].lent)
            if isinstance(verdict, str):
                outcome.reject(verdict)
            else:
                outcome.covering.append(verdict)
    if need is EvidenceNeed.PROCESS_STEPS:
        # One procedure, not two spliced: the section headed for the subject (主管复盘的操作步骤) wins
        # over another procedure that only mentions it (训练指派的操作步骤 … 复盘改进目标).
        outcome.prefer(lambda entry: view.about_subject(fragment_heading(entry.doc)))
    if (item := view.item) is not None:
        # “立即通知维保单位…”是什么: the fragment holding the item answers, not those sharing its words.
        outcome.prefer(lambda entry: quotes_item(item, entry.doc.text))
    if (measure := view.measure) is not None:
        # 复盘时长多长: the fragment stating the review's 时长 (in its steps), not its completion deadline;
        # it comes before the heading's kind of quantity (三、主管复盘的完成时限 names a 时限).
        outcome.prefer(lambda entry: measure in entry.doc.locator or measure in entry.doc.text)
    if (ask := view.ask) is not None:
        # 岗前学习要多久: the section written for the length (三、岗前学习的时长和完成要求), not every
        # section of the same guide that states some other length (近3个月内的体检报告).
        outcome.prefer(lambda entry: heading_names_quantity(entry.doc.locator, ask))
    if need is EvidenceNeed.GENERAL_RULE and view.durations:
        # 报销超过90天还能报吗: the rule stating that length (超过90日的费用不予报销) answers, not every
        # other rule of the policy beside it.
        outcome.prefer(lambda entry: view.states_duration(entry.doc))
    if need is EvidenceNeed.GENERAL_RULE and view.asks_kinds:
        # 请假有哪几种 is answered by the list of kinds, not by every rule about leave beside it.
        outcome.prefer(
            lambda entry: (
                bool(_KINDS_HEADING.search(entry.doc.locator)) and view.about_subject(_lead(entry.doc))
            )
        )
    outcome.covering.sort(
        key=lambda item: (
            not view.names_locator(item.doc),
            -relevant[item.doc.citation_id].score,
            not view.states_duration(item.doc),
            not heading_names_need(item.doc, need),
            heading_names_need(item.doc, EvidenceNeed.PROHIBITION) is not view.asks_permission,
            -item.doc.score,
        )
    )
    return outcome


def heading_need(locator: str) -> EvidenceNeed | None:
    """The kind of claim a section heading is written for: that of its last kind word, the head of
    the phrase (候选人资料提交的时限 is a deadline, 电梯困人处置中禁止哪些行为 a prohibition)."""
    best: tuple[int, int, EvidenceNeed] | None = None
    for need, words in HEADING_KIND_WORDS.items():
        for word in words:
            end = locator.rfind(word)
            if end >= 0 and (best is None or (end + len(word), len(word)) > best[:2]):
                best = (end + len(word), len(word), need)
    return best[2] if best else None


def heading_names_need(doc: DocumentEvidence, need: EvidenceNeed) -> bool:
    """The fragment's own section heading (its locator, not the document title) is written for this
    kind of claim: 二、电梯困人应急处置的步骤, not 五、…联系方式 under a title that says 处置规程."""
    return heading_need(doc.locator) is need


def trim_covering(outcome: SlotOutcome, relevant: Mapping[str, Relevance]) -> None:
    """Keep the few most relevant covering fragments (after conflicts were looked for), only those
    whose section is written for the slot's kind of claim when there are any."""
    if not outcome.covering:
        return
    best = relevant[outcome.covering[0].doc.citation_id].score
    floor = best - RELEVANCE_MARGIN
    kept = [item for item in outcome.covering if relevant[item.doc.citation_id].score >= floor]
    outcome.covering = written_for_need(kept, outcome.need)[:MAX_COVERING]


def written_for_need(covering: Sequence[Covering], need: EvidenceNeed) -> list[Covering]:
    """The covering fragments whose section is written for the slot's kind of claim, when there are any.

    报销单谁来批: the section written for approvals answers; a rule on late claims that mentions an
    approval in passing only adds noise beside it. 病假要什么证明: the materials sections of two
    versions are compared, not their rules on false certificates, which no answer quotes.
    """
    if need is EvidenceNeed.GENERAL_RULE:
        return list(covering)
    return [item for item in covering if heading_names_need(item.doc, need)] or list(covering)
