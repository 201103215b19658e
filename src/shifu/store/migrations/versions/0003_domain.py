"""Embedded demo domain tables: tasks, practice records, work results, candidate progress.

Revision ID: 0003_domain
Revises: 0001_core
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_domain"
down_revision = "0001_core"
branch_labels = None
depends_on = None


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    ref_table = target.split(".")[0]
    return sa.ForeignKeyConstraint([column], [target], name=op.f(f"fk_{table}_{column}_{ref_table}"))


def upgrade() -> None:
    """Create the domain tables."""
    op.create_table(
        "domain_tasks",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=False),
        sa.Column("assignee_id", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("due_date", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _fk("domain_tasks", "tenant_id", "tenants.id"),
        _fk("domain_tasks", "project_id", "projects.id"),
        _fk("domain_tasks", "assignee_id", "org_users.id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_domain_tasks")),
    )
    op.create_index("ix_domain_tasks_tenant_assignee", "domain_tasks", ["tenant_id", "assignee_id"])
    op.create_table(
        "domain_practice_records",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("course_title", sa.String(length=200), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("practiced_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("review_done", sa.Boolean(), nullable=False),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True),
        _fk("domain_practice_records", "tenant_id", "tenants.id"),
        _fk("domain_practice_records", "project_id", "projects.id"),
        _fk("domain_practice_records", "user_id", "org_users.id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_domain_practice_records")),
    )
    op.create_index(
        "ix_domain_practice_records_tenant_user", "domain_practice_records", ["tenant_id", "user_id"]
    )
    op.create_index(
        "ix_domain_practice_records_tenant_project", "domain_practice_records", ["tenant_id", "project_id"]
    )
    op.create_table(
        "domain_work_results",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        _fk("domain_work_results", "tenant_id", "tenants.id"),
        _fk("domain_work_results", "project_id", "projects.id"),
        _fk("domain_work_results", "user_id", "org_users.id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_domain_work_results")),
    )
    op.create_index("ix_domain_work_results_tenant_user", "domain_work_results", ["tenant_id", "user_id"])
    op.create_index(
        "ix_domain_work_results_tenant_project", "domain_work_results", ["tenant_id", "project_id"]
    )
    op.create_table(
        "domain_candidate_progress",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("stage", sa.String(length=32), nullable=False),
        sa.Column("stage_status", sa.String(length=32), nullable=False),
        sa.Column("documents", sa.JSON(), nullable=False),
        sa.Column("next_step", sa.String(length=200), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _fk("domain_candidate_progress", "tenant_id", "tenants.id"),
        _fk("domain_candidate_progress", "user_id", "org_users.id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_domain_candidate_progress")),
    )
    op.create_index(
        "ix_domain_candidate_progress_tenant_user",
        "domain_candidate_progress",
        ["tenant_id", "user_id"],
        unique=True,
    )


def downgrade() -> None:
    """Drop the domain tables."""
    for table in (
        "domain_candidate_progress",
        "domain_work_results",
        "domain_practice_records",
        "domain_tasks",
    ):
        op.drop_table(table)
