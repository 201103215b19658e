"""Small adapters that let L3 packages meet without importing one another.

The tools package declares the ports it needs (knowledge search, resource links, draft
handlers); the knowledge base, the action service and the domain adapters satisfy them
here, in the composition layer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from shifu.actions.service import ActionService
from shifu.contracts.common import ToolCode, ToolStatus
from shifu.contracts.context import ExecutionContext
from shifu.contracts.evidence import DocumentEvidence, Observation, ResourceRef, ToolResult
from shifu.contracts.plan import ToolCall
from shifu.domain.embedded import EmbeddedDomain
from shifu.domain.http import HttpDomain
from shifu.errors import Forbidden, NotFound
from shifu.evidence.requested import is_requested
from shifu.knowledge.access import SearchAccess
from shifu.knowledge.service import KnowledgeBase
from shifu.tools.handlers import ToolHandler
from shifu.tools.knowledge import knowledge_access
from shifu.tools.ports import KnowledgeAccess

RESOURCE_TTL_S = 600
"""How long a download link lives."""
RESOURCE_CANDIDATES = 5
"""Search hits examined for the document a resource request names."""


def search_access(access: KnowledgeAccess) -> SearchAccess:
    """The knowledge base's view of a trusted access scope."""
    return SearchAccess(
        tenant_id=access.tenant_id,
        space_ids=access.space_ids,
        project_ids=access.project_ids,
        role=access.role,
        on_date=access.on_date,
    )


class FragmentTexts:
    """A cited fragment's text, re-authorized for the principal now (answer items pointed at again)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self._kb = kb

    def fragment_text(self, ctx: ExecutionContext, fragment_id: str) -> str | None:
        """The fragment's text when it is still published and this principal may read it; else None."""
        evidence = self._kb.fragment(fragment_id, search_access(knowledge_access(ctx, ctx.project_ids)))
        return evidence.text if evidence is not None else None


class KnowledgePort:
    """KNOWLEDGE_SEARCH and KNOWLEDGE_RESOURCE over the governed knowledge base."""

    def __init__(self, kb: KnowledgeBase, *, top_k: int = 8) -> None:
        self._kb = kb
        self._top_k = top_k

    def search(
        self, query: str, *, domain: str | None, access: KnowledgeAccess, focus: str | None = None
    ) -> list[DocumentEvidence]:
        """Gated fragments for the query within the access scope."""
        return self._kb.search(
            query, domain=domain, access=search_access(access), top_k=self._top_k, focus=focus
        )

    def issue_resource(
        self, *, access: KnowledgeAccess, citation_id: str | None, query: str | None, kind: str
    ) -> list[ResourceRef]:
        """A link to the cited document's original, or to the one the request names, re-authorized now.

        Without a citation, the best search hit whose document is about the request's subject is
        delivered; a hit about something else is never handed over in its place, nor a file for a
        requested video.
        """
        scope = search_access(access)
        fragment_id = citation_id
        if fragment_id is None and query:
            hits = self._kb.search(query, domain=None, access=scope, top_k=RESOURCE_CANDIDATES)
            fragment_id = next((hit.fragment_id for hit in hits if is_requested(query, hit)), None)
        if fragment_id is None:
            return []
        try:
            ref = self._kb.issue_resource(
                fragment_id,
                access=scope,
                user_id=access.user_id,
                conversation_id=access.conversation_id,
                ttl_s=RESOURCE_TTL_S,
                now=access.now,
            )
        except NotFound:
            return []
        except Forbidden:
            raise
        if kind == "VIDEO" and ref.kind != "VIDEO":
            # 有没有消防巡检的视频: a written procedure is no video, and is not handed over as one.
            return []
        return [ref]


class DraftHandler:
    """Runs a DRAFT tool by asking the action service for a card; nothing is written to a domain."""

    def __init__(self, actions: ActionService) -> None:
        self._actions = actions

    def __call__(
        self, ctx: ExecutionContext, call: ToolCall, args: BaseModel, project_ids: tuple[str, ...], /
    ) -> ToolResult:
        """A ToolResult whose `draft` carries the card (or the reason there is none)."""
        outcome = self._actions.build_draft(ctx, call, now=ctx.now)
        draft: dict[str, object] = {
            "status": outcome.status.value,
            "answer": outcome.answer,
            "missingFields": list(outcome.missing_fields),
            "reasonCode": outcome.reason_code,
            "card": outcome.card.model_dump(mode="json", by_alias=True) if outcome.card else None,
        }
        return ToolResult(
            call=call,
            status=ToolStatus.OK,
            reason_code=outcome.reason_code,
            draft=draft,
            observations=[Observation(code="DRAFT_" + outcome.status.value, count=1)],
        )


def draft_handlers(actions: ActionService) -> dict[ToolCode, ToolHandler]:
    """Handlers for every DRAFT tool."""
    handler = DraftHandler(actions)
    return {
        ToolCode.CAPTURE_MEMORY_DRAFT: handler,
        ToolCode.PRACTICE_ASSIGNMENT_DRAFT: handler,
        ToolCode.REVIEW_DRAFT: handler,
        ToolCode.WORK_REPORT_DRAFT: handler,
    }


@dataclass(frozen=True)
class PendingReviewRow:
    """One member with pending 复盘."""

    user_id: str
    display_name: str
    pending_count: int


class PendingReviewsFromPractice:
    """Who has pending 复盘, read live from the training system's practice records."""

    def __init__(self, domain: EmbeddedDomain | HttpDomain, tz: ZoneInfo) -> None:
        self._domain = domain
        self._tz = tz

    def pending_reviews(
        self, tenant_id: str, project_id: str, *, start: date | None, end: date | None
    ) -> Sequence[PendingReviewRow]:
        """Members of the project with at least one practice record whose review is not done."""
        records = self._domain.team_practice(
            tenant_id=tenant_id,
            project_ids=[project_id],
            start=None if start is None else datetime.combine(start, time.min, tzinfo=self._tz),
            end=None if end is None else datetime.combine(end + timedelta(days=1), time.min, tzinfo=self._tz),
        )
        counts: dict[tuple[str, str], int] = {}
        for record in records:
            if not record.review_done:
                key = (record.user_id, record.user_name)
                counts[key] = counts.get(key, 0) + 1
        return [PendingReviewRow(uid, name, n) for (uid, name), n in sorted(counts.items())]
