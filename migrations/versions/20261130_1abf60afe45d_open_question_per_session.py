"""The question the agent waits on, kept beside the log like the open Task Surface.

Sessions from before `ask_user_question` existed cannot be waiting on a question, so
the new column starts empty for every row and needs no backfill.

Revision ID: 1abf60afe45d
Revises: bf11cab016cd
Create Date: 2026-11-30 22:01:53.538532
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "1abf60afe45d"
down_revision: str | Sequence[str] | None = "bf11cab016cd"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("question_call_seq", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_column("question_call_seq")
