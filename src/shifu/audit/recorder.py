"""Writes one `agent_runs` row per request, best effort.

The row holds ids, structured codes, counts, timings and SHA-256 hashes only (invariant 11):
never the question, the answer, phone numbers, tokens, attachment names or tool bodies.
An audit failure is logged and never fails the user's request.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field

from sqlalchemy.orm import Session, sessionmaker

from shifu.store.engine import transaction
from shifu.store.tables.audit import AgentRunRow

log = logging.getLogger(__name__)


def sha256_text(text: str) -> str:
    """Hex SHA-256 of a text, for audit rows that must not hold the text itself."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def scope_hash(tenant_id: str, app_id: str, user_id: str, project_ids: tuple[str, ...]) -> str:
    """A hash of the authorization scope, so audits can group runs without storing scope lists."""
    return sha256_text("|".join((tenant_id, app_id, user_id, ",".join(sorted(project_ids)))))


@dataclass
class RunAudit:
    """What one run leaves behind; filled in as the run proceeds."""

    run_id: str
    tenant_id: str
    app_id: str
    user_id: str
    scope_sha256: str
    question_sha256: str | None = None
    conversation_id: str | None = None
    context_version: int | None = None
    intent: str | None = None
    planner: str | None = None
    tools: list[str] = field(default_factory=list)
    status: str = "FAILED"
    decision: str | None = None
    source_types: list[str] = field(default_factory=list)
    reason_codes: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)
    error_code: str | None = None


class AuditRecorder:
    """Persists RunAudit rows."""

    def __init__(self, session_factory: sessionmaker[Session]) -> None:
        self._sessions = session_factory

    def record(self, audit: RunAudit) -> None:
        """Write the row; on failure log the error code and carry on."""
        try:
            with transaction(self._sessions) as session:
                session.add(
                    AgentRunRow(
                        run_id=audit.run_id,
                        tenant_id=audit.tenant_id,
                        app_id=audit.app_id,
                        user_id=audit.user_id,
                        conversation_id=audit.conversation_id,
                        context_version=audit.context_version,
                        scope_sha256=audit.scope_sha256,
                        question_sha256=audit.question_sha256,
                        intent=audit.intent,
                        planner=audit.planner,
                        tools=list(audit.tools),
                        status=audit.status,
                        decision=audit.decision,
                        source_types=list(audit.source_types),
                        reason_codes=list(audit.reason_codes),
                        counts=dict(audit.counts),
                        timings_ms={k: round(v, 3) for k, v in audit.timings_ms.items()},
                        error_code=audit.error_code,
                    )
                )
        except Exception as exc:  # audit must never fail the request
            log.warning("audit_write_failed", extra={"run_id": audit.run_id, "error": type(exc).__name__})
