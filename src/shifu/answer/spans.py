"""Select verbatim spans of a qualified fragment for one slot: sentences and numbered steps.

The extractive composer never writes a fact of its own: every statement and step is a
span copied from a fragment that covers the slot, so amounts and dates are verbatim.
"""

from __future__ import annotations

import re
from decimal import Decimal

from shifu.contracts.common import EvidenceNeed
from shifu.nlp.answer_kind import answer_kind, states_an_answer
from shifu.nlp.attribute import asked_attributes, wordings
from shifu.nlp.bounds import asked_bound, states_bound
from shifu.nlp.condition_words import CONDITION_WORDS
from shifu.nlp.definitions import defines
from shifu.nlp.frequency import asks_frequency, states_frequency
from shifu.nlp.injection import is_instruction_like, strip_instructions
from shifu.nlp.lay_words import (
    HOURS_RANGE,
    LAY_SYNONYMS,
    TIMES_OF_DAY,
    interchangeable,
    interchangeable_beside,
    words_for,
)
from shifu.nlp.lists import (
    ITEM_LINE,
    LEAD_IN_END,
    MATERIALS_LEAD_IN,
    PROHIBITED_LEAD_IN,
    STEPS_LEAD_IN,
    item_lines,
)
from shifu.nlp.numerals import NUMBER, parse_number
from shifu.nlp.quantities import ASKS_PAY, PAY_STATED
from shifu.nlp.quantity_asks import (
    DEFERS,
    QUANTITY_NEEDS,
    asked_qualifiers,
    quantity_ask,
    states_asked_quantity,
)
from shifu.nlp.quoted_items import asked_item, quotes_item
from shifu.nlp.record_contents import RECORD_CONTENT_WORDS
from shifu.nlp.terms import question_terms

_SENTENCE = re.compile(r"[^。；;！!？?\n]+[。；;！!？?]?")
_STEP_LINE = re.compile(
    r"^\s*(?:\d{1,2}\s*[.、．)）]|[（(]\d{1,2}[)）]|[一二三四五六七八九十]{1,3}、"
    r"|[（(][一二三四五六七八九十]{1,3}[)）]|第[一二三四五六七八九十\d]{1,3}步[：:，,]?)\s*(?P<body>.+?)\s*$",
    re.MULTILINE,
)
_MONEY = re.compile(r"(?:\d|[一二两三四五六七八九十百千万])\s*(?:万|千)?\s*(?:元|块)|[¥￥]\s*\d")
_DURATION = re.compile(
    r"(?:\d|[一二两三四五六七八九十])\s*(?:个)?\s*(?:工作日|日|天|小时|分钟|周(?!岁)|月|年)"
)
_QUANTITY = re.compile(
    r"百分之[零一二三四五六七八九十百]+|\d\s*[%％]|(?:\d|[一二两三四五六七八九十])\s*(?:倍|周岁)"
)
_ASKS_A_LENGTH = re.compile(r"几\s*个?\s*(?:工作日|天|日|周|月|小时|年)|多少天|天数|多久|多长时间|时长")
"""婚假有几天, 年假天数: a length of time is the amount asked, so a duration is as relevant as money."""
_CJK_PAIR = re.compile(r"(?=([\u4e00-\u9fff]{2}))")
_COUNTED = re.compile(rf"({NUMBER})\s*(倍|周岁)")


def _counted(text: str) -> set[tuple[Decimal | None, str]]:
    """The multiples and ages `text` states, by value (1周岁 and 一周岁 are the same age)."""
    return {(parse_number(match.group(1)), match.group(2)) for match in _COUNTED.finditer(text)}


NEED_CUES: dict[EvidenceNeed, tuple[str, ...]] = {
    EvidenceNeed.REQUIRED_MATERIALS: (
        "材料",
        "提交",
        "提供",
        "证明",
        "发票",
        "复印件",
        "单据",
        "凭证",
        "附件",
        *RECORD_CONTENT_WORDS,
    ),
    EvidenceNeed.APPROVAL: ("审批", "批准", "签字", "签批", "核准", "审核", "同意"),
    EvidenceNeed.ELIGIBILITY: CONDITION_WORDS,
    EvidenceNeed.PROHIBITION: ("不得", "禁止", "严禁", "不准", "不允许"),
    EvidenceNeed.CONTACT: ("电话", "联系", "邮箱", "热线"),
    EvidenceNeed.OBLIGATION: ("应当", "必须", "须", "负责", "义务"),
    EvidenceNeed.LIABILITY: ("责任", "赔偿", "处罚", "罚款", "承担", "追究"),
}
"""Words that mark a sentence as relevant to a slot (selection only; qualification is the evaluator's)."""


