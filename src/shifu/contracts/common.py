"""The base contract model and the enumerations every layer speaks."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class Contract(BaseModel):
    """Frozen, strict boundary model: camelCase on the wire, unknown fields refused.

    Attribute docstrings become field descriptions in the JSON schema, so every field
    of every contract is documented where it is declared.
    """

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        alias_generator=to_camel,
        populate_by_name=True,
        use_attribute_docstrings=True,
        ser_json_timedelta="iso8601",
    )


class Role(StrEnum):
    """The trusted role of the authenticated principal (never from the model or body)."""

    EMPLOYEE = "EMPLOYEE"
    SUPERVISOR = "SUPERVISOR"
    CANDIDATE = "CANDIDATE"
    OPERATOR = "OPERATOR"


class Intent(StrEnum):
    """Execution strategy of a request (seed 001 §6.1 plus CAPABILITY_QUERY)."""

    KNOWLEDGE_QA = "KNOWLEDGE_QA"
    RESOURCE_DELIVERY = "RESOURCE_DELIVERY"
    LIVE_MY_WORK = "LIVE_MY_WORK"
    LIVE_TEAM_WORK = "LIVE_TEAM_WORK"
    PRACTICE_COACHING = "PRACTICE_COACHING"
    CAPTURE_FACT = "CAPTURE_FACT"
    DRAFT_ACTION = "DRAFT_ACTION"
    MEDIA_UNDERSTANDING = "MEDIA_UNDERSTANDING"
    WEB_RESEARCH = "WEB_RESEARCH"
    CLARIFY = "CLARIFY"
    SOCIAL = "SOCIAL"
    CAPABILITY_QUERY = "CAPABILITY_QUERY"


class ResponseStatus(StrEnum):
    """AgentResponse.status (seed 001 §10.2); the client renders cards from it."""

    COMPLETED = "COMPLETED"
    NEEDS_INPUT = "NEEDS_INPUT"
    NEEDS_CONFIRMATION = "NEEDS_CONFIRMATION"
    NO_EVIDENCE = "NO_EVIDENCE"
    FORBIDDEN = "FORBIDDEN"
    UNAVAILABLE = "UNAVAILABLE"
    FAILED = "FAILED"


class DecisionStatus(StrEnum):
    """Outcome of the evidence evaluation (seed 000 DecisionResult)."""

    ANSWERED = "ANSWERED"
    PARTIAL = "PARTIAL"
    NEEDS_INPUT = "NEEDS_INPUT"
    NO_EVIDENCE = "NO_EVIDENCE"
    CONFLICT = "CONFLICT"


class EvidenceNeed(StrEnum):
    """One evidence slot a plan asks to be covered."""

    AMOUNT_RULE = "AMOUNT_RULE"
    PROCESS_STEPS = "PROCESS_STEPS"
    REQUIRED_MATERIALS = "REQUIRED_MATERIALS"
    APPROVAL = "APPROVAL"
    ELIGIBILITY = "ELIGIBILITY"
    DEADLINE = "DEADLINE"
    PROHIBITION = "PROHIBITION"
    DEFINITION = "DEFINITION"
    CONTACT = "CONTACT"
    OBLIGATION = "OBLIGATION"
    LIABILITY = "LIABILITY"
    GENERAL_RULE = "GENERAL_RULE"
    LIVE_STATE = "LIVE_STATE"


class ClaimType(StrEnum):
    """The kind of conclusion a source must support for a need."""

    AMOUNT = "AMOUNT"
    STEP = "STEP"
    MATERIAL = "MATERIAL"
    APPROVER = "APPROVER"
    CONDITION = "CONDITION"
    TIME_LIMIT = "TIME_LIMIT"
    PROHIBITION = "PROHIBITION"
    DEFINITION = "DEFINITION"
    CONTACT = "CONTACT"
    OBLIGATION = "OBLIGATION"
    LIABILITY = "LIABILITY"
    RULE = "RULE"
    STATE = "STATE"


NEED_CLAIM_TYPE: dict[EvidenceNeed, ClaimType] = {
    EvidenceNeed.AMOUNT_RULE: ClaimType.AMOUNT,
    EvidenceNeed.PROCESS_STEPS: ClaimType.STEP,
    EvidenceNeed.REQUIRED_MATERIALS: ClaimType.MATERIAL,
    EvidenceNeed.APPROVAL: ClaimType.APPROVER,
    EvidenceNeed.ELIGIBILITY: ClaimType.CONDITION,
    EvidenceNeed.DEADLINE: ClaimType.TIME_LIMIT,
    EvidenceNeed.PROHIBITION: ClaimType.PROHIBITION,
    EvidenceNeed.DEFINITION: ClaimType.DEFINITION,
    EvidenceNeed.CONTACT: ClaimType.CONTACT,
    EvidenceNeed.OBLIGATION: ClaimType.OBLIGATION,
    EvidenceNeed.LIABILITY: ClaimType.LIABILITY,
    EvidenceNeed.GENERAL_RULE: ClaimType.RULE,
    EvidenceNeed.LIVE_STATE: ClaimType.STATE,
}
"""Which claim type a source must support to cover each need (seed 000, condition 2)."""


class Authority(StrEnum):
    """Where a document's authority comes from; the evidence gate ranks these."""

    STATUTE = "STATUTE"
    REGULATION = "REGULATION"
    JUDICIAL_INTERPRETATION = "JUDICIAL_INTERPRETATION"
    DEPARTMENTAL_RULE = "DEPARTMENTAL_RULE"
    COMPANY_POLICY = "COMPANY_POLICY"
    SOP = "SOP"
    MANUAL = "MANUAL"
    CASE = "CASE"
    INTERVIEW = "INTERVIEW"


