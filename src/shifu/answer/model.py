"""The model composer: a model words the answer from gated inputs; the verifier decides if it is shown.

Falls back to the extractive answer, with a reason code, exactly when: the model call
raises ModelError (MODEL_ERROR), its JSON does not match the schema
(MODEL_INVALID_OUTPUT), or the ClaimVerifier finds any violation (its first code).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import Field, ValidationError

from shifu.answer.compose import should_compose, skipped_answer
from shifu.answer.extractive import ExtractiveComposer
from shifu.answer.gated import GatedEvidence
from shifu.answer.prompt import SYSTEM_PROMPT, build_user_prompt
from shifu.answer.verifier import ClaimVerifier
from shifu.contracts.answer import GroundedAnswer, Statement, Step
from shifu.contracts.common import Contract, EvidenceNeed
from shifu.contracts.decision import DecisionResult
from shifu.contracts.evidence import DocumentEvidence, VerifiedFact
from shifu.contracts.plan import SemanticQueryPlan
from shifu.errors import ModelError

logger = logging.getLogger(__name__)

MODEL = "MODEL"
MODEL_ERROR = "MODEL_ERROR"
MODEL_INVALID_OUTPUT = "MODEL_INVALID_OUTPUT"
SCHEMA_NAME = "grounded_answer"


class JsonChatClient(Protocol):
    """The slice of `shifu.llm.client.ChatClient` the composer needs (structural, so no import)."""

    def complete_json(
        self, *, system: str, user: str, schema: dict[str, Any], schema_name: str, timeout_s: float
    ) -> dict[str, Any]:
        """One strict-JSON completion; raises ModelError on timeout, transport or invalid JSON."""
        ...


class ModelStatement(Contract):
    """A statement as the model proposes it."""

    text: str = Field(min_length=1, max_length=500)
    """The claim."""
    need: EvidenceNeed | None = None
    """The covered need it answers."""
    citation_ids: list[str] = Field(default_factory=list, max_length=8)
    """Cited gated fragments."""
    fact_refs: list[str] = Field(default_factory=list, max_length=8)
    """Cited gated facts."""


class ModelStep(Contract):
    """A procedure step as the model proposes it."""

    text: str = Field(min_length=1, max_length=300)
    """What to do."""
    citation_ids: list[str] = Field(default_factory=list, max_length=8)
    """Cited gated fragments."""


class ModelAnswer(Contract):
    """The strict JSON the model must return."""

    summary: str = Field(max_length=600)
    """One short paragraph."""
    statements: list[ModelStatement] = Field(default_factory=list, max_length=20)
    """Bound claims."""
    steps: list[ModelStep] = Field(default_factory=list, max_length=20)
    """Bound steps."""


ANSWER_SCHEMA: dict[str, Any] = ModelAnswer.model_json_schema(by_alias=True)
"""JSON schema sent with every composing request."""


class ModelComposer:
    """Composes with a model from gated inputs only, verified claim by claim, extractive on any doubt."""

    def __init__(
        self,
        client: JsonChatClient,
        *,
        timeout_s: float = 20.0,
        fallback: ExtractiveComposer | None = None,
        verifier: ClaimVerifier | None = None,
    ) -> None:
        self._client = client
        self._timeout_s = timeout_s
        self._fallback = fallback or ExtractiveComposer()
        self._verifier = verifier or ClaimVerifier()

    def compose(
        self,
        plan: SemanticQueryPlan,
        decision: DecisionResult,
        documents: Sequence[DocumentEvidence],
        facts: Sequence[VerifiedFact],
    ) -> GroundedAnswer:
        """Ask the model, verify every claim, and return the extractive answer on any failure."""
        if not should_compose(decision):
            return skipped_answer(plan, decision)
        extractive = self._fallback.compose(plan, decision, documents, facts)
        gated = GatedEvidence.from_decision(decision, documents, facts)
        try:
            raw = self._client.complete_json(
                system=SYSTEM_PROMPT,
                user=build_user_prompt(plan, decision, gated),
                schema=ANSWER_SCHEMA,
                schema_name=SCHEMA_NAME,
                timeout_s=self._timeout_s,
            )
        except ModelError as error:
            return self._fall_back(extractive, MODEL_ERROR, detail=error.code)
        try:
            proposed = ModelAnswer.model_validate(raw)
        except ValidationError:
            return self._fall_back(extractive, MODEL_INVALID_OUTPUT)
        answer = GroundedAnswer(
            summary=proposed.summary,
            statements=[
                Statement(
                    text=s.text, need=s.need, citation_ids=tuple(s.citation_ids), fact_refs=tuple(s.fact_refs)
                )
                for s in proposed.statements
            ],
            steps=[
                Step(order=index, text=step.text, citation_ids=tuple(step.citation_ids))
                for index, step in enumerate(proposed.steps, start=1)
            ],
            missing_information=extractive.missing_information,
            clarifying_questions=extractive.clarifying_questions,
            composer=MODEL,
        )
        violations = self._verifier.verify(answer, gated, plan.question)
        if violations:
            return self._fall_back(extractive, violations[0], detail=",".join(violations))
        logger.info(
            "model answer verified", extra={"statements": len(answer.statements), "steps": len(answer.steps)}
        )
        return answer

    @staticmethod
    def _fall_back(extractive: GroundedAnswer, reason: str, *, detail: str | None = None) -> GroundedAnswer:
        logger.info("model composer fell back", extra={"reason_code": reason, "detail": detail})
        return extractive.model_copy(update={"composer_reason_code": reason})