MAX_SENTENCES_PER_FRAGMENT = 3
MAX_SPAN_CHARS = 300
MAX_LISTED_ITEMS = 10
"""Numbered items quoted after a lead-in sentence (…须提交以下材料：)."""


def sentences(text: str) -> list[str]:
    """The fragment's sentences, stripped, in order; instruction-like sentences are dropped."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip() and not is_instruction_like(s)]


def numbered_steps(text: str) -> list[str]:
    """The bodies of numbered lines (1. / （一） / 第一步), in order; empty when there are none."""
    found = [
        match.group("body").strip()
        for match in _STEP_LINE.finditer(text)
        if not is_instruction_like(match.group(0))
    ]
    return [step for step in found if step] if len(found) >= 2 else []


_BY_AN_EVENT = re.compile(r"最迟|最晚|截止|(?:当天|当日)(?:内)?(?:提交|办理|完成|交)")
"""A time limit set by an event, not a count: 体检报告最迟在入职报到当天提交."""


_ASKS_TO_CARRY = re.compile(r"(?:带|携带|随身带|拿)(?:上|好|齐)?(?:些)?(?:什么|啥|哪些)")
_CARRIED = ("携带", "带上", "带好", "随身", "领取", "配备", "需带", "须带", "带原件")
"""消防巡检要带什么: what is taken along (领取对讲机、手电筒和巡检终端), not the forms filled in later;
入职要带什么: 入职报到当天需带原件到人力资源部核验."""

_PERIOD_WORDS = {
    "每天": ("每天", "每日"),
    "每日": ("每天", "每日"),
    "每周": ("每周", "每星期"),
    "每月": ("每月", "每个月"),
    "每个月": ("每月", "每个月"),
    "每年": ("每年",),
}
_PERIOD = re.compile("|".join(sorted(_PERIOD_WORDS, key=len, reverse=True)))
"""The period a how-often question counts in (消防巡检每天几次), with the words a schedule uses for it."""
_OUTSIDE_HOURS = re.compile(r"时间(?:以外|之外)")
"""The exception to a rule's hours (需要在规定时间以外施工的，须提前1个工作日申请)."""
_IN_ADDITION = re.compile(r"另附|另需|另行提交|还需|还须|另外提交")
"""An item adding to a list for one kind (差旅费另附行程单或车票)."""
_ITEM_ANSWERED: dict[EvidenceNeed, tuple[re.Pattern[str], ...]] = {
    EvidenceNeed.REQUIRED_MATERIALS: (MATERIALS_LEAD_IN,),
    EvidenceNeed.PROHIBITION: (PROHIBITED_LEAD_IN,),
    EvidenceNeed.GENERAL_RULE: (MATERIALS_LEAD_IN, PROHIBITED_LEAD_IN, STEPS_LEAD_IN),
}
"""Slots a single listed item answers, with the lead-ins of the lists it is read from: a material
(要交几张照片 / 装修要交照片吗), a forbidden act (催费能不能停水) or, for a rule question, the one step
saying it (报销能报现金吗 → 5. …转入报销人的工资卡，不支付现金)."""
_KIND_ANSWERED = frozenset({EvidenceNeed.GENERAL_RULE, EvidenceNeed.PROHIBITION})
"""Slots whose sentences are narrowed to those stating the kind of answer asked (谁 / 几点 / 在哪)."""


