"""Render a stored draft as the `ActionDraftCard` the client shows."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from shifu.actions import wording
from shifu.actions.model import ActionDraft
from shifu.actions.payloads import Visibility
from shifu.actions.states import DraftStatus
from shifu.contracts.common import ToolCode
from shifu.contracts.messages import ActionDraftCard

MAX_MISSING = 3
"""A clarification card asks for at most three fields (seed 001 §11.4)."""


def render_card(draft: ActionDraft, *, display_name: str, tz: ZoneInfo) -> ActionDraftCard:
    """The card for `draft`; an EXECUTED card's title quotes the domain's real receipt."""
    payload = draft.payload
    if draft.status is DraftStatus.EXECUTED and draft.receipt is not None:
        title = wording.executed_text(
            draft.receipt["kind"],
            draft.receipt["recordId"],
            draft.receipt["status"],
            datetime.fromisoformat(draft.receipt["at"]),
            tz,
        )
    else:
        title = wording.status_title(draft.tool, draft.status, payload)
    options = (
        [Visibility.PRIVATE.value, Visibility.COMPANY.value]
        if draft.tool is ToolCode.CAPTURE_MEMORY_DRAFT
        else []
    )
    return ActionDraftCard(
        draft_id=draft.draft_id,
        version=draft.version,
        tool=draft.tool,
        status=draft.status.value,
        title=title,
        scope=wording.scope_label(draft.tool, payload),
        target=wording.target_label(draft.tool, payload, display_name),
        fields=payload,
        missing_fields=list(draft.missing_fields[:MAX_MISSING]),
        source=wording.source_label(draft.tool),
        undoable=wording.UNDOABLE[draft.tool],
        visibility_options=options,
        payload_hash=draft.payload_hash,
        expires_at=draft.expires_at,
    )
