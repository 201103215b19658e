"""Knowledge tables: document versions, fragments, resource links.

Revision ID: 0002_knowledge
Revises: 0001_core
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_knowledge"
down_revision = "0001_core"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the governed knowledge tables."""
    op.create_table(
        "kb_documents",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("space_id", sa.String(length=64), nullable=False),
        sa.Column("document_key", sa.String(length=200), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("authority", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("version", sa.String(length=80), nullable=False),
        sa.Column("effective_from", sa.Date(), nullable=True),
        sa.Column("effective_to", sa.Date(), nullable=True),
        sa.Column("lifecycle", sa.String(length=20), nullable=False),
        sa.Column("verification", sa.String(length=20), nullable=False),
        sa.Column("environment", sa.String(length=20), nullable=False),
        sa.Column("project_ids", sa.JSON(), nullable=False),
        sa.Column("roles", sa.JSON(), nullable=False),
        sa.Column("content_sha256", sa.String(length=64), nullable=False),
        sa.Column("original_sha256", sa.String(length=64), nullable=False),
        sa.Column("original_suffix", sa.String(length=16), nullable=False),
        sa.Column("media_type", sa.String(length=100), nullable=False),
        sa.Column("source_format", sa.String(length=16), nullable=False),
        sa.Column("fragment_count", sa.Integer(), nullable=False),
        sa.Column("is_current", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kb_documents")),
        sa.UniqueConstraint(
            "tenant_id",
            "space_id",
            "document_key",
            "content_sha256",
            name=op.f("uq_kb_documents_tenant_id_space_id_document_key_content_sha256"),
        ),
    )
    op.create_index(op.f("ix_kb_documents_tenant_id"), "kb_documents", ["tenant_id"], unique=False)
    op.create_index(op.f("ix_kb_documents_space_id"), "kb_documents", ["space_id"], unique=False)
    op.create_index(op.f("ix_kb_documents_document_key"), "kb_documents", ["document_key"], unique=False)
    op.create_table(
        "kb_fragments",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("document_id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("space_id", sa.String(length=64), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("locator", sa.String(length=300), nullable=False),
        sa.Column("heading_path", sa.JSON(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("supported_need_codes", sa.JSON(), nullable=False),
        sa.Column("claim_types", sa.JSON(), nullable=False),
        sa.Column("lifecycle", sa.String(length=20), nullable=False),
        sa.Column("embedding", sa.LargeBinary(), nullable=True),
        sa.Column("embedding_model", sa.String(length=120), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"], ["kb_documents.id"], name=op.f("fk_kb_fragments_document_id_kb_documents")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kb_fragments")),
    )
    op.create_index(op.f("ix_kb_fragments_document_id"), "kb_fragments", ["document_id"], unique=False)
    op.create_index(op.f("ix_kb_fragments_tenant_id"), "kb_fragments", ["tenant_id"], unique=False)
    op.create_index(op.f("ix_kb_fragments_space_id"), "kb_fragments", ["space_id"], unique=False)
    op.create_table(
        "kb_resources",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("conversation_id", sa.String(length=64), nullable=True),
        sa.Column("fragment_id", sa.String(length=64), nullable=False),
        sa.Column("document_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kb_resources")),
    )
    op.create_index(op.f("ix_kb_resources_tenant_id"), "kb_resources", ["tenant_id"], unique=False)


def downgrade() -> None:
    """Drop the governed knowledge tables."""
    op.drop_table("kb_resources")
    op.drop_table("kb_fragments")
    op.drop_table("kb_documents")
