"""Argument extraction for the training-assignment draft: what the training is about.

Intent is learned (`classifier.py`); this module only fills a slot once the intent and tool
are chosen. "给孙八指派一个电梯困人训练，下周五截止" names the assignee (a person entity), the
due date (a date entity) and the topic — the words left once the assignee, the dates, the
assignment verbs, the quantifiers and the generic kind word (训练/练习/演练…) are peeled off.
Without a topic the draft asks for one (NEEDS_INPUT) instead of inventing it.
"""

from __future__ import annotations

import re

from shifu.contracts.entities import ExtractedEntities

_CLAUSES = re.compile(r"[，,。；;！!？?\s]+")
_EXPLICIT = re.compile(r"(?:主题|内容|题目|科目)(?:是|为|就是|[:：])\s*([^，,。；;！!？?]+)")
_OBJECT = re.compile(r"把([^，,把]{2,30}?)(?:再|多|好好|重新)?(?:练|学|做|考)")
_VERBS = r"指派|布置|安排|分配|下发|派|加|补|报名"
_RECIPIENT = re.compile(
    rf"给[^，,给]{{1,6}}?(?={_VERBS})|给(?:她们|他们|大家|她|他)|(?<=.)给[^，,给]{{1,8}}$"
)
_KIND = re.compile(r"训练|练习|培训|演练|考试|测验|话术")
_ASSIGNING = re.compile(rf"{_VERBS}|练|学")
_DEADLINE_TAIL = r"(?:之前|以前|前|截止|到期)?(?:完成|做完|交|提交|练完)?"
_LEADING = re.compile(
    r"^(?:师傅|麻烦你?|请|急|你|帮我|帮忙|帮|替我|替|给|让|叫|由|再|去|都|也|重新|"
    r"指派|布置|安排|分配|下发|发起|推送|创建|新建|建|报名|派|加|补|"
    r"全组|全员|全体|大家|所有人|组员|团队|班组每个人|班组|每个人|每人|"
    r"做完|做|练习|练练|练|学习|学|参加|完成|"
    r"[一二两三四五六七八九十几]?(?:个(?!人)|次|项|份|套|遍|下|轮|期|场)|的)"
)
_TRAILING = re.compile(
    r"(?:的)?(?:练习任务|训练任务|学习任务|小测验|测验|测试|考试|训练|练习|培训|演练|课程|任务|一下|吧|呢|啊|哈|了)$"
)
_KIND_ONLY = re.compile(r"^(?:练习|训练|培训|演练|测验|考试|任务|课程|陪练|补考)$")
_MIN_TOPIC = 2
_MAX_TOPIC = 100
_FILLERS = frozenset({"谢谢", "麻烦了", "辛苦了", "急", "好吗", "可以吗", "行吗", "打扰一下", "你好", "哎"})


def _strip_edges(text: str) -> str:
    """Peel leading assignment words and trailing kind words until nothing changes."""
    previous = None
    while previous != text:
        previous = text
        text = _LEADING.sub("", text, count=1)
    bare = text
    while True:
        shorter = _TRAILING.sub("", bare, count=1)
        if shorter == bare:
            break
        bare = shorter
    # Keep the kind word when peeling it leaves too little ("安全培训", not "安全").
    return bare if len(bare) > _MIN_TOPIC else text


def _clause_rank(clause: str) -> int:
    return 0 if _KIND.search(clause) else 1 if _ASSIGNING.search(clause) else 2


def practice_topic(question: str, entities: ExtractedEntities) -> str | None:
    """The training topic named in an assignment request, or None when it names none."""
    explicit = _EXPLICIT.search(question)
    if explicit and explicit.group(1).strip():
        return explicit.group(1).strip()[:_MAX_TOPIC]
    text = question
    for span in entities.dates:
        text = re.sub(re.escape(span.text) + _DEADLINE_TAIL, "，", text)
    obj = _OBJECT.search(text)
    if obj:
        text = obj.group(1)
    clauses = [_RECIPIENT.sub("", c) for c in _CLAUSES.split(text) if c and c not in _FILLERS]
    for person in entities.persons:
        clauses = [c.replace(person.name, "") for c in clauses]
    # A clause naming a kind of training carries the topic, then one that assigns; others set the scene.
    for clause in sorted(clauses, key=_clause_rank):
        topic = _strip_edges(clause)
        if len(topic) >= _MIN_TOPIC and not _KIND_ONLY.match(topic):
            return topic[:_MAX_TOPIC]
    return None
