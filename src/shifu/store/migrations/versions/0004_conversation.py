"""Conversations: last turns, structured state and versions.

Revision ID: 0004_conversation
Revises: 0001_core
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_conversation"
down_revision = "0001_core"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the conversations table."""
    op.create_table(
        "conversations",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("app_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("project_id", sa.String(length=64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("turns_json", sa.Text(), nullable=False),
        sa.Column("state_json", sa.Text(), nullable=False),
        sa.Column("state_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_active_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_conversations")),
    )
    op.create_index(
        "ix_conversations_scope", "conversations", ["tenant_id", "app_id", "user_id"], unique=False
    )
    op.create_index(
        op.f("ix_conversations_last_active_at"), "conversations", ["last_active_at"], unique=False
    )


def downgrade() -> None:
    """Drop the conversations table."""
    op.drop_index(op.f("ix_conversations_last_active_at"), table_name="conversations")
    op.drop_index("ix_conversations_scope", table_name="conversations")
    op.drop_table("conversations")
