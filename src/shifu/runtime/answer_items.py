"""Pointing at a numbered item of the previous answer: "第二项具体要怎么弄".

The conversation state keeps an answer's numbered items as citation, number and text hash
only. When a question points at one, its fragment is read again under the user's authorization
now, the item is found by its hash, and the question is asked about the item's own words
("“房屋产权证明或购房合同复印件”具体要怎么弄"), so it is planned and answered like any other
knowledge question. An item that cannot be read again (retired, changed, no longer allowed)
leaves the reference unresolved: the user is asked which item they mean, nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from shifu.answer.items import item_text, listed_items
from shifu.context.refs import find_citation
from shifu.context.state import AnswerItemRecord, ConversationState
from shifu.contracts.answer import GroundedAnswer
from shifu.contracts.context import ExecutionContext, ResolvedReference

ANSWER_ITEM = "ANSWER_ITEM"


class FragmentReader(Protocol):
    """Re-authorized read of one cited fragment's text."""

    def fragment_text(self, ctx: ExecutionContext, fragment_id: str) -> str | None:
        """The fragment's text if this principal may read it now; None otherwise."""
        ...


def item_records(grounded: GroundedAnswer | None) -> list[AnswerItemRecord]:
    """The state records of an answer's numbered items (no text)."""
    if grounded is None:
        return []
    return [
        AnswerItemRecord(
            citation_id=item.citation_id, number=item.number, text_sha256=item.text_sha256, kind=item.kind
        )
        for item in listed_items(grounded)
    ]


def points_at_items(references: Sequence[ResolvedReference]) -> bool:
    """True when the question points at a numbered item of the previous answer."""
    return any(ref.kind == ANSWER_ITEM for ref in references)


def question_about_items(
    question: str,
    references: Sequence[ResolvedReference],
    state: ConversationState,
    ctx: ExecutionContext,
    reader: FragmentReader | None,
) -> str | None:
    """`question` with each pointed-at item named by its text; None when an item cannot be read again."""
    for ref in references:
        if ref.kind != ANSWER_ITEM:
            continue
        text = _item(ref, state, ctx, reader)
        if text is None:
            return None
        question = question.replace(ref.text, f"“{text}”", 1)
    return question


def _item(
    ref: ResolvedReference, state: ConversationState, ctx: ExecutionContext, reader: FragmentReader | None
) -> str | None:
    record = next(
        (i for i in state.answer_items if i.citation_id == ref.citation_id and i.number == ref.item), None
    )
    citation = find_citation(state, ref.citation_id) if ref.citation_id else None
    if reader is None or record is None or citation is None:
        return None
    fragment = reader.fragment_text(ctx, citation.fragment_id)
    return item_text(fragment, record.text_sha256) if fragment is not None else None
