"""Domain systems behind read ports: embedded (SQL store) and HTTP adapters.

`build_domain(settings, session_factory)` picks the adapter: HTTP when
`settings.domain_base_url` is set, else the embedded demo data.
"""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.domain.embedded import EmbeddedDomain
from shifu.domain.http import HttpDomain


def build_domain(settings: Settings, session_factory: sessionmaker[Session]) -> EmbeddedDomain | HttpDomain:
    """The domain adapter this deployment reads from."""
    if settings.domain_base_url:
        return HttpDomain.from_settings(settings)
    return EmbeddedDomain(session_factory)


__all__ = ["EmbeddedDomain", "HttpDomain", "build_domain"]
