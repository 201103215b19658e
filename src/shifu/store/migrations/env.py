"""Alembic environment: runs online against the configured URL."""

from __future__ import annotations

from alembic import context

from shifu.store.engine import make_engine

config = context.config
engine = make_engine(config.get_main_option("sqlalchemy.url") or "")
with engine.connect() as connection:
    context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
