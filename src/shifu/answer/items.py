"""The numbered items of an answer, so that "第二项具体要怎么弄" can point at one of them.

An answer lists steps ("办理步骤：1. …") and numbered spans copied from a fragment ("2. 房屋产权
证明或购房合同复印件。"). The conversation state keeps each item only as its citation, the number
the user saw and a hash of its text — never the text (invariant 4). When the user points at an
item, the fragment is read again under the user's current authorization and the item is found
in it by that hash; a fragment that changed, was retired or is no longer allowed yields nothing.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from shifu.answer.spans import numbered_steps, sentences
from shifu.contracts.answer import GroundedAnswer

ITEM, STEP = "ITEM", "STEP"
"""A numbered span of the answer's statements; a step of its 办理步骤."""
_MARKER = re.compile(r"^\s*(\d{1,2})\s*[.、．)）]\s*")
"""A list number opening a span ("2. …", "3、…")."""


@dataclass(frozen=True)
class ListedItem:
    """One numbered item the user saw: its fragment, its number, a hash of its text, and whether
    it was a numbered span of the answer (ITEM) or a step of its 办理步骤 (STEP)."""

    citation_id: str
    number: int
    text_sha256: str
    kind: str


def item_key(text: str) -> str:
    """Hash of an item's text without its list number (how an item is found again)."""
    return hashlib.sha256(_MARKER.sub("", text).strip().encode("utf-8")).hexdigest()


def listed_items(grounded: GroundedAnswer) -> list[ListedItem]:
    """The answer's numbered items in the order shown: numbered statements, then the steps."""
    items: list[ListedItem] = []
    for statement in grounded.statements:
        marker = _MARKER.match(statement.text)
        if marker is not None and statement.citation_ids:
            number = int(marker.group(1))
            items.append(ListedItem(statement.citation_ids[0], number, item_key(statement.text), ITEM))
    for step in grounded.steps:
        if step.citation_ids:
            items.append(ListedItem(step.citation_ids[0], step.order, item_key(step.text), STEP))
    return items


def item_text(fragment_text: str, text_sha256: str) -> str | None:
    """The item of `fragment_text` whose hash is `text_sha256`, without its list number."""
    for candidate in (*numbered_steps(fragment_text), *sentences(fragment_text)):
        if item_key(candidate) == text_sha256:
            return _MARKER.sub("", candidate).strip()
    return None