def _relevant(need: EvidenceNeed, sentence: str, question: str = "") -> bool:
    if need is EvidenceNeed.AMOUNT_RULE:
        # An age or multiple the question already states (哺乳未满一周岁) is not what it asks for.
        return (
            bool(_MONEY.search(sentence))
            or bool(ASKS_PAY.search(question) and PAY_STATED.search(sentence))
            or bool(_ASKS_A_LENGTH.search(question) and _DURATION.search(sentence))
            or bool(_QUANTITY.search(_COUNTED.sub("", sentence)))
            or bool(_counted(sentence) - _counted(question))
        )
    if need is EvidenceNeed.DEADLINE:
        return bool(_DURATION.search(sentence) or _QUANTITY.search(sentence) or _BY_AN_EVENT.search(sentence))
    if need is EvidenceNeed.DEFINITION:
        return defines(sentence)
    cues = NEED_CUES.get(need)
    return cues is None or any(cue in sentence for cue in cues)


def _overlap(sentence: str, pairs: set[str]) -> int:
    return sum(1 for pair in set(_CJK_PAIR.findall(sentence)) if pair in pairs)


def _question_pairs(question: str) -> set[str]:
    """The question's character pairs, plus those of the document words its lay words stand for."""
    pairs = set(_CJK_PAIR.findall(question))
    for lay, formal in LAY_SYNONYMS.items():
        if lay in question:
            for word in formal:
                pairs.update(_CJK_PAIR.findall(word))
    return pairs


def _subject_words(question: str) -> list[frozenset[str]]:
    """Each required term of the question with the words a text may use for it."""
    return [words_for(term) for term in question_terms(question).required]


def _naming_subject(candidates: list[str], question: str) -> list[str]:
    """The candidates naming every required term of the question (陪产假 in a list of leave types,
    夜间巡查 in a patrol schedule); empty when the question names no subject or none does."""
    subject = _subject_words(question)
    return [s for s in candidates if subject and all(any(w in s for w in words) for words in subject)]


def _names_asked_subject(sentence: str, lead: str, subject: list[frozenset[str]]) -> int:
    """How many subject terms the sentence names that the text's lead sentence does not.

    The lead names what the whole text is about (零星采购 in a section on its monthly cap), so
    repeating it tells nothing; 额度能留到下个月吗 is answered by the one sentence saying 结转.
    """
    return sum(
        1
        for words in subject
        if any(word in sentence for word in words) and not any(word in lead for word in words)
    )


def _asked_list_items(text: str, question: str, lead_ins: tuple[re.Pattern[str], ...]) -> list[str]:
    """The items of a list (one `lead_ins` introduces) naming what the question asks about beyond what
    their lead-in names.

    要交几张照片 asks about one of the listed materials (4. 近期免冠一寸彩色照片2张。), not the whole
    list, and 催费能不能停水 about one forbidden act (1. 以停水、停电…的方式催缴物业费。); 装修要交哪些材料
    names only what the lead-in already says (业主申请装修进场…), so the whole list still answers it,
    and so does 差旅费报销要什么材料, whose item only adds to the list.
    """
    # The term or a word texts use instead (亲戚 ~ 亲友); not a lay word's wider reading (到账 ~ 转账).
    # Every term counts, not only the required ones: 主管能给别的项目的人派训练吗 is not asked of
    # 未经主管确认…代为提交, which names 主管 but not 项目.
    # 拿收据能报销吗 of 以收据、白条代替发票报账: the gate reads 报账 as 报销 beside 收据; so does an item.
    subject = [
        frozenset({term.text, *interchangeable(term.text), *interchangeable_beside(term.text)})
        for term in question_terms(question).terms
    ]
    asked: list[str] = []
    for line in item_lines(text):
        if is_instruction_like(line):
            continue
        lead = _lead_in_of(line, text) or ""
        if not any(pattern.search(lead) for pattern in lead_ins):
            continue
        beyond = [words for words in subject if not any(word in lead for word in words)]
        # The item names the asked thing: 多久到账 is not asked of 转账记录截图.
        if beyond and all(any(word in line for word in words) for words in beyond):
            asked.append(line)
    # 差旅费另附行程单: what one kind adds to the list, so the whole list is that kind's answer.
    return [] if any(_IN_ADDITION.search(line) for line in asked) else asked


def _asked_attribute_wordings(question: str) -> frozenset[str]:
    """The words stating what the question asks the span of (主演 for 《踏冰逐梦》的主演是谁)."""
    attributes = asked_attributes(question, question_terms(question))
    return frozenset(word for attribute in attributes for word in wordings(attribute))


