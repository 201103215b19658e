"""The salient terms of a question: what a fragment must speak of to be about the question.

Terms come from a dictionary max-match over jieba's IDF vocabulary (the IDF weights rank how
specific a term is); question words, generic words and numbers are dropped, and the most
specific terms are required. The evidence gate scores fragments against them; the conversation
layer uses them to tell a subjectless follow-up ("要谁批") from a question of its own.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from shifu.nlp.lay_words import (
    DOMAIN_WORDS,
    GENERIC_WORDS,
    LAY_SYNONYMS,
    MISHAP_WORDS,
    QUESTION_WORDS,
    SITUATION_WORDS,
)
from shifu.nlp.mentions import ORDINAL_MENTION, VERSION_MENTION

_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_NUMERAL = re.compile(
    r"^[零〇一二两三四五六七八九十百千万\d]+(?:个月|个小时|小时|周岁|[个天日年月周次笔元块岁点分号])?$|"
    r"^[一每单][户张笔次个人份顿晚天月年件项位名台]$"
)
_COUNT_ASK = re.compile(r"^几[\u4e00-\u9fff]$")
"""几轮, 几类, 几级: asking how many, never the subject (the segmenter guesses them as words)."""
_MAX_WORD = 6
_DOMAIN_FREQ = 20000
"""jieba frequency given to domain words so the segmenter keeps them whole."""
_KEPT_WHOLE = (
    *("额外", "另外", "忘了", "忘记"),
    *("能不能", "可不可以", "是不是", "要不要", "会不会", "行不行", "用不用", "让不让"),
    *("咋整", "咋办", "咋弄", "咋搞", "咋做"),
)
"""Words the segmenter would otherwise split or glue to their neighbours (要额外交 → 额 | 外交, 能不能自己撬门
→ 能 | 不能自己, 困住人咋整 → 人整, 忘了打卡 → 忘 | 了)."""
_MONEY = re.compile(r"\d+(?:\.\d+)?\s*[万千]?\s*(?:块钱|元钱|块|元|圆)")
"""500块钱: an amount is the question's figure (read elsewhere), never a term; without it 块钱 would be."""
_LEAVE_LENGTH = re.compile(
    r"([请休加])\s*((?:[\d零〇一二两三四五六七八九十半]+|几|多少)\s*个?\s*(?:天|日|小时|周|月))\s*的?\s*"
    r"([\u4e00-\u9fff]?[假班])"
)
"""请3天假, 休两天病假, 加几个小时班: the leave or overtime asked about is 请假 / 请病假 / 加班 (the length
sits inside it)."""
_NO_GLUE = frozenset(
    "零〇一二两三四五六七八九十百千万"  # numerals
    "天日月年时小个内后前次点分号岁周元块钱人"  # units
    "多少几些吗呢了的"  # particles
)
"""Single characters that are units, numerals or particles, never part of an unknown term."""
_UNKNOWN_IDF = 10.0
"""Weight of a run of characters the vocabulary does not know (often a specific term: 竞业)."""
_REQUIRED_MARGIN = 1.5
"""Terms within this IDF distance of the most specific one are required too."""
_MIN_REQUIRED_IDF = 7.5
"""Below this weight a term is too common to be the subject on its own."""
_SHORT_QUESTION = 3
_SHORT_REQUIRED_IDF = 6.5
"""In a short question (≤ 3 terms) every reasonably specific term is part of the subject (采购 in
"500元的一笔采购如何报销" is what is being reimbursed, not a detail)."""


