"""Background tasks: their state and owner session, who runs them, and their output in chunks.

New tables only; sessions from before tasks existed simply have none.

Revision ID: 22400f8b4973
Revises: 1abf60afe45d
Create Date: 2026-12-01 07:53:47.656824
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "22400f8b4973"
down_revision: str | Sequence[str] | None = "1abf60afe45d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tasks",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("call_id", sa.String(length=64), nullable=True),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column(
            "spec",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("output_mode", sa.String(length=8), nullable=False),
        sa.Column("output_limit", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("host_id", sa.String(length=64), nullable=True),
        sa.Column("host_kind", sa.String(length=16), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancel_requested", sa.Boolean(), nullable=False),
        sa.Column("cancel_reason", sa.Text(), nullable=True),
        sa.Column("stopped_by", sa.String(length=8), nullable=True),
        sa.Column("reported", sa.Boolean(), nullable=False),
        sa.Column("read_seq", sa.Integer(), nullable=False),
        sa.Column("output_seq", sa.Integer(), nullable=False),
        sa.Column("output_bytes", sa.BigInteger(), nullable=False),
        sa.Column("kept_bytes", sa.BigInteger(), nullable=False),
        sa.Column("progress_done", sa.Double(), nullable=True),
        sa.Column("progress_total", sa.Double(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], name=op.f("fk_tasks_session_id_sessions")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tasks")),
    )
    with op.batch_alter_table("tasks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tasks_session_id"), ["session_id"], unique=False)
        batch_op.create_index("ix_tasks_status_reported", ["status", "reported"], unique=False)

    op.create_table(
        "task_output",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("task_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["task_id"], ["tasks.id"], name=op.f("fk_task_output_task_id_tasks"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_task_output")),
        sa.UniqueConstraint("task_id", "seq", name=op.f("uq_task_output_task_id_seq")),
    )


def downgrade() -> None:
    op.drop_table("task_output")
    with op.batch_alter_table("tasks", schema=None) as batch_op:
        batch_op.drop_index("ix_tasks_status_reported")
        batch_op.drop_index(batch_op.f("ix_tasks_session_id"))

    op.drop_table("tasks")
