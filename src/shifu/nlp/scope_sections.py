"""Which sections of a document say what the document covers: its scope, definition or kinds.

零星采购的定义和适用范围 (…例如灯泡、水龙头), 请假类型有哪些 (1. 年休假 … 3. 事假) and
消防巡检的检查内容 (1. 疏散通道…是否畅通) list the things the whole document is about. The
knowledge base carries such sections with every fragment of their document, and the evidence
gate lets a question about a listed thing (买个灯泡, 事假谁批) reach the document's other
sections (its procedure, its approval rules).
"""

from __future__ import annotations

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
