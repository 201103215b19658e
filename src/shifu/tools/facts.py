"""Stamp live data as VERIFIED_FACTs: source system, query time, TTL, scope and authorization.

Every read tool builds its facts here, so no fact can leave a tool without the metadata
the evidence gate and the cross-turn factRef re-authorization rely on (seed 000).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime

from pydantic import JsonValue

from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import AuthorizationSnapshot, FactScope, VerifiedFact
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import TOOL_ARGUMENT_MODELS


@dataclass(frozen=True, slots=True)
class FactStamp:
    """The metadata shared by every fact of one tool call."""

    ctx: ExecutionContext
    tool: str
    label: str
    source_system: str
    ttl_seconds: int
    policy: str
    project_ids: tuple[str, ...]
    queried_at: datetime

    def fact(self, fact_type: str, item_key: str, value: dict[str, JsonValue]) -> VerifiedFact:
        """One VERIFIED_FACT carrying this call's metadata."""
        digest = hashlib.sha256(
            "|".join(
                (self.ctx.tenant_id, self.ctx.user_id, self.tool, item_key, self.queried_at.isoformat())
            ).encode()
        ).hexdigest()[:20]
        return VerifiedFact(
            fact_ref=f"fact-{digest}",
            fact_type=fact_type,
            item_key=item_key,
            label=self.label,
            value=value,
            source_system=self.source_system,
            queried_at=self.queried_at,
            ttl_seconds=self.ttl_seconds,
            scope=FactScope(
                tenant_id=self.ctx.tenant_id, user_id=self.ctx.user_id, project_ids=self.project_ids
            ),
            authorization=AuthorizationSnapshot(
                role=self.ctx.role, project_ids=self.project_ids, policy=self.policy
            ),
        )


def utc_now() -> datetime:
    """Query time of a read."""
    return datetime.now(UTC)


def normalized_arguments(call: ToolCall) -> dict[str, JsonValue]:
    """The call's arguments validated and dumped in canonical camelCase (used for hashing and results)."""
    model = TOOL_ARGUMENT_MODELS[call.tool].model_validate(call.arguments)
    dumped: dict[str, JsonValue] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped
