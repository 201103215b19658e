"""The structured conversation state (`state_json`): references, a question frame and media labels.

Invariant 4: earlier answers are language context only. The state therefore never holds a
fact's body. A fact carries across turns only as a `FactRefRecord` — the tool code and
business arguments to read it again, plus the scope and authorization it was read under —
and a document only as a `CitationRefRecord`. Every model here forbids unknown fields, so
a stored or client-sent blob that smuggles fact content (`value`, `text` …) is refused,
never silently kept. The HTTP API has no field for state at all: it lives server-side.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum
from typing import Final, Literal

from pydantic import Field, JsonValue, ValidationError

from shifu.contracts.common import ContextRelation, Contract, Intent, ToolCode
from shifu.contracts.entities import ExtractedEntities
from shifu.contracts.evidence import AuthorizationSnapshot
from shifu.contracts.plan import ToolCall
from shifu.errors import BadRequest

MAX_TURNS = 6
"""Turns of language context kept per conversation (seed 001 §9.1)."""
INACTIVITY_LIMIT = timedelta(minutes=30)
"""A conversation idle this long is over; the next request starts a new one."""
MAX_FACT_REFS = 50
"""Listed facts remembered (the last listing only)."""
MAX_CITATIONS = 20
"""Cited documents remembered (the last answer's citations only)."""
MAX_ANSWER_ITEMS = 30
"""Numbered items of the last answer remembered."""
MAX_MEDIA_FACTS = 10
"""Media labels remembered, newest last."""
MAX_SUMMARY_CHARS = 200
"""Longest answer summary a turn may keep."""
STATE_FORMAT: Final = 1
"""Format of `state_json`; bumped only with a migration of stored states."""


class RefScope(Contract):
    """Where a reference was created; reuse anywhere else is FORBIDDEN."""

    tenant_id: str
    """Tenant of the principal at read time."""
    app_id: str
    """Client application at read time."""
    user_id: str
    """Principal at read time."""
    conversation_id: str
    """Conversation the reference belongs to."""
    project_id: str | None = None
    """Selected project at read time."""


class FactRefRecord(Contract):
    """A server-side pointer to one live fact: how to read it again, never what it said."""

    ref_id: str = Field(min_length=1, max_length=80)
    """The factRef id (as in VerifiedFact.fact_ref)."""
    tool: ToolCode
    """Registered tool that produced the fact."""
    arguments: dict[str, JsonValue] = Field(default_factory=dict)
    """Business arguments of that call (never scope: scope comes from ExecutionContext)."""
    item_key: str = Field(min_length=1, max_length=128)
    """Key of the item in its source system."""
    item_index: int = Field(ge=1)
    """1-based position of the item in the listing the user saw (第二项 → 2)."""
    fact_type: str = Field(max_length=40)
    """Type code of the fact (TASK, PRACTICE_SUMMARY …); a code, not content."""
    queried_at: datetime
    """When the fact was read."""
    ttl_seconds: int = Field(ge=0)
    """How long it may be reused before the tool must be queried again."""
    scope: RefScope
    """Where it was read."""
    authorization: AuthorizationSnapshot
    """What authorized the read; compared with the current principal on reuse."""
    audit_ref: str = Field(min_length=1, max_length=64)
    """Run id of the read (joins to `agent_runs`)."""

    @property
    def expires_at(self) -> datetime:
        """The moment the fact must be read again."""
        return self.queried_at + timedelta(seconds=self.ttl_seconds)

    def tool_call(self) -> ToolCall:
        """The call that reads the fact again through the registered tool."""
        return ToolCall(tool=self.tool, arguments=dict(self.arguments))


class CitationRefRecord(Contract):
    """A server-side pointer to one cited fragment and the document version it was cited from."""

    citation_id: str = Field(min_length=1, max_length=80)
    """Citation id shown to the client."""
    fragment_id: str = Field(min_length=1, max_length=128)
    """Content-hash id of the fragment."""
    document_key: str = Field(min_length=1, max_length=200)
    """Stable key of the document."""
    document_version: str = Field(max_length=80)
    """Version label at citation time; a different current version means re-search."""
    cited_at: datetime
    """When it was cited."""
    audit_ref: str = Field(min_length=1, max_length=64)
    """Run id that cited it."""


class AnswerItemRecord(Contract):
    """One numbered item of the last answer: its citation, the number shown and a hash of its text.

    Never the text: pointing at the item ("第二项") reads the cited fragment again under the
    user's current authorization and finds the item in it by the hash.
    """

    citation_id: str = Field(min_length=1, max_length=80)
    """Citation the item was copied from (one of `citations`)."""
    number: int = Field(ge=1, le=99)
    """The number the user saw in front of the item."""
    text_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    """SHA-256 of the item's text without its number."""
    kind: Literal["ITEM", "STEP"] = "ITEM"
    """A numbered span of the answer (ITEM) or a step of its 办理步骤 (STEP)."""


class MediaFact(Contract):
    """A labelled, temporary fact from an attachment of this conversation (seed 001 §9.2).

    Lives in the conversation state until the conversation expires; never written to
    shared knowledge, memory or audit.
    """

    media_fact_id: str = Field(min_length=1, max_length=80)
    """Id of the label."""
    label: str = Field(min_length=1, max_length=200)
    """The label as shown ("图片识别：电梯门无法打开")."""
    source: Literal["MEDIA"] = "MEDIA"
    """Always MEDIA: a media label is never document evidence or a verified fact."""
    attachment_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    """Hash of the attachment (the attachment's name is never kept)."""
    created_at: datetime
    """When the attachment was analysed."""


class QuestionFrame(Contract):
    """The previous question as the planner planned it: the goal follow-ups and corrections reuse."""

    question: str = Field(min_length=1, max_length=2000)
    """The effective question that was planned."""
    intent: Intent | None = None
    """Its intent."""
    entities: ExtractedEntities = Field(default_factory=ExtractedEntities)
    """Its entities; a follow-up substitutes one of them."""


class PendingKind(StrEnum):
    """What a conversation may be waiting on; "算了" cancels it."""

    DRAFT = "DRAFT"
    DRAFT_INPUT = "DRAFT_INPUT"
    """A draft that asked for a missing field (草稿还缺少：指派对象); the next short reply supplies it."""
    CLARIFICATION = "CLARIFICATION"


class PendingItem(Contract):
    """A draft awaiting confirmation or a clarification awaiting an answer."""

    kind: PendingKind
    """Draft or clarification."""
    item_id: str = Field(min_length=1, max_length=80)
    """Draft id or clarification id."""
    created_at: datetime
    """When it was opened."""


class Turn(Contract):
    """One exchange as language context only: never a fact (invariant 4).

    Turns are the user's conversation content: they live in the conversation row only and
    are never logged or audited.
    """

    question: str = Field(max_length=2000)
    """The question as asked."""
    answer_summary: str | None = Field(default=None, max_length=MAX_SUMMARY_CHARS)
    """A short summary of the answer, for understanding follow-ups only."""
    factual: Literal[False] = False
    """Always False: nothing in a turn may be used as evidence."""
    intent: Intent | None = None
    """Intent the turn ran with."""
    relation: ContextRelation = ContextRelation.NEW_TOPIC
    """How the turn related to the one before."""
    at: datetime
    """When the turn was committed."""

    @classmethod
    def of(
        cls,
        question: str,
        *,
        answer_summary: str | None,
        at: datetime,
        intent: Intent | None = None,
        relation: ContextRelation = ContextRelation.NEW_TOPIC,
    ) -> Turn:
        """A turn with the summary cut to the allowed length (summaries are hints, not records)."""
        summary = None if answer_summary is None else answer_summary[:MAX_SUMMARY_CHARS]
        return cls(question=question, answer_summary=summary, intent=intent, relation=relation, at=at)


class ConversationState(Contract):
    """The structured state of one conversation, additive to the plain turn list."""

    format: Literal[1] = STATE_FORMAT
    """Format version of this JSON."""
    frame: QuestionFrame | None = None
    """The previous planned question (the current goal)."""
    fact_refs: tuple[FactRefRecord, ...] = Field(default=(), max_length=MAX_FACT_REFS)
    """The last listed facts, in the order the user saw them."""
    citations: tuple[CitationRefRecord, ...] = Field(default=(), max_length=MAX_CITATIONS)
    """The last answer's citations, in order."""
    answer_items: tuple[AnswerItemRecord, ...] = Field(default=(), max_length=MAX_ANSWER_ITEMS)
    """The numbered items of the last answer that listed any, in the order shown."""
    media_facts: tuple[MediaFact, ...] = Field(default=(), max_length=MAX_MEDIA_FACTS)
    """Labels of this conversation's attachments, newest last."""
    pending: PendingItem | None = None
    """A draft or clarification the conversation waits on."""
    item_question: str | None = Field(default=None, max_length=2000)
    """The last question asked of one listed item (第二项怎么做): 第三项呢 asks it of another item."""


def parse_state(raw: str) -> ConversationState:
    """Parse stored `state_json`, refusing unknown fields (no fact body can ride along)."""
    try:
        return ConversationState.model_validate_json(raw)
    except ValidationError as exc:
        raise BadRequest(code="STATE_INVALID") from exc


def dump_state(state: ConversationState) -> str:
    """Serialize a state for storage (camelCase, like every contract)."""
    return state.model_dump_json(by_alias=True)
