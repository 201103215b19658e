"""Tools (L3): the registry, the executor and the read tools; scope always from ExecutionContext.

`build_tool_executor` assembles the executor from ports the runtime wires: the domain
read adapters (`shifu.domain.build_domain`), the knowledge ports, and extra handlers
(drafts, media, web) from other packages.
"""

from __future__ import annotations

from typing import Protocol

from shifu.contracts.common import ToolCode
from shifu.tools.capability import CapabilityTool
from shifu.tools.executor import ToolExecutor
from shifu.tools.handlers import ToolHandler, ToolHandlers
from shifu.tools.knowledge import KnowledgeTools
from shifu.tools.limits import RunBudget, RunLimits
from shifu.tools.ports import (
    CandidateProgressSource,
    KnowledgeAccess,
    KnowledgeResourcePort,
    KnowledgeSearchPort,
    PracticeSource,
    TaskSource,
    TeamRoster,
    WorkResultSource,
)
from shifu.tools.read import LiveDataTools
from shifu.tools.registry import DEFAULT_SPECS, ToolRegistry, ToolSpec


class DomainSources(TaskSource, PracticeSource, WorkResultSource, CandidateProgressSource, Protocol):
    """One object serving all four live-data ports (EmbeddedDomain and HttpDomain both do)."""


def build_tool_executor(
    *,
    domain: DomainSources,
    knowledge: KnowledgeSearchPort,
    resources: KnowledgeResourcePort | None = None,
    handlers: ToolHandlers | None = None,
    registry: ToolRegistry | None = None,
    roster: TeamRoster | None = None,
    max_workers: int = 8,
) -> ToolExecutor:
    """The executor with every built-in handler plus `handlers` (drafts, media, web) plugged in.

    `handlers` may not replace a built-in read tool: scope rules of those live here.
    """
    registry = registry or ToolRegistry()
    builtin: dict[ToolCode, ToolHandler] = {
        **LiveDataTools(
            registry, tasks=domain, practice=domain, results=domain, candidates=domain, roster=roster
        ).handlers(),
        **KnowledgeTools(knowledge, resources).handlers(),
        ToolCode.CAPABILITY_QUERY: CapabilityTool(registry),
    }
    extra = dict(handlers or {})
    clash = set(extra) & set(builtin)
    if clash:
        raise ValueError(f"handlers may not replace built-in tools: {sorted(clash)}")
    return ToolExecutor(registry, {**builtin, **extra}, max_workers=max_workers)


__all__ = [
    "DEFAULT_SPECS",
    "DomainSources",
    "KnowledgeAccess",
    "KnowledgeResourcePort",
    "KnowledgeSearchPort",
    "RunBudget",
    "RunLimits",
    "ToolExecutor",
    "ToolHandler",
    "ToolHandlers",
    "ToolRegistry",
    "ToolSpec",
    "build_tool_executor",
]
