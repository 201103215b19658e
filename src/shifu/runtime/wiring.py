"""The composition root: builds every component of a deployment from one Settings object.

`Services` is what the HTTP layer and the CLI talk to; nothing here is created at import
time, and `close()` releases the index lock, thread pools and connections.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session, sessionmaker

from shifu.actions.directory import SqlTeamDirectory
from shifu.actions.model import ConfirmRequest, DismissRequest
from shifu.actions.service import ActionService
from shifu.actions.tickets import RedisTicketStore, SqlTicketStore, TicketStore
from shifu.answer.compose import Composer
from shifu.answer.extractive import ExtractiveComposer
from shifu.answer.model import ModelComposer
from shifu.audit.recorder import AuditRecorder
from shifu.config import Settings
from shifu.context.auth import TokenVerifier
from shifu.context.conversation import ConversationService, conversation_store
from shifu.context.identity import Principal, build_execution_context
from shifu.contracts.context import ExecutionContext
from shifu.contracts.messages import AgentRequest, AgentResponse
from shifu.domain import build_domain
from shifu.domain.writes.embedded import EmbeddedDomainWriter
from shifu.domain.writes.http import HttpDomainWriter
from shifu.errors import BadRequest
from shifu.evidence.evaluator import EvidenceEvaluator
from shifu.knowledge.access import SearchAccess
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base
from shifu.llm.client import OpenAICompatibleClient
from shifu.nlp.homophones import warm_up as homophones_warm_up
from shifu.nlp.names import warm_up as names_warm_up
from shifu.nlp.terms import warm_up as terms_warm_up
from shifu.planning.fallback import build_planner
from shifu.runtime.adapters import FragmentTexts, KnowledgePort, PendingReviewsFromPractice, draft_handlers
from shifu.runtime.agent import AgentRuntime, RuntimeParts
from shifu.store.engine import make_engine, make_session_factory
from shifu.store.migrate import upgrade
from shifu.tools import build_tool_executor
from shifu.tools.executor import ToolExecutor
from shifu.tools.limits import RunLimits

log = logging.getLogger(__name__)

DEFAULT_LIMITS = RunLimits(max_tool_calls=6, max_candidates=60, max_wall_time_s=8.0, tool_timeout_s=4.0)


@dataclass
class Services:
    """One deployment's live components."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    verifier: TokenVerifier
    knowledge: KnowledgeBase
    executor: ToolExecutor
    actions: ActionService
    runtime: AgentRuntime
    conversations: ConversationService
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    """Server clock of every request (tests inject a fixed or advancing one)."""

    # -- requests --------------------------------------------------------------------------

    def context_for(
        self, principal: Principal, client_id: str | None, project_id: str | None
    ) -> ExecutionContext:
        """The trusted ExecutionContext of a request (raises on client/project mismatch)."""
        with self.sessions() as session:
            return build_execution_context(
                session,
                principal,
                client_id=client_id,
                selected_project_id=project_id,
                run_id=f"run_{uuid.uuid4().hex}",
                now=self.clock(),
                timezone=self.settings.timezone,
            )

    def run_message_sync(
        self, principal: Principal, client_id: str | None, request: AgentRequest
    ) -> AgentResponse:
        """Answer one message in the calling thread."""
        ctx = self.context_for(principal, client_id, request.project_id)
        return self.runtime.handle(ctx, request)

    async def run_message(
        self, principal: Principal, client_id: str | None, request: AgentRequest
    ) -> AgentResponse:
        """Answer one message off the event loop."""
        return await asyncio.to_thread(self.run_message_sync, principal, client_id, request)

    def confirm_request_model(self) -> type[BaseModel]:
        """Body model of the confirm endpoint."""
        return ConfirmRequest

    def dismiss_request_model(self) -> type[BaseModel]:
        """Body model of the dismiss endpoint."""
        return DismissRequest

    async def confirm_action(
        self, principal: Principal, client_id: str | None, draft_id: str, body: BaseModel
    ) -> dict[str, Any]:
        """Confirm a draft for the caller; policy is checked again inside the action service."""

        def run() -> dict[str, Any]:
            ctx = self.context_for(principal, client_id, None)
            if not isinstance(body, ConfirmRequest):
                raise BadRequest()
            result = self.actions.confirm(ctx, draft_id, body, now=ctx.now)
            return result.model_dump(mode="json", by_alias=True)

        return await asyncio.to_thread(run)

    async def dismiss_action(
        self, principal: Principal, client_id: str | None, draft_id: str, body: BaseModel
    ) -> dict[str, Any]:
        """Dismiss a draft for the caller."""

        def run() -> dict[str, Any]:
            ctx = self.context_for(principal, client_id, None)
            if not isinstance(body, DismissRequest):
                raise BadRequest()
            card = self.actions.dismiss(ctx, draft_id, body, now=ctx.now)
            return {
                "message": "已取消，没有执行任何操作。",
                "card": card.model_dump(mode="json", by_alias=True),
            }

        return await asyncio.to_thread(run)

    async def open_resource(self, principal: Principal, client_id: str | None, resource_id: str) -> Response:
        """The original file, re-authorized for the caller now."""

        def run() -> Response:
            ctx = self.context_for(principal, client_id, None)
            access = SearchAccess(
                tenant_id=ctx.tenant_id,
                space_ids=ctx.space_ids,
                project_ids=ctx.project_ids,
                role=ctx.role,
                on_date=ctx.now.astimezone(self.settings.tz).date(),
            )
            file = self.knowledge.open_resource(
                resource_id,
                access=access,
                user_id=ctx.user_id,
                now=ctx.now,
                conversation_ok=lambda conversation_id: self.conversations.is_users(
                    conversation_id, tenant_id=ctx.tenant_id, app_id=ctx.app_id, user_id=ctx.user_id
                ),
            )
            return Response(
                content=file.content,
                media_type=file.media_type,
                headers={
                    "Content-Disposition": f"attachment; filename*=UTF-8''{quote(file.filename)}",
                    "Cache-Control": "no-store",
                },
            )

        return await asyncio.to_thread(run)

    # -- operations ------------------------------------------------------------------------

    def readiness(self) -> dict[str, bool]:
        """Whether the store answers."""
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            store = True
        except Exception:  # readiness reports, it does not raise
            store = False
        return {"store": store}

    def close(self) -> None:
        """Release the index, pools and connections."""
        self.executor.close()
        self.knowledge.close()
        self.engine.dispose()


