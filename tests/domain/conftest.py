"""Fixtures: a migrated store with the demo org and domain data seeded for a fixed day."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy.orm import Session, sessionmaker

from shifu.demo.domain_seed import seed_domain
from shifu.demo.org_seed import seed_org
from shifu.domain.embedded import EmbeddedDomain
from shifu.store.engine import transaction

TODAY = date(2025, 6, 18)


@pytest.fixture
def today() -> date:
    """The day the demo data is seeded for."""
    return TODAY


@pytest.fixture
def seeded(session_factory: sessionmaker[Session]) -> sessionmaker[Session]:
    """The store with org and domain rows for TODAY."""
    with transaction(session_factory) as session:
        seed_org(session)
        seed_domain(session, today=TODAY)
    return session_factory


@pytest.fixture
def embedded(seeded: sessionmaker[Session]) -> EmbeddedDomain:
    """The embedded adapter over the seeded store."""
    return EmbeddedDomain(seeded)
