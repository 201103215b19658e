"""The two-phase path: HTTP domain writer and/or Redis tickets, crashes, leases and resumes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from domain_writes.fake_domain import FakeDomain, serve_fake_domain
from shifu.actions.directory import SqlTeamDirectory
from shifu.actions.model import ConfirmRequest, ReviseRequest
from shifu.actions.payloads import Visibility
from shifu.actions.service import ActionService
from shifu.actions.states import DraftStatus
from shifu.actions.tickets import RedisTicketStore, SqlTicketStore, TicketStore
from shifu.contracts.common import ToolCode
from shifu.contracts.plan import ToolCall
from shifu.domain.writes.embedded import EmbeddedDomainWriter
from shifu.domain.writes.http import HttpDomainWriter
from shifu.domain.writes.ports import DomainUnavailable
from shifu.errors import VersionConflict

from .support import NOW, FakePendingReviews, make_ctx

MEMO = ToolCall(tool=ToolCode.CAPTURE_MEMORY_DRAFT, arguments={"content": "记一下，3栋1201要回访"})
KEY = "key-phase-0001"


class Crash(BaseException):
    """Stands in for kill -9: nothing after it runs (not an Exception, so nothing catches it)."""


class CrashingWriter:
    """Delegates to a real writer, then 'dies' right after the domain answered (once)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.crash = True
        self.joins_store_transaction = inner.joins_store_transaction
        self.on_call: Any = None

    def save_memory(self, **kwargs: Any) -> Any:
        if self.on_call is not None:
            self.on_call()
        receipt = self.inner.save_memory(**kwargs)
        if self.crash:
            self.crash = False
            raise Crash
        return receipt


@pytest.fixture
def domain() -> Iterator[FakeDomain]:
    with serve_fake_domain() as fake:
        yield fake


@pytest.fixture(params=["sql", "redis"])
def tickets(request: pytest.FixtureRequest, org: sessionmaker[Session]) -> TicketStore:
    if request.param == "sql":
        return SqlTicketStore(org)
    store: RedisTicketStore = request.getfixturevalue("redis_tickets")
    return store


def _service(org: sessionmaker[Session], tickets: TicketStore, writer: Any) -> ActionService:
    return ActionService(
        session_factory=org,
        tickets=tickets,
        writers=writer,
        directory=SqlTeamDirectory(org),
        reviews=FakePendingReviews(),
    )


def _request(key: str = KEY, version: int = 1) -> ConfirmRequest:
    return ConfirmRequest(expected_version=version, idempotency_key=key, visibility=Visibility.PRIVATE)


def test_http_confirm_echoes_the_remote_receipt(
    org: sessionmaker[Session], tickets: TicketStore, domain: FakeDomain
) -> None:
    writer = HttpDomainWriter(domain.base_url, api_key=domain.api_key, timeout_s=1.0)
    service = _service(org, tickets, writer)
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None and not domain.requests
    result = service.confirm(ctx, card.draft_id, _request(), now=NOW)
    assert result.receipt is not None and result.receipt.record_id == "mem-remote-1"
    assert "mem-remote-1" in result.message and "ACTIVE" in result.message
    assert service.card(ctx, card.draft_id, now=NOW).status == "EXECUTED"
    assert service.confirm(ctx, card.draft_id, _request(), now=NOW) == result
    assert (
        len(domain.requests) == 1 and domain.requests[0][1] is not None and KEY not in domain.requests[0][1]
    )


def test_unavailable_domain_keeps_the_draft_confirmed_and_the_same_key_finishes_it(
    org: sessionmaker[Session], tickets: TicketStore, domain: FakeDomain
) -> None:
    writer = HttpDomainWriter(domain.base_url, api_key=domain.api_key, timeout_s=1.0)
    service = _service(org, tickets, writer)
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    domain.fail_next.append(503)
    with pytest.raises(DomainUnavailable):
        service.confirm(ctx, card.draft_id, _request(), now=NOW)
    current = service.card(ctx, card.draft_id, now=NOW)
    assert current.status == "CONFIRMED" and "尚未完成" in current.title
    with pytest.raises(VersionConflict):
        service.confirm(ctx, card.draft_id, _request("key-other-0001", current.version), now=NOW)
    result = service.confirm(ctx, card.draft_id, _request(), now=NOW + timedelta(seconds=1))
    assert result.status is DraftStatus.EXECUTED and len(domain.records) == 1


