"""What the action service needs from other packages, declared here as Protocols.

The runtime wires concrete adapters: `shifu.domain.writes` (embedded or HTTP) satisfies
`DomainWritePorts` structurally; the org directory over the store is in
`shifu.actions.directory`; the pending-review reader comes from the domain read side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Protocol

from sqlalchemy.orm import Session


class Receipt(Protocol):
    """A domain system's answer: its record id, status and time."""

    @property
    def kind(self) -> str:
        """MEMORY, PRACTICE_ASSIGNMENT, REVIEW_DISPATCH or WORK_REPORT."""
        ...

    @property
    def record_id(self) -> str:
        """The domain's own id."""
        ...

    @property
    def status(self) -> str:
        """The domain's own status."""
        ...

    @property
    def at(self) -> datetime:
        """When the domain recorded it."""
        ...


class DomainWritePorts(Protocol):
    """The four domain writes a confirmed draft can run; each de-duplicates on the key.

    `joins_store_transaction` is True for an adapter that writes into the caller's SQL
    session (then the domain row, the idempotency record and the draft move commit together).
    """

    @property
    def joins_store_transaction(self) -> bool:
        """Whether `session` is used."""
        ...

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
    ) -> Receipt:
        """Save a confirmed memory."""
        ...

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
    ) -> Receipt:
        """Assign a training."""
        ...

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
    ) -> Receipt:
        """Send a pending-review list."""
        ...

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
    ) -> Receipt:
        """Submit a work result."""
        ...


class Person(Protocol):
    """A member of the org snapshot as the draft builders need it."""

    @property
    def user_id(self) -> str:
        """Org user id."""
        ...

    @property
    def display_name(self) -> str:
        """Name."""
        ...

    @property
    def project_ids(self) -> tuple[str, ...]:
        """Projects the person belongs to."""
        ...


class TeamDirectory(Protocol):
    """Resolves names and recipients server-side (never from the model)."""

    def people_named(self, tenant_id: str, name: str) -> Sequence[Person]:
        """Active people of the tenant with exactly this display name."""
        ...

    def is_member(self, tenant_id: str, project_id: str, user_id: str) -> bool:
        """Whether the user is (still) a member of the project."""
        ...

    def resolve_recipient(
        self, tenant_id: str, sender_id: str, project_id: str, label: str | None
    ) -> Person | None:
        """The person a "发给主管 / 项目经理" request means, or None."""
        ...

    def project_name(self, tenant_id: str, project_id: str) -> str | None:
        """Display name of a project."""
        ...


class PendingReview(Protocol):
    """One member with pending 复盘 in a project."""

    @property
    def user_id(self) -> str:
        """Member id."""
        ...

    @property
    def display_name(self) -> str:
        """Member name."""
        ...

    @property
    def pending_count(self) -> int:
        """How many reviews are pending."""
        ...


class PendingReviewSource(Protocol):
    """Reads who has pending 复盘 in a supervised project (a live domain read)."""

    def pending_reviews(
        self, tenant_id: str, project_id: str, *, start: date | None, end: date | None
    ) -> Sequence[PendingReview]:
        """Members with at least one pending review in the window."""
        ...
