"""Who is taking an inbox row out of the queue, kept on the row so every process sees it.

On PostgreSQL several processes serve the same sessions: the claim (admit or remove) that
used to live in one process's memory is now a column, so `getActive` on any process reports
`claiming` while another admits. Rows from before have no claim, so the columns start empty.

Revision ID: 5c1a7d2e9f30
Revises: 22400f8b4973
Create Date: 2026-12-01 11:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5c1a7d2e9f30"
down_revision: str | Sequence[str] | None = "22400f8b4973"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbox_items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("claim", sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column("claimed_by", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbox_items", schema=None) as batch_op:
        batch_op.drop_column("claimed_at")
        batch_op.drop_column("claimed_by")
        batch_op.drop_column("claim")