def test_rejection_fails_the_draft_which_can_be_revised_and_retried(
    org: sessionmaker[Session], tickets: TicketStore, domain: FakeDomain
) -> None:
    writer = HttpDomainWriter(domain.base_url, api_key=domain.api_key, timeout_s=1.0)
    service = _service(org, tickets, writer)
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    domain.fail_next.append(422)
    failed = service.confirm(ctx, card.draft_id, _request(), now=NOW)
    assert (
        failed.status is DraftStatus.FAILED and failed.error_code == "DOMAIN_REJECTED" and not domain.records
    )
    assert service.confirm(ctx, card.draft_id, _request(), now=NOW) == failed
    revised = service.revise(
        ctx,
        card.draft_id,
        ReviseRequest(expected_version=failed.draft.version, edited_fields={"content": "3栋1201回访"}),
        now=NOW,
    )
    assert revised.status == "DRAFT"
    done = service.confirm(ctx, card.draft_id, _request("key-phase-0002", revised.version), now=NOW)
    assert done.status is DraftStatus.EXECUTED and len(domain.records) == 1


def test_same_key_while_in_flight_is_409(
    org: sessionmaker[Session], tickets: TicketStore, domain: FakeDomain
) -> None:
    writer = CrashingWriter(HttpDomainWriter(domain.base_url, api_key=domain.api_key, timeout_s=1.0))
    writer.crash = False
    service = _service(org, tickets, writer)
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    seen: list[str] = []

    def reenter() -> None:
        writer.on_call = None
        with pytest.raises(VersionConflict) as caught:
            service.confirm(ctx, card.draft_id, _request(), now=NOW)
        seen.append(caught.value.code)

    writer.on_call = reenter
    service.confirm(ctx, card.draft_id, _request(), now=NOW)
    assert seen == ["IN_FLIGHT"] and len(domain.records) == 1


@pytest.mark.parametrize("remote", [True, False], ids=["http", "embedded-own-tx"])
def test_crash_after_the_domain_wrote_then_retry_resumes_without_a_duplicate(
    org: sessionmaker[Session], tickets: TicketStore, domain: FakeDomain, remote: bool
) -> None:
    inner = (
        HttpDomainWriter(domain.base_url, api_key=domain.api_key, timeout_s=1.0)
        if remote
        else EmbeddedDomainWriter(org)
    )
    writer = CrashingWriter(inner)
    writer.joins_store_transaction = False
    service = _service(org, tickets, writer)
    ctx = make_ctx("employee")
    card = service.build_draft(ctx, MEMO, now=NOW).card
    assert card is not None
    with pytest.raises(Crash):
        service.confirm(ctx, card.draft_id, _request(), now=NOW)
    with pytest.raises(VersionConflict) as caught:
        service.confirm(ctx, card.draft_id, _request(), now=NOW + timedelta(seconds=5))
    assert caught.value.code == "IN_FLIGHT"
    result = service.confirm(ctx, card.draft_id, _request(), now=NOW + timedelta(seconds=31))
    assert result.status is DraftStatus.EXECUTED
    assert service.card(ctx, card.draft_id, now=NOW + timedelta(seconds=31)).status == "EXECUTED"
    if remote:
        assert (
            len(domain.records) == 1
            and result.receipt is not None
            and result.receipt.record_id == "mem-remote-1"
        )
    else:
        from sqlalchemy import func, select

        from shifu.store.tables.actions import MemoryRow

        with org() as s:
            assert s.scalar(select(func.count()).select_from(MemoryRow)) == 1
