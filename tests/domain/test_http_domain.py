"""The HTTP adapter against the fake domain server over real loopback HTTP."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from shifu.config import Settings
from shifu.domain import build_domain
from shifu.domain.embedded import EmbeddedDomain
from shifu.domain.fake_server import (
    FakeServerControl,
    build_fake_domain_app,
    serve_in_thread,
    unused_loopback_url,
)
from shifu.domain.http import HttpDomain
from shifu.errors import ConfigurationError, Failure, Forbidden, ToolTimeout, Unavailable

KEY = "k" * 40


@dataclass
class Served:
    url: str
    control: FakeServerControl


@pytest.fixture
def served(embedded: EmbeddedDomain) -> Iterator[Served]:
    control = FakeServerControl(api_key=KEY)
    with serve_in_thread(build_fake_domain_app(embedded, control)) as url:
        yield Served(url, control)


@pytest.fixture
def client(served: Served) -> Iterator[HttpDomain]:
    domain = HttpDomain(served.url, api_key=KEY, timeout_s=2.0)
    yield domain
    domain.close()


def test_http_answers_equal_embedded_answers(client: HttpDomain, embedded: EmbeddedDomain) -> None:
    for name, kwargs in [
        ("tasks_of", {"tenant_id": "demo", "user_id": "u-zhangsan", "start": None, "end": None}),
        ("practice_of", {"tenant_id": "demo", "user_id": "u-zhangsan", "start": None, "end": None}),
        ("team_practice", {"tenant_id": "demo", "project_ids": ["proj-huafu"], "start": None, "end": None}),
        ("results_of", {"tenant_id": "demo", "user_id": "u-zhangsan", "start": None, "end": None}),
        ("team_results", {"tenant_id": "demo", "project_ids": ["proj-huafu"], "start": None, "end": None}),
        ("progress_of", {"tenant_id": "demo", "user_id": "u-wangwu"}),
        ("progress_of", {"tenant_id": "demo", "user_id": "u-zhangsan"}),
    ]:
        assert getattr(client, name)(**kwargs) == getattr(embedded, name)(**kwargs), name


def test_wrong_key_is_forbidden(served: Served) -> None:
    domain = HttpDomain(served.url, api_key="wrong", timeout_s=2.0)
    with pytest.raises(Forbidden) as info:
        domain.tasks_of(tenant_id="demo", user_id="u-zhangsan", start=None, end=None)
    assert info.value.code == "DOMAIN_FORBIDDEN"
    domain.close()


@pytest.mark.parametrize(
    ("status", "error", "code"),
    [
        (503, Unavailable, "DOMAIN_UNAVAILABLE"),
        (502, Unavailable, "DOMAIN_UNAVAILABLE"),
        (500, Failure, "DOMAIN_HTTP_ERROR"),
        (404, Failure, "DOMAIN_HTTP_ERROR"),
    ],
)
def test_error_statuses_are_typed(
    client: HttpDomain, served: Served, status: int, error: type[Exception], code: str
) -> None:
    served.control.fail_status = status
    with pytest.raises(error) as info:
        client.tasks_of(tenant_id="demo", user_id="u-zhangsan", start=None, end=None)
    assert getattr(info.value, "code", None) == code


def test_slow_system_times_out_within_the_timeout(served: Served) -> None:
    served.control.delay_s = 1.0
    domain = HttpDomain(served.url, api_key=KEY, timeout_s=0.2)
    started = time.monotonic()
    with pytest.raises(ToolTimeout):
        domain.tasks_of(tenant_id="demo", user_id="u-zhangsan", start=None, end=None)
    assert time.monotonic() - started < 0.9
    domain.close()


def test_down_system_is_unavailable_not_timeout() -> None:
    domain = HttpDomain(unused_loopback_url(), api_key=KEY, timeout_s=1.0)
    with pytest.raises(Unavailable) as info:
        domain.tasks_of(tenant_id="demo", user_id="u-zhangsan", start=None, end=None)
    assert not isinstance(info.value, ToolTimeout)
    assert info.value.code == "DOMAIN_UNAVAILABLE"
    domain.close()


def test_build_domain_picks_the_adapter(settings: Settings, seeded: object) -> None:
    from sqlalchemy.orm import Session, sessionmaker

    assert isinstance(seeded, sessionmaker)
    factory: sessionmaker[Session] = seeded
    assert isinstance(build_domain(settings, factory), EmbeddedDomain)
    remote = build_domain(settings.with_changes(domain_base_url="http://127.0.0.1:9"), factory)
    assert isinstance(remote, HttpDomain)
    remote.close()
    with pytest.raises(ConfigurationError):
        HttpDomain.from_settings(settings)