@cache
def _tokenizer() -> Any:
    """A private jieba tokenizer (its dictionary loads once, lazily; the global one is left alone)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    for word in sorted(DOMAIN_WORDS | frozenset(LAY_SYNONYMS) | frozenset(_KEPT_WHOLE)):
        if len(word) > 1 and tokenizer.FREQ.get(word, 0) < _DOMAIN_FREQ:
            # Also raise rare dictionary words: 记录表 (freq 4) must beat 记录|表里 in 记录表里.
            tokenizer.add_word(word, freq=_DOMAIN_FREQ)
    return tokenizer


def words(text: str) -> list[str]:
    """The text segmented into words with the domain dictionary (多少 | 年休假, not 多少年 | 休假)."""
    return [str(word) for word in _tokenizer().lcut(text, HMM=False)]


_EDGE_CHARS = "".join(sorted(_NO_GLUE | {word for word in QUESTION_WORDS | GENERIC_WORDS if len(word) == 1}))
"""Characters trimmed from the edges of a guessed word (能休 → 休, 困人后 → 困人)."""


def _segment(run: str) -> list[str]:
    """jieba segmentation; a guessed (out-of-vocabulary) word loses unit/particle characters at its edges.

    The HMM guesses 困人后 or 天内 for unknown stretches; trimming 后/天/内 keeps the subject (困人).
    """
    known = vocabulary()
    pieces: list[str] = []
    for raw in _tokenizer().lcut(run, HMM=True):
        piece = str(raw)
        if len(piece) > 1 and piece not in known:
            piece = _without_question_words(piece).strip(_EDGE_CHARS)
        if piece:
            pieces.append(piece)
    return pieces


@cache
def _long_question_words() -> tuple[str, ...]:
    return tuple(sorted((w for w in QUESTION_WORDS if len(w) > 1), key=len, reverse=True))


def _without_question_words(guess: str) -> str:
    """A guessed word minus question words at its edges: the HMM's 最多能 (最多 + 能) names nothing."""
    trimmed = True
    while trimmed and guess:
        trimmed = False
        for word in _long_question_words():
            if guess != word and guess.startswith(word):
                guess, trimmed = guess[len(word) :], True
            elif guess != word and guess.endswith(word):
                guess, trimmed = guess[: -len(word)], True
    return guess


@cache
def vocabulary() -> dict[str, float]:
    """jieba's IDF table (word → IDF); loaded once, lazily, from the installed package."""
    import jieba

    path = Path(jieba.__file__).parent / "analyse" / "idf.txt"
    table: dict[str, float] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle.read().splitlines():
            word, _, weight = line.partition(" ")
            if word and weight:
                table[word] = float(weight)
    for word in DOMAIN_WORDS | frozenset(LAY_SYNONYMS) | frozenset(_KEPT_WHOLE):
        table.setdefault(word, _UNKNOWN_IDF)
    return table


def max_match(run: str, known: dict[str, float], *, exclude: str = "") -> list[str]:
    """Forward and backward maximum matching; the split with fewer pieces (then fewer singles) wins."""

    def forward(text: str) -> list[str]:
        pieces: list[str] = []
        index = 0
        while index < len(text):
            for size in range(min(_MAX_WORD, len(text) - index), 0, -1):
                piece = text[index : index + size]
                if size == 1 or (piece in known and piece != exclude):
                    pieces.append(piece)
                    index += size
                    break
        return pieces

    def backward(text: str) -> list[str]:
        pieces: list[str] = []
        end = len(text)
        while end > 0:
            for size in range(min(_MAX_WORD, end), 0, -1):
                piece = text[end - size : end]
                if size == 1 or (piece in known and piece != exclude):
                    pieces.insert(0, piece)
                    end -= size
                    break
        return pieces

    ahead, behind = forward(run), backward(run)

    def cost(pieces: list[str]) -> tuple[int, int]:
        return len(pieces), sum(1 for piece in pieces if len(piece) == 1)

    return ahead if cost(ahead) < cost(behind) else behind


def _merge_unknown(pieces: list[str]) -> list[str]:
    """Glue runs of single characters (unknown to the vocabulary) into one candidate term."""
    merged: list[str] = []
    buffer = ""
    for piece in pieces:
        if len(piece) == 1 and piece not in _NO_GLUE | QUESTION_WORDS | GENERIC_WORDS:
            buffer += piece
            continue
        if buffer:
            merged.append(buffer)
            buffer = ""
        merged.append(piece)
    if buffer:
        merged.append(buffer)
    return merged