LAW_AUTHORITIES: frozenset[Authority] = frozenset(
    {
        Authority.STATUTE,
        Authority.REGULATION,
        Authority.JUDICIAL_INTERPRETATION,
        Authority.DEPARTMENTAL_RULE,
    }
)
"""Public law: versions are promulgation dates, and a situation's handling is stated as rules, not steps."""


class Lifecycle(StrEnum):
    """Publication state of a document version."""

    DRAFT = "DRAFT"
    PUBLISHED = "PUBLISHED"
    RETIRED = "RETIRED"


class Verification(StrEnum):
    """Whether a human verified a document version."""

    UNVERIFIED = "UNVERIFIED"
    HUMAN_VERIFIED = "HUMAN_VERIFIED"


class Environment(StrEnum):
    """Which environment a document version belongs to."""

    PRODUCTION = "production"
    STAGING = "staging"


class ToolCode(StrEnum):
    """Every tool the server knows; anything else is refused."""

    KNOWLEDGE_SEARCH = "KNOWLEDGE_SEARCH"
    KNOWLEDGE_RESOURCE = "KNOWLEDGE_RESOURCE"
    MY_CURRENT_TASKS = "MY_CURRENT_TASKS"
    MY_PRACTICE_SUMMARY = "MY_PRACTICE_SUMMARY"
    TEAM_PRACTICE_SUMMARY = "TEAM_PRACTICE_SUMMARY"
    MY_WORK_RESULTS = "MY_WORK_RESULTS"
    TEAM_WORK_RESULTS = "TEAM_WORK_RESULTS"
    MY_CANDIDATE_PROGRESS = "MY_CANDIDATE_PROGRESS"
    CAPABILITY_QUERY = "CAPABILITY_QUERY"
    CAPTURE_MEMORY_DRAFT = "CAPTURE_MEMORY_DRAFT"
    PRACTICE_ASSIGNMENT_DRAFT = "PRACTICE_ASSIGNMENT_DRAFT"
    REVIEW_DRAFT = "REVIEW_DRAFT"
    WORK_REPORT_DRAFT = "WORK_REPORT_DRAFT"
    MEDIA_ANALYZE = "MEDIA_ANALYZE"
    WEB_RESEARCH = "WEB_RESEARCH"


class ToolKind(StrEnum):
    """READ runs automatically; DRAFT needs confirmation; EXTERNAL needs consent."""

    READ = "READ"
    DRAFT = "DRAFT"
    EXTERNAL = "EXTERNAL"


class ToolStatus(StrEnum):
    """How one tool call ended."""

    OK = "OK"
    NO_RESULT = "NO_RESULT"
    FORBIDDEN = "FORBIDDEN"
    UNAVAILABLE = "UNAVAILABLE"
    TIMEOUT = "TIMEOUT"
    FAILED = "FAILED"
    INVALID_ARGUMENTS = "INVALID_ARGUMENTS"
    DEDUPLICATED = "DEDUPLICATED"


class PlannerKind(StrEnum):
    """Which planner produced the plan that ran."""

    MODEL = "MODEL"
    DETERMINISTIC = "DETERMINISTIC"


class SourceType(StrEnum):
    """Source categories shown in the response's source bar."""

    LIVE_DATA = "LIVE_DATA"
    KNOWLEDGE = "KNOWLEDGE"
    MEMORY = "MEMORY"
    MEDIA = "MEDIA"
    WEB = "WEB"
    CAPABILITY = "CAPABILITY"
    DRAFT = "DRAFT"


class ContextRelation(StrEnum):
    """How a question relates to the conversation so far."""

    NEW_TOPIC = "NEW_TOPIC"
    FOLLOW_UP = "FOLLOW_UP"
    CORRECTION = "CORRECTION"
    REFERENCE = "REFERENCE"
    CANCEL = "CANCEL"


class EvidenceType(StrEnum):
    """The three evidence types that are never promoted into one another (invariant 3)."""

    DOCUMENT_EVIDENCE = "DOCUMENT_EVIDENCE"
    VERIFIED_FACT = "VERIFIED_FACT"
    USER_ASSERTION = "USER_ASSERTION"
