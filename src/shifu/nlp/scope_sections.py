"""Which sections of a document say what the document covers: its scope, definition or kinds.

零星采购的定义和适用范围 (…例如灯泡、水龙头), 请假类型有哪些 (1. 年休假 … 3. 事假) and
消防巡检的检查内容 (1. 疏散通道…是否畅通) list the things the whole document is about. The
knowledge base carries such sections with every fragment of their document, and the evidence
gate lets a question about a listed thing (买个灯泡, 事假谁批) reach the document's other
sections (its procedure, its approval rules).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shifu.nlp.lay_words import QUESTION_WORDS
from shifu.nlp.lists import ITEM_MARK

SCOPE_WORDS: tuple[str, ...] = (
    "定义",
    "适用范围",
    "适用对象",
    "适用关系",
    "类型",
    "种类",
    "检查内容",
    "检查项目",
    "巡查内容",
    "巡检内容",
)
"""Heading words of a scope section; the store filters a section's locator on them before reading it."""


def is_scope_section(locator: str) -> bool:
    """True for a section headed as the document's scope, definition or kinds (its own locator says so)."""
    return any(word in locator for word in SCOPE_WORDS)


_SENTENCES = re.compile(r"[^。；;\n]+[。；;\n]?")
_EXCLUSION = re.compile(r"不适用本|不属于|不包括在|不在本.{0,6}范围|仍(?:按照?|依照)[^，,。；;]{0,12}《")
"""A sentence naming things only to leave them out: 采购不适用本制度, or 装修押金3000元及其退还规则，仍按公司
《装修管理规定》执行 (a supplement leaving them to the company's rules says nothing of them itself)."""
_LIST_SEPARATOR = re.compile(r"以及|例如|比如|包括|[、，,；;：:。\n和及或等]")
_MEMBER_NAME = re.compile(r"^[\u4e00-\u9fff]{2,6}$")


def without_exclusions(body: str, keep: Callable[[str], bool] = lambda _: False) -> str:
    """The body minus sentences that name things only to exclude them (采购不适用本制度), except
    those `keep` accepts."""
    return "".join(part for part in _SENTENCES.findall(body) if not _EXCLUSION.search(part) or keep(part))


def scope_members(scope: str) -> frozenset[str]:
    """The short names a scope statement lists (灯泡, 水龙头; 年休假, 病假 of 1. 年休假：…), an item's
    number stripped wherever the item starts (a scope read without its line breaks: …假期。2. 病假：…)."""
    names = (ITEM_MARK.sub("", part).strip() for part in _LIST_SEPARATOR.split(scope))
    # 按本制度规定的权限、材料和时限办理: 材料 and 时限 are kinds of rule, not things covered.
    return frozenset(name for name in names if _MEMBER_NAME.match(name) and name not in QUESTION_WORDS)
