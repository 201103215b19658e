"""KNOWLEDGE_SEARCH and KNOWLEDGE_RESOURCE: governed documents through the knowledge port.

The tools pass only a query and a domain from the plan; the access scope (tenant, spaces,
projects, role) is built from the ExecutionContext here. Results are DOCUMENT_EVIDENCE and
resource links, never facts (invariant 3).
"""

from __future__ import annotations

from pydantic import BaseModel

from shifu.contracts.common import ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import Observation, ToolResult
from shifu.contracts.plan import ToolCall
from shifu.contracts.tool_args import KnowledgeResourceArgs, KnowledgeSearchArgs
from shifu.errors import Failure
from shifu.tools.handlers import ToolHandler
from shifu.tools.ports import KnowledgeAccess, KnowledgeResourcePort, KnowledgeSearchPort
from shifu.tools.windows import user_today


def knowledge_access(ctx: ExecutionContext, project_ids: tuple[str, ...]) -> KnowledgeAccess:
    """The trusted knowledge scope of this principal."""
    return KnowledgeAccess(
        tenant_id=ctx.tenant_id,
        user_id=ctx.user_id,
        role=ctx.role,
        space_ids=tuple(ctx.space_ids),
        project_ids=project_ids,
        conversation_id=ctx.conversation_id,
        now=ctx.now,
        on_date=user_today(ctx),
    )


class KnowledgeTools:
    """The knowledge handlers, bound to the knowledge ports."""

    def __init__(self, search: KnowledgeSearchPort, resources: KnowledgeResourcePort | None = None) -> None:
        self._search = search
        self._resources = resources

    def handlers(self) -> dict[ToolCode, ToolHandler]:
        """Handlers for the knowledge tools (resource delivery only when a resource port is wired)."""
        handlers: dict[ToolCode, ToolHandler] = {ToolCode.KNOWLEDGE_SEARCH: self.search}
        if self._resources is not None:
            handlers[ToolCode.KNOWLEDGE_RESOURCE] = self.resource
        return handlers

    def search(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """Gated fragments for the query within the principal's spaces; none → NO_RESULT."""
        if not isinstance(args, KnowledgeSearchArgs):
            raise Failure(code="ARGUMENT_MODEL_MISMATCH")
        documents = self._search.search(
            args.query, domain=args.domain, access=knowledge_access(ctx, project_ids), focus=args.focus
        )
        allowed = set(ctx.space_ids)
        kept = [d for d in documents if d.scope.space_id in allowed and d.scope.tenant_id == ctx.tenant_id]
        dropped = len(documents) - len(kept)
        observations = [Observation(code="CANDIDATES", count=len(kept))]
        if dropped:
            observations.append(Observation(code="OUT_OF_SCOPE_DROPPED", count=dropped))
        return ToolResult(
            call=call,
            status=ToolStatus.OK if kept else ToolStatus.NO_RESULT,
            reason_code=None if kept else "NO_DOCUMENTS",
            documents=kept,
            observations=observations,
        )

    def resource(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """Short-lived links to originals the principal may download now; none → NO_RESULT."""
        if not isinstance(args, KnowledgeResourceArgs) or self._resources is None:
            raise Failure(code="ARGUMENT_MODEL_MISMATCH")
        resources = self._resources.issue_resource(
            access=knowledge_access(ctx, project_ids),
            citation_id=args.citation_id,
            query=args.query,
            kind=args.kind.value,
        )
        return ToolResult(
            call=call,
            status=ToolStatus.OK if resources else ToolStatus.NO_RESULT,
            reason_code=None if resources else "NO_AUTHORIZED_RESOURCE",
            resources=resources,
            observations=[Observation(code="RESOURCES", count=len(resources))],
        )
