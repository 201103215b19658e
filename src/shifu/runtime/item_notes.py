"""A note about a listed item names the item, not its place in a list.

"帮我记一下第一项已经跟业主约好明早去" points at the first task of the listing just shown. Saved
as written, the record would say "第一项…" for ever, while the list it pointed into changes
every day. The referenced item was re-read under the user's scope before the draft is built, so
its title (2栋1201业主报修回访) replaces the referring expression in the note; the draft card
then shows exactly what will be saved, and the place in the title becomes the note's location.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shifu.contracts.common import ToolCode
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall

NOTE_TOOLS = frozenset({ToolCode.CAPTURE_MEMORY_DRAFT, ToolCode.WORK_REPORT_DRAFT})
"""Drafts whose content is free text written by the user."""
_MAX_CONTENT = 500
"""The note's length limit (MemoryPayload.content)."""


@dataclass(frozen=True)
class NamedItem:
    """A referring expression (第一项) and the title of the item it resolved to."""

    mention: str
    title: str


def named_item(mention: str, reread: ToolResult) -> NamedItem | None:
    """The item a re-read reference resolved to, when the re-read returned exactly that item."""
    titles = [str(f.value["title"]) for f in reread.facts if f.value.get("title")]
    if len(titles) != 1 or not mention.strip():
        return None
    return NamedItem(mention=mention.strip(), title=titles[0].strip())


def name_items_in_notes(calls: Sequence[ToolCall], items: Sequence[NamedItem]) -> list[ToolCall]:
    """Note drafts with each referring expression replaced by the item's title (“…”).

    A note that does not contain the expression (the planner cut it) is led by the title, so the
    record still says which item it is about. Other calls pass unchanged.
    """
    if not items:
        return list(calls)
    named: list[ToolCall] = []
    for call in calls:
        content = call.arguments.get("content")
        if call.tool in NOTE_TOOLS and isinstance(content, str) and content.strip():
            call = ToolCall(tool=call.tool, arguments={**call.arguments, "content": _named(content, items)})
        named.append(call)
    return named


def _named(content: str, items: Sequence[NamedItem]) -> str:
    for item in items:
        quoted = f"“{item.title}”"
        if quoted in content:
            continue
        if item.mention in content:
            content = content.replace(item.mention, quoted, 1)
        else:
            content = f"{quoted}{content}"
    return content[:_MAX_CONTENT]
