"""What the asked span of a question is an attribute of: 导演 in 《七人乐队》的导演是谁, 演 in 高启强谁演的.

A sentence can share a question's subject and hold a span of the asked kind without stating the
asked thing: "吴宇森因身体原因退出" names a person and 《七人乐队》 but not who directed it, and
"他曾是2005年查尔斯和卡米拉婚礼的官方摄影师" has a date and 查尔斯 but says nothing of a
coronation. The answering sentence must speak of the word the question asks the span of.

The attribute is read next to the words that ask (是谁, 多少, 开幕时间): the word the asking
words name when they name one (吞吐量, 开幕), else the salient word just before them, or for
谁 followed by its act (谁演的, 谁枪击了…) that act. Only salient question words qualify
(`nlp.terms`): 每天 in 消防巡查每天几次 is not what is counted, 巡查 is.
"""

from __future__ import annotations

import re

from shifu.nlp.answer_kind import LISTS_PEOPLE, AnswerKind, asking
from shifu.nlp.lay_words import GENERIC_WORDS, QUESTION_WORDS
from shifu.nlp.terms import QuestionTerms, words

_ASKING_WORDS = re.compile(
    r"哪些|都?(?:有哪些|是哪些|有谁)|是谁|谁|哪位|什么人|[在去到]哪|哪里|哪儿|何地|何处|什么地方|"
    r"哪个(?:国家|城市|省|地方)|哪座城市|哪个|哪座|哪支|哪家|哪部|哪款|"
    r"什么时候|何时|哪一?天|几号|几月|几点|哪一?年|什么时间|多少|多大|多高|多长|多重|几.|叫什么|什么|"
    r"时间|日期|地点|名字|名称|[？?\s]"
)
"""The asking part of a trigger: what is left of 开幕时间 or 吞吐量 names the attribute."""
_WEAK = frozenset({"达到", "造成", "总共", "一共", "共有", "开始", "结束", "进行"})
"""Verbs and adverbs that lead to the asked span without naming what it is (达到了多少, 开始时间)."""
_KIND_NOUNS = frozenset(
    {"人数", "数量", "总量", "人次", "队伍", "球队", "对手", "型号", "品牌", "团队"}
    | {"国家", "城市", "公司", "地方"}
)
"""Words that say what kind of span is asked (死亡人数, 决赛队伍, 研发国家), not what it is of."""
_NOT_AN_ACT = frozenset("来去做是有的在给让被把了将从由中里上")
"""Single characters after or before 谁 that are no act of their own (由谁来进行)."""
_CLAUSE_END = re.compile(r"[，,。；;？?]")
_NAMING = re.compile(r"[\u4e00-\u9fffA-Za-z0-9]")


def _names_something(word: str) -> bool:
    """A word of at least two characters that neither asks, nor is generic, weak or a kind noun."""
    return (
        len(word) >= 2
        and word not in QUESTION_WORDS
        and word not in GENERIC_WORDS
        and word not in _WEAK
        and word not in _KIND_NOUNS
    )


def _salient(word: str, terms: tuple[str, ...]) -> bool:
    """A word that names something and is, or is part of, a salient question term."""
    return _names_something(word) and any(word in term or term in word for term in terms)


def _named(text: str, terms: tuple[str, ...]) -> list[str]:
    """The salient words of `text`, in order."""
    pieces = (word.strip() for word in words(text))
    return [word for word in pieces if _NAMING.search(word) and _salient(word, terms)]


def _act(text: str, *, last: bool) -> str | None:
    """The one-character act next to 谁 (演 in 谁演的 and 演的谁), or None."""
    pieces = [w.strip() for w in words(text) if w.strip() and _NAMING.search(w)]
    if not pieces:
        return None
    piece = pieces[-1] if last else pieces[0]
    return piece if len(piece) == 1 and piece not in _NOT_AN_ACT else None


def asked_attributes(question: str, question_terms: QuestionTerms) -> tuple[str, ...]:
    """The question's words for what is asked (`question_terms`: its salient terms); the answering
    sentence must speak of one of them.

    Empty when the question asks for no particular kind of span, for a result (止步16强 states a
    result without the word 成绩), or when no salient word sits next to the asking words.
    """
    asked = asking(question)
    if asked is None or asked[0] is AnswerKind.RESULT:
        return ()
    kind, match = asked
    terms = tuple(term.text for term in question_terms.terms)
    trigger = match.group(0)
    named = _ASKING_WORDS.sub("", trigger)
    inside = _named(named, terms) or ([named] if _names_something(named) else [])
    after_text = _CLAUSE_END.split(question[match.end() :])[0]
    before_text = _CLAUSE_END.split(question[: match.start()])[-1]
    after, before = _named(after_text, terms), _named(before_text, terms)
    if match.re is LISTS_PEOPLE:
        return tuple(dict.fromkeys([*inside[-1:], *after[:1]]))
    if inside:
        return ("".join(inside),)
    if kind is AnswerKind.PERSON and "谁" in trigger:
        if after_text.lstrip().startswith("是"):
            return tuple(after[-1:])
        act = _act(after_text, last=False)
        if act is None and after:
            return (after[0],)
        act = act or _act(before_text.rstrip("的了"), last=True)
        if act is not None:
            return (act,)
    return tuple(dict.fromkeys([*before[-1:], *after[:1]]))


WORDINGS: tuple[frozenset[str], ...] = (
    frozenset({"增长", "增加", "上升", "上涨", "增速", "增幅", "涨幅", "提高", "增长率"}),
    frozenset({"下降", "减少", "下跌", "降幅", "跌幅", "回落"}),
    frozenset({"收益", "收入", "营收", "营业收入"}),
    frozenset({"唱", "演唱", "献唱", "演绎", "歌手"}),
    frozenset({"制作", "出品", "打造"}),
    frozenset({"发售", "上市", "开售", "发布", "推出"}),
    frozenset({"举办", "举行", "召开", "开幕"}),
    frozenset({"出", "付", "支付", "承担", "负担", "垫付", "出资", "列支"}),
    frozenset({"找", "联系", "上报", "报告", "请示", "求助"}),
    frozenset({"来看", "查看", "查阅", "翻看", "审阅"}),
)
"""Words that state the same attribute (增长 ~ 增速 ~ 上升; 医药费谁出 ~ 从工伤保险基金支付; 投诉升级要找谁 ~
上报项目经理; 催缴记录谁来看 ~ 主管每周查看一次催缴记录): a sentence may use any of them."""


def wordings(attribute: str) -> frozenset[str]:
    """The attribute and the other words that state it."""
    for group in WORDINGS:
        if attribute in group:
            return group
    return frozenset({attribute})
