"""Run-once Alembic migrations, applied programmatically by every command that opens a store."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

_MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def alembic_config(url: str) -> Config:
    """An Alembic config pointing at the package's migrations and at `url`."""
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Apply every pending migration on every branch (idempotent)."""
    command.upgrade(alembic_config(url), "heads")
