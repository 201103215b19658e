"""Helpers shared by the end-to-end tests."""

from __future__ import annotations

from typing import Any

INVOKED = {"OK", "NO_RESULT", "TIMEOUT", "UNAVAILABLE", "FAILED"}
"""Trace statuses meaning a tool was actually invoked (refused or de-duplicated calls were not)."""


def called(response: dict[str, Any]) -> set[str]:
    """Tools actually invoked in a response."""
    return {c["tool"] for c in response["trace"]["toolCalls"] if c["status"] in INVOKED}
