"""Fixtures: the fake domain HTTP server and an HTTP writer pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shifu.domain.writes.http import HttpDomainWriter

from .fake_domain import FakeDomain, serve_fake_domain


@pytest.fixture
def fake_domain() -> Iterator[FakeDomain]:
    """A running fake domain system."""
    with serve_fake_domain() as domain:
        yield domain


@pytest.fixture
def http_writer(fake_domain: FakeDomain) -> Iterator[HttpDomainWriter]:
    """The HTTP adapter against the fake, with a short timeout."""
    writer = HttpDomainWriter(fake_domain.base_url, api_key=fake_domain.api_key, timeout_s=0.5)
    yield writer
    writer.close()
