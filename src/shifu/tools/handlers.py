"""The handler contract every tool implementation satisfies, and the mapping the runtime plugs in.

A handler receives only trusted inputs: the ExecutionContext, the normalized call, its
validated argument model, and the project scope the policy gate authorized. It returns a
`ToolResult` (contracts only), so handlers written in other packages (drafts in
`shifu.actions`, media, web) plug in without importing this package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from pydantic import BaseModel

from shifu.contracts.common import ToolCode
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import ToolResult
from shifu.contracts.plan import ToolCall


class ToolHandler(Protocol):
    """Runs one authorized, validated call."""

    def __call__(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """Return the call's result; raise a shifu error (Unavailable, Forbidden …) on failure."""
        ...


ToolHandlers = Mapping[ToolCode, ToolHandler]
"""Tool code → handler; a registered tool without a handler answers UNAVAILABLE."""
