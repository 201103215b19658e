"""Small cue lists for conversation repair: cancel, correction, follow-up, references, claims.

This is not intent classification: these cues only decide how a short utterance relates
to the previous turn ("算了", "不对，是上个月", "那3000呢", "第二项"). All of them live here
so a reviewer can see every word the context layer reacts to in one place.
"""

from __future__ import annotations

import re

from shifu.contracts.entities import DocumentRef, OrdinalRef
from shifu.nlp.mentions import NOT_AN_ITEM_AFTER_GE, is_paper_original

_PUNCT = "，,。.!！?？；;：:、~～ \t\r\n"
_PUNCT_RE = re.compile("[" + re.escape(_PUNCT) + "]")

CANCEL_RE = re.compile(
    r"^(?:那|好吧|嗯)?(?:还是|就|先)?"
    r"(?:算了|不用了|不用|取消|取消吧|不要了|不需要了|别弄了|不做了|不发了|放弃)"
    r"(?:先不发|先不记|先不用|先不弄|先别发|不发了|不记了)?"
    r"(?:了|吧|啦|呀|哈)?(?:谢谢|谢了)?$"
)
"""A whole utterance that cancels a pending draft or clarification (never "怎么取消订单")."""

CORRECTION_PREFIX_RE = re.compile(
    r"^(?:不对|不是|错了|说错了|搞错了|弄错了)(?:[，,。.!！\s]+|$)|^不[，,。.!！\s]+"
    r"|^不是[^，,。.!！\s]{1,6}[，,。.!！\s]+(?=我说的是|是|应该是)"
)
"""An utterance that starts by rejecting the previous reading ("不对，是上个月")."""

CORRECTION_PHRASE_RE = re.compile(r"^(?:我)?(?:说的是|是说|指的是|问的是|要的是|想问的是)")
"""An utterance that restates what was meant ("我说的是本周")."""

FOLLOW_UP_PREFIX_RE = re.compile(r"^(?:那么|那如果|那要是|那假如|那|如果|要是|假如|换成|改成)")
"""Openers of a follow-up that keeps the previous frame ("那如果只签一年呢")."""

FOLLOW_UP_SUFFIX_RE = re.compile(r"(?:的话呢|的话|呢)$")
"""Closers of a follow-up ("满20年呢")."""

SHORT_FOLLOW_UP_CHARS = 8
"""A cue-marked utterance without a value is a follow-up only when its remainder is this short."""

MAX_FOLLOW_UP_CHARS = 12
"""Longer utterances are self-contained questions even with a cue ("如果签3年合同，试用期多久")."""

MAX_RESIDUAL_CHARS = 3
"""Without a value to substitute, a follow-up may add at most this much ("只签一年" → "只签"; "那江湾呢")."""

KNOWLEDGE_FOLLOW_UP_CHARS = 10
"""After a knowledge question, "那法定节假日呢" may swap a whole subject of up to this many characters."""

BARE_DEMONSTRATIVE_RE = re.compile(r"^(?:那|这)(?:个|些|样|种)?$")
""""那个呢" points at nothing specific: a clarification, not a follow-up."""

_ASKING_WORDS = "怎么|什么|多少|多久|多长|几|吗|哪|谁|是否|能否|能不能|可不可以"
"""Words that make an utterance ask something."""

SELF_CONTAINED_RE = re.compile(rf"[，,？?]|{_ASKING_WORDS}")
"""A remainder with its own question word or clause break is a new question, not a follow-up."""

SUBJECTLESS_MAX_CHARS = 16
"""A question without a subject of its own continues a knowledge question only when this short."""

SUBJECT_REPLY_MAX_CHARS = 10
"""A reply naming the subject a subjectless question was asked back for ("报销的") is this short."""

TRAILING_PUNCTUATION = "。.！!，, "
"""Stripped from a subject reply before it is put in front of the question it completes."""

ASKS_RE = re.compile(rf"[？?]|呢|要不要|{_ASKING_WORDS}")
"""The utterance asks something ("要谁批", "超过30天还能报吗"), unlike "好的" or "收到"."""

BARE_NUMBER_RE = re.compile(r"^\d+(?:\.\d+)?$")
"""A bare number ("3000"), substituted for the previous amount or duration."""

DOCUMENT_REF_CUES: tuple[str, ...] = (
    "刚才那份",
    "刚刚那份",
    "刚才的文件",
    "刚才那个文件",
    "那份文件",
    "那个文件",
    "这个文件",
    "那份制度",
    "那个制度",
    "原文件",
    "原文",
    "原件",
    "那份",
)
"""Expressions that point at the last cited document; longest first wins."""

ANAPHORIC_DOCUMENT_RE = re.compile(r"刚才|刚刚|那份|那个|这个|这份|上面|前面|你引用|你说的|之前")
"""A document reference with a demonstrative can only mean an earlier citation."""

