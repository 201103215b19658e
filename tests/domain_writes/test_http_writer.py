"""The HTTP write adapter against a real loopback server: key header, de-duplication, typed errors."""

from __future__ import annotations

from datetime import date

import pytest

from shifu.config import Settings
from shifu.domain.writes.http import HttpDomainWriter
from shifu.domain.writes.ports import DomainRejected, DomainUnavailable
from shifu.errors import ConfigurationError

from .fake_domain import FakeDomain


def _memory(writer: HttpDomainWriter, key: str = "ik-1", visibility: str = "PRIVATE"):  # type: ignore[no-untyped-def]
    return writer.save_memory(
        tenant_id="demo",
        owner_id="u-zhangsan",
        project_id="proj-huafu",
        content="3栋1201要回访",
        location="3栋1201",
        visibility=visibility,
        idempotency_key=key,
        session=None,
    )


def test_receipt_is_the_domains_own_answer(http_writer: HttpDomainWriter, fake_domain: FakeDomain) -> None:
    receipt = _memory(http_writer)
    assert (receipt.kind, receipt.record_id, receipt.status) == ("MEMORY", "mem-remote-1", "ACTIVE")
    assert receipt.at.isoformat() == "2026-07-24T06:00:01+00:00"
    assert fake_domain.requests == [("/memories", "ik-1")]
    assert fake_domain.records["ik-1"]["body"]["content"] == "3栋1201要回访"


def test_same_key_twice_is_one_record(http_writer: HttpDomainWriter, fake_domain: FakeDomain) -> None:
    first = _memory(http_writer)
    second = _memory(http_writer)
    assert first == second and len(fake_domain.records) == 1


@pytest.mark.parametrize(
    "status,error,code",
    [
        (400, DomainRejected, "DOMAIN_REJECTED"),
        (409, DomainRejected, "DOMAIN_REJECTED"),
        (500, DomainUnavailable, "DOMAIN_HTTP_ERROR"),
        (503, DomainUnavailable, "DOMAIN_HTTP_ERROR"),
    ],
)
def test_http_errors_are_typed(
    http_writer: HttpDomainWriter, fake_domain: FakeDomain, status: int, error: type[Exception], code: str
) -> None:
    fake_domain.fail_next.append(status)
    with pytest.raises(error) as caught:
        _memory(http_writer)
    assert caught.value.code == code  # type: ignore[attr-defined]
    assert caught.value.message  # type: ignore[attr-defined]


def test_timeout_is_unavailable(fake_domain: FakeDomain) -> None:
    fake_domain.stall_s = 0.5
    writer = HttpDomainWriter(fake_domain.base_url, api_key=fake_domain.api_key, timeout_s=0.1)
    with pytest.raises(DomainUnavailable) as caught:
        _memory(writer)
    writer.close()
    assert caught.value.code == "DOMAIN_TIMEOUT"


def test_connection_refused_is_unavailable() -> None:
    writer = HttpDomainWriter("http://127.0.0.1:9", timeout_s=0.5)
    with pytest.raises(DomainUnavailable) as caught:
        _memory(writer)
    writer.close()
    assert caught.value.code == "DOMAIN_TRANSPORT"


def test_wrong_key_is_rejected(fake_domain: FakeDomain) -> None:
    writer = HttpDomainWriter(fake_domain.base_url, api_key="wrong-key", timeout_s=0.5)
    with pytest.raises(DomainRejected):
        _memory(writer)
    writer.close()


def test_all_four_ports(http_writer: HttpDomainWriter, fake_domain: FakeDomain) -> None:
    assigned = http_writer.assign_practice(
        tenant_id="demo",
        project_id="proj-huafu",
        assigner_id="u-lisi",
        assignee_id="u-zhangsan",
        topic="消防安全培训",
        due_date=date(2026, 8, 1),
        idempotency_key="ik-a",
        session=None,
    )
    sent = http_writer.dispatch_review(
        tenant_id="demo",
        project_id="proj-huafu",
        sender_id="u-lisi",
        recipient_id="u-lisi",
        items=[{"userId": "u-zhangsan", "name": "张三", "pendingCount": 2}],
        idempotency_key="ik-r",
        session=None,
    )
    report = http_writer.submit_work_report(
        tenant_id="demo",
        author_id="u-zhangsan",
        project_id=None,
        title="年检",
        content="完成电梯年检陪同",
        idempotency_key="ik-w",
        session=None,
    )
    assert [(r.kind, r.status) for r in (assigned, sent, report)] == [
        ("PRACTICE_ASSIGNMENT", "ASSIGNED"),
        ("REVIEW_DISPATCH", "SENT"),
        ("WORK_REPORT", "SUBMITTED"),
    ]
    assert fake_domain.records["ik-a"]["body"]["dueDate"] == "2026-08-01"
    assert fake_domain.records["ik-r"]["body"]["items"][0]["pendingCount"] == 2


def test_from_settings_needs_a_base_url() -> None:
    with pytest.raises(ConfigurationError):
        HttpDomainWriter.from_settings(Settings(environment="test"))