@dataclass(frozen=True, slots=True)
class Term:
    """One salient question term with its specificity weight."""

    text: str
    weight: float


@dataclass(frozen=True, slots=True)
class QuestionTerms:
    """The salient terms of a question and which of them name its subject."""

    terms: tuple[Term, ...]
    required: tuple[str, ...]

    @property
    def empty(self) -> bool:
        """True when the question has no salient term (nothing to be relevant to)."""
        return not self.terms

    @property
    def names_a_subject(self) -> bool:
        """True when some term names what the question is about, not only what happened to it."""
        return any(term.text not in SITUATION_WORDS for term in self.terms)


_EXAMPLE_MARKERS = frozenset({"这种", "这类", "之类", "之类的", "这样", "那种", "那类", "一类"})
"""买灯泡这种零星采购: the word before the marker is an instance of the subject, not the subject, so
a rule about the subject covers it without naming the instance."""

_CATEGORY_MARKERS = frozenset({"类", "类的"})
"""工具类的东西离职要还吗: the word before 类 names the category asked about, so it is part of the subject
however common the word is (a rule on 离职 that never names 工具 does not answer it)."""

_QUESTION_PREFIX = re.compile(r"^(?:哪些|哪个|哪种|哪几|什么|多少|几个|几项|几种)(?=..)")
_ASKING = re.compile(r"[哪谁怎咋啥]|什么|多少|何[时种地处]")
"""A piece still holding an interrogative once its prefix is cut asks; it names nothing (哪几种, 由谁来)."""
_ASKED_SPAN = re.compile(
    r"(?:多久|多长时间|多少天|多少个?工作日|几个?工作日|几天|几周|几个月|几年|几个?小时)"
    r"(?:以内|之内|以后|之后|以前|之前|内|后|前)?"
)
"""A question about a length of time, with the 内/后/前 that belongs to it: the segmenter must not glue
that character to the next word (多久内能申请 is not about 内能)."""


