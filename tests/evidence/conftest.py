"""A demo deployment for the evidence gate's dev-question test (one per session).

Same approach as tests/e2e/conftest.py: seed the demo org, ingest the real corpus with the
real embedder (vectors cached under `.cache/embeddings`, so only the first session on a
machine pays for embedding), and talk to the services in-process.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shifu.config import Settings, use_settings
from shifu.demo.setup import bring_up_demo
from shifu.runtime.wiring import Services, build_services

REPO = Path(__file__).resolve().parents[2]
EMBEDDING_CACHE = REPO / ".cache" / "embeddings"


@pytest.fixture(scope="session")
def gate_services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    """Live services of a demo deployment with the whole corpus ingested."""
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("evidence-demo") / "var",
        environment="demo",
        embedding_cache=EMBEDDING_CACHE,
    )
    with use_settings(settings):
        bring_up_demo(settings, out=None)
        built = build_services(settings)
        yield built
        built.close()
