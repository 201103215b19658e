"""Trusted execution context and the resolved conversational context of one question."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from shifu.contracts.common import ContextRelation, Contract, EvidenceType, Intent, Role
from shifu.contracts.entities import ExtractedEntities


class ExecutionContext(Contract):
    """Who is asking, resolved server-side from the token and the org snapshot.

    Never shown to a model; every tool's scope parameters are injected from here.
    """

    run_id: str
    """Id of this agent run."""
    tenant_id: str
    """Tenant of the principal."""
    app_id: str
    """Client application id the token was issued to."""
    user_id: str
    """Principal id; for operator preview the fixed `operator:{userId}` identity."""
    external_id: str
    """Id of the principal in the org snapshot (mapped from the authenticated phone)."""
    display_name: str
    """Name shown in answers (张三)."""
    role: Role
    """Trusted role."""
    project_ids: tuple[str, ...]
    """Projects the principal belongs to."""
    supervised_project_ids: tuple[str, ...] = ()
    """Projects the principal supervises (supervisors only)."""
    selected_project_id: str | None = None
    """Current project: the client's selection when it is one of `project_ids`."""
    space_ids: tuple[str, ...] = ()
    """Knowledge spaces the principal may read."""
    project_names: dict[str, str] = Field(default_factory=dict)
    """Every project of the tenant by id (proj-huafu → 华府): how a question names a project."""
    is_operator_preview: bool = False
    """True for back-office preview; such a principal never acts as a mobile user."""
    conversation_id: str | None = None
    """Conversation the request belongs to, once resolved."""
    now: datetime
    """Server time of the request, timezone-aware."""
    timezone: str = "Asia/Shanghai"
    """Time zone relative dates are resolved in."""


class UserAssertion(Contract):
    """Something the user claims ("我是主管"); never a role, fact or document (invariant 3)."""

    evidence_type: EvidenceType = EvidenceType.USER_ASSERTION
    """Always USER_ASSERTION."""
    kind: str
    """ROLE_CLAIM, IDENTITY_CLAIM, FACT_CLAIM or PERMISSION_CLAIM."""
    text: str
    """The claim as written; kept in memory for this run only, never audited."""


class ResolvedReference(Contract):
    """A reference in the question resolved against the conversation state."""

    kind: str
    """FACT_ITEM (第二项 of a listing), ANSWER_ITEM (第二项 of an answer's numbered items),
    DOCUMENT (刚才那份) or FRAME (满20年呢)."""
    fact_ref: str | None = None
    """Server-side factRef id when the reference points at a fact."""
    citation_id: str | None = None
    """Server-side citation id when it points at a document or an answer item's fragment."""
    item: int | None = None
    """The number of the answer item pointed at (ANSWER_ITEM)."""
    text: str
    """The referring expression as written."""


class ResolvedContext(Contract):
    """How the question relates to the conversation, and what it refers to."""

    relation: ContextRelation = ContextRelation.NEW_TOPIC
    """New topic, follow-up, correction, reference or cancel."""
    goal: str | None = None
    """The current goal carried from earlier turns (a question frame), if any."""
    previous_intent: Intent | None = None
    """Intent of the previous turn, if any."""
    entities: ExtractedEntities = Field(default_factory=ExtractedEntities)
    """Entities of this question."""
    user_assertions: list[UserAssertion] = Field(default_factory=list)
    """Claims the user makes; never authorization."""
    references: list[ResolvedReference] = Field(default_factory=list)
    """References that resolved to server-side refs."""
    gaps: list[str] = Field(default_factory=list)
    """Reason codes of what could not be resolved (e.g. REFERENCE_UNRESOLVED)."""
