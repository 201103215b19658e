"""Confirmation drafts, idempotency records and the embedded domain write tables.

Revision ID: 0005_actions
Revises: 0001_core
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_actions"
down_revision = "0001_core"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the draft, idempotency, memory, assignment, review-dispatch and work-report tables."""
    op.create_table(
        "action_drafts",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("tool", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("missing_fields", sa.JSON(), nullable=False),
        sa.Column("payload_hash", sa.String(length=64), nullable=False),
        sa.Column("claim_key", sa.String(length=128), nullable=True),
        sa.Column("receipt", sa.JSON(), nullable=True),
        sa.Column("error_code", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_action_drafts")),
    )
    op.create_index(op.f("ix_action_drafts_expires_at"), "action_drafts", ["expires_at"], unique=False)
    op.create_index(op.f("ix_action_drafts_tenant_id"), "action_drafts", ["tenant_id"], unique=False)
    op.create_index(op.f("ix_action_drafts_user_id"), "action_drafts", ["user_id"], unique=False)
    op.create_table(
        "action_idempotency",
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("draft_id", sa.String(length=64), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("expected_version", sa.Integer(), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("response", sa.JSON(), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "user_id", "key", name=op.f("pk_action_idempotency")),
    )
    op.create_index(op.f("ix_action_idempotency_draft_id"), "action_idempotency", ["draft_id"], unique=False)
    op.create_table(
        "memories",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("owner_id", sa.String(length=128), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("location", sa.String(length=100), nullable=True),
        sa.Column("visibility", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("idempotency_key", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memories")),
        sa.UniqueConstraint(
            "tenant_id", "idempotency_key", name=op.f("uq_memories_tenant_id_idempotency_key")
        ),
    )
    op.create_index(op.f("ix_memories_owner_id"), "memories", ["owner_id"], unique=False)
    op.create_index(op.f("ix_memories_tenant_id"), "memories", ["tenant_id"], unique=False)
    op.create_table(
        "practice_assignments",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=False),
        sa.Column("assigner_id", sa.String(length=128), nullable=False),
        sa.Column("assignee_id", sa.String(length=128), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("due_date", sa.Date(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("idempotency_key", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_practice_assignments")),
        sa.UniqueConstraint(
            "tenant_id", "idempotency_key", name=op.f("uq_practice_assignments_tenant_id_idempotency_key")
        ),
    )
    op.create_index(
        op.f("ix_practice_assignments_assignee_id"), "practice_assignments", ["assignee_id"], unique=False
    )
    op.create_index(
        op.f("ix_practice_assignments_tenant_id"), "practice_assignments", ["tenant_id"], unique=False
    )
    op.create_table(
        "review_dispatches",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=False),
        sa.Column("sender_id", sa.String(length=128), nullable=False),
        sa.Column("recipient_id", sa.String(length=128), nullable=False),
        sa.Column("items", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("idempotency_key", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_dispatches")),
        sa.UniqueConstraint(
            "tenant_id", "idempotency_key", name=op.f("uq_review_dispatches_tenant_id_idempotency_key")
        ),
    )
    op.create_index(
        op.f("ix_review_dispatches_recipient_id"), "review_dispatches", ["recipient_id"], unique=False
    )
    op.create_index(op.f("ix_review_dispatches_tenant_id"), "review_dispatches", ["tenant_id"], unique=False)
    op.create_table(
        "work_reports",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("author_id", sa.String(length=128), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=True),
        sa.Column("title", sa.String(length=100), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("idempotency_key", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_work_reports")),
        sa.UniqueConstraint(
            "tenant_id", "idempotency_key", name=op.f("uq_work_reports_tenant_id_idempotency_key")
        ),
    )
    op.create_index(op.f("ix_work_reports_author_id"), "work_reports", ["author_id"], unique=False)
    op.create_index(op.f("ix_work_reports_tenant_id"), "work_reports", ["tenant_id"], unique=False)


def downgrade() -> None:
    """Drop the tables this revision created."""
    for table in (
        "work_reports",
        "review_dispatches",
        "practice_assignments",
        "memories",
        "action_idempotency",
        "action_drafts",
    ):
        op.drop_table(table)
