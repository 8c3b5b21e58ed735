"""One pending submission per surface *of a session*.

A fork copies its origin's surface results, ids included, so a surface id alone does not
name one surface; a queued answer in one session must not block the other.

Revision ID: bf11cab016cd
Revises: 07c8e7403ddb
Create Date: 2026-11-29 21:31:54.532717
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "bf11cab016cd"
down_revision: str | Sequence[str] | None = "07c8e7403ddb"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbox_items", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_inbox_items_surface_id"), type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_inbox_items_session_id_surface_id"), ["session_id", "surface_id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("inbox_items", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_inbox_items_session_id_surface_id"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_inbox_items_surface_id"), ["surface_id"])