_REFUND_ASKED = re.compile(r"(怎么|怎样|如何|咋|能不能|可以|什么时候|多久)\s*退(?=[吗呢？?了回]|$)")
"""押金怎么退: the one-character act 退 is what is asked of the deposit, so it is read as 退还 (a term a
rule on the deposit's return states), not dropped as too short to name anything."""
HANDED_IN_LATE = re.compile(r"(?:交|提交|报)(?:晚|迟)了|(?:晚|迟)(?:交|报)了?|没按时(?:交|提交|报)")
"""资料交晚了怎么办: handing something in late is what the rules call 逾期 (逾期未提交资料的，…). Coming
late (迟到, 来晚了) is no such thing: the rules say 未按时到岗."""
_WITHOUT_APPROVAL = re.compile(r"没(?:有)?经过?(?:批准|审批)(?:就|便)?|没(?:有)?(?:批准|审批|批)(?:就|便)")
"""请假没批就走了: acting before approval is what the rules call 未经批准 (未经批准不到岗的，按旷工处理);
报销没批下来 (not approved yet) is no such act."""
_ENTERING = re.compile(
    r"(材料|工人|施工人员|车辆|物品|家具)((?:几点|什么时候|啥时候|何时)?)(?:才)?(?:能|可以)进(?:来|去)?(?![场入出])"
)
"""装修材料几点能进: things or workers coming in is what the rules call 进场 (装修材料进场须在门岗登记)."""
_ASSAULTED = re.compile(
    r"被(?:业主|住户|租户|客户|访客|别人|人)?(?:打伤|殴打|打|推倒|推搡|推|踢)(?![扰卡印折开听算电])"
)
"""我被业主打了: being hit at work is what the rules call 暴力 (受到暴力等意外伤害的，认定为工伤);
who hit is no subject of a rule. 被打扰 and 被打卡 are not."""
_NEW_HIRE = re.compile(r"新(?:来的)?(?:员工|同事|人)(?!员)")
"""新员工多久要复盘: a new hire is what the rules say with 入职 (新员工入职满30日, 新员工入职首月); the
segmenter splits 新员工 into 新 | 员工, and 员工 alone names no subject."""
_CLAIMED_BACK = re.compile(r"(?<=[票费条钱据车饭])(能|可以|能不能|可不可以|给不给|给)报(?=[吗呢么？?了]|$)")
"""出租车票能报吗: the one-character 报 asked of a cost (a ticket, a fee, a receipt) is 报销; left alone it
is glued to its neighbour (票报) into a word no rule states. 超过30天还能报吗 names no cost: the
conversation's subject says whether 报 is 报销 or a procurement's 报账."""
_INSULTED = re.compile(r"被(?:业主|住户|租户|客户|访客|别人|人)?(?:骂|辱骂|骂了)")
"""我被业主骂了怎么办: being insulted is the subject (辱骂), not the owner; without it the one-character 骂
is dropped and any rule about 业主 would answer."""
_SCORED = re.compile(
    r"(?:考|测|练|打)(?:了|出|到)?(?=[\d一二三四五六七八九十]+\s*分)|(?:只有|才)(?=[\d一二三四五六七八九十]+\s*分)"
)
"""员工考了50分怎么办: a score someone got is what the rules call 得分 (得分低于60分的，列入待复盘名单)."""
_SHIFT_SYSTEM = re.compile(r"几班倒|倒几班|几班制")
"""门岗几班倒: how many shifts a post runs is what the rules call 班制 (实行两班制)."""
_MAY_USE = re.compile(r"(?:能|可以)(?:不能|不可以)?用(?=[吗呢么？?]|$)|能不能用|可不可以用")
"""装修期间电梯能用吗: being allowed to use something is what the rules state as 使用 (禁止使用其他电梯)."""
_FOOTAGE = re.compile(r"(?:看|调|查|调取|查看|调阅|拷贝|拷)(?:一下|下)?监控(?!中心|室)")
"""业主要看监控可以吗: the footage is what is asked (rules call it 监控录像); a statute's 安全指导和监控 is
supervision, not a camera."""
_TRAPPED = re.compile(r"(?<![电梯])困人(?!员)")
"""困人超过多久要打119: staff say 困人 for 电梯困人, which the segmenter knows; 困人 alone it splits into
困 | 人, leaving the question no subject (a word added to its dictionary would shift every other split)."""
_DEDUCTED = re.compile(r"扣(?:钱|工资|薪水|薪资|薪)")
"""事假扣钱吗: pay kept back is what the rules state of 工资 (事假期间不发工资, 从报销人工资中扣回)."""
_REPEATEDLY = re.compile(r"(?:好几|十几|几十)次|屡次|三番五次|一再")
"""业主欠费好几次都不交: something that happened again and again is what the rules call 多次
(多次提醒仍未缴费的)."""
_FIRST_PERIOD = re.compile(r"(?:第一个|头一个|头个)(月)|(?:第一|头一)(周|年)")
"""新员工第一个月: rules say 首月 (入职首月), 首周, 首年; the ordinal 第一个 names nothing on its own."""
_ADDRESS = re.compile(
    r"\d+\s*(?:栋|幢|号楼|座)(?:\s*\d+\s*单元)?(?:\s*\d+\s*(?:室|号|层))?|\d+\s*单元(?:\s*\d+\s*室?)?"
)
"""3栋1单元, 2号楼1201室: where a task is, which no document names (单元 would otherwise be a term)."""


_AFTER_A_TITLE = re.compile(r"(在\s*[《“「][^》”」]{1,40}[》”」])[中里内上]")
"""在《相逢时节》中演的谁: the 中 after a title is "in", never the start of a word (中演)."""