def select_spans(need: EvidenceNeed, text: str, question: str = "") -> list[str]:
    """Verbatim sentences of `text` that speak to `need`; the leading text when none is marked.

    With the question given, the sentences sharing most of its wording are chosen (quoted in text
    order, so a lead-in still comes before its items), so an amount answer quotes the sentence
    about the thing asked, not every amount, even when three others state a figure before it.
    A sentence that names what a 谁/多少 question asks of (主演, 收益) stays a candidate however little
    else of the question it repeats: the second lead actor is named in a sentence of its own.
    """
    spoken = sentences(text)
    item = asked_item(question) if question else None
    if item is not None and (quoting := [s for s in spoken if quotes_item(item, s)]):
        # “立即通知维保单位…”是什么: the item itself, with its lead-in.
        return _with_lead_ins(quoting[:1], text)
    if question and asks_frequency(question):
        # 多久一次: every sentence that says how often (a schedule is a list), no nearby durations.
        often = [s for s in spoken if states_frequency(s)]
        # 夜间巡查多久一次: the line naming 夜间巡查, not 日常巡查 or 年度检测 beside it.
        schedule = _naming_subject(often, question) or often
        # 每天几次: the daily lines, not the monthly check or the yearly test beside them.
        period = _PERIOD.search(question)
        if period is not None:
            words = _PERIOD_WORDS[period.group(0)]
            schedule = [s for s in schedule if any(word in s for word in words)] or schedule
        if schedule:
            return schedule[:MAX_LISTED_ITEMS]
    marked = [s for s in spoken if _relevant(need, s, question)]
    if question and any(word in question for word in TIMES_OF_DAY):
        # 装修能不能在晚上施工: the hours the rule allows and how to work outside them.
        marked = [s for s in spoken if HOURS_RANGE.search(s) or _OUTSIDE_HOURS.search(s)] or marked
    if need is EvidenceNeed.REQUIRED_MATERIALS and question and _ASKS_TO_CARRY.search(question):
        marked = [s for s in spoken if any(cue in s for cue in _CARRIED)] or marked
    lead_ins = _ITEM_ANSWERED.get(need, ())
    if lead_ins and question and (listed := _asked_list_items(text, question, lead_ins)):
        return _with_lead_ins(listed[:MAX_SENTENCES_PER_FRAGMENT], text)
    kind = answer_kind(question) if need in _KIND_ANSWERED and question else None
    if kind is not None:
        # 谁 / 在哪 / 何时 / 多少: quote the sentences that state such an answer (催费电话几点以后不能打:
        # the prohibited hours, not every prohibition of the list).
        pool = _with_listed_items(marked, text) if need is EvidenceNeed.PROHIBITION else marked
        marked = [s for s in pool if states_an_answer(kind, s, question)] or marked
    bound = asked_bound(question) if question else None
    if bound is not None:
        # 最多几项: the sentence stating the upper limit before those stating a minimum.
        marked = [s for s in marked if states_bound(s, bound)] or marked
    asked = quantity_ask(question) if question and need in QUANTITY_NEEDS else None
    if asked is not None:
        # 年假有几天: 年休假5天 answers it, not 须提前5个工作日申请 (a lead time stated in days).
        # 每天有多少哺乳时间: the sentence stating 1小时 answers it even without a cue word.
        qualifiers = asked_qualifiers(question)
        stating = [s for s in spoken if states_asked_quantity(asked, s, qualifiers) or DEFERS.search(s)]
        # 陪产假有几天 in a list of leave types: the line naming 陪产假, not 婚假3天 beside it.
        marked = (
            _naming_subject(stating, question) or [s for s in marked if s in stating] or stating or marked
        )
    if not marked and need is EvidenceNeed.AMOUNT_RULE:
        # A count of days or hours answers a quantity question (年休假5天, 不得超过三小时).
        marked = [s for s in spoken if _DURATION.search(s)]
    pairs = _question_pairs(question)
    if not marked and pairs and spoken:
        # No sentence carries the slot's cue words (体检费能报销吗 has no 条件 to quote): the sentences
        # repeating most of the question, rather than the whole fragment.
        most = max(_overlap(s, pairs) for s in spoken)
        marked = [s for s in spoken if most > 0 and _overlap(s, pairs) * 2 >= most]
    if pairs and marked:
        best = max(_overlap(s, pairs) for s in marked)
        if best > 0:
            attributes = _asked_attribute_wordings(question) if kind is not None else frozenset()
            subject = _subject_words(question)
            named = {s: _names_asked_subject(s, spoken[0], subject) for s in marked}
            marked = [
                s
                for s in marked
                if _overlap(s, pairs) * 2 >= best or named[s] or any(word in s for word in attributes)
            ]
            best_first = sorted(
                range(len(marked)), key=lambda i: (-named[marked[i]], -_overlap(marked[i], pairs))
            )
            kept = sorted(best_first[:MAX_SENTENCES_PER_FRAGMENT])
            marked = [marked[i] for i in kept]
    chosen = marked[:MAX_SENTENCES_PER_FRAGMENT]
    if chosen:
        return _with_lead_ins(_with_listed_items(_with_antecedents(chosen, spoken), text), text)
    stripped = strip_instructions(text).strip()
    return [stripped[:MAX_SPAN_CHARS]] if stripped else []


