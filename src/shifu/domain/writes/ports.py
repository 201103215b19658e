"""The write ports, their receipt and their typed errors.

    DomainWriteError (shifu.errors)
    ├── DomainRejected      (Failure)      the domain refused the command: definite, not retried
    └── DomainUnavailable   (Unavailable)  timeout, transport error, 5xx or an unreadable answer:
                                           the outcome is unknown; retry with the same key

Every method takes the caller's idempotency key: a domain system that sees the same key
twice answers with the first record instead of writing a second one. `session` lets the
embedded adapter write inside the caller's SQL transaction; remote adapters ignore it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from sqlalchemy.orm import Session

from shifu.errors import Failure, Unavailable


@dataclass(frozen=True)
class DomainReceipt:
    """What the domain system answered: its own id, status and time of the record."""

    kind: str
    record_id: str
    status: str
    at: datetime


class DomainRejected(Failure):
    """The domain system refused the command (4xx); writing it again would not help."""

    code = "DOMAIN_REJECTED"
    message = "业务系统拒绝了这次操作，请修改后重试。"


class DomainUnavailable(Unavailable):
    """The domain system did not answer usably; the same key may be retried safely."""

    code = "DOMAIN_UNAVAILABLE"
    message = "业务系统暂时不可用，请稍后用同一确认重试。"


class MemoryWritePort(Protocol):
    """Saves a confirmed memory (PRIVATE → ACTIVE, COMPANY → PENDING review)."""

    def save_memory(
        self,
        *,
        tenant_id: str,
        owner_id: str,
        project_id: str | None,
        content: str,
        location: str | None,
        visibility: str,
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """Write once per key and answer with the stored record."""
        ...


class PracticeAssignmentPort(Protocol):
    """Assigns a training to a member of a supervised project."""

    def assign_practice(
        self,
        *,
        tenant_id: str,
        project_id: str,
        assigner_id: str,
        assignee_id: str,
        topic: str,
        due_date: date | None,
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """Write once per key and answer with the stored assignment."""
        ...


class ReviewDispatchPort(Protocol):
    """Sends a pending-review list to a recipient resolved server-side."""

    def dispatch_review(
        self,
        *,
        tenant_id: str,
        project_id: str,
        sender_id: str,
        recipient_id: str,
        items: Sequence[Mapping[str, str | int]],
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """Send once per key and answer with the dispatch record."""
        ...


class WorkReportPort(Protocol):
    """Submits an employee's work result (never derived from a memory)."""

    def submit_work_report(
        self,
        *,
        tenant_id: str,
        author_id: str,
        project_id: str | None,
        title: str,
        content: str,
        idempotency_key: str,
        session: Session | None,
    ) -> DomainReceipt:
        """Submit once per key and answer with the stored report."""
        ...
