"""Negations, versions, buildings/rooms, ordinal and document references, and person names.

Each finder is a small, exact pattern over surface forms (regexes extract entities; they
never decide intent). Finders skip characters already claimed by an earlier finder, so a
comparator like 不超过 is never also counted as the negation 不.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from shifu.contracts.entities import DocumentRef, Location, Negation, OrdinalRef, PersonMention, VersionRef
from shifu.nlp.numerals import CN_NUMBER, parse_number

Span = tuple[int, int]

_NEGATION = re.compile(
    r"不得|不准|不允许|不需要|不用|不要|不能|不可以|不可|不必|禁止|严禁|无需|无须|无法|没有|没|未|别|勿|不"
)
_NOT_NEGATION_WORDS = (
    "不动产",
    "不锈钢",
    "不过",
    "不同",
    "不断",
    "不少",
    "不错",
    "差不多",
    "不管",
    "不仅",
    "不但",
    "不然",
    "不良",
    "未来",
    "别人",
    "别的",
    "特别",
    "区别",
    "类别",
    "级别",
    "分别",
    "性别",
    "个别",
    "识别",
    "告别",
    "没事",
    "不好意思",
    "了不起",
    "对不起",
    "来不及",
)
_A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1")

LATEST_VERSION = "LATEST"
"""The version value of 新版 / 最新版: the newest version in force, whatever its label."""
PREVIOUS_VERSION = "PREVIOUS"
"""The version value of 旧版 / 老版: every version before the newest in force."""
VERSION_MENTION = re.compile(
    rf"((?:19|20)\d{{2}})\s*年?\s*版|[Vv]\s*(\d+(?:\.\d+)*)(?![a-zA-Z])|第\s*(\d+|{CN_NUMBER})\s*版|(新|旧|最新|老)版本?|"
    r"(?:(?<=按)|(?<=用)|(?<=以)|^)(最新|新|旧|老)的(?:那?个|那版|那份)?(?:为准|来)?(?=\s*[，,。.！!]|\s*$)"
)
"""2024版, V2, 第二版, 新版, and a reply choosing a version by its age (按最新的, 旧的那个) when that is
all its clause says."""
_LOCATION = re.compile(
    rf"(\d+|{CN_NUMBER})\s*(?:栋|幢|号楼|座|号院)\s*(?:(\d+)\s*单元)?\s*(?:(\d{{3,4}})\s*(?:室|号|房)?)?"
)
_ROOM = re.compile(r"(?<![\d.])(\d{3,4})\s*(?:室|房间|房)")

NOT_AN_ITEM_AFTER_GE = r"(?!月|小时|工作日|星期|季度|年|周|阶段)"
"""After 第N个, a unit of time or a stage: 第一个月 is a time, never the first listed item."""
ORDINAL_MENTION = re.compile(
    rf"第\s*(\d+|{CN_NUMBER})\s*(?:个任务|个{NOT_AN_ITEM_AFTER_GE}|项|件|份|点|行|位|条待办|张)"
)
"""第二项, 第3个: a listed item pointed at (第一个月 and 第三个工作日 are times, not items)."""
_LAST = re.compile(r"最后(?:那|一)?(?:个|项|件|份|条|张)|上一(?:个|项|件|份|条|张)|前一(?:个|项|件|份|条)")

_DOCUMENT_REF = re.compile(
    r"(?:刚才|刚刚|上面|前面|之前|上次)(?:发的|说的|提到的|引用的|给的|的)?(?:那份|那个|这份|这个)?"
    r"(?:原文件|原文|文件|文档|制度|规定|资料|视频|SOP|sop)"
    r"|(?:那份|这份|那个|这个)(?:原文件|原文|文件|文档|制度|资料|视频)"
    r"|原文件|原文|原件|刚才那份|刚才那个"
)

_SURNAMES = (
    "张王李赵刘陈杨黄吴周徐孙马朱胡郭林何罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁沈姚卢姜"
    "崔钟谭汪廖贾夏韦邱侯邹熊孟秦薛尹雷黎龙陶贺顾郝龚邵严覃武戴莫孔汤"
)
_NAME_STOP = set("的有今还没在是最这本练做和跟说要去了呢吗哪什么把给让们上下个月周年天号谁怎啥为都也就才再时")
_NAME_RIGHT = re.compile(
    r"的|今天|有|需要|要不要|应该|最近|上次|上回|这周|本周|本月|这个月|上个月|还|没|在|是|练|复盘|训练|成绩|分数|做|完成|提交|那|呢|吗|和|跟|[，,。？?、]|$"
)
_NAME_LEFT = set("给让帮叫派排请醒和跟问把替与及、，,：:")
_NICKNAME = re.compile("[小老][" + "".join(_SURNAMES) + "]")
_NICKNAME_RIGHT = re.compile(r"指派|安排|布置|分配|派|说|要|去|来|他|她")
"""After a nickname: what one does or says (小王说…, 给小王指派…); 小程序 is no one."""


def _free(start: int, end: int, taken: list[Span]) -> bool:
    return not any(start < t_end and t_start < end for t_start, t_end in taken)


def _starts_a_mention(position: int, taken: list[Span]) -> bool:
    """True when an entity found earlier (a date: 孙八上周…) starts at `position`: a name may end there."""
    return any(start == position for start, _ in taken)


def _claim(m: re.Match[str], taken: list[Span]) -> bool:
    if not _free(m.start(), m.end(), taken):
        return False
    taken.append((m.start(), m.end()))
    return True


def _masked(text: str) -> str:
    """Blank out words that contain a negation character without negating anything."""
    out = text
    for word in _NOT_NEGATION_WORDS:
        out = out.replace(word, "＿" * len(word))
    return _A_NOT_A.sub(lambda m: "＿" * len(m.group(0)), out)


def find_negations(text: str, taken: list[Span]) -> Iterator[tuple[int, Negation]]:
    """Negation cues; words like 不动产 and A-not-A questions (能不能) are not negations."""
    masked = _masked(text)
    for m in _NEGATION.finditer(masked):
        if _claim(m, taken):
            yield m.start(), Negation(text=m.group(0))


def find_versions(text: str, taken: list[Span]) -> Iterator[tuple[int, VersionRef]]:
    """Document versions: 2024版, V2, 第二版, 新版."""
    for m in VERSION_MENTION.finditer(text):
        if m.group(1):
            value = m.group(1)
        elif m.group(2):
            value = m.group(2)
        elif m.group(3):
            number = parse_number(m.group(3))
            if number is None:
                continue
            value = str(int(number))
        else:
            age = m.group(4) or m.group(5)
            value = LATEST_VERSION if age in ("新", "最新") else PREVIOUS_VERSION
        if _claim(m, taken):
            yield m.start(), VersionRef(value=value, text=m.group(0))


def find_locations(text: str, taken: list[Span]) -> Iterator[tuple[int, Location]]:
    """Buildings and rooms (3栋1201, 5号楼, 3号楼2单元501, 1201室)."""
    for m in _LOCATION.finditer(text):
        number = parse_number(m.group(1))
        if number is None or not _claim(m, taken):
            continue
        room = f"{m.group(2)}-{m.group(3)}" if m.group(2) and m.group(3) else m.group(3)
        yield m.start(), Location(building=str(int(number)), room=room, text=m.group(0).strip())
    for m in _ROOM.finditer(text):
        if _claim(m, taken):
            yield m.start(), Location(room=m.group(1), text=m.group(0))


def find_ordinals(text: str, taken: list[Span]) -> Iterator[tuple[int, OrdinalRef]]:
    """Ordinal references to listed items (第二项 → 2; 最后那个, 上一个 → -1)."""
    for m in ORDINAL_MENTION.finditer(text):
        number = parse_number(m.group(1))
        if number is None or number < 1 or not _claim(m, taken):
            continue
        yield m.start(), OrdinalRef(index=int(number), text=m.group(0))
    for m in _LAST.finditer(text):
        if _claim(m, taken):
            yield m.start(), OrdinalRef(index=-1, text=m.group(0))


_PAPER_BEFORE = re.compile(
    r"(?:发票|票据|单据|收据|凭证|小票|身份证|证件|证书|证明|合同|执照|户口本|护照|毕业证|学位证|驾驶证|行驶证|"
    r"房产证|结婚证|审批单|报销单|申请表|登记表|记录表)的?$"
)


def is_paper_original(text: str, start: int) -> bool:
    """True when the 原件 at `start` is the original of a paper (发票原件交到哪里), not of a document."""
    return text.startswith("原件", start) and _PAPER_BEFORE.search(text[:start]) is not None


def find_document_refs(text: str, taken: list[Span]) -> Iterator[tuple[int, DocumentRef]]:
    """References to an earlier cited document (刚才那份, 原文, 原文件, 那个文件); 发票原件 is a paper."""
    for m in _DOCUMENT_REF.finditer(text):
        if _claim(m, taken) and not is_paper_original(text, m.start()):
            yield m.start(), DocumentRef(text=m.group(0))


def _nicknames(text: str, taken: list[Span]) -> Iterator[tuple[int, PersonMention]]:
    """小王, 老李: how colleagues are named day to day; kept whole so the lookup can say it found no one."""
    for m in _NICKNAME.finditer(text):
        right_ok = _NAME_RIGHT.match(text, m.end()) or _NICKNAME_RIGHT.match(text, m.end())
        if right_ok and _free(m.start(), m.end(), taken):
            taken.append((m.start(), m.end()))
            yield m.start(), PersonMention(name=m.group(0))


def find_persons(text: str, taken: list[Span]) -> Iterator[tuple[int, PersonMention]]:
    """Person names: a common surname plus one or two given-name characters in a name-like slot."""
    yield from _nicknames(text, taken)
    i = 0
    while i < len(text):
        ch = text[i]
        if ch not in _SURNAMES or not _free(i, i + 1, taken):
            i += 1
            continue
        if i > 0 and (text[i - 1] in CN_NUMBER or text[i - 1] in "这那每一几"):
            i += 1
            continue
        found = None
        for size in (2, 1):
            given = text[i + 1 : i + 1 + size]
            if len(given) != size or any(c in _NAME_STOP or not "\u4e00" <= c <= "\u9fff" for c in given):
                continue
            end = i + 1 + size
            left_ok = i == 0 or text[i - 1] in _NAME_LEFT
            right_ok = _NAME_RIGHT.match(text, end) or _starts_a_mention(end, taken)
            if right_ok and (left_ok or size == 1) and _free(i, end, taken):
                found = end
                break
        if found is None and i > 0 and text[i - 1] in _NAME_LEFT and i + 2 <= len(text):
            given = text[i + 1]
            if given not in _NAME_STOP and "\u4e00" <= given <= "\u9fff" and _free(i, i + 2, taken):
                found = i + 2
        if found is None:
            i += 1
            continue
        taken.append((i, found))
        yield i, PersonMention(name=text[i:found])
        i = found
