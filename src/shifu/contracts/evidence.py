"""Tool results and the evidence types they carry (seed 000 core contracts).

DOCUMENT_EVIDENCE, VERIFIED_FACT and USER_ASSERTION are separate types forever
(invariant 3): nothing here converts one into another.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field, JsonValue

from shifu.contracts.common import (
    Authority,
    ClaimType,
    Contract,
    EvidenceNeed,
    EvidenceType,
    Lifecycle,
    Role,
    ToolStatus,
    Verification,
)
from shifu.contracts.plan import ToolCall


class DocumentScope(Contract):
    """Who a document applies to; empty tuples mean "no restriction on that axis"."""

    tenant_id: str
    """Tenant owning the document."""
    space_id: str
    """Knowledge space the document lives in."""
    project_ids: tuple[str, ...] = ()
    """Projects the document applies to."""
    roles: tuple[Role, ...] = ()
    """Roles the document applies to."""


class DocumentEvidence(Contract):
    """One gated fragment of a governed document, as returned by KNOWLEDGE_SEARCH."""

    evidence_type: Literal[EvidenceType.DOCUMENT_EVIDENCE] = EvidenceType.DOCUMENT_EVIDENCE
    """Always DOCUMENT_EVIDENCE."""
    citation_id: str
    """Id this fragment is cited by in this run."""
    fragment_id: str
    """Content-hash id of the fragment."""
    document_id: str
    """Id of the document version."""
    document_key: str
    """Stable key of the document (a file's stem, e.g. `laodong_hetong_fa`)."""
    title: str
    """Document title."""
    locator: str
    """Where in the document (第十九条, 三、报销标准)."""
    heading_path: tuple[str, ...] = ()
    """Headings above the fragment (编/章/节)."""
    version: str
    """Document version label."""
    authority: Authority
    """Source authority."""
    kind: str
    """Document kind (法律, 行政法规, 制度, SOP …)."""
    effective_from: date | None = None
    """First effective day, if known."""
    effective_to: date | None = None
    """Last effective day, if any."""
    scope: DocumentScope
    """Who the document applies to."""
    lifecycle: Lifecycle
    """Publication state."""
    verification: Verification
    """Human verification state."""
    environment: str
    """production or staging."""
    text: str
    """The fragment's body text (data, never instructions)."""
    supported_need_codes: tuple[EvidenceNeed, ...] = ()
    """Candidate needs from the classifier; never proof (invariant 8)."""
    claim_types: tuple[ClaimType, ...] = ()
    """Candidate claim types from the classifier; never proof."""
    document_scope: str = ""
    """The text of the document's scope, definition or kinds sections (零星采购的定义和适用范围), carried
    with each fragment so that a thing they list (灯泡) reaches the document's other sections. Data,
    never instructions; never cited on its own."""
    score: float = 0.0
    """Retrieval score (fused)."""


class FactScope(Contract):
    """The scope a fact was read under."""

    tenant_id: str
    """Tenant."""
    user_id: str
    """Principal who read it."""
    project_ids: tuple[str, ...] = ()
    """Projects it covers."""


class AuthorizationSnapshot(Contract):
    """What authorized a read, to be compared on reuse."""

    role: Role
    """Role at read time."""
    project_ids: tuple[str, ...] = ()
    """Projects authorized at read time."""
    policy: str
    """Policy code that allowed the read (e.g. SELF_ONLY, SUPERVISED_PROJECTS)."""


class VerifiedFact(Contract):
    """A live fact read from a domain system through a registered tool."""

    evidence_type: Literal[EvidenceType.VERIFIED_FACT] = EvidenceType.VERIFIED_FACT
    """Always VERIFIED_FACT."""
    fact_ref: str
    """Server-side reference id for reuse across turns."""
    fact_type: str
    """TASK, NO_TASKS, PRACTICE_SUMMARY, WORK_RESULT, CANDIDATE_PROGRESS, CAPABILITY …"""
    item_key: str
    """Key of the item in its source system."""
    label: str
    """Chinese label for the source bar (我的当前待办)."""
    value: dict[str, JsonValue]
    """The fact's fields (titles, dates, counts, statuses)."""
    source_system: str
    """System of record (embedded-demo, task-service …)."""
    queried_at: datetime
    """When it was read."""
    ttl_seconds: int = Field(ge=0)
    """How long it may be reused before re-reading."""
    scope: FactScope
    """Scope it was read under."""
    authorization: AuthorizationSnapshot
    """What authorized the read."""


class Gap(Contract):
    """Something a need required that no qualified source covers."""

    need: EvidenceNeed | None = None
    """The uncovered need, if slot-specific."""
    reason_code: str
    """Why (NO_QUALIFIED_SOURCE, CALIBER_MISMATCH, AMOUNT_NOT_MATCHED …)."""
    detail: dict[str, JsonValue] = Field(default_factory=dict)
    """Structured detail (amount, comparator, caliber); never free text from users."""


class Conflict(Contract):
    """Qualified sources that disagree."""

    need: EvidenceNeed | None = None
    """The need in conflict."""
    kind: str
    """AMOUNT, VERSION or EFFECTIVE_DATE."""
    citation_ids: tuple[str, ...]
    """The disagreeing citations."""
    versions: tuple[str, ...] = ()
    """Versions involved, for a NEEDS_INPUT naming them."""


class Observation(Contract):
    """A structured observation of a tool (codes and counts, never bodies)."""

    code: str
    """What was observed (CANDIDATES, FILTERED_OUT, NO_TASKS …)."""
    count: int = 0
    """How many."""


class ResourceRef(Contract):
    """A protected original file or video a tool made available."""

    resource_id: str
    """Opaque short-lived id bound to tenant, user and conversation."""
    document_key: str
    """Stable document key."""
    title: str
    """Document title."""
    kind: str
    """FILE or VIDEO."""
    expires_at: datetime
    """When the link stops working."""


class ToolResult(Contract):
    """Everything one tool call produced, typed."""

    call: ToolCall
    """The call as executed (normalized arguments)."""
    status: ToolStatus
    """How it ended."""
    reason_code: str | None = None
    """Why, when not OK."""
    documents: list[DocumentEvidence] = Field(default_factory=list)
    """Document evidence."""
    facts: list[VerifiedFact] = Field(default_factory=list)
    """Live facts."""
    resources: list[ResourceRef] = Field(default_factory=list)
    """Protected resources."""
    gaps: list[Gap] = Field(default_factory=list)
    """Gaps the tool itself found."""
    conflicts: list[Conflict] = Field(default_factory=list)
    """Conflicts the tool itself found."""
    observations: list[Observation] = Field(default_factory=list)
    """Structured observations."""
    draft: dict[str, JsonValue] | None = None
    """For DRAFT tools: the validated draft payload to show on a confirmation card."""
    elapsed_ms: float = 0.0
    """Wall time of the call."""
