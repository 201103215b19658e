"""Fixtures for the knowledge tests: the demo org, a fake embedder and a knowledge base on disk."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kb_support import seed_org
from sqlalchemy.orm import Session, sessionmaker

from shifu.config import Settings
from shifu.knowledge.embedding import HashingEmbedder
from shifu.knowledge.service import KnowledgeBase, open_knowledge_base


@pytest.fixture
def kb(settings: Settings, session_factory: sessionmaker[Session]) -> Iterator[KnowledgeBase]:
    """A knowledge base over the embedded engine with a fast fake embedder and the demo org."""
    seed_org(session_factory)
    base = open_knowledge_base(settings, session_factory, embedder=HashingEmbedder())
    yield base
    base.close()
