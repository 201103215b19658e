"""The demo deployment the end-to-end and contract suites run against.

Seeded org, the whole corpus ingested with the real embedder; passage vectors are cached
by content hash under `.cache/embeddings`, so only the first session on a machine pays
for embedding.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shifu.config import Settings
from shifu.demo.setup import bring_up_demo

REPO = Path(__file__).resolve().parents[1]
EMBEDDING_CACHE = REPO / ".cache" / "embeddings"


def demo_settings_for(tmp_path_factory: pytest.TempPathFactory, name: str) -> Settings:
    """Settings of a fresh, brought-up demo deployment under a session temp dir."""
    settings = Settings(
        data_dir=tmp_path_factory.mktemp(name) / "var",
        environment="demo",
        embedding_cache=EMBEDDING_CACHE,
    )
    bring_up_demo(settings, out=None)
    return settings
