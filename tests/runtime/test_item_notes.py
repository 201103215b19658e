"""A note about a listed item names the item it was re-read as, never its place in the list."""

from __future__ import annotations

from evidence.builders import fact
from shifu.contracts.common import ToolCode, ToolStatus
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall
from shifu.runtime.item_notes import NamedItem, name_items_in_notes, named_item

_NOTE = ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": "第一项已经跟业主约好"})
_ITEM = NamedItem(mention="第一项", title="2栋1201业主报修回访")


def _reread(*titles: str) -> ToolResult:
    facts = [
        fact(f"fact-{i}").model_copy(update={"item_key": f"task-{i}", "value": {"title": title}})
        for i, title in enumerate(titles)
    ]
    call = ToolCall(tool=ToolCode.MY_CURRENT_TASKS, arguments={})
    return ToolResult(call=call, status=ToolStatus.OK, facts=facts)


def test_the_referring_expression_is_replaced_by_the_item_title() -> None:
    (named,) = name_items_in_notes([_NOTE], [_ITEM])
    assert named.arguments["content"] == "“2栋1201业主报修回访”已经跟业主约好"


def test_a_note_without_the_expression_is_led_by_the_title() -> None:
    note = ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": "已经跟业主约好"})
    (named,) = name_items_in_notes([note], [_ITEM])
    assert named.arguments["content"] == "“2栋1201业主报修回访”已经跟业主约好"


def test_searches_and_notes_without_content_are_left_alone() -> None:
    search = ToolCall(tool=ToolCode.KNOWLEDGE_SEARCH, arguments={"query": "第一项需要什么材料"})
    blank = ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={})
    assert name_items_in_notes([search, blank], [_ITEM]) == [search, blank]


def test_only_a_re_read_that_returned_exactly_one_item_names_it() -> None:
    assert named_item("第一项", _reread("2栋1201业主报修回访")) == _ITEM
    assert named_item("第一项", _reread("甲", "乙")) is None
    assert named_item("第一项", _reread()) is None
