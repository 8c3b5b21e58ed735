"""Initial schema: sessions, the append-only event log, hidden ranges and the durable inbox.

Revision ID: 7708ec1b4e37
Revises:
Create Date: 2026-11-29 20:28:25.731262
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "7708ec1b4e37"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("head_seq", sa.Integer(), nullable=False),
        sa.Column("next_position", sa.Integer(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("forked_from", sa.String(length=64), nullable=True),
        sa.Column("forked_at_seq", sa.Integer(), nullable=True),
        sa.Column("active_call_id", sa.String(length=64), nullable=True),
        sa.Column("active_surface_id", sa.String(length=64), nullable=True),
        sa.Column("active_result_seq", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["forked_from"], ["sessions.id"], name=op.f("fk_sessions_forked_from_sessions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
    )
    op.create_table(
        "inbox_items",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=64), nullable=False),
        sa.Column("placement", sa.String(length=16), nullable=False),
        sa.Column(
            "source",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "content",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("surface_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=op.f("fk_inbox_items_session_id_sessions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbox_items")),
        sa.UniqueConstraint("message_id", name=op.f("uq_inbox_items_message_id")),
        sa.UniqueConstraint("session_id", "position", name=op.f("uq_inbox_items_session_id_position")),
        sa.UniqueConstraint("session_id", "request_id", name=op.f("uq_inbox_items_session_id_request_id")),
        sa.UniqueConstraint("surface_id", name=op.f("uq_inbox_items_surface_id")),
    )
    op.create_table(
        "session_events",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "payload",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("call_id", sa.String(length=64), nullable=True),
        sa.Column("message_id", sa.String(length=64), nullable=True),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=op.f("fk_session_events_session_id_sessions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_events")),
        sa.UniqueConstraint("session_id", "request_id", name=op.f("uq_session_events_session_id_request_id")),
        sa.UniqueConstraint("session_id", "seq", name=op.f("uq_session_events_session_id_seq")),
    )
    with op.batch_alter_table("session_events", schema=None) as batch_op:
        batch_op.create_index("ix_session_events_session_id_call_id", ["session_id", "call_id"], unique=False)
        batch_op.create_index(
            "ix_session_events_session_id_message_id", ["session_id", "message_id"], unique=False
        )

    op.create_table(
        "session_hidden_ranges",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("first_seq", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=op.f("fk_session_hidden_ranges_session_id_sessions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_hidden_ranges")),
    )
    with op.batch_alter_table("session_hidden_ranges", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_session_hidden_ranges_session_id"), ["session_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("session_hidden_ranges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_session_hidden_ranges_session_id"))

    op.drop_table("session_hidden_ranges")
    with op.batch_alter_table("session_events", schema=None) as batch_op:
        batch_op.drop_index("ix_session_events_session_id_message_id")
        batch_op.drop_index("ix_session_events_session_id_call_id")

    op.drop_table("session_events")
    op.drop_table("inbox_items")
    op.drop_table("sessions")
