"""Runtimes over the contract deployment, the fakes the cases plug in, and small helpers."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from shifu.answer.compose import Composer
from shifu.answer.extractive import ExtractiveComposer
from shifu.audit.recorder import AuditRecorder
from shifu.context.conversation import ConversationService, conversation_store
from shifu.contracts.common import (
    NEED_CLAIM_TYPE,
    Authority,
    EvidenceNeed,
    Lifecycle,
    Verification,
)
from shifu.contracts.evidence import DocumentEvidence, DocumentScope
from shifu.contracts.messages import AgentRequest, AgentResponse
from shifu.demo.setup import principal_for
from shifu.domain import build_domain
from shifu.errors import Unavailable
from shifu.evidence.evaluator import EvidenceEvaluator
from shifu.planning.deterministic import DeterministicPlanner
from shifu.planning.fallback import FallbackPlanner
from shifu.runtime.agent import AgentRuntime, PlannerPort, RuntimeParts
from shifu.runtime.wiring import DEFAULT_LIMITS, Services
from shifu.tools import KnowledgeAccess, build_tool_executor
from shifu.tools.executor import ToolExecutor
from shifu.tools.limits import RunLimits

INVOKED = {"OK", "NO_RESULT", "TIMEOUT", "UNAVAILABLE", "FAILED"}
"""Trace statuses meaning a tool was actually invoked (refused or de-duplicated calls were not)."""


def invoked(response: AgentResponse) -> list[str]:
    """Tools actually invoked, in trace order."""
    return [c.tool for c in response.trace.tool_calls if c.status.value in INVOKED]


def cited_keys(response: AgentResponse) -> set[str]:
    """Document keys of the response's citations."""
    return {c.document_key for c in response.citations}


def cited(response: AgentResponse) -> set[tuple[str, str]]:
    """(document key, locator) of every citation."""
    return {(c.document_key, c.locator) for c in response.citations}


class Parts:
    """Builds AgentRuntimes from the deployment's real parts, replacing the ones a case names."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.settings = services.settings
        self.domain = build_domain(services.settings, services.sessions)
        self._conversations = ConversationService(conversation_store(services.settings, services.sessions))

    def runtime(
        self,
        *,
        planner: PlannerPort | None = None,
        executor: ToolExecutor | None = None,
        composer: Composer | None = None,
        limits: RunLimits = DEFAULT_LIMITS,
    ) -> AgentRuntime:
        """A runtime with the real parts unless replaced."""
        return AgentRuntime(
            RuntimeParts(
                planner=planner or FallbackPlanner(None, DeterministicPlanner()),
                executor=executor or self.services.executor,
                evaluator=EvidenceEvaluator(),
                composer=composer or ExtractiveComposer(),
                conversations=self._conversations,
                actions=self.services.actions,
                audit=AuditRecorder(self.services.sessions),
                limits=limits,
                tz=self.settings.tz,
            )
        )

    def executor(self, *, domain: Any | None = None, knowledge: Any | None = None) -> ToolExecutor:
        """A tool executor over fakes (the real embedded domain / an empty knowledge base otherwise)."""
        return build_tool_executor(domain=domain or self.domain, knowledge=knowledge or FakeKnowledge([]))

    def asker(self, actor_key: str, runtime: AgentRuntime | None = None) -> Asker:
        """Talks to `runtime` (the deployment's own by default) as a demo actor."""
        return Asker(self.services, runtime or self.services.runtime, actor_key)


@dataclass
class Asker:
    """One demo actor's conversation with a runtime, in-process; `now` moves the server clock."""

    services: Services
    runtime: AgentRuntime
    actor_key: str
    conversation_id: str | None = None
    version: int | None = None

    def ask(self, text: str, *, now: datetime | None = None, new: bool = False) -> AgentResponse:
        """Send a message in the current conversation (or a new one)."""
        if new:
            self.conversation_id, self.version = None, None
        principal, client = principal_for(self.actor_key)
        ctx = self.services.context_for(principal, client, None)
        if now is not None:
            ctx = ctx.model_copy(update={"now": now})
        request = AgentRequest(text=text, conversation_id=self.conversation_id, context_version=self.version)
        response = self.runtime.handle(ctx, request)
        self.conversation_id, self.version = response.conversation_id, response.context_version
        return response


@dataclass
class FakeKnowledge:
    """A knowledge base that returns fixed fragments for every query and records the queries."""

    documents: Sequence[DocumentEvidence]
    queries: list[str] = field(default_factory=list)
    focuses: list[str | None] = field(default_factory=list)

    def search(
        self, query: str, *, domain: str | None, access: KnowledgeAccess, focus: str | None = None
    ) -> list[DocumentEvidence]:
        """The fixed fragments."""
        self.queries.append(query)
        self.focuses.append(focus)
        return list(self.documents)


class DomainWithTasks:
    """The real embedded domain, except that reading tasks fails or is slow."""

    def __init__(self, inner: Any, *, fail: bool = False, delay_s: float = 0.0) -> None:
        self._inner = inner
        self._fail = fail
        self._delay_s = delay_s
        self.task_reads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    @property
    def source_system(self) -> str:
        """Same source system as the real adapter."""
        return str(self._inner.source_system)

    def tasks_of(self, *, tenant_id: str, user_id: str, start: date | None, end: date | None) -> Any:
        """Fails with Unavailable, or sleeps past the tool timeout, or reads the real tasks."""
        self.task_reads += 1
        if self._fail:
            raise Unavailable(code="DOMAIN_STORE_UNAVAILABLE")
        if self._delay_s:
            time.sleep(self._delay_s)
        return self._inner.tasks_of(tenant_id=tenant_id, user_id=user_id, start=start, end=end)


def fragment(
    citation_id: str,
    text: str,
    *,
    needs: tuple[EvidenceNeed, ...],
    title: str = "费用报销管理制度",
    locator: str = "五、费用报销的办理步骤",
    **overrides: Any,
) -> DocumentEvidence:
    """A governed, effective, searchable company-policy fragment with the given candidate labels."""
    labels = (*needs, EvidenceNeed.GENERAL_RULE)
    fields: dict[str, Any] = {
        "citation_id": citation_id,
        "fragment_id": f"frag-{citation_id}",
        "document_id": f"docv-{citation_id}",
        "document_key": f"fake_{citation_id}",
        "title": title,
        "locator": locator,
        "version": "2025版",
        "authority": Authority.COMPANY_POLICY,
        "kind": "制度",
        "effective_from": date(2025, 1, 1),
        "effective_to": None,
        "scope": DocumentScope(tenant_id="demo", space_id="space-all-staff"),
        "lifecycle": Lifecycle.PUBLISHED,
        "verification": Verification.HUMAN_VERIFIED,
        "environment": "production",
        "text": text,
        "supported_need_codes": labels,
        "claim_types": tuple(NEED_CLAIM_TYPE[n] for n in labels),
    }
    fields.update(overrides)
    return DocumentEvidence(**fields)