def _warm_up(knowledge: KnowledgeBase) -> None:
    """Load the query embedder, the relevance tokenizer and the name tagger now, so the first user's
    search does not pay."""
    terms_warm_up()
    names_warm_up()
    homophones_warm_up()
    try:
        knowledge.parts.embedder.query("预热")
    except Exception as exc:  # the endpoint may be down at start; searches will report it
        log.warning("embedder_warm_up_failed", extra={"error": type(exc).__name__})


def build_services(settings: Settings, *, limits: RunLimits = DEFAULT_LIMITS) -> Services:
    """Every component of the deployment `settings` describes (migrating the store first)."""
    upgrade(settings.sqlalchemy_url)
    engine = make_engine(settings.sqlalchemy_url)
    sessions = make_session_factory(engine)
    try:
        knowledge = open_knowledge_base(settings, sessions)
    except Exception:
        engine.dispose()
        raise
    _warm_up(knowledge)
    domain = build_domain(settings, sessions)
    tickets: TicketStore = (
        RedisTicketStore.from_url(settings.redis_url) if settings.redis_url else SqlTicketStore(sessions)
    )
    writers = (
        HttpDomainWriter.from_settings(settings)
        if settings.domain_base_url
        else EmbeddedDomainWriter(sessions)
    )
    directory = SqlTeamDirectory(sessions)
    actions = ActionService(
        session_factory=sessions,
        tickets=tickets,
        writers=writers,
        directory=directory,
        reviews=PendingReviewsFromPractice(domain, settings.tz),
        tz=settings.tz,
    )
    port = KnowledgePort(knowledge)
    executor = build_tool_executor(
        domain=domain, knowledge=port, resources=port, handlers=draft_handlers(actions), roster=directory
    )
    composer: Composer = ExtractiveComposer()
    if settings.llm_base_url and settings.llm_model:
        client = OpenAICompatibleClient(settings.llm_base_url, settings.llm_model, settings.llm_api_key)
        composer = ModelComposer(client, timeout_s=settings.llm_timeout_s)
    conversations = ConversationService(conversation_store(settings, sessions))
    runtime = AgentRuntime(
        RuntimeParts(
            planner=build_planner(settings),
            executor=executor,
            evaluator=EvidenceEvaluator(),
            composer=composer,
            conversations=conversations,
            actions=actions,
            audit=AuditRecorder(sessions),
            limits=limits,
            tz=settings.tz,
            fragments=FragmentTexts(knowledge),
        )
    )
    return Services(
        settings=settings,
        engine=engine,
        sessions=sessions,
        verifier=TokenVerifier(settings),
        knowledge=knowledge,
        executor=executor,
        actions=actions,
        runtime=runtime,
        conversations=conversations,
    )