NAMED_DOCUMENT_RE = re.compile(
    r"《[^》]+》|(?:制度|规定|办法|规程|指引|规范|SOP|手册|条例|法|说明|指导书|检查表)(?:的)?(?:原|文件)"
)
"""A question that names the document it wants ("报销管理制度的原文件") needs no earlier citation."""

_CN_DIGITS = {
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}

ORDINAL_RE = re.compile(
    rf"第\s*([0-9]+|[一二两三四五六七八九十]+)\s*(?:项|个{NOT_AN_ITEM_AFTER_GE}|条|件|份|点|位)"
)
"""第二项 / 第2个 / 第十条 — never 第N次 ("the N-th time" points at no listed item) nor 第N步
(a step of the process asked about: 发现火情第一步做什么)."""

STEP_ORDINAL_RE = re.compile(r"第\s*([0-9]+|[一二两三四五六七八九十]+)\s*步")
"""第二步: a step of the last answer's 办理步骤, read as such only right after steps were listed."""

ARTICLE_OWNER_RE = re.compile(r"(?:法|条例|办法|规定|制度|细则|解释|规范|守则|》)\s*$")
"""What precedes 第N条 when it is an article of a named law or policy (劳动合同法第十条), not an item."""

LAST_ITEM_RE = re.compile(r"最后(?:那|一|这)?(?:个|项|条|件|份)|上一个")
"""最后那个 / 最后一项 / 上一个 → the last item."""

ROLE_WORDS: tuple[str, ...] = (
    "项目经理",
    "超级管理员",
    "管理员",
    "主管",
    "经理",
    "领导",
    "负责人",
    "总监",
    "老板",
    "督导",
    "管理层",
)
"""Role words in a self-claim ("我是主管"); a claim never grants the role."""

ROLE_CLAIM_RE = re.compile(
    r"我(?:就|现在|已经|也|可)?(?:是|当上了?|升(?:职)?(?:为|成)了?)[^，,。.!！?？]{0,8}?("
    + "|".join(ROLE_WORDS)
    + ")"
)
"""我是主管 / 我是华府的项目经理 / 我已经升为主管."""

PERMISSION_CLAIM_RE = re.compile(
    r"我(?:有|已经有|已有|拿到了?|开通了?|获得了?)[^，,。.!！?？]{0,4}?(?:权限|授权)"
    r"|(?:已经|已)?(?:给我|为我)(?:开|开通|授予)了?[^，,。]{0,4}?权限"
    r"|(?:领导|主管|经理|公司)(?:已经)?(?:同意|批准|授权)了?(?:我)"
)
"""我有权限 / 已经给我开了权限 / 主管同意我."""

IDENTITY_CLAIM_RE = re.compile(r"我(?:就)?是([\u4e00-\u9fff]{2,3}?)(?:本人|啊|呀|，|,|。|$)")
"""我是李四 / 我就是张三本人."""

SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
"""Common surnames: "我是李四" is an identity claim, "我是新来的" is not."""


def strip_punct(text: str) -> str:
    """The text without surrounding punctuation and spaces."""
    return text.strip(_PUNCT)


ASSENT_RE = re.compile(
    r"^(?:嗯|那)?(?:确认|确定|好的?|可以|行|没问题|对|是的|就这样|提交|保存|发吧|ok|OK|Ok)"
    r"(?:了|吧|啊|呀|的|提交|保存|执行)?(?:谢谢)?$"
)
"""A whole utterance that only agrees ("确认", "好的提交"): with a draft open it means "do it"."""


MAX_DRAFT_REPLY_CHARS = 120
"""A reply supplying a draft's missing field (孙八, 下周五, what was done) is at most this long."""

_NEW_REQUEST_RE = re.compile(
    r"^(?:请|麻烦)?(?:帮我|给我|替我|帮忙|记一下|记下|查|看看|发|派|投稿|提交|我想|我要)"
)
"""A reply that starts a request of its own is not the missing field of the open draft."""


def supplies_a_field(text: str) -> bool:
    """True when `text` can be the value an incomplete draft asked for: short, asking nothing and
    starting no request of its own ("孙八", "下周五截止", "今天帮3栋王阿姨把摔倒的老人送到医院")."""
    clean = strip_punct(text)
    return (
        0 < len(clean) <= MAX_DRAFT_REPLY_CHARS
        and not ASKS_RE.search(clean)
        and not _NEW_REQUEST_RE.match(clean)
        and not is_assent(clean)
    )