def listed_items(text: str, lead_in: str) -> list[str]:
    """The numbered lines that directly follow `lead_in` in `text`, verbatim (blank lines skipped)."""
    start = text.find(lead_in)
    if start < 0:
        return []
    items: list[str] = []
    for line in text[start + len(lead_in) :].splitlines():
        if not line.strip():
            continue
        if not ITEM_LINE.match(line) or len(items) >= MAX_LISTED_ITEMS:
            break
        if not is_instruction_like(line):
            items.append(line.strip())
    return items


def _with_listed_items(chosen: list[str], text: str) -> list[str]:
    """A lead-in sentence ending in a colon brings the items it introduces: the list is the answer."""
    out: list[str] = []
    for sentence in chosen:
        if sentence not in out:
            out.append(sentence)
        if sentence.endswith(LEAD_IN_END):
            out += [item for item in listed_items(text, sentence) if item not in out]
    return out


def _lead_in_of(item: str, text: str) -> str | None:
    """The colon-ended sentence a numbered item belongs to (严禁以下行为：), if any.

    Lines are walked, not sentences: an item may hold two sentences (病历；请病假1日的…), and the
    line before the next item is still an item.
    """
    if not ITEM_LINE.match(item):
        return None
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    index = next((i for i, line in enumerate(lines) if line.startswith(item)), None)
    if index is None:
        return None
    index -= 1
    while index >= 0 and ITEM_LINE.match(lines[index]):
        index -= 1
    if index < 0:
        return None
    last = sentences(lines[index])
    return last[-1] if last and last[-1].endswith(LEAD_IN_END) else None


_CONTINUES = re.compile(r"^(?:逾期(?:不|仍|未)|拒不|情节严重的|前款|上述|但是?|否则|并且)")
"""A clause that only continues the one before it (逾期不改正的，处…罚款 after 由…责令限期改正)."""


def _with_antecedents(chosen: list[str], spoken: list[str]) -> list[str]:
    """A clause that continues the one before it is quoted after that one: 逾期不改正的 alone does not
    say what was not corrected. `spoken` is the fragment's sentences, in order."""
    out: list[str] = []
    for sentence in chosen:
        index = spoken.index(sentence) if sentence in spoken else -1
        if index > 0 and _CONTINUES.match(sentence) and spoken[index - 1] not in out:
            out.append(spoken[index - 1])
        if sentence not in out:
            out.append(sentence)
    return out


def _with_lead_ins(chosen: list[str], text: str) -> list[str]:
    """An item quoted alone keeps its lead-in: "1. 向非本人管理项目的员工指派训练" under 严禁以下行为：
    would otherwise read as an instruction. Only the lead-in joins, not the rest of its list."""
    out: list[str] = []
    for sentence in chosen:
        lead = _lead_in_of(sentence, text)
        if lead is not None and lead not in out and lead not in chosen:
            out.append(lead)
        if sentence not in out:
            out.append(sentence)
    return out
