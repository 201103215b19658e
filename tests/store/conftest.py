"""A PostgreSQL server for the storage tests: the one `scripts/test.sh` started, else our own.

Each test gets a fresh, empty database on that server, so migrations are applied from zero.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

_SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """SHIFU_TEST_POSTGRES_URL when the test script started a server, else one started here."""
    given = os.environ.get("SHIFU_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    state_dir = Path(tempfile.mkdtemp(prefix="shifu-pg-store-"))  # pytest's tmp root is private to root
    state_dir.chmod(0o755)
    script = _SCRIPTS / "postgres.sh"
    started = subprocess.run(
        ["bash", str(script), "start", str(state_dir / "pg")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if started.returncode != 0:
        if "binaries not found" in started.stderr:
            pytest.skip(f"PostgreSQL is not installed: {started.stderr.strip()}")
        raise RuntimeError(f"postgres.sh failed: {started.stderr.strip()}")
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run(["bash", str(script), "stop", str(state_dir / "pg")], check=False, timeout=60)
        shutil.rmtree(state_dir, ignore_errors=True)


@pytest.fixture
def fresh_postgres_url(postgres_server_url: str) -> Iterator[str]:
    """The URL of a new empty database on the server, dropped after the test."""
    name = f"shifu_mig_{uuid.uuid4().hex[:12]}"
    admin = create_engine(postgres_server_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(postgres_server_url).set(database=name).render_as_string(hide_password=False)
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()