_VISIBILITY_CHOICE_RE = re.compile(
    r"^(?:就|那就|那|请|帮我)?(?:记成|记为|存成|存为|设成|设为|作为|选|改成|要)?"
    r"(?P<choice>私人记录|私人的|私人|仅自己可见|自己可见|只有我能看|只给我看|私密|公司记录|公司的|记到公司|公开记录|公开)"
    r"(?:吧|就行|就好|可见)?$"
)
_PRIVATE_CHOICES = frozenset(
    {"私人记录", "私人的", "私人", "仅自己可见", "自己可见", "只有我能看", "只给我看", "私密"}
)


def visibility_choice(text: str) -> str | None:
    """私人记录 or 公司记录 when the whole reply only chooses who sees a note (仅自己可见, 存成公司记录)."""
    match = _VISIBILITY_CHOICE_RE.match(_PUNCT_RE.sub("", text))
    if match is None:
        return None
    return "私人记录" if match.group("choice") in _PRIVATE_CHOICES else "公司记录"


def is_assent(text: str) -> bool:
    """True when the whole utterance only agrees; it names nothing else to do."""
    return ASSENT_RE.match(_PUNCT_RE.sub("", text)) is not None


def is_cancel(text: str) -> bool:
    """True when the whole utterance cancels ("算了" / "不用了" / "取消")."""
    return CANCEL_RE.match(_PUNCT_RE.sub("", text)) is not None


def correction_remainder(text: str) -> str | None:
    """What follows a correction cue ("不对，是上个月" → "上个月"), or None if it is no correction."""
    clean = strip_punct(text)
    match = CORRECTION_PREFIX_RE.match(clean) or CORRECTION_PHRASE_RE.match(clean)
    if match is None:
        return None
    rest = strip_punct(clean[match.end() :])
    rest = CORRECTION_PHRASE_RE.sub("", rest, count=1)
    if rest.startswith("是"):
        rest = rest[1:]
    return strip_punct(rest)


ASKED_KIND_RE = re.compile(
    r"^(?:的)?(?:时限|期限|截止时间|提交时限|流程|步骤|手续|办理流程|材料|资料|标准|额度|上限|条件|要求|"
    r"审批|审批权限|谁批|联系方式|电话|罚款|处罚|禁止事项|注意事项)$"
)
"""A follow-up that names only the kind of claim it now asks for (那时限呢, 流程呢)."""


LIVE_RECORD_RE = re.compile(
    r"^(?:的)?(?:工作)?(?:成果|待办|任务|工单|练习|训练|训练记录|练习记录|成绩|复盘)$"
)
"""A follow-up that names only another live record (那成果呢, 待办呢)."""


def follow_up_remainder(text: str) -> str | None:
    """The value part of a follow-up ("那如果只签一年呢" → "只签一年"), or None without a cue."""
    clean = strip_punct(text)
    prefix = FOLLOW_UP_PREFIX_RE.match(clean)
    rest = clean[prefix.end() :] if prefix else clean
    suffix = FOLLOW_UP_SUFFIX_RE.search(rest)
    if prefix is None and suffix is None:
        return None
    if suffix is not None:
        rest = rest[: suffix.start()]
    return strip_punct(rest)


def _cn_number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    if token == "十":
        return 10
    if "十" in token:
        tens, _, ones = token.partition("十")
        high = _CN_DIGITS.get(tens, 0) if tens else 1
        low = _CN_DIGITS.get(ones, 0) if ones else 0
        return high * 10 + low
    if len(token) == 1:
        return _CN_DIGITS.get(token)
    return None


def find_ordinals(text: str) -> list[OrdinalRef]:
    """Ordinal references in the text, in order (used when the entity extractor found none)."""
    found: list[tuple[int, OrdinalRef]] = []
    for match in ORDINAL_RE.finditer(text):
        if match.group(0).endswith("条") and ARTICLE_OWNER_RE.search(text[: match.start()]):
            continue
        number = _cn_number(match.group(1))
        if number is not None and number >= 1:
            found.append((match.start(), OrdinalRef(index=number, text=match.group(0))))
    for match in LAST_ITEM_RE.finditer(text):
        found.append((match.start(), OrdinalRef(index=-1, text=match.group(0))))
    return [ref for _, ref in sorted(found, key=lambda pair: pair[0])]


def find_step_ordinals(text: str) -> list[OrdinalRef]:
    """Step references (第二步) in the text, in order."""
    found = ((_cn_number(match.group(1)), match.group(0)) for match in STEP_ORDINAL_RE.finditer(text))
    return [OrdinalRef(index=n, text=surface) for n, surface in found if n is not None and n >= 1]


def find_document_refs(text: str) -> list[DocumentRef]:
    """References to the last cited document (used when the entity extractor found none)."""
    for cue in DOCUMENT_REF_CUES:
        if any(not is_paper_original(text, m.start()) for m in re.finditer(re.escape(cue), text)):
            return [DocumentRef(text=cue)]
    return []
