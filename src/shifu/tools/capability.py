"""CAPABILITY_QUERY: the registered tools this account may use now, from registry + policy.

Never inferred from documents: a handbook that mentions a CRM proves nothing about a CRM
being connected (invariant 3). A requested system that no registered tool serves answers
`requestedSupported=false`.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, JsonValue

from shifu.contracts.common import Intent, ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import Observation, ToolResult
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import CapabilityQueryArgs
from shifu.errors import Failure
from shifu.policy import decide
from shifu.tools.facts import FactStamp
from shifu.tools.registry import ToolRegistry, ToolSpec

CAPABILITY_SOURCE = "tool-registry"


def usable_tools(registry: ToolRegistry, ctx: ExecutionContext) -> list[ToolSpec]:
    """Registered tools the policy would allow this principal for some intent (consent and
    attachment assumed given: those are per-request, not per-account)."""
    usable: list[ToolSpec] = []
    for spec in registry.specs():
        for intent in sorted(spec.allowed_intents):
            if decide(
                ctx, spec.policy_facts, intent=Intent(intent), consent_valid=True, has_attachment=True
            ).allowed:
                usable.append(spec)
                break
    return usable


_SYSTEM_SUFFIX = re.compile(r"(?:系统|平台|模块|数据|功能)$")


def _serves(spec: ToolSpec, requested: str) -> bool:
    """True when `spec` is the system asked for: 待办 and 工单系统 name the task read, but 团队待办 or
    请假记录 only share a word with a tool's name and are different data."""
    wanted = requested.strip().lower()
    if not wanted:
        return False
    bare = _SYSTEM_SUFFIX.sub("", wanted) or wanted
    names = [spec.label, spec.code.value, *spec.systems]
    return any(wanted in name.lower() or name.lower() == bare for name in names)


class CapabilityTool:
    """The CAPABILITY_QUERY handler."""

    def __init__(self, registry: ToolRegistry) -> None:
        self._registry = registry

    def __call__(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """One CAPABILITY fact listing the usable tools, and whether a requested system is served."""
        if not isinstance(args, CapabilityQueryArgs):
            raise Failure(code="ARGUMENT_MODEL_MISMATCH")
        spec = self._registry.get(ToolCode.CAPABILITY_QUERY)
        usable = [s for s in usable_tools(self._registry, ctx) if s.code is not ToolCode.CAPABILITY_QUERY]
        tools: list[JsonValue] = [
            {"code": s.code.value, "label": s.label, "kind": s.kind.value, "needsConsent": s.needs_consent}
            for s in usable
        ]
        value: dict[str, JsonValue] = {"toolCount": len(usable), "tools": tools}
        if args.requested_system:
            value["requestedSystem"] = args.requested_system
            value["requestedRegistered"] = any(
                _serves(s, args.requested_system) for s in self._registry.specs()
            )
            value["requestedSupported"] = any(_serves(s, args.requested_system) for s in usable)
        stamp = FactStamp(
            ctx=ctx,
            tool=spec.code.value,
            label=spec.label,
            source_system=CAPABILITY_SOURCE,
            ttl_seconds=spec.ttl_seconds,
            policy=spec.authorization.value,
            project_ids=project_ids,
            queried_at=ctx.now,
        )
        fact = stamp.fact("CAPABILITY", f"capability:{ctx.user_id}", value)
        return ToolResult(
            call=call,
            status=ToolStatus.OK,
            facts=[fact],
            observations=[Observation(code="TOOLS", count=len(usable))],
        )
