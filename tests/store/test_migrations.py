"""Migrations apply from zero and re-apply as a no-op on SQLite and PostgreSQL, and the
migrated schema is exactly the ORM metadata (Alembic's autogenerate comparison is empty).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, MetaData, String, create_engine, inspect, select, text

import shifu.store.tables  # noqa: F401 - registers every table on Base.metadata
from shifu.store.base import Base
from shifu.store.engine import make_engine, make_session_factory, transaction
from shifu.store.migrate import alembic_config, upgrade
from shifu.store.tables.org import TenantRow


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each supported kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    url: str = request.getfixturevalue("fresh_postgres_url")
    return url


def _heads(url: str) -> set[str]:
    return set(ScriptDirectory.from_config(alembic_config(url)).get_heads())


def _applied(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return {row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version"))}
    finally:
        engine.dispose()


def _schema_diff(url: str, metadata: MetaData) -> list[object]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, metadata))
    finally:
        engine.dispose()


def test_every_migration_branches_from_the_core_revision() -> None:
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    revisions = list(scripts.walk_revisions())
    assert {r.revision for r in revisions if r.down_revision is None} == {"0001_core"}
    for revision in revisions:
        if revision.revision != "0001_core":
            assert revision.down_revision == "0001_core", revision.revision


def test_migrations_apply_from_zero_and_reapply_as_a_no_op(empty_url: str) -> None:
    upgrade(empty_url)
    assert _applied(empty_url) == _heads(empty_url)
    engine = make_engine(empty_url)
    try:
        tables = set(inspect(engine).get_table_names())
        assert set(Base.metadata.tables) <= tables
        with transaction(make_session_factory(engine)) as session:
            session.add(TenantRow(id="t-keep", name="保留的租户"))
    finally:
        engine.dispose()
    upgrade(empty_url)
    upgrade(empty_url)
    assert _applied(empty_url) == _heads(empty_url)
    engine = make_engine(empty_url)
    try:
        assert set(inspect(engine).get_table_names()) == tables
        with make_session_factory(engine)() as session:
            assert session.scalars(select(TenantRow.name).where(TenantRow.id == "t-keep")).all() == [
                "保留的租户"
            ]
    finally:
        engine.dispose()


def test_the_migrated_schema_equals_the_orm_metadata(empty_url: str) -> None:
    upgrade(empty_url)
    assert _schema_diff(empty_url, Base.metadata) == []


def test_the_comparison_sees_a_drift(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'drift.db'}"
    upgrade(url)
    drifted = MetaData()
    for table in Base.metadata.tables.values():
        table.to_metadata(drifted)
    drifted.tables["tenants"].append_column(Column("not_migrated", String(10), nullable=True))
    diff = _schema_diff(url, drifted)
    assert [d[0] for d in diff if isinstance(d, tuple)] == ["add_column"]


def test_the_embedded_sqlite_store_runs_in_wal_mode(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'wal.db'}"
    upgrade(url)
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        engine.dispose()
