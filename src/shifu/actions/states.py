"""The draft state machine (seed 001 §8.1) as one explicit transition table."""

from __future__ import annotations

from enum import StrEnum

from shifu.errors import VersionConflict


class DraftStatus(StrEnum):
    """Where a draft is in its life; only EXECUTED means the domain system wrote it."""

    DRAFT = "DRAFT"
    NEEDS_INPUT = "NEEDS_INPUT"
    CONFIRMED = "CONFIRMED"
    EXECUTED = "EXECUTED"
    FAILED = "FAILED"
    DISMISSED = "DISMISSED"


TRANSITIONS: dict[DraftStatus, frozenset[DraftStatus]] = {
    DraftStatus.DRAFT: frozenset({DraftStatus.NEEDS_INPUT, DraftStatus.CONFIRMED, DraftStatus.DISMISSED}),
    DraftStatus.NEEDS_INPUT: frozenset({DraftStatus.DRAFT, DraftStatus.DISMISSED}),
    DraftStatus.CONFIRMED: frozenset({DraftStatus.EXECUTED, DraftStatus.FAILED}),
    DraftStatus.FAILED: frozenset({DraftStatus.DRAFT, DraftStatus.DISMISSED}),
    DraftStatus.EXECUTED: frozenset(),
    DraftStatus.DISMISSED: frozenset(),
}
"""Allowed moves. Seed 001 §8.1 plus cancelling a NEEDS_INPUT or FAILED draft; nothing leaves
EXECUTED or DISMISSED."""


class IllegalTransition(VersionConflict):
    """A move the table does not allow (e.g. confirming an executed draft); 409."""

    code = "ILLEGAL_TRANSITION"
    message = "该草稿当前状态不允许此操作，请刷新后重试。"


def ensure_transition(current: DraftStatus, target: DraftStatus, *, version: int | None = None) -> None:
    """Raise `IllegalTransition` unless `current → target` is in the table."""
    if target not in TRANSITIONS[current]:
        raise IllegalTransition(current=version)


def is_terminal(status: DraftStatus) -> bool:
    """True when no move leaves `status`."""
    return not TRANSITIONS[status]
