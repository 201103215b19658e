"""An in-process chat client that replays scripted replies (tests, demos without a model).

Shipped in the package, like the fake HTTP server, so every consumer can be tested
against the same contract without network access.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from shifu.errors import ModelError


@dataclass(frozen=True)
class ScriptedCall:
    """One request the scripted client received."""

    system: str
    user: str
    schema_name: str


@dataclass
class ScriptedChatClient:
    """Returns the next scripted reply per call: a dict is returned, a ModelError is raised."""

    replies: deque[dict[str, Any] | ModelError] = field(default_factory=deque)
    calls: list[ScriptedCall] = field(default_factory=list)

    @classmethod
    def of(cls, replies: Iterable[dict[str, Any] | ModelError]) -> ScriptedChatClient:
        """A client that will answer with `replies` in order."""
        return cls(replies=deque(replies))

    def complete_json(
        self, *, system: str, user: str, schema: dict[str, Any], schema_name: str, timeout_s: float
    ) -> dict[str, Any]:
        """Record the call and replay the next reply; an exhausted script is a transport failure."""
        self.calls.append(ScriptedCall(system=system, user=user, schema_name=schema_name))
        if not self.replies:
            raise ModelError("没有预设的模型回复。", code="MODEL_TRANSPORT")
        reply = self.replies.popleft()
        if isinstance(reply, ModelError):
            raise reply
        return copy.deepcopy(reply)