def _without_question_prefix(piece: str) -> str:
    """哪些项目 → 项目: the dictionary holds some question phrases whole; the asking part names nothing."""
    return piece if piece in DOMAIN_WORDS else _QUESTION_PREFIX.sub("", piece)


def _not_a_term(piece: str) -> bool:
    """A number ("3天") or a count ask ("几轮") names no subject."""
    return bool(_NUMERAL.match(piece) or _COUNT_ASK.match(piece))


@lru_cache(maxsize=4096)
def question_terms(question: str) -> QuestionTerms:
    """Salient terms of `question`, weighted by IDF, with the most specific ones required.

    Memoized with a bound: the search, the evidence gate and the span selection each read the same
    question's terms (the result is immutable), and questions come from users, so the memo must not
    grow forever.
    """
    known = vocabulary()
    found: dict[str, float] = {}
    examples: set[str] = set()
    categories: set[str] = set()
    question = _ADDRESS.sub(" ", _AFTER_A_TITLE.sub(r"\1 ", question))
    question = _MONEY.sub(" ", _LEAVE_LENGTH.sub(r"\1\3 \2", question))
    question = _REFUND_ASKED.sub(r"\1退还", question)
    question = _CLAIMED_BACK.sub(r"\1报销", question)
    question = _NEW_HIRE.sub("新入职员工", question)
    question = HANDED_IN_LATE.sub("逾期", question)
    question = _WITHOUT_APPROVAL.sub("未经批准", question)
    question = _ENTERING.sub(r"\1\2进场", question)
    question = _ASSAULTED.sub("受到暴力", question)
    question = _INSULTED.sub("辱骂", question)
    question = _SCORED.sub("得分", question)
    question = _REPEATEDLY.sub("多次", question)
    question = _DEDUCTED.sub("工资", question)
    question = _TRAPPED.sub("电梯困人", question)
    question = _FOOTAGE.sub("查看监控录像", question)
    question = _MAY_USE.sub("使用", question)
    question = _SHIFT_SYSTEM.sub("班制", question)
    question = _FIRST_PERIOD.sub(lambda match: "首" + (match.group(1) or match.group(2)), question)
    # 新版 / 2024版 choose a version and 第二项 points at a listed item: neither names a subject.
    question = ORDINAL_MENTION.sub(" ", VERSION_MENTION.sub(" ", question))
    for run in (part for text in _CJK_RUN.findall(question) for part in _ASKED_SPAN.split(text) if part):
        pieces = [_without_question_prefix(piece) for piece in _merge_unknown(_segment(run))]
        for index, piece in enumerate(pieces):
            following = pieces[index + 1] if index + 1 < len(pieces) else ""
            asked = piece in QUESTION_WORDS and following not in MISHAP_WORDS
            if len(piece) < 2 or asked or piece in GENERIC_WORDS or _not_a_term(piece):
                continue
            if _ASKING.search(piece):
                continue
            found.setdefault(piece, known.get(piece, _UNKNOWN_IDF))
            if following in _EXAMPLE_MARKERS:
                examples.add(piece)
            elif following in _CATEGORY_MARKERS:
                categories.add(piece)
    terms = tuple(Term(text=text, weight=weight) for text, weight in found.items())
    if not terms:
        return QuestionTerms(terms=(), required=())
    top = max(term.weight for term in terms)
    short = len(terms) <= _SHORT_QUESTION
    required = tuple(
        term.text
        for term in terms
        if term.text in categories
        or (
            term.text not in examples
            and (
                (term.weight >= top - _REQUIRED_MARGIN and term.weight >= min(_MIN_REQUIRED_IDF, top))
                or (short and term.weight >= _SHORT_REQUIRED_IDF)
            )
        )
    )
    return QuestionTerms(terms=terms, required=required)


def warm_up() -> None:
    """Load the segmenter and the IDF table now (≈ 2–5 s once) instead of on the first question."""
    question_terms("年假要提前几天申请")
