"""Session owners: every session belongs to one identity.

Sessions from before owners existed get the empty owner, which no caller has, so they stay
private until an admin assigns them.

Revision ID: 07c8e7403ddb
Revises: 7708ec1b4e37
Create Date: 2026-11-29 21:21:38.457253
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "07c8e7403ddb"
down_revision: str | Sequence[str] | None = "7708ec1b4e37"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner", sa.String(length=200), server_default="", nullable=False))
        batch_op.create_index(batch_op.f("ix_sessions_owner"), ["owner"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_owner"))
        batch_op.drop_column("owner")
